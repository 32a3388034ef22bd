"""A scenario's plan, and the expected count computed from the plan alone.

A plan is what the user does (send turns, remove or retry requests, churn the input box) and
what each turn's compactions end as. The expected count never looks at written bytes: it walks
the turns that remain at the end, takes the summary texts each turn stores in its era, and
applies CNT-2/CNT-3 (a summary counts when its text differs from the previous one; phantoms
change nothing).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Compaction:
    """One automatic compaction inside a turn.

    `summary` is the text when it succeeded, None when summarization failed (the marker still
    completes: a phantom). `cancelled` means the user stopped the turn while it ran, so the
    in-progress text stays on disk; a cancelled compaction ends its turn.
    """

    summary: str | None
    cancelled: bool = False


@dataclass(frozen=True)
class Turn:
    """One request the user sends, and what happens while it runs."""

    prompt: str
    compactions: tuple[Compaction, ...] = ()
    manual: str | None = None  # `/compact`: the summary text it stores
    tools: int = 2  # tool rounds in the response
    stray_summary: str | None = None  # a summary stored although no marker was shown
    server_compaction: bool = False  # compaction recorded only in toolCallRounds
    mention_marker: bool = False  # the marker text quoted in the prompt and the answer
    marker_first: bool = False  # the first compaction happens before any tool round
    edits: bool = False  # a file edit group opens first and is marked done when the turn ends

    @property
    def cancelled(self) -> bool:
        return any(c.cancelled for c in self.compactions)


@dataclass(frozen=True)
class Send:
    turn: Turn


@dataclass(frozen=True)
class Remove:
    """The request at `index` is removed (from the middle or the end)."""

    index: int


@dataclass(frozen=True)
class Retry:
    """The request at `index` is sent again: it and every later request give way to `turn`."""

    index: int
    turn: Turn


@dataclass(frozen=True)
class Churn:
    """`saves` saves that only change the input box (typing), to grow the entry counter."""

    saves: int


@dataclass(frozen=True)
class Title:
    text: str


@dataclass(frozen=True)
class PendingEdits:
    """hasPendingEdits becomes `value`; None means undefined (a Set line without `v`)."""

    value: bool | None


@dataclass(frozen=True)
class Reinit:
    """The next save appends a fresh Initial line instead of a diff (a later kind-0 line).

    VS Code replaces the file when it writes an Initial; an appended one is what a writer that
    lost its previous state leaves (or a copy tool that concatenated two versions). The model
    does not change, so the expectation does not either.
    """


@dataclass(frozen=True)
class TypeUntilRewrite:
    """Typing in the input box, saved each time, until the writer rewrites the whole file.

    Keeps a long session's file small (one kind-0 line and a short tail) without changing
    any request.
    """


Step = Send | Remove | Retry | Churn | Title | PendingEdits | Reinit | TypeUntilRewrite


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    summary_field: str  # the era's field: "summary" or "summaries"
    notes: tuple[str, ...] = field(default=())

    def final_turns(self) -> list[Turn]:
        """The turns whose requests are still in the session at the end."""
        turns: list[Turn] = []
        for step in self.steps:
            if isinstance(step, Send):
                turns.append(step.turn)
            elif isinstance(step, Remove):
                del turns[step.index]
            elif isinstance(step, Retry):
                del turns[step.index :]
                turns.append(step.turn)
        return turns


def is_compaction_turn(turn: Turn) -> bool:
    """MRK-5: a completed marker (any compaction that was not cancelled) or `/compact`."""
    return turn.manual is not None or any(not c.cancelled for c in turn.compactions)


def stored_summaries(turn: Turn, summary_field: str) -> list[str]:
    """The non-empty summary texts the turn's result holds (SUM-1..SUM-3).

    A cancelled turn stores no metadata. `/compact` stores its one summary. Otherwise the
    singular era keeps only the last successful summary of the turn, the array era all of them
    (failed ones as empty text, which never count).
    """
    if turn.cancelled:
        return []
    if turn.manual is not None:
        return [turn.manual]
    good = [c.summary for c in turn.compactions if c.summary]
    return good if summary_field == "summaries" else good[-1:]


def expected_summaries(plan: Plan) -> list[str]:
    """CNT-1: the summary texts of the walk, in order."""
    texts: list[str] = []
    for turn in plan.final_turns():
        if is_compaction_turn(turn):
            texts.extend(stored_summaries(turn, plan.summary_field))
    return texts


def expected_reboots(plan: Plan) -> int:
    """CNT-2/CNT-3: each summary whose text differs from the previous summary is a reboot."""
    count = 0
    previous: str | None = None
    for text in expected_summaries(plan):
        if text != previous:
            count += 1
        previous = text
    return count


def removed_turns(plan: Plan) -> tuple[list[Turn], list[Turn]]:
    """Turns that left the session: (removed by Remove, replaced by Retry)."""
    turns: list[Turn] = []
    removed: list[Turn] = []
    replaced: list[Turn] = []
    for step in plan.steps:
        if isinstance(step, Send):
            turns.append(step.turn)
        elif isinstance(step, Remove):
            removed.append(turns.pop(step.index))
        elif isinstance(step, Retry):
            replaced += turns[step.index :]
            del turns[step.index :]
            turns.append(step.turn)
    return removed, replaced


def plan_tags(plan: Plan) -> set[str]:
    """The feature tags the plan itself shows (spec/tags.txt), read off the final turns."""
    tags: set[str] = set()
    turns = plan.final_turns()
    texts = expected_summaries(plan)
    if any(a == b for a, b in itertools.pairwise(texts)):
        tags.add("repeat-summary")
    if any(a == c != b for a, b, c in zip(texts, texts[1:], texts[2:], strict=False)):
        tags.add("aba")
    flags = [is_compaction_turn(t) for t in turns]
    if any(a and b for a, b in itertools.pairwise(flags)):
        tags.add("back-to-back")
    for turn in turns:
        completed = [c for c in turn.compactions if not c.cancelled]
        if len(completed) > 1:
            tags.add("multi-compaction")
        if is_compaction_turn(turn) and not stored_summaries(turn, plan.summary_field):
            tags.add("phantom")
        if turn.cancelled:
            tags.add("cancelled")
        failed = any(c.summary is None for c in completed)
        if failed and plan.summary_field == "summaries" and not turn.cancelled:
            tags.add("failed-summary")
        if turn.manual is not None:
            tags.add("manual-compact")
        if turn.stray_summary is not None:
            tags.add("summary-without-marker")
        if turn.server_compaction:
            tags.add("server-compaction")
        if turn.mention_marker:
            tags.add("marker-text-elsewhere")
    removed, replaced = removed_turns(plan)
    if any(is_compaction_turn(t) for t in removed):
        tags.add("request-removed")
    if any(is_compaction_turn(t) for t in replaced):
        tags.add("request-replaced")
    return tags


# Tags that `plan_tags` decides; a scenario may declare them only when its plan shows them.
PLAN_TAGS = frozenset(
    {
        "repeat-summary",
        "aba",
        "back-to-back",
        "multi-compaction",
        "phantom",
        "cancelled",
        "failed-summary",
        "manual-compact",
        "summary-without-marker",
        "server-compaction",
        "marker-text-elsewhere",
        "request-removed",
        "request-replaced",
    }
)
