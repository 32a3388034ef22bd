"""The plan of a Codex thread: what happened, in order; the count comes from here.

A plan lists the thread's own events (turns, compactions and how each one ended, manual or
automatic, rollbacks, resumes), the copy it started from (a fork, a subagent), and damage done
to the file afterwards (a torn tail, a bad line, glued records). The writer (`writer.py`) turns
a plan into bytes; `expected_reboots` reads the plan alone: one reboot per completed compaction
of the thread's own log (RBT-1), wherever it sits (RBT-4: rolled back still counts), never one
of the copy (RBT-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..common import Deep

Kind = Literal["local", "remote"]
When = Literal["pre", "mid"]


@dataclass(frozen=True)
class Compact:
    """One automatic compaction inside a user turn (CDX-9): before its user message or mid-turn.

    `done=False` is a compaction that failed (context-window error, exhausted retries): Codex
    returns before the `compacted` line, so nothing of it reaches the file (CDX-3).
    `glued` writes its line with no LF before it (JSV-1); `huge` gives it a long new history.
    """

    kind: Kind = "local"
    when: When = "mid"
    done: bool = True
    glued: bool = False
    huge: bool = False


@dataclass(frozen=True)
class Turn:
    """A user turn: its message, `tools` tool calls, an answer; compactions where they say."""

    tools: int = 1
    compactions: tuple[Compact, ...] = ()
    aborted: bool = False  # the user interrupted the turn (`turn_aborted`), e.g. mid-compaction


@dataclass(frozen=True)
class Manual:
    """`/compact` (or `thread/compact/start`): a turn of its own with no user message (CDX-9).

    `done=False`: the user interrupted it; `task_started` then `turn_aborted`, no `compacted`.
    """

    kind: Kind = "local"
    done: bool = True


@dataclass(frozen=True)
class Rollback:
    """`thread/rollback`: one `thread_rolled_back` event; nothing is removed (CDX-6)."""

    turns: int = 1


@dataclass(frozen=True)
class Resume:
    """The thread is resumed later and appends to the same file (CDX-7)."""

    hours: float = 20.0


@dataclass(frozen=True)
class Garbage:
    """A line that does not parse, followed by LF (JSV-3): a record cut short by an editor."""


@dataclass(frozen=True)
class OddCompacted:
    """`compacted` records whose payload is not an object (a string, an array): not compactions
    (CDX-3), skipped like any record Codex cannot deserialise (JSV-3)."""


@dataclass(frozen=True)
class ThirdParty:
    """What other tools write beside Codex's records: an `item_completed` event carrying a
    ContextCompaction item and a top-level `response_item` of type `compaction` (CDX-4)."""


@dataclass(frozen=True)
class Copy:
    """The thread starts from another one (CDX-5): `fork` (`thread/fork`) or `subagent`
    (`spawn_agent` with the parent's context). C1-C4 copy the parent's whole rollout; C5 marks
    a subagent's copy with ordinals and a fork copies nothing (`history_base`).
    `same_second`: the subagent's first own turn starts within the copy's second."""

    parent: CodexPlan
    how: Literal["fork", "subagent"] = "fork"
    same_second: bool = False


@dataclass(frozen=True)
class Freeform:
    """A user turn whose edit goes through the free-form `apply_patch` tool: a
    `custom_tool_call` and its output, which 0.34.0 already wrote (no mark, CDX-8); `ghost`
    puts the turn's `ghost_snapshot` item (the `/undo` commit, 0.53.0 on: a mark) before it."""

    ghost: bool = False


CodexStep = (
    Turn | Manual | Rollback | Resume | Garbage | OddCompacted | ThirdParty | Deep | Freeform
)


@dataclass(frozen=True)
class CodexPlan:
    """A Codex thread in one era (spec/hosts.toml): its copy, then its own steps, then damage.

    `version` is the CLI version the model writes (`session_meta.cli_version`; None: absent,
    the envelope's first days). `torn`: the file ends inside a half-written `compacted` line.
    `legacy`: the pre-envelope C0 format (CDX-1).
    """

    era: str
    steps: tuple[CodexStep, ...]
    version: str | None = None
    copy: Copy | None = None
    torn: bool = False
    legacy: bool = False
    seed: int = 1


def codex_own_compactions(plan: CodexPlan) -> int:
    """The completed compactions this thread wrote itself (RBT-1, RBT-4; not the copy, RBT-3)."""
    count = 0
    for step in plan.steps:
        if isinstance(step, Turn):
            count += sum(1 for c in step.compactions if c.done)
        elif isinstance(step, Manual) and step.done:
            count += 1
    return count


def codex_all_compactions(plan: CodexPlan) -> int:
    """Every completed compaction of the thread's history, its ancestors' included."""
    inherited = codex_all_compactions(plan.copy.parent) if plan.copy else 0
    return inherited + codex_own_compactions(plan)


def expected_reboots(plan: CodexPlan) -> int:
    """The normative count of the plan's own file: its own completed compactions (CDX-3)."""
    return codex_own_compactions(plan)
