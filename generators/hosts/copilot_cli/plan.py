"""A Copilot CLI session as a plan: its steps in order, the fork it copies, and its count.

The expectation comes from the plan alone (spec/hosts/copilot-cli.md): the applied compactions
of the main agent (CPL-3) among the steps a rewind left in the file (CPL-8), never a
sub-agent's (CPL-5) and never the copied parent's (CPL-6, RBT-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# How a compaction ends (CPL-3, CPL-4): `applied` (success, a summary: the one that counts),
# `failed` (success false, the summary request failed), `cancelled` (P2: outcome cancelled;
# P1: an Escape during /compact, success false), `lone` (a start and nothing more: a background
# pass cancelled, or a process that ended during it), `empty` (success true, no summary).
ENDS = ("applied", "failed", "cancelled", "lone", "empty")


@dataclass(frozen=True)
class Prompt:
    """One user message and the agent's turn (`tools` shell calls before its answer)."""

    text: str
    tools: int = 0


@dataclass(frozen=True)
class Compact:
    """A compaction of the main agent, or of a sub-agent inside `SubAgent`.

    `trigger`: `manual` (/compact, `focus` its text) or `threshold` (background: with `during`
    the turn's records are written between the start and the complete)."""

    end: str = "applied"
    trigger: str = "manual"
    focus: str | None = None
    during: Prompt | None = None

    def __post_init__(self) -> None:
        assert self.end in ENDS, self.end


@dataclass(frozen=True)
class Resume:
    """The process exits (`session.shutdown`); a second process resumes (`session.resume`)."""


@dataclass(frozen=True)
class SubAgent:
    """The task tool runs a sub-agent: its events, compactions included, carry `agentId`."""

    compactions: tuple[Compact, ...] = ()


@dataclass(frozen=True)
class Truncate:
    """`session.truncation`: messages dropped without a summary (CPL-4)."""


@dataclass(frozen=True)
class Cleared:
    """`session.context_cleared` and a `session.handoff`: no compaction (CPL-4)."""


@dataclass(frozen=True)
class ForkNote:
    """The source's own note that it was forked into another session (CPL-6): marks no copy."""


@dataclass(frozen=True)
class Rewind:
    """`/rewind` to the `to`-th prompt of the file (1-based): that prompt and every event after
    it are removed from the file, the rewinding process's resume is kept (CPL-8)."""

    to: int


@dataclass(frozen=True)
class Garbage:
    """A line that does not parse (`JSV-3`), or with `glued` the next step's events glued to
    the event before them on one line (`JSV-1`)."""

    glued: bool = False


Step = Prompt | Compact | Resume | SubAgent | Truncate | Cleared | ForkNote | Rewind | Garbage


@dataclass(frozen=True)
class CopilotPlan:
    """A Copilot CLI session in one era (spec/hosts.toml: `P0`, `P1`, `P2`).

    `parent`: the session this one is a `/fork` of (its file is copied first, CPL-6), `mark`:
    whether the fork's `session.info` is written (a fork that crashed before it has none),
    `torn`: the file ends inside a half-written event (JSV-2), `seed`: the ids and texts."""

    era: str
    steps: tuple[Step, ...] = field(default=())
    parent: CopilotPlan | None = None
    mark: bool = True
    torn: bool = False
    seed: int = 1


def surviving(steps: tuple[Step, ...]) -> list[Step]:
    """The steps whose events are still in the file after its rewinds (CPL-8).

    A rewind to the k-th prompt drops that prompt and every step after it (among the steps
    still there), then stays itself: its own events are written after the cut."""
    kept: list[Step] = []
    for step in steps:
        if isinstance(step, Rewind):
            prompts = [i for i, s in enumerate(kept) if isinstance(s, Prompt)]
            assert 1 <= step.to <= len(prompts), "a rewind names a prompt of the file"
            del kept[prompts[step.to - 1] :]
        kept.append(step)
    return kept


def own_applied(plan: CopilotPlan) -> int:
    """CPL-3: the main agent's applied compactions still in the file."""
    return sum(1 for s in surviving(plan.steps) if isinstance(s, Compact) and s.end == "applied")


def inherited_applied(plan: CopilotPlan) -> int:
    """CPL-6: the applied compactions a fork copied, its parent's whole file included."""
    if plan.parent is None:
        return 0
    return own_applied(plan.parent) + inherited_applied(plan.parent)


def expected_reboots(plan: CopilotPlan) -> int:
    """The normative count of the plan's own file (CPL-3, CPL-6: copies only when marked)."""
    own = own_applied(plan)
    return own if plan.mark else own + inherited_applied(plan)


def rewound(plan: CopilotPlan) -> bool:
    """CPL-8: the file holds an own rewind note (P2 writes one)."""
    return plan.era == "P2" and any(isinstance(s, Rewind) for s in plan.steps)
