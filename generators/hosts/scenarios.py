"""The named scenarios of the Codex and pi corpus cases (spec 3.0).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.expected_reboots`) or, for a file the spec rejects, from what the
plan put in it (a C0 rollout, a value nested too deep, no known host). Each (scenario, era)
pair is one case; its ID is chosen once and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .chat_loop import (
    ChatAsk,
    ChatCompact,
    ChatDamage,
    ChatDelete,
    ChatExit,
    ChatExtra,
    ChatPlan,
    ChatRelink,
    ChatResume,
    ChatStart,
)
from .plan import (
    ClaudeBranch,
    ClaudeCompact,
    ClaudeGarbage,
    ClaudeOddType,
    ClaudePlan,
    ClaudeSystemNote,
    ClaudeTurn,
    CodexPlan,
    Compact,
    Compress,
    Copy,
    Deep,
    Exchange,
    Extras,
    Freeform,
    Garbage,
    GemGarbage,
    GemPlan,
    GemResume,
    Manual,
    Mask,
    Microcompact,
    Navigate,
    OddCompacted,
    PiCompact,
    PiCopy,
    PiGarbage,
    PiPlan,
    Prompt,
    Reappend,
    Resume,
    Rewind,
    Rollback,
    Sidechain,
    ThirdParty,
    TitleRows,
    Turn,
)

CODEX_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "CDX-1", "CDX-2", "CDX-3", "OUT-4")
PI_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "PIA-1", "PIA-2", "PIA-3", "OUT-4")
GEMINI_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "GEM-1", "GEM-2", "GEM-3", "GEM-6", "OUT-4")
CLAUDE_RULES = (
    *("HST-1", "HST-2", "JSV-1", "RBT-1", "RBT-2"),
    *("CLC-1", "CLC-2", "CLC-3", "CLC-4", "OUT-4"),
)
CHAT_LOOP = "basic-agent-chat-loop"
CHAT_RULES = ("HST-1", "HST-2", "RBT-1", "BCL-1", "BCL-2", "BCL-3", "BCL-4", "OUT-4")
MID = Compact(kind="local", when="mid")
# CDX-8: a `git describe` stamp of a build from a checkout, seen in a published 2025-12-06 rollout
DESCRIBED = "0.2.0-alpha.2-1673-gb519267d"
PRE = Compact(kind="local", when="pre")
REMOTE = Compact(kind="remote", when="mid")


@dataclass(frozen=True)
class HostScenario:
    """One scenario: how to make its plan (or raw bytes) for an era, and what it cites.

    `host` None: a file of no host (HST-4) or an empty one; the case then has no `host` key
    and its era is "none". `reject`: the error code the plan's content calls for.
    """

    name: str
    host: str | None
    eras: tuple[str, ...]
    title: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    plan: Callable[[str], CodexPlan | PiPlan | ClaudePlan | GemPlan | ChatPlan] | None = None
    raw: bytes | None = None
    reject: str | None = None
    comment: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def base_rules(self) -> tuple[str, ...]:
        if self.host == "codex":
            return CODEX_RULES
        if self.host == "pi":
            return PI_RULES
        if self.host == "claude-code":
            return CLAUDE_RULES
        if self.host == "gemini-cli":
            return GEMINI_RULES
        if self.host == CHAT_LOOP:
            return CHAT_RULES
        return ("HST-1", "HST-2")


def _codex(*steps: Any, **options: Any) -> Callable[[str], CodexPlan]:
    return lambda era: CodexPlan(era=era, steps=tuple(steps), **options)


def _pi(*steps: Any, **options: Any) -> Callable[[str], PiPlan]:
    return lambda era: PiPlan(era=era, steps=tuple(steps), **options)


def _gem(*steps: Any, **options: Any) -> Callable[[str], GemPlan]:
    return lambda era: GemPlan(era=era, steps=tuple(steps), **options)


SNAPSHOT_A = (
    "<state_snapshot>\nthe parser is fixed; next: the tests of the reader\n</state_snapshot>"
)
SNAPSHOT_B = "<state_snapshot>\nthe tests pass; next: the release notes\n</state_snapshot>"


def _chat(*steps: Any, ask: str, **options: Any) -> Callable[[str], ChatPlan]:
    return lambda era: ChatPlan(era=era, steps=tuple(steps), ask=ask, **options)


LONG_HEADER = b"# Helper Conversation\n" + b"\n" * 70 + b"**Date:** x\n**Agent:** Helper\n---\n"
NOTES_MD = b"# Project notes\n\n- try #compact when the answers slow down\n- **Resumed From:** x\n"


def _chat_chain(*extra: Any, ask: str, **options: Any) -> Callable[[str], ChatPlan]:
    """a -> b -> c by #compact, then d resumed from c in a new loop: three restorations."""
    return _chat(
        ChatStart("a"),
        ChatAsk(),
        ChatAsk(),
        ChatCompact("b"),
        ChatAsk(),
        ChatCompact("c"),
        ChatAsk(),
        ChatExit(),
        ChatStart("d", resume="c"),
        ChatAsk(),
        ChatExit(),
        *extra,
        ask=ask,
        **options,
    )


def _claude(*steps: Any, **options: Any) -> Callable[[str], ClaudePlan]:
    return lambda era: ClaudePlan(era=era, steps=tuple(steps), **options)


def _claude_branch(era: str) -> ClaudePlan:
    """A /branch of a transcript with two compactions, which then compacts once itself."""
    steps = (ClaudeTurn(2), ClaudeCompact("manual"), ClaudeTurn(1), ClaudeCompact("auto"))
    parent = ClaudePlan(era, steps, seed=61)
    own = (ClaudeTurn(1), ClaudeCompact("auto"), ClaudeTurn(1))
    return ClaudePlan(era, own, copy=ClaudeBranch(parent), seed=62)


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


SCENARIOS: tuple[HostScenario, ...] = (
    # -- Codex: one per era, local/remote, pre/mid/manual, companions --------------------
    HostScenario(
        "codex-local-pre-turn",
        "codex",
        ("C1",),
        "a C1 rollout with one automatic local compaction before a user message; one reboot",
        ("CDX-9", "RBT-2"),
        ("codex-local", "codex-pre-turn"),
        _codex(Turn(1), Turn(2, (PRE,)), Turn(1)),
    ),
    HostScenario(
        "codex-no-compaction",
        "codex",
        ("C1",),
        "a rollout of a CLI that records compactions, with none; no reboots",
        ("RBT-5", "CDX-8"),
        ("codex-no-compaction",),
        _codex(Turn(2), Turn(1)),
        comment="RBT-5: an era that records compactions and shows none counts 0, not unmeasurable.",
    ),
    HostScenario(
        "codex-remote",
        "codex",
        ("C2",),
        "a remote compaction (empty message, encrypted item) and a local one mid-turn; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-remote", "codex-local", "codex-mid-turn"),
        _codex(Turn(2, (REMOTE,)), Turn(3, (MID,))),
    ),
    HostScenario(
        "codex-companions",
        "codex",
        ("C3",),
        "C3 companions: context_compacted after each compacted line, one manual; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-manual", "codex-local", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Manual(kind="remote"), Turn(1)),
    ),
    HostScenario(
        "codex-companions-0104",
        "codex",
        ("C4",),
        "0.104 order: compacted, context_compacted, turn_context; remote and local; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-remote", "codex-pre-turn", "codex-mid-turn"),
        _codex(Turn(2, (REMOTE,)), Turn(1, (PRE,))),
    ),
    HostScenario(
        "codex-companions-0111",
        "codex",
        ("C4",),
        "0.111 order: compacted, turn_context, context_compacted mid-turn; a /compact; two reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-companions", "codex-manual", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Manual(), version="0.111.0"),
    ),
    HostScenario(
        "codex-window-ids",
        "codex",
        ("C5",),
        "C5: ordinals, window ids, item_completed; remote, manual and pre-turn; three reboots",
        ("CDX-4", "CDX-9", "RBT-2"),
        ("codex-ordinal", "codex-companions", "codex-remote", "codex-manual", "codex-pre-turn"),
        _codex(Turn(2, (REMOTE,)), Manual(), Turn(1, (Compact("remote", "pre"),))),
    ),
    HostScenario(
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
    HostScenario(
        "codex-fork-copy",
        "codex",
        ("C2", "C4"),
        "a fork copies its parent's two compactions, then compacts once itself; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-copy", "codex-mid-turn"),
        _fork_child("fork"),
    ),
    HostScenario(
        "codex-subagent-copy",
        "codex",
        ("C3",),
        "a subagent copies its parent's rollout and compacts once itself; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-subagent-copy", "codex-mid-turn"),
        _fork_child("subagent"),
    ),
    HostScenario(
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
    HostScenario(
        "codex-subagent-ordinals",
        "codex",
        ("C5",),
        "a C5 subagent: copied lines below subagent_history_start_ordinal; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-subagent-copy", "codex-ordinal"),
        _fork_child("subagent"),
    ),
    HostScenario(
        "codex-fork-base",
        "codex",
        ("C5",),
        "a C5 fork with history_base copies nothing and compacts once; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-base", "codex-ordinal"),
        _fork_child("fork"),
    ),
    HostScenario(
        "codex-fork-of-fork",
        "codex",
        ("C4",),
        "a fork of a fork: the copy holds the grandparent's copy too; one reboot",
        ("CDX-5", "RBT-3"),
        ("codex-fork-copy", "codex-fork-of-fork"),
        _fork_of_fork,
    ),
    # -- Codex: rollback, failure, resume ------------------------------------------------
    HostScenario(
        "codex-rollback",
        "codex",
        ("C4",),
        "a compaction in a turn later rolled back stays in the file and counts; one reboot",
        ("CDX-6", "RBT-4"),
        ("codex-rollback", "codex-mid-turn"),
        _codex(Turn(1), Turn(2, (MID,)), Rollback(1), Turn(1), version="0.111.0"),
    ),
    HostScenario(
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
    HostScenario(
        "codex-resume",
        "codex",
        ("C4",),
        "a resumed thread appends a compaction at its first turn; two reboots",
        ("CDX-7", "CDX-9"),
        ("codex-resume", "codex-pre-turn"),
        _codex(Turn(2, (MID,)), Resume(), Turn(1, (PRE,)), Turn(1)),
    ),
    # -- Codex: C0 -----------------------------------------------------------------------
    HostScenario(
        "codex-legacy",
        "codex",
        ("C0",),
        "a pre-envelope rollout (bare header, state lines) recorded no compaction: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "codex-legacy", "rejection"),
        _codex(Turn(2), Turn(1), legacy=True),
        reject="E-UNMEASURABLE",
    ),
    HostScenario(
        "codex-no-cli-version",
        "codex",
        ("C0",),
        "an envelope rollout whose session_meta has no cli_version and no compacted: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "rejection"),
        _codex(Turn(2), Turn(1)),
        reject="E-UNMEASURABLE",
    ),
    HostScenario(
        "codex-old-cli-version",
        "codex",
        ("C0",),
        "an envelope rollout of CLI 0.30.0, before compacted was recorded: rejected",
        ("CDX-8", "RBT-5", "ERR-14", "ERR-10"),
        ("codex-unmeasurable", "rejection"),
        _codex(Turn(2), Turn(1), version="0.30.0"),
        reject="E-UNMEASURABLE",
    ),
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
        "codex-odd-payload",
        "codex",
        ("C4",),
        "compacted records whose payload is a string or an array are not compactions; one reboot",
        ("JSV-3",),
        ("codex-odd-payload", "json-value-skip"),
        _codex(Turn(2, (MID,)), OddCompacted(), Turn(1)),
    ),
    HostScenario(
        "codex-huge-line",
        "codex",
        ("C4",),
        "a compacted line with a long replacement_history; one reboot",
        ("CDX-10", "JSV-4"),
        ("codex-huge-line", "codex-mid-turn"),
        _codex(Turn(2, (Compact(huge=True),)), Turn(1)),
        comment="Real lines reach hundreds of MB: `python -m rebootspec.generators big-host`.",
    ),
    HostScenario(
        "codex-torn-tail",
        "codex",
        ("C4",),
        "a compacted line cut short at the end of the file is ignored; one reboot",
        ("JSV-2",),
        ("torn-tail", "codex-mid-turn"),
        _codex(Turn(2, (MID,)), Turn(1), torn=True),
    ),
    HostScenario(
        "codex-bad-line",
        "codex",
        ("C3",),
        "a line that does not parse is skipped; the compaction after it counts; one reboot",
        ("JSV-3",),
        ("json-value-skip", "codex-mid-turn"),
        _codex(Turn(1), Garbage(), Turn(2, (MID,))),
    ),
    HostScenario(
        "codex-glued",
        "codex",
        ("C4",),
        "a compacted record glued to the end of the previous line counts; one reboot",
        ("JSV-1",),
        ("glued-records", "codex-mid-turn"),
        _codex(Turn(2, (Compact(glued=True),)), Turn(1)),
    ),
    HostScenario(
        "codex-deep",
        "codex",
        ("C4",),
        "a response_item nested 1100 levels deep: rejected at its line",
        ("JSV-4", "ERR-8", "ERR-10", "CDX-10"),
        ("hostile", "rejection"),
        _codex(Turn(2, (MID,)), Deep()),
        reject="E-LIMIT",
    ),
    # -- pi --------------------------------------------------------------------------------
    HostScenario(
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
    HostScenario(
        "pi-v2-compaction",
        "pi",
        ("v2",),
        "a format 2 session with one manual compaction and extension entries; one reboot",
        ("PIA-4",),
        ("pi-custom-entries",),
        _pi(Exchange(2), PiCompact("manual"), Exchange(1), Extras()),
    ),
    HostScenario(
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
    HostScenario(
        "pi-fork-copy",
        "pi",
        ("v2", "v3"),
        "a fork copies its source's compaction verbatim, then compacts itself; one reboot",
        ("PIA-5", "RBT-3"),
        ("pi-fork-copy",),
        _pi_fork,
    ),
    HostScenario(
        "pi-v1-branch-copy",
        "pi",
        ("v1",),
        "a format 1 branch copy (branchedFrom) holds two earlier compactions, none own; no reboots",
        ("PIA-5", "RBT-3"),
        ("pi-branch-copy", "pi-v1"),
        _pi_v1_branch,
    ),
    HostScenario(
        "pi-branch-copy-only",
        "pi",
        ("v3",),
        "a 0.42 branch copy file holding only inherited entries; no reboots",
        ("PIA-5", "RBT-3"),
        ("pi-branch-copy",),
        _pi_copy_only,
    ),
    HostScenario(
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
    HostScenario(
        "pi-not-compactions",
        "pi",
        ("v3",),
        "branch_summary, custom, label and session_info entries beside one compaction; one reboot",
        ("PIA-4", "RBT-2", "PIA-6"),
        ("pi-branch-summary", "pi-custom-entries"),
        _pi(Exchange(1), Extras(), Exchange(1), Navigate(back=2), Exchange(1), PiCompact()),
    ),
    HostScenario(
        "pi-from-hook",
        "pi",
        ("v3",),
        "a compaction whose summary an extension wrote (fromHook: true); one reboot",
        (),
        ("pi-from-hook",),
        _pi(Exchange(2), PiCompact(from_hook=True), Exchange(1)),
    ),
    HostScenario(
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
    HostScenario(
        "pi-glued",
        "pi",
        ("v1", "v3"),
        "a compaction glued to the end of a message line counts; two reboots",
        ("PIA-7",),
        ("pi-glued", "glued-records"),
        _pi(Exchange(2), PiCompact(), Exchange(1), PiCompact(glued=True), Exchange(1)),
    ),
    HostScenario(
        "pi-torn-tail",
        "pi",
        ("v3",),
        "a compaction entry cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "PIA-9"),
        ("torn-tail",),
        _pi(Exchange(2), PiCompact(), Exchange(1), torn=True),
    ),
    HostScenario(
        "pi-bad-line",
        "pi",
        ("v2",),
        "a line that does not parse is skipped, as pi's loader does; one reboot",
        ("JSV-3", "PIA-9"),
        ("json-value-skip",),
        _pi(Exchange(1), PiGarbage(), Exchange(1), PiCompact(), Exchange(1)),
    ),
    HostScenario(
        "pi-migrated",
        "pi",
        ("v3",),
        "a format 1 session rewritten as format 3 (ids added, firstKeptEntryId); two reboots",
        ("PIA-8",),
        ("pi-migrated",),
        _pi(Exchange(2), PiCompact(), Exchange(1), PiCompact(), Exchange(1), migrated=True),
    ),
    HostScenario(
        "pi-migrated-branch-copy",
        "pi",
        ("v3",),
        "a migrated format 1 branch copy keeps branchedFrom: the copy is inherited; one reboot",
        ("PIA-8", "PIA-5", "RBT-3"),
        ("pi-migrated", "pi-branch-copy"),
        _pi_migrated_copy,
    ),
    HostScenario(
        "pi-header-only",
        "pi",
        ("v1", "v3"),
        "a session file holding only its header; no reboots",
        ("PIA-9",),
        ("pi-header-only",),
        _pi(),
    ),
    HostScenario(
        "pi-deep",
        "pi",
        ("v3",),
        "a message nested 1100 levels deep: rejected at its line",
        ("JSV-4", "ERR-8", "ERR-10"),
        ("hostile", "rejection"),
        _pi(Exchange(1), PiCompact(), Deep()),
        reject="E-LIMIT",
    ),
    # -- Claude Code -----------------------------------------------------------------------
    HostScenario(
        "claude-manual",
        "claude-code",
        ("CC2",),
        "a manual /compact: boundary, summary, then the command's earlier records; one reboot",
        ("CLC-8",),
        ("claude-manual",),
        _claude(ClaudeTurn(2), ClaudeCompact("manual"), ClaudeTurn(1)),
    ),
    HostScenario(
        "claude-auto",
        "claude-code",
        ("CC1",),
        "an automatic compaction right after a tool result, the turn goes on; one reboot",
        ("CLC-8",),
        ("claude-auto",),
        _claude(ClaudeTurn(1), ClaudeCompact("auto"), ClaudeTurn(1)),
    ),
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
        "claude-side-file",
        "claude-code",
        ("CC2",),
        "the summarizer's agent-acompact side file: sidechain records only; no reboots",
        ("CLC-5",),
        ("claude-side-file",),
        _claude(side_file=True),
    ),
    HostScenario(
        "claude-sidechain",
        "claude-code",
        ("CC1",),
        "a subagent's inline sidechain records hold a boundary of their own; one reboot",
        ("CLC-5",),
        ("claude-sidechain", "claude-auto"),
        _claude(ClaudeTurn(1), Sidechain(), ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1)),
    ),
    HostScenario(
        "claude-branch-copy",
        "claude-code",
        ("CC2",),
        "a /branch copy holds two boundaries of its source (forkedFrom), compacts once; one reboot",
        ("CLC-6", "RBT-3"),
        ("claude-branch-copy", "claude-auto"),
        _claude_branch,
    ),
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
        "claude-torn-tail",
        "claude-code",
        ("CC2",),
        "a boundary cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "CLC-10"),
        ("torn-tail", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1), torn=True),
    ),
    HostScenario(
        "claude-glued",
        "claude-code",
        ("CC3",),
        "a boundary glued to the end of the previous line counts; one reboot",
        ("JSV-1", "CLC-10"),
        ("glued-records", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(glued=True), ClaudeTurn(1)),
    ),
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
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
    HostScenario(
        "claude-bom-long-first-line",
        "claude-code",
        ("CC1",),
        "a BOM, then a first prompt longer than 64 KiB (a pasted log); one reboot",
        ("HST-2", "JSV-1"),
        ("bom", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeCompact(), ClaudeTurn(1), bom_long_first=True),
        comment="Detection reads the whole first line, after the BOM, to know the host (HST-2).",
    ),
    HostScenario(
        "claude-bad-line",
        "claude-code",
        ("CC1",),
        "a line that does not parse is skipped; the boundary after it counts; one reboot",
        ("JSV-3", "CLC-10"),
        ("json-value-skip", "claude-auto"),
        _claude(ClaudeTurn(1), ClaudeGarbage(), ClaudeTurn(1), ClaudeCompact()),
    ),
    # -- Gemini CLI ------------------------------------------------------------------------
    HostScenario(
        "gemini-auto-compressions",
        "gemini-cli",
        ("G1",),
        "two automatic compressions, each a $set.messages with a new snapshot; two reboots",
        ("GEM-4",),
        ("gemini-snapshot",),
        _gem(Prompt(1), Prompt(2), Compress(), Prompt(1), Compress(), Prompt(1)),
        comment="Every $set.messages before the first compression holds the session context "
        "alone or no snapshot (GEM-3).",
    ),
    HostScenario(
        "gemini-manual-interactive",
        "gemini-cli",
        ("G1",),
        "interactive /compress, an automatic compression and a failed one with their info and "
        "error records; two reboots",
        ("GEM-5", "GEM-8", "RBT-2"),
        ("gemini-snapshot", "gemini-info-companion", "gemini-failed-compression"),
        _gem(
            Prompt(1),
            Compress("manual", interactive=True),
            Prompt(1),
            Compress("auto", interactive=True),
            Prompt(1),
            Compress("manual", done=False, interactive=True),
            Prompt(1),
        ),
        comment="The empty info of /compress and the text info of the automatic one are "
        "companions; the failed compression only rolls the history back (old snapshot).",
    ),
    HostScenario(
        "gemini-resume-repeats-snapshot",
        "gemini-cli",
        ("G1",),
        "a chat resumed twice writes its snapshot again with the same id each time; one reboot",
        ("GEM-4", "GEM-8"),
        ("gemini-snapshot", "gemini-resume"),
        _gem(
            Prompt(1),
            Prompt(1),
            Compress(),
            Prompt(1),
            GemResume(),
            Prompt(1),
            GemResume(),
            Prompt(1),
        ),
        comment="Each resume writes a metadata record, the session context alone, then the "
        "whole history with the snapshot's id unchanged.",
    ),
    HostScenario(
        "gemini-masking",
        "gemini-cli",
        ("G1",),
        "tool-output masking rewrites the history without a new snapshot; one reboot",
        ("GEM-4",),
        ("gemini-masking", "gemini-snapshot"),
        _gem(Prompt(3), Mask(), Prompt(1), Compress(), Prompt(2), Mask(), Prompt(1)),
    ),
    HostScenario(
        "gemini-same-snapshot-text",
        "gemini-cli",
        ("G1",),
        "three compressions, the third with the first one's text under a new id; three reboots",
        ("GEM-4",),
        ("gemini-same-snapshot-text", "gemini-snapshot"),
        _gem(
            Prompt(1),
            Compress(text=SNAPSHOT_A),
            Prompt(1),
            Compress(text=SNAPSHOT_B),
            Prompt(1),
            Compress(text=SNAPSHOT_A),
            Prompt(1),
        ),
        comment="GEM-4: each compression creates its snapshot message with a fresh id; equal "
        "text is no reason to skip one (A, B, A' is three).",
    ),
    HostScenario(
        "gemini-two-equal-snapshots",
        "gemini-cli",
        ("G1",),
        "two compressions in a row with the same snapshot text; two reboots",
        ("GEM-4",),
        ("gemini-same-snapshot-text", "gemini-snapshot"),
        _gem(Prompt(1), Compress(text=SNAPSHOT_A), Prompt(1), Compress(text=SNAPSHOT_A), Prompt(1)),
    ),
    HostScenario(
        "gemini-rewind",
        "gemini-cli",
        ("G1",),
        "a rewind after a compression shows the same snapshot again; one reboot",
        ("GEM-4", "GEM-8", "RBT-4"),
        ("gemini-rewind", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), Rewind(), Prompt(1)),
    ),
    HostScenario(
        "gemini-snapshot-records",
        "gemini-cli",
        ("G1",),
        "two compressions whose snapshot and acknowledgement are also message records; two reboots",
        ("GEM-5", "RBT-2"),
        ("gemini-snapshot-record", "gemini-snapshot"),
        _gem(
            Prompt(1),
            Compress(recorded=True),
            Prompt(1),
            Compress(recorded=True),
            Prompt(1),
        ),
        comment="The user records holding <state_snapshot> are companions; each compression is "
        "its $set.messages (GEM-3, GEM-5).",
    ),
    HostScenario(
        "gemini-odd-shapes",
        "gemini-cli",
        ("G1",),
        "odd shapes: a non-object value, null in histories, snapshots without an id; two reboots",
        ("GEM-3", "GEM-4", "JSV-1"),
        ("gemini-odd-shapes", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), Compress(), Prompt(1), odd=True),
        comment="The snapshot is the first user message after the context (non-messages "
        "skipped), its parts' texts joined; without an id it is keyed by its text (GEM-3, "
        "GEM-4).",
    ),
    HostScenario(
        "gemini-kind-first",
        "gemini-cli",
        ("G1",),
        "a chat whose metadata record begins with its kind member; one reboot",
        ("HST-2", "GEM-1"),
        ("gemini-kind-first", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), kind_first=True),
        comment="HST-2 reads Gemini CLI's row (string sessionId and projectHash) before VS "
        "Code's (kind): a first line starting with {\"kind\" is not VS Code's by that alone.",
    ),
    HostScenario(
        "gemini-no-compression",
        "gemini-cli",
        ("G1",),
        "a G1 chat that never compressed: its start-up $set.messages holds no snapshot; none",
        ("GEM-2",),
        ("gemini-start-sync",),
        _gem(Prompt(1), Prompt(2)),
    ),
    HostScenario(
        "gemini-unmeasurable",
        "gemini-cli",
        ("J0", "G0"),
        "a chat of Gemini CLI 0.43 or earlier: its compressions never reached the file; "
        "rejected as unmeasurable",
        ("GEM-7", "RBT-5", "ERR-14", "ERR-10", "GEM-5"),
        ("gemini-unmeasurable", "gemini-info-companion", "rejection"),
        _gem(Prompt(1), Prompt(1), Compress(interactive=True), Prompt(1), Compress(), Prompt(1)),
        reject="E-UNMEASURABLE",
        comment="The interactive info record says a compression happened; it is a companion "
        "and the file holds no history sync (GEM-7).",
    ),
    HostScenario(
        "gemini-json-bom",
        "gemini-cli",
        ("J0",),
        "a whole-file .json chat that begins with a BOM: still Gemini CLI's, unmeasurable",
        ("GEM-1", "GEM-7", "HST-2", "RBT-5", "ERR-14", "ERR-10"),
        ("gemini-json", "gemini-unmeasurable", "bom", "rejection"),
        _gem(Prompt(1), Compress(), Prompt(1), bom=True),
        reject="E-UNMEASURABLE",
        comment="The BOM is not part of the document (JSV-1): the chat is told from a VS Code "
        "session by its members (GEM-1) and rejected (GEM-7).",
    ),
    HostScenario(
        "gemini-torn-tail",
        "gemini-cli",
        ("G1",),
        "a $set.messages cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "GEM-8"),
        ("torn-tail", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), torn=True),
    ),
    HostScenario(
        "gemini-bad-line",
        "gemini-cli",
        ("G1",),
        "a line that does not parse is skipped, as Gemini CLI's loader does; one reboot",
        ("JSV-3", "GEM-8"),
        ("gemini-snapshot",),
        _gem(Prompt(1), GemGarbage(), Prompt(1), Compress(), Prompt(1)),
    ),
    # -- basic-agent-chat-loop ---------------------------------------------------------------
    HostScenario(
        "chatloop-fresh",
        CHAT_LOOP,
        ("M1",),
        "a session never compacted nor resumed, saved on exit with its summary; none",
        ("BCL-5",),
        ("chatloop-fresh",),
        _chat(ChatStart("a"), ChatAsk(), ChatAsk(), ChatExit(), ask="a"),
        comment="The summary markers at the end are written on every exit (BCL-5).",
    ),
    HostScenario(
        "chatloop-one-compact",
        CHAT_LOOP,
        ("M1",),
        "one #compact: the new session's file names the old one; one reboot",
        ("BCL-5", "BCL-8"),
        ("chatloop-compact", "chatloop-fresh"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatAsk(), ChatCompact("b"), ChatAsk(), ChatExit(), ask="b"
        ),
    ),
    HostScenario(
        "chatloop-compact-parent",
        CHAT_LOOP,
        ("M1",),
        "the session that was compacted, asked about itself: its child is not its history; none",
        ("BCL-5",),
        ("chatloop-fresh", "chatloop-middle"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatAsk(), ChatCompact("b"), ChatAsk(), ChatExit(), ask="a"
        ),
        comment="a.md holds the summary #compact wrote (BCL-5); b.md names it (BCL-4).",
    ),
    HostScenario(
        "chatloop-resume",
        CHAT_LOOP,
        ("M1",),
        "a session resumed with --resume in a new loop; one reboot",
        (),
        ("chatloop-resume",),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatExit(),
            ChatStart("b", resume="a"),
            ChatAsk(),
            ChatExit(),
            ask="b",
        ),
    ),
    HostScenario(
        "chatloop-resume-in-loop",
        CHAT_LOOP,
        ("M1",),
        "#resume of an earlier session inside a running loop; one reboot",
        ("BCL-4", "BCL-8"),
        ("chatloop-resume", "chatloop-other-sessions"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatExit(),
            ChatStart("b"),
            ChatAsk(),
            ChatResume("a", "c"),
            ChatAsk(),
            ChatExit(),
            ask="c",
        ),
        comment="b.md, the session running when the user typed #resume, stays as it was: 0.",
    ),
    HostScenario(
        "chatloop-chain",
        CHAT_LOOP,
        ("M1",),
        "two #compact then a --resume in a new loop: a chain of three restorations; three reboots",
        ("BCL-4",),
        ("chatloop-chain", "chatloop-compact", "chatloop-resume"),
        _chat_chain(ask="d"),
    ),
    HostScenario(
        "chatloop-chain-middle",
        CHAT_LOOP,
        ("M1",),
        "the second file of a chain of four, asked about: one reboot",
        ("BCL-4",),
        ("chatloop-middle", "chatloop-compact"),
        _chat_chain(ask="b"),
    ),
    HostScenario(
        "chatloop-chain-crlf",
        CHAT_LOOP,
        ("M1",),
        "a chain written on Windows (CRLF line ends, Windows paths); three reboots",
        ("BCL-4",),
        ("chatloop-crlf", "chatloop-chain"),
        _chat_chain(ask="d", windows=True),
    ),
    HostScenario(
        "chatloop-other-sessions",
        CHAT_LOOP,
        ("M1",),
        "a folder of two chains, a fresh session and notes; the asked chain's two reboots",
        ("BCL-4",),
        ("chatloop-other-sessions", "chatloop-chain", "chatloop-resume"),
        _chat(
            ChatStart("x"),
            ChatAsk(),
            ChatCompact("y"),
            ChatAsk(),
            ChatExit(),
            ChatStart("a"),
            ChatAsk(),
            ChatCompact("b"),
            ChatAsk(),
            ChatExit(),
            ChatStart("f"),
            ChatAsk(),
            ChatExit(),
            ChatStart("c", resume="b"),
            ChatAsk(),
            ChatExit(),
            ChatStart("z", resume="y"),
            ChatAsk(),
            ChatCompact("w"),
            ChatExit(),
            ChatExtra("notes.md", NOTES_MD),
            ask="c",
        ),
    ),
    HostScenario(
        "chatloop-quoted",
        CHAT_LOOP,
        ("M1",),
        "a fresh session whose user pasted a Resumed From line, a restored section and "
        "summary markers; none",
        ("BCL-5",),
        ("chatloop-quoted", "chatloop-fresh"),
        _chat(ChatStart("a"), ChatAsk(), ChatAsk("restored"), ChatExit(), ask="a"),
    ),
    HostScenario(
        "chatloop-quoted-compact",
        CHAT_LOOP,
        ("M1",),
        "a #compact of a session whose user pasted summary markers: the host cuts the pasted "
        "summary and restores all the same; one reboot",
        ("BCL-5",),
        ("chatloop-quoted", "chatloop-compact"),
        _chat(
            ChatStart("a"),
            ChatAsk("restored"),
            ChatCompact("b"),
            ChatAsk("restored"),
            ChatExit(),
            ask="b",
        ),
        comment="The first start marker and the first end marker of a.md are the pasted ones.",
    ),
    HostScenario(
        "chatloop-failed-compact",
        CHAT_LOOP,
        ("M1",),
        "a #compact whose summary failed and one whose restoration prompt failed: the loop goes "
        "on in the same file; none",
        ("BCL-5",),
        ("chatloop-failed-compact", "chatloop-fresh"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatCompact(done=False, fails="summary"),
            ChatAsk(),
            ChatCompact(done=False, fails="restore"),
            ChatAsk(),
            ChatExit(),
            ask="a",
        ),
    ),
    HostScenario(
        "chatloop-failed-extract",
        CHAT_LOOP,
        ("M1",),
        "a #compact whose summary could not be cut out (a pasted end marker comes first), then "
        "no further save; none",
        ("BCL-5",),
        ("chatloop-failed-compact", "chatloop-quoted"),
        _chat(
            ChatStart("a"),
            ChatAsk("end-marker"),
            ChatCompact(done=False, fails="extract"),
            ask="a",
        ),
        comment="The file ends with the summary #compact saved; the session was never restored.",
    ),
    HostScenario(
        "chatloop-m0",
        CHAT_LOOP,
        ("M0",),
        "a session file of the chat loop before 1.6.0, which could not compact; none",
        ("BCL-2",),
        ("chatloop-m0",),
        _chat(ChatStart("a"), ask="a"),
    ),
    HostScenario(
        "chatloop-missing-link",
        CHAT_LOOP,
        ("M1",),
        "the first session of a chain was deleted: the chain cannot be walked; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "chatloop-chain", "rejection"),
        _chat_chain(ChatDelete("a"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-cycle",
        CHAT_LOOP,
        ("M1",),
        "an edit makes two restored sessions name each other: a cycle; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-cycle", "rejection"),
        _chat_chain(ChatRelink("b", "c"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-same-second",
        CHAT_LOOP,
        ("M1",),
        "two #compact within one second: the second session's file overwrote the first and "
        "names itself; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-same-second", "chatloop-cycle", "rejection"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatCompact("b"),
            ChatCompact("c", same_second=True),
            ChatAsk(),
            ChatExit(),
            ask="c",
        ),
    ),
    HostScenario(
        "chatloop-parent-outside",
        CHAT_LOOP,
        ("M1",),
        "a restored session whose parent id leads out of its folder; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("d", "outside"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-section-disagrees",
        CHAT_LOOP,
        ("M1",),
        "a restored session whose section names another session than its header; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "disagree"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-parent-other-id",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file holds another session id; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("b", "other-id"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-parent-not-session",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file lost its title line; rejected",
        ("BCL-6", "BCL-1", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "not-session"), ask="d"),
        reject="E-CHAIN",
    ),
    HostScenario(
        "chatloop-notes",
        CHAT_LOOP,
        ("M1",),
        "a markdown file of notes beside the sessions, asked about: no session; rejected",
        ("BCL-1", "HST-4", "ERR-13", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatExit(), ChatExtra("notes.md", NOTES_MD), ask="notes.md"
        ),
        reject="E-HOST",
    ),
    HostScenario(
        "chatloop-long-paste",
        CHAT_LOOP,
        ("M1",),
        "a restored session into which the user pasted a 150 KiB log; one reboot",
        ("BCL-7",),
        ("chatloop-compact",),
        _chat(ChatStart("a"), ChatAsk(), ChatCompact("b"), ChatAsk("long"), ChatExit(), ask="b"),
        comment="Only the header and the first section are read (BCL-7).",
    ),
    HostScenario(
        "chatloop-long-header",
        CHAT_LOOP,
        ("M1",),
        "a markdown file whose '---' comes after its first 64 lines: no session; rejected",
        ("BCL-1", "BCL-7", "HST-4", "ERR-13", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(ChatExtra("long.md", LONG_HEADER), ask="long.md"),
        reject="E-HOST",
    ),
    HostScenario(
        "chatloop-empty",
        CHAT_LOOP,
        ("M1",),
        "an empty .md file: rejected",
        ("BCL-1", "ERR-1", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(ChatExtra("empty.md", b""), ask="empty.md"),
        reject="E-EMPTY",
    ),
    # -- no host -------------------------------------------------------------------------
    HostScenario(
        "unknown-host-object",
        None,
        ("none",),
        "a JSON lines file whose first object has no kind, type or id: rejected",
        ("HST-4", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"foo":1}\n{"type":"compacted","payload":{"message":"x"}}\n',
        reject="E-HOST",
    ),
    HostScenario(
        "unknown-host-title-row",
        None,
        ("none",),
        "a first record shaped like a Claude Code title row without leafUuid: rejected",
        ("HST-4", "HST-2", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"type":"summary","summary":"A title","timestamp":"2026-06-01T10:00:00.000Z"}\n'
        b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s1"}\n',
        reject="E-HOST",
        comment="HST-2 knows a summary row by its string leafUuid (CLC-1); a string timestamp "
        "makes a Codex C0 header only with a string id and no type.",
    ),
    HostScenario(
        "unknown-host-no-uuid",
        None,
        ("none",),
        "a first record with a type and a sessionId but no uuid: rejected",
        ("HST-4", "HST-2", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"type":"user","sessionId":"s1","message":{"role":"user","content":"hi"}}\n'
        b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s1"}\n',
        reject="E-HOST",
        comment="HST-2 knows a Claude Code conversation record by a string uuid and a string "
        "sessionId together (CLC-1).",
    ),
    HostScenario(
        "empty-file",
        None,
        ("none",),
        "an empty file is no host's: VS Code's rules reject it at line 0",
        ("ERR-1", "ERR-10"),
        ("rejection",),
        raw=b"",
        reject="E-EMPTY",
    ),
)
