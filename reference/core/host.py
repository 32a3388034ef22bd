"""The host interface: everything a command may ask of a host, in one object.

Why one interface: every command (count, explain, `count --session`, sessions, whoami, smoke,
anonymize, the benchmarks) must serve every host the same way. A command that asks "which host
is this?" and picks a reader itself is the bug that made `sessions` count Claude Code with pi's
reader. So a host is one package, `reference/hosts/<module>/`, whose `HOST` is an instance of a
`Host` subclass, and one row of `spec/hosts.toml`; `registry.py` builds the table from both.
A command asks the registry (`detect`, `get`, `hosts`) and then the host; it never names one.

`__init__.py` of a host package stays light (it is imported for detection on every count); its
reader, fast path and store code are imported inside the methods that need them.

Families (HST-1): a host whose program is a fork of another's and writes the same format is a
*member* of that host's *family*, never a copy of its reader. Its row of `spec/hosts.toml` names
the owner (`family = "<owner key>"`) and its `HOST` is a `Member`: the owner's reader counts its
sessions, and the answer is then given the member's own name, version and era (`relabel`);
store lookups and the anonymize policy are the owner's too, while the member keeps its own
stores, identity and detection marks. Hosts import the core, never each other, so a member
reaches its owner through the registry (`owner()`). Which member wrote an input is told by
marks (HST-2): the owner reads the input once (`family_evidence`), every host of the family
judges that reading by its own writer's marks (`marks`), and `family_claims` lets exactly one
of them claim it; when none or several fit, the input is rejected with `E-HOST` (HST-4): a
file the content cannot attribute never gets a made-up host. Kilo is opencode's member
(spec/hosts/kilo.md); Roo Code and the Kilo Code extension are Cline's. `Member` and
`family_claims` live in `family.py`, which asks the registry (the registry imports this module).
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
    # HST-2: the order in which hosts are asked (`detect_rank`). Every row is asked and one
    # alone may fit, so the order decides nothing; it orders E-HOST's nearest hosts (HST-4).
    rank: int = 0
    # HST-2: the host whose rules judge a file no row claims before its first value is an object
    # (no value, not JSON, not an object): VS Code's (ERR-1, ERR-3, ERR-4), keeping 2.0's answers.
    fallback: bool = False
    # HST-1: the key of the host whose reader this host shares (spec/hosts.toml `family`): its
    # files are that family's format, read by the owner's reader under this host's own key;
    # "" for a host that reads its own (an owner, or a host of no family).
    family: str = ""
    # Environment variables that move this host's stores, named in `count --session`'s hint.
    store_variables: tuple[str, ...] = ()
    # Its kind of input, for people (`smoke`'s row for the host).
    input_label: str = "session"
    # WHO-1: how a process this host starts learns its own session (`whoami`, `hook`).
    identity: Identity = Identity(how="no known way for this host")

    # HST-2 claims by marks: each row says yes only to what its host's writer leaves and no
    # other writer does, because detection asks every row and a file that two rows fit, or
    # none, is E-HOST (HST-4). A row never claims by shape alone ("any `.json`", "any object
    # with a `uuid`"): a neighbour's file would then be counted by this host's rules.

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2's rows decided before any JSON value: a folder, a suffix with the marks its
        prefix shows (`.md`; `.json`, through `core.peek.prefix_view`), a magic number.

        `head` is at most the first `peek.PEEK` bytes of a file (b"" for a folder).
        """
        return False

    def claims_value(self, value: dict[str, Any]) -> bool:
        """This host's HST-2 row on the file's first JSON value (an object)."""
        return False

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4's hint: when `value` (a first JSON value, or what the prefix shows of a `.json`
        document) carries some of this host's marks but not all of them, what is missing
        ("no string `userType`"), for the E-HOST line; None when it is nothing like this
        host's files. Never decides anything: only `claims_*` do."""
        return None

    def family_evidence(self, path: str, is_dir: bool, head: bytes) -> Any:
        """A family owner's one reading of an input its family may have written, for every
        member's `marks`; None when the input is none of the family's kind (HST-2)."""
        return None

    def marks(self, evidence: Any) -> bool:
        """Whether the owner's reading `evidence` shows what only this host's writer leaves."""
        return False

    def count_as(
        self,
        member: str,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """A family owner's answer for an input read as its family's host `member` wrote it
        (HST-3: a named host reads it as its own). By default the owner's own count: a family
        whose members share every rule (opencode's) needs no more."""
        return self.count(path, session=session, readable=readable, with_title=with_title)

    def relabel(self, answer: Answer) -> Answer:
        """A family's answer under this host's own name, version and era (the owner's own
        answers are already its own)."""
        return answer

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
