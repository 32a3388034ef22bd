"""The Copilot CLI scenarios (spec/hosts/copilot-cli.md): one plan per era each applies to.

Each scenario's title says what a person reads off the plan; the count is the plan's
(`plan.expected_reboots`), never a counter's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    Cleared,
    Compact,
    CopilotPlan,
    ForkNote,
    Garbage,
    Prompt,
    Resume,
    Rewind,
    SubAgent,
    Truncate,
)

HOST = "copilot-cli"
BASE_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "RBT-2", "CPL-1", "CPL-2", "CPL-3", "OUT-4")
MANUAL = Compact()
AUTO = Compact(trigger="threshold", during=Prompt("and the docs too", tools=1))


def _plan(*steps: Any, **options: Any) -> Callable[[str], CopilotPlan]:
    return lambda era: CopilotPlan(era=era, steps=tuple(steps), **options)


def _fork(parent: tuple[Any, ...], *steps: Any, **options: Any) -> Callable[[str], CopilotPlan]:
    """A `/fork` of a session that ran `parent` (CPL-6)."""

    def plan(era: str) -> CopilotPlan:
        source = CopilotPlan(era=era, steps=parent)
        return CopilotPlan(era=era, steps=tuple(steps), parent=source, **options)

    return plan


def _scenario(
    name: str,
    eras: tuple[str, ...],
    title: str,
    rules: tuple[str, ...],
    tags: tuple[str, ...],
    plan: Callable[[str], CopilotPlan],
    comment: str = "",
) -> Scenario[CopilotPlan]:
    return Scenario(name, HOST, eras, title, rules, tags, plan, comment=comment)


SCENARIOS: tuple[Scenario[CopilotPlan], ...] = (
    _scenario(
        "copilot-manual-and-auto",
        ("P1", "P2"),
        "a /compact, then a background compaction beside a turn; two reboots",
        ("CPL-9", "CPL-11"),
        ("copilot-manual", "copilot-auto"),
        _plan(Prompt("fix the parser", tools=2), MANUAL, Prompt("now the reader"), AUTO),
        comment="CPL-11: VS Code's Agent Host writes this same file.",
    ),
    _scenario(
        "copilot-failed",
        ("P1", "P2"),
        "a failed /compact (the summary request got HTTP 500), then an applied one; one reboot",
        ("CPL-4",),
        ("copilot-failed-compaction",),
        _plan(Prompt("fix the parser"), Compact(end="failed"), Prompt("again"), MANUAL),
    ),
    _scenario(
        "copilot-cancelled",
        ("P1", "P2"),
        "a cancelled compaction, a background pass whose process ended (a lone start), a"
        " complete without a summary; no reboots",
        ("CPL-4",),
        ("copilot-cancelled", "copilot-lone-start"),
        _plan(
            Prompt("fix the parser"),
            Compact(end="cancelled"),
            Prompt("go on"),
            Compact(end="lone", trigger="threshold"),
            Resume(),
            Prompt("go on"),
            Compact(end="empty"),
        ),
    ),
    _scenario(
        "copilot-lone-start",
        ("P2",),
        "a -p run that ended during its background pass: a start alone; none",
        ("CPL-4", "CPL-7"),
        ("copilot-lone-start",),
        _plan(Prompt("fix the parser", tools=1), Compact(end="lone", trigger="threshold")),
    ),
    _scenario(
        "copilot-resume",
        ("P1", "P2"),
        "three processes append to one file, each compacting once; three reboots",
        ("CPL-7",),
        ("copilot-resume",),
        _plan(Prompt("one"), MANUAL, Resume(), Prompt("two"), MANUAL, Resume(), AUTO),
    ),
    _scenario(
        "copilot-subagent",
        ("P1", "P2"),
        "a sub-agent compacts twice inside the parent's file (agentId), the main agent once;"
        " one reboot",
        ("CPL-5",),
        ("copilot-subagent",),
        _plan(
            Prompt("fix the parser"),
            SubAgent((Compact(trigger="threshold"), Compact(trigger="threshold"))),
            MANUAL,
        ),
    ),
    _scenario(
        "copilot-fork-copy",
        ("P2",),
        "a /fork of a session with two compactions: the copy under the same ids, the fork's"
        " mark, one compaction of its own; one reboot",
        ("CPL-6", "RBT-3"),
        ("copilot-fork-copy",),
        _fork((Prompt("fix the parser"), MANUAL, Prompt("more"), AUTO), Prompt("try B"), MANUAL),
    ),
    _scenario(
        "copilot-fork-of-fork",
        ("P2",),
        "a fork of a fork: the first fork's mark lies inside the copy; the second fork's own"
        " compaction only; one reboot",
        ("CPL-6", "RBT-3"),
        ("copilot-fork-copy",),
        lambda era: CopilotPlan(
            era=era,
            steps=(Prompt("try C"), MANUAL),
            parent=_fork((Prompt("fix"), MANUAL), Prompt("try B"), MANUAL)(era),
        ),
    ),
    _scenario(
        "copilot-fork-source",
        ("P2",),
        "the source of a fork: its note of the fork marks no copy; both compactions its own;"
        " two reboots",
        ("CPL-6",),
        ("copilot-fork-source",),
        _plan(Prompt("fix the parser"), MANUAL, Resume(), ForkNote(), Prompt("go on"), MANUAL),
    ),
    _scenario(
        "copilot-fork-unmarked",
        ("P2",),
        "a fork that crashed before its mark: the copied events are the file's own; two reboots",
        ("CPL-6",),
        ("copilot-fork-unmarked",),
        _fork((Prompt("fix the parser"), MANUAL), Prompt("try B"), MANUAL, mark=False),
        comment="CPL-6: with no mark the older events cannot be told from the file's own.",
    ),
    _scenario(
        "copilot-rewind",
        ("P2",),
        "a rewind to before the second compaction removed it from the file, then one more;"
        " two reboots and W-REWOUND",
        ("CPL-8", "RBT-4"),
        ("copilot-rewind",),
        _plan(
            Prompt("fix the parser"),
            MANUAL,
            Prompt("now the reader"),
            MANUAL,
            Prompt("and the docs"),
            Rewind(2),
            Prompt("the reader, another way"),
            MANUAL,
        ),
        comment="CPL-8: the removed compaction is gone from the file; the count is a lower"
        " bound of RBT-4's.",
    ),
    _scenario(
        "copilot-truncation",
        ("P0", "P1"),
        "old messages truncated without a summary, the context cleared, a handoff; none",
        ("CPL-4",),
        ("copilot-truncation",),
        _plan(Prompt("fix the parser", tools=3), Truncate(), Prompt("more"), Cleared()),
    ),
    _scenario(
        "copilot-damaged",
        ("P2",),
        "a line that does not parse, a compaction glued to the event before it, a torn tail;"
        " two reboots",
        ("CPL-10", "JSV-2", "JSV-3"),
        ("copilot-damaged", "glued-records"),
        _plan(
            Prompt("fix the parser"),
            Garbage(),
            MANUAL,
            Prompt("more"),
            Garbage(glued=True),
            MANUAL,
            torn=True,
        ),
    ),
)
