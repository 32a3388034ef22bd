"""The host interface: everything a command may ask of a host, in one object.

Why one interface: every command (count, explain, `count --session`, sessions, whoami, smoke,
anonymize, the benchmarks) must serve every host the same way. A command that asks "which host
is this?" and picks a reader itself is the bug that made `sessions` count Claude Code with pi's
reader. So a host is one package, `reference/hosts/<module>/`, whose `HOST` is an instance of a
`Host` subclass, and one row of `spec/hosts.toml`; `registry.py` builds the table from both.
A command asks the registry (`detect`, `get`, `hosts`) and then the host; it never names one.

`__init__.py` of a host package stays light (it is imported for detection on every count); its
reader, fast path and store code are imported inside the methods that need them.
"""

from __future__ import annotations

from .identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .answer import Answer
    from .storetypes import Base, Store


class Host:
    """One host of HST-1. Subclasses override what applies to them; the defaults say "no"."""

    key: str = ""  # the key of spec/hosts.toml (a case's `host`)
    name: str = ""  # for people: "OpenAI Codex CLI"
    chapter: str = ""  # spec/hosts/<chapter>.md, relative to spec/
    rank: int = 0  # HST-2: the order in which hosts are asked (`detect_rank`)
    # HST-2: the host whose rules judge a file no row claims before its first value is an object
    # (no value, not JSON, not an object): VS Code's (ERR-1, ERR-3, ERR-4), keeping 2.0's answers.
    fallback: bool = False
    # HST-1: the key of the host whose reader this host shares (spec/hosts.toml `family`): its
    # files are that family's format, read by the owner's reader under this host's own key.
    family: str = ""
    # Environment variables that move this host's stores, named in `count --session`'s hint.
    store_variables: tuple[str, ...] = ()
    # Its kind of input, for people (`smoke`'s row for the host).
    input_label: str = "session"
    # WHO-1: how a process this host starts learns its own session (`whoami`, `hook`).
    identity: Identity = Identity(how="no known way for this host")

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2's rows decided before any JSON value: a folder, a suffix, a magic number.

        `head` is at most the first `registry.PEEK` bytes of a file (b"" for a folder).
        """
        return False

    def claims_value(self, value: dict[str, Any]) -> bool:
        """This host's HST-2 row on the file's first JSON value (an object)."""
        return False

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """The answer for one session (raises Rejection, ERR-*): a file, a chain from a file,
        or the session `session` of a store. `readable` forbids the fast path; `with_title`
        asks the reader to note the session's title on the same pass (`Answer.title`)."""
        raise NotImplementedError

    def count_store(self, path: str) -> list[tuple[str, str, Answer | Exception]]:
        """(id, title, answer or why not) of every session of a store, the store read once."""
        found: list[tuple[str, str, Answer | Exception]] = []
        for ident, title in self.sessions_in(path):
            try:
                found.append((ident, title, self.count(path, session=ident)))
            except Exception as error:  # the caller shows it on that session's row
                found.append((ident, title, error))
        return found

    def is_store(self, path: str) -> bool:
        """Whether `path` holds many sessions, so that a session id must be named (ERR-15)."""
        return False

    def sessions_in(self, path: str) -> list[tuple[str, str]]:
        """(id, title) of every session a store holds, read once (OPC-11)."""
        return []

    def session_ids(self, path: str, name_id: str) -> tuple[str, ...]:
        """Every id the file at `path` answers to: by default the id its name carries."""
        return (name_id,)

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        """Its rows of the store table (spec/STORES.md): base folders and session folders."""
        return (), ()

    def anonymize_policy(self) -> Any:
        """What of its files is structure and what is a person's text (generators' anonymizer)."""
        return None

    def __repr__(self) -> str:
        return f"<host {self.key}>"
