"""The named scenarios of the pi corpus cases (spec/hosts/pi.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`) or, for a file the spec rejects, from what the plan put in it (a
value nested too deep). Each (scenario, era) pair is one case; its ID is chosen once and kept in
`corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common import Deep
from ..scenario import Scenario
from .plan import (
    Exchange,
    Extras,
    Navigate,
    PiCompact,
    PiCopy,
    PiGarbage,
    PiPlan,
)

BASE_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "PIA-1", "PIA-2", "PIA-3", "OUT-4")


def _pi(*steps: Any, **options: Any) -> Callable[[str], PiPlan]:
    return lambda era: PiPlan(era=era, steps=tuple(steps), **options)


def _pi_fork(era: str) -> PiPlan:
    parent = PiPlan(era, (Exchange(2), PiCompact("manual"), Exchange(1)), seed=21)
    return PiPlan(era, (Exchange(1), PiCompact("auto"), Exchange(1)), copy=PiCopy(parent), seed=22)


def _pi_v1_branch(era: str) -> PiPlan:
    steps = (Exchange(2), PiCompact(), Exchange(1), PiCompact(), Exchange(1))
    parent = PiPlan("v1", steps, seed=31)
    return PiPlan("v1", (Exchange(1), Exchange(2)), copy=PiCopy(parent), seed=32)


def _pi_copy_only(era: str) -> PiPlan:
    parent = PiPlan(era, (Exchange(2), PiCompact(), Exchange(1)), seed=41)
    return PiPlan(era, (), copy=PiCopy(parent), seed=42)


def _pi_migrated_copy(era: str) -> PiPlan:
    parent = PiPlan("v1", (Exchange(2), PiCompact(), Exchange(1)), seed=51)
    steps = (Exchange(1), PiCompact(), Exchange(1))
    return PiPlan("v3", steps, copy=PiCopy(parent), migrated=True, seed=52)


SCENARIOS: tuple[Scenario[PiPlan], ...] = (
    # -- pi --------------------------------------------------------------------------------
    Scenario(
        "pi-v1-compaction",
        "pi",
        ("v1",),
        "a format 1 session (no ids, firstKeptEntryIndex) with one compaction; one reboot",
        ("PIA-5",),
        ("pi-v1",),
        _pi(Exchange(2), PiCompact(), Exchange(1)),
        comment="The header is stamped after the first entry (pi writes it with the buffered "
        "entries) and names no source: nothing is inherited (PIA-5).",
    ),
    Scenario(
        "pi-v2-compaction",
        "pi",
        ("v2",),
        "a format 2 session with one manual compaction and extension entries; one reboot",
        ("PIA-4",),
        ("pi-custom-entries",),
        _pi(Exchange(2), PiCompact("manual"), Exchange(1), Extras()),
    ),
    Scenario(
        "pi-manual-and-auto",
        "pi",
        ("v3",),
        "manual and automatic compactions look alike; a failed one writes nothing; two reboots",
        ("RBT-1",),
        ("pi-failed-compaction",),
        _pi(
            Exchange(2),
            PiCompact("manual"),
            Exchange(1, bash=True),
            PiCompact("auto"),
            Exchange(1),
            PiCompact("auto", done=False),
            Exchange(1),
        ),
    ),
    Scenario(
        "pi-fork-copy",
        "pi",
        ("v2", "v3"),
        "a fork copies its source's compaction verbatim, then compacts itself; one reboot",
        ("PIA-5", "RBT-3"),
        ("pi-fork-copy",),
        _pi_fork,
    ),
    Scenario(
        "pi-v1-branch-copy",
        "pi",
        ("v1",),
        "a format 1 branch copy (branchedFrom) holds two earlier compactions, none own; no reboots",
        ("PIA-5", "RBT-3"),
        ("pi-branch-copy", "pi-v1"),
        _pi_v1_branch,
    ),
    Scenario(
        "pi-branch-copy-only",
        "pi",
        ("v3",),
        "a 0.42 branch copy file holding only inherited entries; no reboots",
        ("PIA-5", "RBT-3"),
        ("pi-branch-copy",),
        _pi_copy_only,
    ),
    Scenario(
        "pi-abandoned-branch",
        "pi",
        ("v2", "v3"),
        "a compaction on a branch the user left in place still counts; two reboots",
        ("PIA-6", "RBT-4", "PIA-4"),
        ("pi-abandoned-branch", "pi-branch-summary"),
        _pi(
            Exchange(1),
            Exchange(1),
            PiCompact(),
            Exchange(1),
            Navigate(back=9),
            Exchange(2),
            PiCompact(),
            Exchange(1),
        ),
    ),
    Scenario(
        "pi-not-compactions",
        "pi",
        ("v3",),
        "branch_summary, custom, label and session_info entries beside one compaction; one reboot",
        ("PIA-4", "RBT-2", "PIA-6"),
        ("pi-branch-summary", "pi-custom-entries"),
        _pi(Exchange(1), Extras(), Exchange(1), Navigate(back=2), Exchange(1), PiCompact()),
    ),
    Scenario(
        "pi-from-hook",
        "pi",
        ("v3",),
        "a compaction whose summary an extension wrote (fromHook: true); one reboot",
        (),
        ("pi-from-hook",),
        _pi(Exchange(2), PiCompact(from_hook=True), Exchange(1)),
    ),
    Scenario(
        "pi-same-summary",
        "pi",
        ("v3",),
        "two compactions with the same summary text are two; two reboots",
        (),
        ("pi-same-summary",),
        _pi(
            Exchange(1),
            PiCompact(summary="## Goal\nsame summary"),
            Exchange(1),
            PiCompact(summary="## Goal\nsame summary"),
            Exchange(1),
        ),
    ),
    Scenario(
        "pi-glued",
        "pi",
        ("v1", "v3"),
        "a compaction glued to the end of a message line counts; two reboots",
        ("PIA-7",),
        ("pi-glued", "glued-records"),
        _pi(Exchange(2), PiCompact(), Exchange(1), PiCompact(glued=True), Exchange(1)),
    ),
    Scenario(
        "pi-torn-tail",
        "pi",
        ("v3",),
        "a compaction entry cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "PIA-9"),
        ("torn-tail",),
        _pi(Exchange(2), PiCompact(), Exchange(1), torn=True),
    ),
    Scenario(
        "pi-bad-line",
        "pi",
        ("v2",),
        "a line that does not parse is skipped, as pi's loader does; one reboot",
        ("JSV-3", "PIA-9"),
        ("json-value-skip",),
        _pi(Exchange(1), PiGarbage(), Exchange(1), PiCompact(), Exchange(1)),
    ),
    Scenario(
        "pi-migrated",
        "pi",
        ("v3",),
        "a format 1 session rewritten as format 3 (ids added, firstKeptEntryId); two reboots",
        ("PIA-8",),
        ("pi-migrated",),
        _pi(Exchange(2), PiCompact(), Exchange(1), PiCompact(), Exchange(1), migrated=True),
    ),
    Scenario(
        "pi-migrated-branch-copy",
        "pi",
        ("v3",),
        "a migrated format 1 branch copy keeps branchedFrom: the copy is inherited; one reboot",
        ("PIA-8", "PIA-5", "RBT-3"),
        ("pi-migrated", "pi-branch-copy"),
        _pi_migrated_copy,
    ),
    Scenario(
        "pi-header-only",
        "pi",
        ("v1", "v3"),
        "a session file holding only its header; no reboots",
        ("PIA-9",),
        ("pi-header-only",),
        _pi(),
    ),
    Scenario(
        "pi-deep",
        "pi",
        ("v3",),
        "a message nested 1100 levels deep: rejected at its line",
        ("JSV-4", "ERR-8", "ERR-10"),
        ("hostile", "rejection"),
        _pi(Exchange(1), PiCompact(), Deep()),
        reject="E-LIMIT",
    ),
)
