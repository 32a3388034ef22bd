"""The plan of a basic-agent-chat-loop session folder, and the answer it calls for
(spec/hosts/basic-agent-chat-loop.md, BCL-4, BCL-6).

A plan lists the sessions the loop starts, compacts, resumes, and what was done to the folder
afterwards (a deleted or damaged file, an edited link, an extra file). `expected` reads the plan
alone: which steps restored which session, which files the plan deleted or damaged; the writer
(`writer.py`) never decides it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AGENT = "Helper"  # the agent's name in every generated session (its files' id prefix)


@dataclass(frozen=True)
class ChatStart:
    """A new loop process (`chat_loop AGENT`): a fresh session `label`, or with `resume` the
    restoration of that earlier session at start (`--resume`), which is session `label`."""

    label: str
    resume: str | None = None
    agent: str = AGENT


@dataclass(frozen=True)
class ChatAsk:
    """One query and its answer, saved at once (1.6.5+); `quote` pastes a `QUOTES` text."""

    quote: str | None = None


@dataclass(frozen=True)
class ChatCompact:
    """`#compact`: the running session is saved with a summary and restored as `label`.

    `done=False`: the summary failed (`fails="summary"`: no markers, nothing new) or the
    restoration prompt raised after the save (`fails="restore"`); the loop goes on in the same
    session. `same_second`: the restoration ends within the second the running session's id was
    minted, so the new session gets the same id (BCL-6 (5)).
    """

    label: str = ""
    done: bool = True
    fails: Literal["summary", "restore", "extract"] = "summary"
    same_second: bool = False


@dataclass(frozen=True)
class ChatResume:
    """`#resume N` in a running loop: the earlier session `parent` is restored as `label`."""

    parent: str
    label: str


@dataclass(frozen=True)
class ChatExit:
    """The loop ends: a final save; with a summary unless `summary=False` (it failed)."""

    summary: bool = True


@dataclass(frozen=True)
class ChatDelete:
    """The user deletes the file of session `label` afterwards (BCL-6 (1))."""

    label: str


@dataclass(frozen=True)
class ChatRelink:
    """An edit afterwards: restored session `label`'s file is made to name `parent` instead."""

    label: str
    parent: str


Damage = Literal[
    "outside",
    "disagree",
    "other-id",
    "not-session",
    "empty",
    "bom",
    "nul",
    "cut",
    "no-agent",
    "retitled",
    "header-64",
    "bare-path",
    "wide-header",
    "latin1",
    "one-line",
    "no-blank",
    "section-only",
    "dup-key",
    "nbsp-parent",
]


@dataclass(frozen=True)
class ChatDamage:
    """An edit afterwards to the file of `label`: `outside` its parent id becomes a path out of
    the folder (BCL-6 (3)); `disagree` its section names another id (BCL-6 (4)); `other-id` its
    header's session id is changed (BCL-6 (2)); `not-session` its title line is removed; `empty`
    it is cut to nothing (a full disk, BCL-6 (2)); `bom` an editor saved it with a byte order
    mark first, which changes nothing (BCL-1); `nul` its parent id holds a NUL byte (BCL-6
    (3)); `cut` it ends right after the header's `---` line (a save cut short), so a restored
    one has no section (BCL-6 (4)) and another one stays a session with none; `no-agent` its
    `**Agent:**` line is removed and `retitled` its title loses ` Conversation` (no session
    either way, BCL-1); `header-64` blank lines put its `---` on line 64, the last the header
    may end on (BCL-1); `bare-path` its previous-session path is the bare file name (BCL-3):
    these two change nothing; `wide-header` two 40,000-byte lines make its header longer than
    64 KiB (no session, BCL-1); `latin1` a line saved as Latin-1 is appended, whose byte is no
    UTF-8 (read as U+FFFD, BCL-1): nothing changes; `one-line` it is replaced by one line
    longer than the 128 KiB read (no session, BCL-1, BCL-7); `no-blank` the blank line after
    its `---` is removed, `section-only` it ends with its first section's third line (a save
    cut short), `dup-key` a second `**Session ID:**` line follows the first, which wins (BCL-1,
    BCL-3): these three change nothing; `nbsp-parent` a no-break space ends its header's parent
    id, which only spaces and tabs are stripped of (BCL-1), so its section disagrees (BCL-6 (4))."""

    label: str
    kind: Damage


@dataclass(frozen=True)
class ChatExtra:
    """A file of the folder that no session wrote (notes, a README): `name`, `data`."""

    name: str
    data: bytes


ChatStep = (
    ChatStart
    | ChatAsk
    | ChatCompact
    | ChatResume
    | ChatExit
    | ChatDelete
    | ChatRelink
    | ChatDamage
    | ChatExtra
)


@dataclass(frozen=True)
class ChatPlan:
    """A session folder of one era and the session asked about (`ask`: a label, or the name
    of a `ChatExtra` file). `windows`: written on Windows (CRLF, `C:\\` paths)."""

    era: str
    steps: tuple[ChatStep, ...] = field(default=())
    ask: str = ""
    windows: bool = False
    seed: int = 1


def expected(plan: ChatPlan) -> tuple[str, int | str]:
    """("count", n) or ("reject", code) for the asked session, from the plan's steps alone.

    BCL-4: each restoration adds one to its parent's count; BCL-6: a deleted or damaged link,
    a link out of the folder, a file reached twice (a same-second overwrite, an edited cycle)
    cannot be walked.
    """
    parent: dict[str, str | None] = {}
    file_of: dict[str, str] = {}  # label -> the file it is saved in (a label of that file)
    owner: dict[str, str] = {}  # file -> the label whose session the file holds now
    damage: dict[str, str] = {}
    deleted: set[str] = set()
    extras = {step.name: step.data for step in plan.steps if isinstance(step, ChatExtra)}
    current: str | None = None
    for step in plan.steps:
        if isinstance(step, ChatStart):
            current = step.label
            parent[current] = step.resume
            file_of[current] = current
            owner[current] = current
        elif isinstance(step, ChatCompact) and step.done and current is not None:
            new = step.label
            parent[new] = current
            file_of[new] = file_of[current] if step.same_second else new
            owner[file_of[new]] = new
            current = new
        elif isinstance(step, ChatResume):
            current = step.label
            parent[current] = step.parent
            file_of[current] = current
            owner[current] = current
        elif isinstance(step, ChatDelete):
            deleted.add(file_of[step.label])
        elif isinstance(step, ChatRelink):
            parent[step.label] = step.parent
        elif isinstance(step, ChatDamage):
            damage[file_of[step.label]] = step.kind
    if plan.ask in extras:  # BCL-1: an empty file, or a markdown file of no session
        return ("reject", "E-HOST" if extras[plan.ask] else "E-EMPTY")
    seen: set[str] = set()
    key = file_of[plan.ask]
    hops = 0
    while True:
        if key in seen:
            return ("reject", "E-CHAIN")  # BCL-6 (5)
        seen.add(key)
        label = owner[key]
        kind = damage.get(key)
        if kind in ("not-session", "no-agent", "retitled", "wide-header", "one-line"):
            return ("reject", "E-HOST" if hops == 0 else "E-CHAIN")
        if kind == "empty":  # BCL-1, ERR-1 for the asked file; BCL-6 (2) for a parent
            return ("reject", "E-EMPTY" if hops == 0 else "E-CHAIN")
        if kind == "other-id" and hops > 0:
            return ("reject", "E-CHAIN")  # BCL-6 (2)
        up = parent[label]
        if up is None:
            return ("count", hops)
        if kind in ("outside", "disagree", "nul", "cut", "nbsp-parent"):
            return ("reject", "E-CHAIN")  # BCL-6 (3), (4)
        key = file_of[up]
        if key in deleted:
            return ("reject", "E-CHAIN")  # BCL-6 (1)
        hops += 1
