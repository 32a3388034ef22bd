"""The plan of a pi session: what happened, in order; the count comes from here.

A plan lists the session's own entries (exchanges, compactions, tree navigation), the copy it
started from (a fork, a format 1 branch), and damage done to the file afterwards. The writer
(`writer.py`) turns a plan into bytes; `expected_reboots` reads the plan alone: one reboot per
completed compaction of the session's own entries (RBT-1), on every branch (RBT-4, PIA-6),
never one of the copy (RBT-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..common import Deep


@dataclass(frozen=True)
class Exchange:
    """A user prompt, the assistant's tool calls and results, the answer."""

    tools: int = 1
    bash: bool = False  # a `!command` the user ran (role bashExecution)


@dataclass(frozen=True)
class PiCompact:
    """One compaction entry (PIA-3). Manual and automatic write the same entry; `trigger`
    only changes what happens around it (an overflowed assistant message before an automatic
    one). `done=False`: cancelled or failed, nothing written. `glued`: its value shares a line
    with the previous entry (PIA-7). `summary` fixes the text (two compactions may share it)."""

    trigger: Literal["manual", "auto"] = "auto"
    done: bool = True
    from_hook: bool = False
    glued: bool = False
    summary: str | None = None


@dataclass(frozen=True)
class Extras:
    """Entries that are not compactions (PIA-4): model and thinking changes, extension data,
    a label, the session name, an extension message."""


@dataclass(frozen=True)
class Navigate:
    """`/tree`: the user goes back `back` entries; the next entry's parent is that earlier
    entry, so what follows it is an abandoned branch kept in the file (PIA-6). With
    `summary`, pi writes a `branch_summary` of the branch left (PIA-4)."""

    back: int
    summary: bool = True


@dataclass(frozen=True)
class PiGarbage:
    """A line that does not parse, followed by LF (JSV-3, PIA-9)."""


PiStep = Exchange | PiCompact | Extras | Navigate | PiGarbage | Deep


@dataclass(frozen=True)
class PiCopy:
    """The session starts as a copy of another (PIA-5): `fork` (format 2+, `parentSession`,
    all entries or a path copied verbatim) or format 1's branch (`branchedFrom`)."""

    parent: PiPlan


@dataclass(frozen=True)
class PiPlan:
    """A pi session in one format (`v1`, `v2`, `v3`); `migrated`: written in format 1, then
    rewritten as format 3 by a newer pi (PIA-8). `torn`: ends in a half-written entry."""

    era: str
    steps: tuple[PiStep, ...] = field(default=())
    copy: PiCopy | None = None
    migrated: bool = False
    torn: bool = False
    seed: int = 1


def pi_own_compactions(plan: PiPlan) -> int:
    """The completed compactions this session wrote, on every branch (PIA-3, PIA-6)."""
    return sum(1 for step in plan.steps if isinstance(step, PiCompact) and step.done)


def expected_reboots(plan: PiPlan) -> int:
    """The normative count of the plan's own file: its own completed compactions (PIA-3)."""
    return pi_own_compactions(plan)
