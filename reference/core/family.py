"""A family of hosts that share one reader (HST-1 `family`): the owner and its members.

Why: Roo Code and the Kilo Code extension keep Cline's task folders. Each is a host of its own
(its key, its stores, its name on every answer), but the format is one, so its reader is one:
the owner's. A member package holds its key and store rows and asks the owner, through the
registry, for everything else — never a copy of the reader, never an import of another host's
package. Detection stays one row per input (HST-2): the owner says which member wrote an input
(`member_of`), and exactly that host claims it.
"""

from __future__ import annotations

from .host import Host

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .answer import Answer
    from .storetypes import Root


class Family(Host):
    """The owner of a family: its reader reads every member's files."""

    def member_of(self, path: str, is_dir: bool, head: bytes) -> str | None:
        """HST-2: the key of the family's host that wrote this input, or None (not the family's)."""
        return None

    def count_as(
        self,
        member: str,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """The answer for an input read as the family's host `member` wrote it."""
        raise NotImplementedError

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        return self.member_of(path, is_dir, head) == self.key

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        return self.count_as(
            self.key, path, session=session, readable=readable, with_title=with_title
        )


class Member(Host):
    """A host of a family (`family` names the owner): own key and stores, the owner's reader."""

    def owner(self) -> Family:
        from .registry import get

        host = get(self.family)
        if not isinstance(host, Family):  # a hosts.toml row naming a host that owns no family
            raise TypeError(f"{self.key}: family {self.family!r} is no family's owner")
        return host

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        return self.owner().member_of(path, is_dir, head) == self.key

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        return self.owner().count_as(
            self.key, path, session=session, readable=readable, with_title=with_title
        )

    def anonymize_policy(self) -> Any:
        return self.owner().anonymize_policy()


def rehosted(source: str, host: str) -> Callable[[Mapping[str, str], str, str], list[Root]]:
    """A finder giving the base folders of host `source` as `host`'s own: an editor extension
    (Cline, Roo Code, the Kilo extension) keeps its store in VS Code's user data folders, found
    by VS Code's own rows (through the registry, never by importing that host's package)."""

    def finder(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
        from .registry import get
        from .storetypes import Root

        found: list[Root] = []
        for base in get(source).stores()[0]:
            if base.finder is not None:
                found += [Root(host, r.path, r.via) for r in base.finder(env, platform, home)]
        return found

    return finder
