"""A task of the Cline family as a plan: its steps in order, and its count.

The expectation comes from the plan alone (spec/hosts/cline.md): in Cline's core one reboot per
answered auto-compact and per accepted /smol (CLN-4, CLN-6), never a truncation (CLN-7), and only
those a checkpoint restore left in the folder (CLN-8); in Roo's line one per completed condense
(CLN-10), a Kilo /smol once (CLN-11); Roo 3.17's summaries and an SDK session that compacted have
no count (CLN-10, CLN-12).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CLINE = "cline"
ROO = "roo-code"
KILO = "kilo-code"


@dataclass(frozen=True)
class Turn:
    """A user message (or a tool round, `tools` tool calls) and the model's answer."""

    text: str = "go on"
    tools: int = 1


@dataclass(frozen=True)
class AutoCompact:
    """Cline's auto-compact (L2): the summarize_task round. `failures`: HTTP errors answered by
    a retry before the summary is answered; `gave_up`: every retry failed, no summary;
    `image_after`: with native parallel tool calls, an image read called beside it, whose
    result (a list of blocks) follows the summary's in the same user message."""

    failures: int = 0
    gave_up: bool = False
    image_after: bool = False


@dataclass(frozen=True)
class Smol:
    """`/smol`: the condense tool's summary, accepted or answered with feedback (CLN-6). In the
    Kilo extension an accepted one also runs Roo's condense (`condense_fails`, CLN-11)."""

    accepted: bool = True
    condense_fails: bool = False


@dataclass(frozen=True)
class Truncate:
    """Cline's legacy truncation: a new deleted range and the one-time note (CLN-7)."""


@dataclass(frozen=True)
class Resume:
    """The task is opened again (`task open`, `-T`): resumption messages appended (CLN-9)."""


@dataclass(frozen=True)
class Restore:
    """A checkpoint restore to the `to`-th turn (1-based, among Turn steps): both files are cut
    after it, and `deleted_api_reqs` is written (CLN-8)."""

    to: int


@dataclass(frozen=True)
class Condense:
    """Roo's condense: `trigger` "manual" (the button), "automatic" (over the threshold) or
    "forced" (after a context-window error; its row has no `condenseId`). One record each."""

    trigger: str = "automatic"
    fails: bool = False


@dataclass(frozen=True)
class EditLast:
    """Roo's line: the user edits (or deletes) the message they sent just before the latest
    condense: the ui is cut at that message's row, so the condense's row goes. Before 3.36 the
    api history is cut at that message's time and the summary, stamped with an earlier kept
    message's time, stays; from 3.36 the summary goes with its row (CLN-8, CLN-10)."""


@dataclass(frozen=True)
class Notice:
    """A ui row that only one line writes and that no count reads (CLN-2's marks): Roo's
    `api_req_retry_delayed` (a retry's countdown), Roo's `auto_approval_max_req_reached` ask,
    Kilo's `payment_required_prompt` ask (its provider's credits ran out), Roo's
    `browser_session_status` (3.34 to 3.47: a browser session opened)."""

    kind: str = "retry"  # "retry", "approval-limit", "payment" or "browser"


@dataclass(frozen=True)
class SlidingWindow:
    """Roo 3.36's truncation fallback: `sliding_window_truncation`, no summary (CLN-10)."""


@dataclass(frozen=True)
class SdkCompact:
    """A compaction of a Cline SDK session (CLI 3.x): the compaction file is (over)written."""

    strategy: str = "agentic"


@dataclass(frozen=True)
class StrayCondenseRow:
    """A `condense_context` ui row no completed condense leaves, put in the file by another
    tool: `partial` (the web view's streaming spinner row, `partial: true`, with its
    `contextCondense`) or not (a row with no `contextCondense` object). Never a reboot (CLN-10)."""

    partial: bool = True


Step = (
    Turn
    | AutoCompact
    | Smol
    | Truncate
    | Resume
    | Restore
    | Condense
    | SlidingWindow
    | SdkCompact
    | StrayCondenseRow
    | EditLast
    | Notice
)


@dataclass(frozen=True)
class TaskPlan:
    """One task: who writes it (`member`), its era, its steps. `version`: the extension core's
    version task_metadata.json names (Cline; None writes no environment_history). `native`:
    tool results as native `tool_result` blocks rather than XML-style text."""

    member: str
    era: str
    steps: tuple[Step, ...]
    version: str | None = None
    native: bool = False
    task_id: str = "1764200000000"
    title: str = "make the parser handle CRLF line ends"
    drop_api: bool = False  # the task folder lost api_conversation_history.json
    api_not_array: bool = False  # another tool rewrote the api history as an object (CLN-13)
    api_cut: bool = False  # the api history cut short (an interrupted copy): E-JSON (CLN-13)
    # another tool's edit left values that are no objects among the rows, the messages and a
    # result's blocks: no message, skipped (CLN-1)
    strays: bool = False
    # Roo's line: checkpoints on (the default) write a checkpoint_saved row after the first turn,
    # and Kilo's completion row its metadata.kiloCode; off, neither is written
    checkpoints: bool = True
    ui_resaved: bool = False  # an editor re-saved ui_messages.json with a BOM and a first newline
    # Roo's line: how a condense leaves the api history (`roo_shape`); None: the era's usual one
    roo_history: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


# CLN-10: how each Roo release puts a summary into the api history (RooCodeInc/Roo-Code
# src/core/condense/index.ts): "inserted" 3.17.0-3.28.0 (nothing deleted), "rebuilt" 3.28.1-3.35
# (only the latest summary left), "tagged" 3.36-3.42 and "fresh" 3.43 on (nothing deleted, the
# replaced messages tagged `condenseParent`). The Kilo extension took Roo's condense with it.
ROO_SHAPES = ("inserted", "rebuilt", "tagged", "fresh")
ERA_SHAPES = {"R1": "inserted", "KX0": "inserted", "R2": "rebuilt", "KX1": "rebuilt"}


def roo_shape(plan: TaskPlan) -> str:
    """The plan's api-history shape of a condense: its own, else its era's usual one."""
    shape = plan.roo_history or ERA_SHAPES.get(plan.era, "fresh")
    assert shape in ROO_SHAPES, shape
    return shape


def kept_steps(plan: TaskPlan) -> list[Step]:
    """The steps whose records the folder holds: a Restore cuts everything after its turn."""
    steps: list[Step] = []
    for step in plan.steps:
        if isinstance(step, Restore):
            turns = 0
            for index, kept in enumerate(steps):
                turns += isinstance(kept, Turn)
                if turns == step.to:
                    steps = steps[: index + 1]
                    break
            continue
        if isinstance(step, EditLast):  # the latest condense and what followed it are cut
            last = max(i for i, kept in enumerate(steps) if isinstance(kept, Condense))
            steps = steps[:last]
            continue
        steps.append(step)
    return steps


def orphan_summary(plan: TaskPlan) -> bool:
    """CLN-10: an edit before 3.36 leaves the rewound condense's summary without its row."""
    return any(isinstance(s, EditLast) for s in plan.steps) and roo_shape(plan) in (
        "inserted",
        "rebuilt",
    )


def _is_reboot(plan: TaskPlan, step: Step) -> bool:
    if isinstance(step, AutoCompact):
        return not step.gave_up
    if isinstance(step, Smol):
        return step.accepted and not (plan.member == KILO and step.condense_fails)
    if isinstance(step, Condense):
        return not step.fails
    return False


def expected(plan: TaskPlan) -> tuple[str, int | str]:
    """("count", N) or ("reject", code): what the spec says of the folder the plan leaves."""
    if plan.drop_api or plan.api_not_array:
        return "reject", "E-READ"
    if plan.api_cut:
        return "reject", "E-JSON"
    kept = kept_steps(plan)
    if plan.era == "S1":
        compacted = any(isinstance(step, SdkCompact) for step in kept)
        return ("reject", "E-UNMEASURABLE") if compacted else ("count", 0)
    reboots = sum(_is_reboot(plan, step) for step in kept)
    if plan.era in ("R1", "KX0") and reboots:
        return "reject", "E-UNMEASURABLE"  # CLN-10: a summary the ui does not record
    if orphan_summary(plan) and not reboots:
        return "reject", "E-UNMEASURABLE"  # CLN-10: the summary outlived every row
    return "count", reboots
