"""Plans of opencode sessions: what happened in a store, in order; the count comes from here.

A store (a database or a storage folder) holds sessions; one of them is the case's session.
A session plan lists its own steps (prompts, compactions and how each one ended, prunes, a
subagent's task), the session it was forked from, and the damage done to the store afterwards.
`expected_reboots` reads the plan alone: one reboot per compaction of the selected session
that ended with a summary opencode cut the history at (OPC-4..OPC-7), never a copied one
(OPC-9), never a child session's (OPC-10).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Era = Literal["O0", "O1", "O2", "O3", "K0", "K1"]
# opencode's family (spec/hosts/kilo.md): Kilo writes opencode's database under its own name, so
# a Kilo era is played as the opencode era whose database it writes, with Kilo's differences
# (its release in `version`, its agent `code`, from K1 its own tables; `writer.py`).
FAMILY_BASE = {"K0": "O2", "K1": "O3"}
KILO_ERAS = frozenset(FAMILY_BASE)
Outcome = Literal["done", "failed", "aborted", "aborted-empty", "cut-short"]
Damage = Literal["none", "truncated", "not-a-database", "torn-json", "wal-only", "wal-torn"]


@dataclass(frozen=True)
class OcPrompt:
    """A user prompt, `tools` bash calls with their outputs, the answer."""

    tools: int = 1


@dataclass(frozen=True)
class OcCompact:
    """One compaction (`/compact` is `manual`; `auto` when the context overflowed).

    `outcome`: `done`; `failed` (an HTTP error on the summary: the summary keeps its `error`;
    with `rerun` the next prompt runs the summary again, parented on that plain prompt, and
    it replaces nothing, OPC-6); `aborted` (the user stopped it after some text; O0 counts
    that, OPC-5, the pair eras do not); `aborted-empty` (stopped before any text);
    `cut-short` (the stream ended early: `finish` "unknown", no error, OPC-7)."""

    trigger: Literal["manual", "auto"] = "auto"
    outcome: Outcome = "done"
    rerun: bool = False
    overflow: bool = False


@dataclass(frozen=True)
class OcPrune:
    """`prune`: older tool outputs marked `time.compacted` (OPC-8): not a compaction."""


@dataclass(frozen=True)
class OcRevert:
    """`/undo` (the session's `revert`): back to the user message `back` prompts ago. The
    messages after it stay in the store until the next prompt deletes them (OPC-13); a plan
    ends with the revert still pending, so they are there, and they count (RBT-4)."""

    back: int = 1


@dataclass(frozen=True)
class OcTask:
    """The `task` tool: a child session (`parent_id` set) with its own steps (OPC-10)."""

    steps: tuple[OcStep, ...]


@dataclass(frozen=True)
class OcOdd:
    """Hostile rows (OPC-12): records of other JSON types and members of other types.
    `counted` of them are compactions by the chapter's rules (a truthy non-boolean
    `summary`), the rest are not."""

    counted: int = 1


OcStep = OcPrompt | OcCompact | OcPrune | OcTask | OcOdd | OcRevert


@dataclass(frozen=True)
class OcSession:
    """One session: its own steps, and the session it was forked from (OPC-9)."""

    steps: tuple[OcStep, ...] = ()
    fork_of: OcSession | None = None
    title: str = "a session"
    # The release that created it, when not the era's own (a session another member of the
    # family wrote into this store: KLO-1's near misses).
    version: str | None = None


@dataclass(frozen=True)
class OcStore:
    """A store in one era: its sessions (written in this order, each a while after the last),
    which one the case asks about (`selected`: its index; None: the case names no session;
    `child`: the child session of the selected session's first task instead), a session id
    that is in no store (`ask_missing`), and the damage done afterwards."""

    era: str  # an Era
    sessions: tuple[OcSession, ...]
    selected: int | None = 0
    ask_missing: bool = False
    child: bool = False
    damage: Damage = "none"
    seed: int = 1
    extra: tuple[str, ...] = field(default=())
    name: str | None = None  # the database's file name, when not its writer's own (a copy)


def base_era(era: str) -> str:
    """The opencode era whose files a family member's era writes (itself for opencode's)."""
    return FAMILY_BASE.get(era, era)


def completes(era: str, outcome: Outcome) -> bool:
    """Whether a compaction with this outcome left a summary opencode cut the history at."""
    if era == "O0":
        return outcome in ("done", "aborted", "cut-short")  # OPC-5: 1.0.0's own test
    return outcome in ("done", "cut-short")  # OPC-4, OPC-6, OPC-7


def own_compactions(era: str, session: OcSession) -> int:
    """The completed compactions the session made itself (not its copy, not its children)."""
    count = 0
    for step in session.steps:
        if isinstance(step, OcCompact) and completes(era, step.outcome):
            count += 1
        elif isinstance(step, OcOdd):
            count += step.counted
    return count


def all_compactions(era: str, session: OcSession) -> int:
    """Every completed compaction in the session's history, its fork source's included."""
    copied = all_compactions(era, session.fork_of) if session.fork_of is not None else 0
    return copied + own_compactions(era, session)


def expected_reboots(store: OcStore) -> int:
    """The normative count of the case's session."""
    index = 0 if store.selected is None else store.selected
    session = store.sessions[index]
    if store.child:
        task = next(step for step in session.steps if isinstance(step, OcTask))
        session = OcSession(task.steps)
    count = own_compactions(store.era, session)
    if store.damage == "wal-torn":
        count -= 1  # the last summary's finishing write was cut short in the WAL (OPC-12)
    return count


def expected_rejection(store: OcStore) -> str | None:
    """The error code the store's content calls for, if any (OPC-11, OPC-12)."""
    if store.damage in ("truncated", "not-a-database", "torn-json"):
        return "E-READ"
    if base_era(store.era) in ("O2", "O3") and len(writers(store)) != 1:
        return "E-HOST"  # KLO-1: the rows name no member of the family, or two
    if store.ask_missing or (store.selected is None and len(store.sessions) != 1):
        return "E-SESSION"
    return None


def writers(store: OcStore) -> set[str]:
    """KLO-1: the members of opencode's family whose marks the plan's database carries: each
    session's release (Kilo's 7.x, opencode's 0.x and 1.x; another, such as a development
    build's, marks none), and Kilo's own tables from K1."""
    found = {"kilo"} if store.era == "K1" else set()
    for session in store.sessions:
        for release in _releases(store.era, session):
            major = release.split(".", 1)[0]
            if major.isdigit():
                found.add("kilo" if int(major) >= 7 else "opencode")
    return found


def _releases(era: str, session: OcSession) -> list[str]:
    """The versions of a session and of the sessions its tasks start (each their own row)."""
    own = session.version or ("7" if era in KILO_ERAS else "1")
    found = [own]
    for step in session.steps:
        if isinstance(step, OcTask):
            found += _releases(era, OcSession(step.steps, version=session.version))
    return found
