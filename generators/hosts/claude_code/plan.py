"""The plan of a Claude Code transcript: what happened, in order; the count comes from here.

A plan lists the transcript's records (turns, compactions, microcompactions, title rows,
sidechains, re-appended records), the `/branch` copy it started from, and damage done to the
file afterwards. The writer (`writer.py`) turns a plan into bytes; `expected_reboots` reads the
plan alone (CLC-3, CLC-5, CLC-6, RBT-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class ClaudeTurn:
    """A user prompt, `tools` tool calls and their results, the answer (CLC-1)."""

    tools: int = 1


@dataclass(frozen=True)
class ClaudeCompact:
    """One compaction (CLC-3): `manual` (`/compact`, its command records after the summary) or
    `auto` (right after a tool result, the turn goes on). `done=False`: it failed or was
    cancelled, no boundary and no summary is written (a failed `/compact` leaves its command
    records). `glued`: the boundary shares a line with the record before it (JSV-1).
    `uuid=False`: the primary record (the boundary; in CC0 the summary) has no `uuid`, as a tool
    writing transcripts might (CLC-3: it counts on its own). `legacy`: a CC0 compaction in a
    later era's file (a CC0 session resumed by a newer CLI): the summary only, no boundary."""

    trigger: Literal["manual", "auto"] = "auto"
    done: bool = True
    glued: bool = False
    uuid: bool = True
    legacy: bool = False


@dataclass(frozen=True)
class Microcompact:
    """A `microcompact_boundary` (CC3): old tool results cleared, no summary (CLC-4)."""


@dataclass(frozen=True)
class TitleRows:
    """`summary` title rows for the resume picker (CLC-4), written where the step is."""


@dataclass(frozen=True)
class Sidechain:
    """A subagent's records written inline (`isSidechain: true`), holding a boundary and a
    summary of its own (CLC-5): not the main thread's."""


@dataclass(frozen=True)
class Reappend:
    """anthropics/claude-code#92089: the records from the first boundary up to the last one are
    written again, verbatim (same `uuid`, `parentUuid`, `timestamp`; CLC-6)."""


@dataclass(frozen=True)
class ClaudeGarbage:
    """A line that does not parse, followed by LF (JSV-3, CLC-10)."""


@dataclass(frozen=True)
class ClaudeSystemNote:
    """A `system` record of another subtype (`turn_duration`): a companion (CLC-4)."""


@dataclass(frozen=True)
class ClaudeOddType:
    """A conversation record whose `type` is an array and `subtype` an object: it names
    nothing (CLC-10)."""


ClaudeStep = (
    ClaudeTurn
    | ClaudeCompact
    | Microcompact
    | TitleRows
    | Sidechain
    | Reappend
    | ClaudeGarbage
    | ClaudeSystemNote
    | ClaudeOddType
)


@dataclass(frozen=True)
class ClaudeBranch:
    """The transcript starts as a `/branch` copy of another (CLC-6): the source's records with
    their `uuid`s, each stamped `forkedFrom`."""

    parent: ClaudePlan


@dataclass(frozen=True)
class ClaudePlan:
    """A Claude Code transcript in one era (`CC0`..`CC3`). `side_file`: the file is the
    summarizer's `agent-acompact-*` transcript (CLC-5), not a session; `titles_first`: the file
    begins with `summary` title rows; `torn`: it ends inside a half-written boundary.
    `bom_long_first`: the file begins with a BOM and its first record (a prompt with a pasted
    log) is longer than detection's first read of 64 KiB (HST-2, JSV-1)."""

    era: str
    steps: tuple[ClaudeStep, ...] = field(default=())
    copy: ClaudeBranch | None = None
    side_file: bool = False
    titles_first: bool = False
    torn: bool = False
    seed: int = 1
    bom_long_first: bool = False


def claude_own_compactions(plan: ClaudePlan) -> int:
    """The completed compactions of the main thread this file wrote itself (CLC-3, CLC-5):
    a side file's are none, a branch's copied ones are the source's (RBT-3), and a re-appended
    boundary is the same compaction (CLC-6)."""
    if plan.side_file:
        return 0
    done = [step for step in plan.steps if isinstance(step, ClaudeCompact) and step.done]
    with_boundary = [step for step in done if plan.era != "CC0" and not step.legacy]
    # CLC-7: a file with a boundary counts its boundaries only (a resumed CC0 session's older
    # summaries are a lower bound's loss); a file with none counts its flagged summaries.
    return len(with_boundary) if with_boundary else len(done)


def expected_reboots(plan: ClaudePlan) -> int:
    """The normative count of the plan's own file: its own completed compactions."""
    return claude_own_compactions(plan)
