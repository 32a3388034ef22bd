"""The named scenarios of the Codex CLI corpus cases (spec/hosts/codex.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`) or, for a file the spec rejects, from what the plan put in it (a
C0 rollout, a value nested too deep). Each (scenario, era) pair is one case; its ID is chosen
once and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common import Deep
from ..scenario import Scenario
from .plan import (
    CodexPlan,
    Compact,
    Copy,
    Freeform,
    Garbage,
    Manual,
    OddCompacted,
    Resume,
    Rollback,
    ThirdParty,
    Turn,
)

BASE_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "CDX-1", "CDX-2", "CDX-3", "OUT-4")


MID = Compact(kind="local", when="mid")
# CDX-8: a `git describe` stamp of a build from a checkout, seen in a published 2025-12-06 rollout
DESCRIBED = "0.2.0-alpha.2-1673-gb519267d"


PRE = Compact(kind="local", when="pre")


REMOTE = Compact(kind="remote", when="mid")


def _codex(*steps: Any, **options: Any) -> Callable[[str], CodexPlan]:
    return lambda era: CodexPlan(era=era, steps=tuple(steps), **options)


def _fork_child(how: str, same_second: bool = False) -> Callable[[str], CodexPlan]:
    """A thread that starts from a parent with two compactions and then compacts once."""

    def plan(era: str) -> CodexPlan:
        version = "0.111.0" if era == "C4" else None
        parent = CodexPlan(era, (Turn(2, (MID,)), Manual(), Turn(1)), version=version, seed=7)
        copy = Copy(parent, "subagent" if how == "subagent" else "fork", same_second)
        steps = (Turn(1), Turn(2, (MID,))) if same_second else (Turn(2, (MID,)),)
        return CodexPlan(era, steps, version=version, copy=copy, seed=8)

    return plan


def _fork_of_fork(era: str) -> CodexPlan:
    grand = CodexPlan(era, (Turn(2, (MID,)),), version="0.111.0", seed=11)
    parent = CodexPlan(era, (Turn(2, (REMOTE,)),), version="0.111.0", copy=Copy(grand), seed=12)
    return CodexPlan(era, (Turn(2, (MID,)),), version="0.111.0", copy=Copy(parent), seed=13)


SCENARIOS: tuple[Scenario[CodexPlan], ...] = (
    # -- Codex: one per era, local/remote, pre/mid/manual, companions --------------------
    Scenario(
        "codex-local-pre-turn",
        "codex",
        ("C1",),
        "a C1 rollout with one automatic local compaction before a user message; one reboot",
        ("CDX-9", "RBT-2"),
        ("codex-local", "codex-pre-turn"),
        _codex(Turn(1), Turn(2, (PRE,)), Turn(1)),
    ),
    Scenario(
        "codex-no-compaction",
        "codex",
        ("C1",),
        "a rollout of a CLI that records compactions, with none; no reboots",
        ("RBT-5", "CDX-8"),
        ("codex-no-compaction",),
        _codex(Turn(2), Turn(1)),
        comment="RBT-5: an era that records compactions and shows none counts 0, not unmeasurable.",
    ),
    Scenario(
        "codex-remote",
        "codex",
        ("C2",),
        "a remote compaction (empty message, encrypted item) and a local one mid-turn; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-remote", "codex-local", "codex-mid-turn"),
        _codex(Turn(2, (REMOTE,)), Turn(3, (MID,))),
    ),
    Scenario(
        "codex-companions",
        "codex",
        ("C3",),
        "C3 companions: context_compacted after each compacted line, one manual; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-manual", "codex-local", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Manual(kind="remote"), Turn(1)),
    ),
    Scenario(
        "codex-companions-0104",
        "codex",
        ("C4",),
        "0.104 order: compacted, context_compacted, turn_context; remote and local; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-remote", "codex-pre-turn", "codex-mid-turn"),
        _codex(Turn(2, (REMOTE,)), Turn(1, (PRE,))),
    ),
    Scenario(
        "codex-companions-0111",
        "codex",
        ("C4",),
        "0.111 order: compacted, turn_context, context_compacted mid-turn; a /compact; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-manual", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Manual(), version="0.111.0"),
    ),
    Scenario(
        "codex-window-ids",
        "codex",
        ("C5",),
        "C5: ordinals, window ids, item_completed; remote, manual and pre-turn; three reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-ordinal", "codex-companions", "codex-remote", "codex-manual", "codex-pre-turn"),
        _codex(Turn(2, (REMOTE,)), Manual(), Turn(1, (Compact("remote", "pre"),))),
    ),
    Scenario(
        "codex-third-party",
        "codex",
        ("C4",),
        "an item_completed ContextCompaction and top-level compaction response_items; one reboot",
        ("CDX-4", "RBT-2"),
        ("codex-companions", "codex-third-party"),
        _codex(Turn(2, (MID,)), ThirdParty(), Turn(1)),
        comment="Only the compacted line counts; the other-tool records are companions (CDX-4).",
    ),
    # -- Codex: copies -------------------------------------------------------------------
    Scenario(
        "codex-fork-copy",
        "codex",
        ("C2", "C4"),
        "a fork copies its parent's two compactions, then compacts once itself; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-copy", "codex-mid-turn"),
        _fork_child("fork"),
    ),
    Scenario(
        "codex-subagent-copy",
        "codex",
        ("C3",),
        "a subagent copies its parent's rollout and compacts once itself; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-subagent-copy", "codex-mid-turn"),
        _fork_child("subagent"),
    ),
    Scenario(
        "codex-subagent-same-second",
        "codex",
        ("C4",),
        "a subagent whose first own turn starts in the copy's second; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-subagent-copy", "codex-mid-turn"),
        _fork_child("subagent", same_second=True),
        comment="The first own turn has no compaction, so it does not matter on which side of "
        "the copy a reader puts it; the later own compaction counts.",
    ),
    Scenario(
        "codex-subagent-ordinals",
        "codex",
        ("C5",),
        "a C5 subagent: copied lines below subagent_history_start_ordinal; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-subagent-copy", "codex-ordinal"),
        _fork_child("subagent"),
    ),
    Scenario(
        "codex-fork-base",
        "codex",
        ("C5",),
        "a C5 fork with history_base copies nothing and compacts once; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-base", "codex-ordinal"),
        _fork_child("fork"),
    ),
    Scenario(
        "codex-fork-of-fork",
        "codex",
        ("C4",),
        "a fork of a fork: the copy holds the grandparent's copy too; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-copy", "codex-fork-of-fork"),
        _fork_of_fork,
    ),
    # -- Codex: rollback, failure, resume ------------------------------------------------
    Scenario(
        "codex-rollback",
        "codex",
        ("C4",),
        "a compaction in a turn later rolled back stays in the file and counts; one reboot",
        ("CDX-6", "RBT-4"),
        ("codex-rollback", "codex-mid-turn"),
        _codex(Turn(1), Turn(2, (MID,)), Rollback(1), Turn(1), version="0.111.0"),
    ),
    Scenario(
        "codex-failed-compaction",
        "codex",
        ("C4",),
        "an interrupted /compact and a failed mid-turn compaction write nothing; no reboots",
        ("CDX-9", "RBT-1"),
        ("codex-failed-compaction", "codex-manual"),
        _codex(
            Turn(2, (Compact(done=False),), aborted=True),
            Manual(done=False),
            Turn(1),
            version="0.111.0",
        ),
    ),
    Scenario(
        "codex-resume",
        "codex",
        ("C4",),
        "a resumed thread appends a compaction at its first turn; two reboots",
        ("CDX-7", "CDX-9"),
        ("codex-resume", "codex-pre-turn"),
        _codex(Turn(2, (MID,)), Resume(), Turn(1, (PRE,)), Turn(1)),
    ),
    # -- Codex: C0 -----------------------------------------------------------------------
    Scenario(
        "codex-legacy",
        "codex",
        ("C0",),
        "a pre-envelope rollout (bare header, state lines) recorded no compaction: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "codex-legacy", "rejection"),
        _codex(Turn(2), Turn(1), legacy=True),
        reject="E-UNMEASURABLE",
    ),
    Scenario(
        "codex-no-cli-version",
        "codex",
        ("C0",),
        "an envelope rollout whose session_meta has no cli_version and no compacted: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "rejection"),
        _codex(Turn(2), Turn(1)),
        reject="E-UNMEASURABLE",
    ),
    Scenario(
        "codex-old-cli-version",
        "codex",
        ("C0",),
        "an envelope rollout of CLI 0.30.0, before compacted was recorded: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "rejection"),
        _codex(Turn(2), Turn(1), version="0.30.0"),
        reject="E-UNMEASURABLE",
    ),
    Scenario(
        "codex-old-release-no-marks",
        "codex",
        ("C0",),
        "a 0.34.0 rollout with free-form tool calls and token counts, no compacted: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "codex-version-string", "rejection"),
        _codex(Turn(1), Freeform(), Turn(1), version="0.34.0"),
        reject="E-UNMEASURABLE",
        comment="CDX-8: custom_tool_call items and token_count events are no mark (0.34.0 wrote "
        "them); the file shows none and names a plain release before 0.36.0.",
    ),
    # -- Codex: a version string that is no witness (CDX-8, issue #38) --------------------
    Scenario(
        "codex-describe-version",
        "codex",
        ("C3",),
        "a December 2025 rollout stamped with a git describe version, no compaction; no reboots",
        ("CDX-8", "RBT-5"),
        ("codex-version-string", "codex-no-compaction"),
        _codex(Turn(1), Freeform(ghost=True), Turn(2), version=DESCRIBED),
        comment=f"CDX-8: cli_version {DESCRIBED!r} is no plain release and says nothing; "
        "turn_context and ghost_snapshot records are marks of a later writer.",
    ),
    Scenario(
        "codex-describe-version-compacts",
        "codex",
        ("C3",),
        "a December 2025 rollout stamped with a git describe version, two compactions; two reboots",
        ("CDX-8", "CDX-9"),
        ("codex-version-string", "codex-mid-turn", "codex-manual"),
        _codex(Turn(1), Freeform(ghost=True), Turn(2, (MID,)), Manual(), version=DESCRIBED),
        comment=f"CDX-8: a file with compacted records is never C0, whatever its cli_version "
        f"({DESCRIBED!r}) says.",
    ),
    Scenario(
        "codex-prerelease-version",
        "codex",
        ("C1",),
        "a rollout stamped 0.42.0-alpha.3, a pre-release, no compaction; no reboots",
        ("CDX-8", "RBT-5"),
        ("codex-version-string", "codex-no-compaction"),
        _codex(Turn(2), Freeform(), Turn(1), version="0.42.0-alpha.3"),
        comment="CDX-8: a pre-release (the IDE extension bundles such builds) is no plain "
        "release and says nothing; the turn_context records are marks.",
    ),
    # -- Codex: damage and bounds --------------------------------------------------------
    Scenario(
        "codex-odd-payload",
        "codex",
        ("C4",),
        "compacted records whose payload is a string or an array are not compactions; one reboot",
        ("JSV-3",),
        ("codex-odd-payload", "json-value-skip"),
        _codex(Turn(2, (MID,)), OddCompacted(), Turn(1)),
    ),
    Scenario(
        "codex-huge-line",
        "codex",
        ("C4",),
        "a compacted line with a long replacement_history; one reboot",
        ("CDX-10", "JSV-4"),
        ("codex-huge-line", "codex-mid-turn"),
        _codex(Turn(2, (Compact(huge=True),)), Turn(1)),
        comment="Real lines reach hundreds of MB: `python -m rebootspec.generators big-host`.",
    ),
    Scenario(
        "codex-torn-tail",
        "codex",
        ("C4",),
        "a compacted line cut short at the end of the file is ignored; one reboot",
        ("JSV-2",),
        ("torn-tail", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Turn(1), torn=True),
    ),
    Scenario(
        "codex-bad-line",
        "codex",
        ("C3",),
        "a line that does not parse is skipped; the compaction after it counts; one reboot",
        ("JSV-3",),
        ("json-value-skip", "codex-mid-turn"),
        _codex(Turn(1), Garbage(), Turn(2, (MID,))),
    ),
    Scenario(
        "codex-glued",
        "codex",
        ("C4",),
        "a compacted record glued to the end of the previous line counts; one reboot",
        ("JSV-1",),
        ("glued-records", "codex-mid-turn"),
        _codex(Turn(2, (Compact(glued=True),)), Turn(1)),
    ),
    Scenario(
        "codex-deep",
        "codex",
        ("C4",),
        "a response_item nested 1100 levels deep: rejected at its line",
        ("JSV-4", "ERR-8", "ERR-10", "CDX-10"),
        ("hostile", "rejection"),
        _codex(Turn(2, (MID,)), Deep()),
        reject="E-LIMIT",
    ),
)
