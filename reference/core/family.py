"""Families of hosts (HST-1, HST-2): a member reads through its owner; marks say who wrote it.

The relation is described in `host.py` (the interface: `Host.family`, `family_evidence`,
`marks`, `count_as`); this module holds what needs the registry to find a family's hosts:
`family_claims` (HST-2 for the hosts of one family), `Member` (a host that counts with its
owner's reader) and `rehosted` (a member's stores found by another host's rows). Two families
use it: opencode's (Kilo Code CLI, spec/hosts/kilo.md) and Cline's (Roo Code and the Kilo Code
extension, spec/hosts/cline.md).
Apart from `host.py` because the registry imports `host.py`: the registry is asked here, at
run time, and never imports this module.
"""

from __future__ import annotations

from . import registry
from .errors import E_HOST, Rejection
from .host import Host

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .answer import Answer
    from .storetypes import Root


def family_claims(host: Host, path: str, is_dir: bool, head: bytes) -> bool:
    """HST-2 for the hosts of one family: whether `host` is the one whose marks the input
    carries. Raises E-HOST (HST-4) when the owner's reading fits no host of the family or
    several: the content cannot tell which program wrote it."""
    writer = _writer(host, path, is_dir, head)
    return writer is host


def family_member(host: Host, path: str) -> Host:
    """The host of `host`'s family that wrote the store at `path`, by its marks (E-HOST when
    none or several): what `sessions` labels a store's answers with, wherever the store lies
    (the content has the last word). `host` itself for what is none of the family's kind."""
    from .files import open_regular

    try:
        with open_regular(path) as stream:
            head = stream.read(64)
    except (OSError, Rejection):
        return host  # its reader says what is wrong with it (ERR-12)
    return _writer(host, path, False, head) or host


def _writer(host: Host, path: str, is_dir: bool, head: bytes) -> Host | None:
    owner = registry.get(host.family) if host.family else host
    evidence = owner.family_evidence(path, is_dir, head)
    if evidence is None:
        return None
    kin = [h for h in registry.by_rank() if h is owner or h.family == owner.key]
    fits = [h for h in kin if h.marks(evidence)]
    if len(fits) == 1:
        return fits[0]
    if fits:
        why = "carries the marks of " + " and ".join(h.name for h in fits)
    else:
        why = "carries the marks of none of " + ", ".join(h.name for h in kin)
    raise Rejection(0, E_HOST, f"a store of {owner.name}'s family that {why}")


class Member(Host):
    """A host of another host's family (see the module's docstring): the owner's reader, store
    lookups and anonymize policy, under this host's own name; its own detection marks (`marks`),
    stores and identity. Subclasses say their marks and their eras (`relabel`)."""

    def owner(self) -> Host:
        """The family's owner, from the registry (hosts never import each other)."""
        return registry.get(self.family)

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        return family_claims(self, path, is_dir, head)

    def relabel(self, answer: Answer) -> Answer:
        """The owner's answer under this host's name; a subclass also sets its era."""
        answer.host = self.key
        return answer

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        answer = self.owner().count_as(
            self.key, path, session=session, readable=readable, with_title=with_title
        )
        return self.relabel(answer)

    def count_store(self, path: str) -> list[tuple[str, str, Answer | Exception]]:
        """The owner's listing: it labels each answer with the member the store's content
        names (`family_member`), whichever member's folder the store was found in."""
        return self.owner().count_store(path)

    def is_store(self, path: str) -> bool:
        return self.owner().is_store(path)

    def sessions_in(self, path: str) -> list[tuple[str, str]]:
        return self.owner().sessions_in(path)

    def session_ids(self, path: str, name_id: str) -> tuple[str, ...]:
        return self.owner().session_ids(path, name_id)

    def anonymize_policy(self) -> Any:
        return self.owner().anonymize_policy()


def rehosted(source: str, host: str) -> Callable[[Mapping[str, str], str, str], list[Root]]:
    """A finder giving the base folders of host `source` as `host`'s own: an editor extension
    (Cline, Roo Code, the Kilo extension) keeps its store in VS Code's user data folders, found
    by VS Code's own rows (through the registry, never by importing that host's package)."""

    def finder(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
        from .storetypes import Root

        found: list[Root] = []
        for base in registry.get(source).stores()[0]:
            if base.finder is not None:
                found += [Root(host, r.path, r.via) for r in base.finder(env, platform, home)]
        return found

    return finder
