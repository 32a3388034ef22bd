"""The named scenarios of the Claude Code corpus cases (spec/hosts/claude-code.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`). Each (scenario, era) pair is one case; its ID is chosen once
and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    ClaudeBranch,
    ClaudeCompact,
    ClaudeGarbage,
    ClaudeOddType,
    ClaudePlan,
    ClaudeSystemNote,
    ClaudeTurn,
    Microcompact,
    Reappend,
    Sidechain,
    TitleRows,
)

BASE_RULES = (
    *("HST-1", "HST-2", "JSV-1", "RBT-1", "RBT-2"),
    *("CLC-1", "CLC-2", "CLC-3", "CLC-4", "OUT-4"),
)


def _claude(*steps: Any, **options: Any) -> Callable[[str], ClaudePlan]:
    return lambda era: ClaudePlan(era=era, steps=tuple(steps), **options)


def _claude_branch(era: str) -> ClaudePlan:
    """A /branch of a transcript with two compactions, which then compacts once itself."""
    steps = (ClaudeTurn(2), ClaudeCompact("manual"), ClaudeTurn(1), ClaudeCompact("auto"))
    parent = ClaudePlan(era, steps, seed=61)
    own = (ClaudeTurn(1), ClaudeCompact("auto"), ClaudeTurn(1))
    return ClaudePlan(era, own, copy=ClaudeBranch(parent), seed=62)


SCENARIOS: tuple[Scenario[ClaudePlan], ...] = (
    # -- Claude Code -----------------------------------------------------------------------
    Scenario(
        "claude-manual",
        "claude-code",
        ("CC2",),
        "a manual /compact: boundary, summary, then the command's earlier records; one reboot",
        ("CLC-8",),
        ("claude-manual",),
        _claude(ClaudeTurn(2), ClaudeCompact("manual"), ClaudeTurn(1)),
    ),
    Scenario(
        "claude-auto",
        "claude-code",
        ("CC1",),
        "an automatic compaction right after a tool result, the turn goes on; one reboot",
        ("CLC-8",),
        ("claude-auto",),
        _claude(ClaudeTurn(1), ClaudeCompact("auto"), ClaudeTurn(1)),
    ),
    Scenario(
        "claude-near-qwen",
        "claude-code",
        ("CC3",),
        "a transcript whose records carry every member Qwen Code's also carry is Claude Code's "
        "by its userType; one reboot",
        ("CLC-1", "HST-2"),
        ("near-miss", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact("auto"), ClaudeTurn(1)),
        comment="uuid, parentUuid, sessionId, timestamp, type, cwd, version and gitBranch are "
        "Qwen Code's record members too; userType and an Anthropic message.content are Claude "
        "Code's alone (CLC-1, HST-2).",
    ),
    Scenario(
        "claude-two-compactions",
        "claude-code",
        ("CC3",),
        "an automatic and a manual compaction with CC3's richer metadata; two reboots",
        ("CLC-8",),
        ("claude-auto", "claude-manual"),
        _claude(
            ClaudeTurn(2),
            ClaudeCompact("auto"),
            ClaudeTurn(1),
            ClaudeCompact("manual"),
            ClaudeTurn(1),
        ),
    ),
    Scenario(
        "claude-chain-break",
        "claude-code",
        ("CC2",),
        "two boundaries each start a new parentUuid chain (logicalParentUuid); two reboots",
        ("CLC-9",),
        ("claude-chain-break", "claude-auto"),
        _claude(ClaudeTurn(2), ClaudeCompact(), ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1)),
        comment="A walk of parentUuid back from the last record stops at the second boundary and "
        "finds one; the records of the file hold two (CLC-9).",
    ),
    Scenario(
        "claude-not-compactions",
        "claude-code",
        ("CC3",),
        "summary title rows first, a microcompact_boundary, one compaction; one reboot",
        ("CLC-4", "HST-3"),
        ("claude-microcompact", "claude-title-rows", "claude-auto"),
        _claude(
            ClaudeTurn(1),
            Microcompact(),
            ClaudeTurn(1),
            ClaudeCompact(),
            TitleRows(),
            ClaudeTurn(1),
            titles_first=True,
        ),
        comment="The first value is a summary row: HST-2 recognises it by its leafUuid; the "
        "protocol never names the host (HST-3).",
    ),
    Scenario(
        "claude-side-file",
        "claude-code",
        ("CC2",),
        "the summarizer's agent-acompact side file: sidechain records only; no reboots",
        ("CLC-5",),
        ("claude-side-file",),
        _claude(side_file=True),
    ),
    Scenario(
        "claude-sidechain",
        "claude-code",
        ("CC1",),
        "a subagent's inline sidechain records hold a boundary of their own; one reboot",
        ("CLC-5",),
        ("claude-sidechain", "claude-auto"),
        _claude(ClaudeTurn(1), Sidechain(), ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1)),
    ),
    Scenario(
        "claude-branch-copy",
        "claude-code",
        ("CC2",),
        "a /branch copy holds two boundaries of its source (forkedFrom), compacts once; one reboot",
        ("CLC-6", "RBT-3"),
        ("claude-branch-copy", "claude-auto"),
        _claude_branch,
    ),
    Scenario(
        "claude-reappend",
        "claude-code",
        ("CC2",),
        "a second /compact re-appends earlier records with their uuids (#92089); two reboots",
        ("CLC-6",),
        ("claude-reappend", "claude-manual"),
        _claude(
            ClaudeTurn(2),
            ClaudeCompact("manual"),
            ClaudeTurn(1),
            ClaudeCompact("manual"),
            Reappend(),
            ClaudeTurn(1),
        ),
        comment="The first boundary is in the file twice with one uuid: one compaction (CLC-6).",
    ),
    Scenario(
        "claude-summary-only",
        "claude-code",
        ("CC0",),
        "a CC0 transcript: two isCompactSummary records and no boundary; two reboots",
        ("CLC-7", "RBT-5"),
        ("claude-summary-only", "claude-manual", "claude-auto"),
        _claude(
            ClaudeTurn(2),
            ClaudeCompact("auto"),
            ClaudeTurn(1),
            ClaudeCompact("manual"),
            ClaudeTurn(1),
        ),
        comment="Counted from the summaries with the warning W-LOW-CONFIDENCE (CLC-7).",
    ),
    Scenario(
        "claude-failed-compaction",
        "claude-code",
        ("CC2",),
        "a failed /compact and a cancelled automatic compaction write no boundary; no reboots",
        ("RBT-1",),
        ("claude-failed-compaction", "claude-manual"),
        _claude(
            ClaudeTurn(1),
            ClaudeCompact("manual", done=False),
            ClaudeTurn(1),
            ClaudeCompact("auto", done=False),
            ClaudeTurn(1),
        ),
    ),
    Scenario(
        "claude-torn-tail",
        "claude-code",
        ("CC2",),
        "a boundary cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "CLC-10"),
        ("torn-tail", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1), torn=True),
    ),
    Scenario(
        "claude-glued",
        "claude-code",
        ("CC3",),
        "a boundary glued to the end of the previous line counts; one reboot",
        ("JSV-1", "CLC-10"),
        ("glued-records", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(glued=True), ClaudeTurn(1)),
    ),
    Scenario(
        "claude-glued-second",
        "claude-code",
        ("CC2",),
        "two compactions, the second boundary glued to the previous line; two reboots",
        ("JSV-1", "CLC-10"),
        ("glued-records", "claude-auto"),
        _claude(
            ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1), ClaudeCompact(glued=True), ClaudeTurn(1)
        ),
        comment="A reader by line loses the glued boundary; the first boundary makes the file "
        "CC1 or later, so its summary is a companion and no CC0 reading brings it back (CLC-7).",
    ),
    Scenario(
        "claude-no-uuid",
        "claude-code",
        ("CC1",),
        "two boundaries without a uuid and a record whose type is an array; two reboots",
        ("CLC-3", "CLC-10"),
        ("claude-odd-records", "claude-auto", "claude-manual"),
        _claude(
            ClaudeTurn(1),
            ClaudeCompact(uuid=False),
            ClaudeTurn(1),
            ClaudeOddType(),
            ClaudeCompact("manual", uuid=False),
            ClaudeTurn(1),
        ),
        comment="No public transcript shows a boundary without a uuid; a tool writing "
        "transcripts might: each counts on its own (CLC-3). A type that is not a string names "
        "nothing (CLC-10).",
    ),
    Scenario(
        "claude-cc0-no-uuid",
        "claude-code",
        ("CC0",),
        "a CC0 transcript with a system record and two summaries without a uuid; two reboots",
        ("CLC-7", "CLC-4", "CLC-3"),
        ("claude-odd-records", "claude-summary-only", "claude-auto", "claude-manual"),
        _claude(
            ClaudeTurn(1),
            ClaudeSystemNote(),
            ClaudeCompact(uuid=False),
            ClaudeTurn(1),
            ClaudeCompact("manual", uuid=False),
            ClaudeTurn(1),
        ),
        comment="Only a compact_boundary makes a file CC1 or later, not any system record; a "
        "flagged summary without a uuid counts on its own, as a boundary does (CLC-3, CLC-7).",
    ),
    Scenario(
        "claude-cc0-resumed",
        "claude-code",
        ("CC1",),
        "a CC0 session resumed by a newer CLI: two summaries without a boundary, then one "
        "boundary; one reboot",
        ("CLC-7", "CLC-4"),
        ("claude-cc0-resumed", "claude-auto"),
        _claude(
            ClaudeTurn(1),
            ClaudeCompact(legacy=True),
            ClaudeTurn(1),
            ClaudeCompact(legacy=True),
            ClaudeTurn(1),
            ClaudeCompact(),
            ClaudeTurn(1),
        ),
        comment="A file with a boundary is CC1 or later: its summaries are companions, the "
        "older CC0 ones included, and the count is a lower bound (CLC-7).",
    ),
    Scenario(
        "claude-bom-long-first-line",
        "claude-code",
        ("CC1",),
        "a BOM, then a first prompt longer than 64 KiB (a pasted log); one reboot",
        ("HST-2", "JSV-1"),
        ("bom", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1), bom_long_first=True),
        comment="Detection reads the whole first line, after the BOM, to know the host (HST-2).",
    ),
    Scenario(
        "claude-bad-line",
        "claude-code",
        ("CC1",),
        "a line that does not parse is skipped; the boundary after it counts; one reboot",
        ("JSV-3", "CLC-10"),
        ("json-value-skip", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeGarbage(), ClaudeTurn(1), ClaudeCompact()),
    ),
)
