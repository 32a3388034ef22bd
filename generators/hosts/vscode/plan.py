"""A scenario's plan, and the expected counts computed from the plan alone.

A plan is what the user does (send turns, remove, retry, flag or fork requests, churn the input
box) and what each turn's compactions end as. The expected count never looks at written bytes:
it works out, from the plan, what every request that remains at the end STORES in its era
(`stored`), then applies spec 2.0 to that (`expected_reboots`): per request the compaction
events in the order of SUM-8 — (a) the `summaries[]` texts, (b) per round its `summary` then its
provider `compaction.id`, (c) `summary.text` — de-duplicated within the request, and a reboot
whenever an event's key differs from the previous event's key (CNT-2). Requests flagged for
whole removal are skipped when the flag reached the file (CNT-5, UNC-6).

`expected_reboots_v1` gives the spec 1.0 count of the same plan (only requests with a completed
English marker or a completed `/compact`, their summaries only, rounds never read, flags
ignored), so a case can say when 2.0 changed its count (`count-changed-v2`). Markers never
change the 2.0 count; the plan still states the phantoms it expects (`expected_phantoms`, OUT-3)
as information.

Where a compaction anchors (SUM-6, UNC-1; Copilot chooses the anchor in its
`summarizedConversationHistory.tsx`): a compaction that
runs after `at` tool rounds of its request anchors on round `at - 1` of that request when
`at >= 2`, and the round keeps the summary text (`toolCallRounds[at-1].summary`); with `at <= 1`
it anchors on the previous request's last round, and nothing lands in this request's rounds.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

TRUNCATED = "[VS Code: value truncated for persistence; original {n} chars]"


@dataclass(frozen=True)
class Compaction:
    """One compaction inside a turn.

    `summary` is the text when it succeeded, None when summarization failed (the marker still
    completes: a phantom, or in the `summaries` era a failure entry). `cancelled` means the user
    stopped the turn while it ran, so the in-progress text stays on disk; a cancelled compaction
    ends its turn. `at` is how many tool rounds of the request ran before it (None: the plan's
    default, see `positions`). `background` means it applies a background pass that finished
    earlier (0.38+): a completed marker only, and in the `summaries` era one entry with source
    "background" anchored on the earlier request's round; nothing in the singular era.
    """

    summary: str | None
    cancelled: bool = False
    at: int | None = None
    background: bool = False


@dataclass(frozen=True)
class Turn:
    """One request the user sends, and what happens while it runs."""

    prompt: str
    compactions: tuple[Compaction, ...] = ()
    manual: str | None = None  # `/compact`: the summary text it stores
    tools: int = 2  # tool rounds in the response
    stray_summary: str | None = None  # a summary stored although no marker was shown
    provider: tuple[str, ...] = ()  # provider compaction ids on the last rounds (SUM-7)
    mention_marker: bool = False  # the marker text quoted in the prompt and the answer
    marker_first: bool = False  # the first compaction happens before any tool round
    edits: bool = False  # a file edit group opens first and is marked done when the turn ends
    error: str | None = None  # "fetch" (UNC-1) or "no-response" (UNC-2): the result is an error
    retry: str | None = None  # "filter" or "network": the last fetch was retried (marker cleared)
    background_pass: str | None = None  # a background pass finished: its text on the last round
    other_task: bool = False  # a "Collecting workspace information" progress task (MRK-3)

    @property
    def cancelled(self) -> bool:
        return any(c.cancelled for c in self.compactions)

    @property
    def server_compaction(self) -> bool:
        return bool(self.provider)


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
    lost its previous state leaves (or a copy tool that concatenated two versions).
    """


@dataclass(frozen=True)
class TypeUntilRewrite:
    """Typing in the input box, saved each time, until the writer rewrites the whole file.

    Keeps a long session's file small (one kind-0 line and a short tail) without changing
    any request; it also brings flags of finished requests to disk (UNC-6).
    """


@dataclass(frozen=True)
class Flag:
    """The finished request at `index` is flagged for removal on the next send (CNT-5/CNT-6).

    `partial`: `shouldBeRemovedOnSend = {requestId, afterUndoStop}` (a checkpoint inside the
    response: the request stays). Otherwise `{requestId}`, or with `hidden` the legacy
    `isHidden: true` (flat `.json` only). In a `.jsonl` the flag of a finished (sealed) request
    reaches the file only with the next kind-0 line or when the request is pushed again.
    """

    index: int
    partial: bool = False
    hidden: bool = False


@dataclass(frozen=True)
class Fork:
    """`/fork`: the file from here on is a new session cloned from this one (UNC-7).

    New sessionId, title "Forked: <title>", bare-UUID requestIds, new responseIds, every
    modelState Complete, removal flags cleared; responses and results copied verbatim.
    """

    title: str


Step = (
    Send | Remove | Retry | Churn | Title | PendingEdits | Reinit | TypeUntilRewrite | Flag | Fork
)


@dataclass(frozen=True)
class Request:
    """A request of the final state, as the plan sees it."""

    turn: Turn
    flag: str | None = None  # "whole", "partial" or "hidden"
    flag_on_disk: bool = False
    forked: bool = False  # copied by a fork: modelState Complete


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    summary_field: str  # the era's field: "summary" or "summaries"
    notes: tuple[str, ...] = field(default=())
    locale: str = "en"  # the display language of the markers (ERA-3)
    container: str = "jsonl"  # "jsonl", "json" (flat session) or "export" (LEG-3)
    truncate_over: int | None = None  # strings longer than this are stored truncated (UNC-8)

    def final_requests(self) -> list[Request]:
        """The requests still in the session at the end, with their flags."""
        out: list[Request] = []
        flat = self.container != "jsonl"
        for step in self.steps:
            if isinstance(step, Send):
                out.append(Request(step.turn))
            elif isinstance(step, Remove):
                del out[step.index]
                out[step.index :] = [_pushed(r) for r in out[step.index :]]
            elif isinstance(step, Retry):
                del out[step.index :]
                out.append(Request(step.turn))
            elif isinstance(step, Flag):
                kind = "hidden" if step.hidden else "partial" if step.partial else "whole"
                old = out[step.index]
                out[step.index] = Request(old.turn, kind, flat, old.forked)
            elif isinstance(step, TypeUntilRewrite | Reinit) or (
                isinstance(step, Churn) and step.saves > 1024
            ):
                out = [_pushed(r) for r in out]
            elif isinstance(step, Fork):
                out = [Request(r.turn, forked=True) for r in out]
        return out

    def final_turns(self) -> list[Turn]:
        """The turns whose requests are still in the session at the end."""
        return [r.turn for r in self.final_requests()]


def _pushed(request: Request) -> Request:
    """The request written again whole: its flag (if any) is now in the file."""
    if request.flag is None:
        return request
    return Request(request.turn, request.flag, True, request.forked)


def positions(turn: Turn) -> list[int]:
    """How many tool rounds ran before each compaction of the turn (non-decreasing).

    Default: the last compactions of the turn, one per round boundary, ending after the last
    tool round (n compactions in a turn of T tool rounds run after T-n+1 ... T rounds);
    `marker_first` moves the first one before any tool round.
    """
    count = len(turn.compactions)
    out: list[int] = []
    for k, compaction in enumerate(turn.compactions):
        default = turn.tools + 1 - count + k
        if k == 0 and turn.marker_first:
            default = 0
        at = compaction.at if compaction.at is not None else default
        at = max(0, min(turn.tools, at))
        out.append(max(at, out[-1]) if out else at)
    return out


# -- what a request stores ------------------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """What one request of the final state holds that the count and the markers read."""

    summaries: tuple[str, ...] | None  # texts of metadata.summaries ("" = failure entry)
    summary: str | None  # metadata.summary.text
    rounds: tuple[tuple[str | None, str | None], ...] | None  # (summary, compaction id)
    error: bool  # result.errorDetails
    cancelled: bool  # modelState Cancelled
    completed_marker: bool  # a completed marker (any locale) is in the response
    english_marker: bool  # ... in English (what spec 1.0 recognised)
    in_progress_marker: bool
    manual: bool  # a completed `/compact`
    skipped: bool  # flagged for whole removal, and the flag is in the file (CNT-5)


def truncated(text: str, limit: int | None) -> str:
    """A string as VS Code stores it when it is longer than `limit` (UNC-8)."""
    if limit is not None and len(text) > limit:
        return TRUNCATED.format(n=len(text))
    return text


def stored(request: Request, plan: Plan) -> Stored:
    """What the request's result and response hold at the end (SUM-1 to SUM-7, MRK-4, UNC-1 to
    UNC-5)."""
    turn = request.turn
    array = plan.summary_field == "summaries"
    skipped = request.flag in ("whole", "hidden") and request.flag_on_disk
    cancelled = turn.cancelled and not request.forked

    def keep(text: str | None) -> str | None:
        return None if text is None else truncated(text, plan.truncate_over)

    if turn.manual is not None:
        return Stored(None, keep(turn.manual), (), False, False, False, False, False, True, skipped)
    where = positions(turn)
    rounds: list[list[str | None]] = [[None, None] for _ in range(turn.tools)]
    entries: list[str] = []
    last: str | None = None  # the singular field: the last summary pushed on the turn
    completed = in_progress = False
    for compaction, at in zip(turn.compactions, where, strict=True):
        if compaction.cancelled:
            in_progress = True
            break
        cleared = turn.retry is not None and at == turn.tools
        completed = completed or not cleared
        if compaction.background:
            if compaction.summary:
                entries.append(compaction.summary)  # one entry, source "background"
        elif compaction.summary is None:
            entries.append("")  # a failure entry (the array era only)
        else:
            if at >= 2:
                rounds[at - 1][0] = compaction.summary
            entries += [compaction.summary, compaction.summary]  # the foreground pair
            last = compaction.summary
    if turn.background_pass is not None and turn.tools:
        rounds[-1][0] = turn.background_pass
    for offset, ident in enumerate(turn.provider):
        rounds[max(0, turn.tools - len(turn.provider) + offset)][1] = ident
    if turn.stray_summary is not None:
        entries.append(turn.stray_summary)
        last = turn.stray_summary
    if in_progress and plan.locale != "en":
        completed = True  # no translated in-progress text is known: the completed one is used
        in_progress = False
    english = completed and plan.locale == "en"
    marker = (completed, english, in_progress)
    if turn.cancelled:
        return Stored(None, None, None, False, cancelled, *marker, False, skipped)
    round_view = tuple((keep(s), i) for s, i in rounds)
    if turn.error == "fetch":
        return Stored(None, None, round_view, True, False, *marker, False, skipped)
    if turn.error is not None:
        return Stored(None, None, None, True, False, *marker, False, skipped)
    if array:
        texts = tuple(keep(t) or "" for t in entries)
        return Stored(texts or None, None, round_view, False, False, *marker, False, skipped)
    return Stored(None, keep(last), round_view, False, False, *marker, False, skipped)


Key = tuple[str, str]


def events(store: Stored) -> list[Key]:
    """SUM-8: the request's compaction events in order, each key once."""
    keys: list[Key] = []
    for text in store.summaries or ():
        if text:
            keys.append(("text", text))
    for summary, ident in store.rounds or ():
        if summary:
            keys.append(("text", summary))
        if ident:
            keys.append(("provider", ident))
    if store.summary:
        keys.append(("text", store.summary))
    return list(dict.fromkeys(keys))


def walk(plan: Plan) -> list[tuple[int, Stored]]:
    """CNT-1: (index in the final requests array, what it stores) of the requests counted."""
    out = []
    for index, request in enumerate(plan.final_requests()):
        store = stored(request, plan)
        if not store.skipped:
            out.append((index, store))
    return out


def expected_events(plan: Plan) -> list[Key]:
    """The compaction events of the whole walk, in order."""
    return [key for _, store in walk(plan) for key in events(store)]


def expected_summaries(plan: Plan) -> list[str]:
    """The texts of the walk's text events, in order (provider events left out)."""
    return [value for kind, value in expected_events(plan) if kind == "text"]


def _changes(keys: list[Key] | list[str]) -> int:
    count = 0
    previous: object = None
    for key in keys:
        if key != previous:
            count += 1
        previous = key
    return count


def expected_reboots(plan: Plan) -> int:
    """CNT-2/CNT-3 (spec 2.0): each event whose key differs from the previous event's key."""
    return _changes(expected_events(plan))


def v1_summaries(plan: Plan) -> list[str]:
    """The summary texts spec 1.0 read: requests with a completed English marker or a completed
    /compact; `summaries[]` non-empty texts when stored, else `summary.text`; no flags."""
    texts: list[str] = []
    for request in plan.final_requests():
        store = stored(request, plan)
        if not (store.english_marker or store.manual):
            continue
        if store.summaries is not None:
            texts += [t for t in store.summaries if t]
        elif store.summary:
            texts.append(store.summary)
    return texts


def expected_reboots_v1(plan: Plan) -> int:
    """The spec 1.0 count of the plan (consecutive equal texts count once)."""
    return _changes(v1_summaries(plan))


def phantom_reason(store: Stored) -> str | None:
    """OUT-3: why a request with a marker has no event (None: not a phantom)."""
    if events(store) or not (store.completed_marker or store.in_progress_marker or store.manual):
        return None
    if store.completed_marker or store.manual:
        if any(t == "" for t in store.summaries or ()):
            return "failed"
        if store.error and store.rounds and store.summaries is None and store.summary is None:
            return "lost-after-error"
        return "cancelled" if store.cancelled else "unknown"
    return "cancelled" if store.cancelled else "in-progress-only"


def expected_phantoms(plan: Plan) -> list[tuple[int, str]]:
    """(request index, reason) of every phantom of the walk (informative)."""
    out = []
    for index, store in walk(plan):
        reason = phantom_reason(store)
        if reason is not None:
            out.append((index, reason))
    return out


def expected_reboots_possible(plan: Plan) -> int:
    """OUT-3: the count plus the compactions lost after an error."""
    lost = sum(1 for _, reason in expected_phantoms(plan) if reason == "lost-after-error")
    return expected_reboots(plan) + lost


def plan_note(plan: Plan) -> str:
    """The plan's informative expectations in words, for a case's comment."""
    phantoms = expected_phantoms(plan)
    shown = ", ".join(f"request {i} {reason}" for i, reason in phantoms) or "none"
    return (
        f"plan: phantoms {shown}; reboots_possible {expected_reboots_possible(plan)}; "
        f"spec 1.0 count {expected_reboots_v1(plan)}"
    )


def is_compaction_turn(turn: Turn) -> bool:
    """A completed marker (a compaction that was not cancelled) or `/compact`."""
    return turn.manual is not None or any(not c.cancelled for c in turn.compactions)


def stored_summaries(turn: Turn, summary_field: str) -> list[str]:
    """The non-empty summary texts the turn's result entries hold (not its rounds)."""
    store = stored(Request(turn), Plan((), summary_field))
    if store.summaries is not None:
        return [t for t in store.summaries if t]
    return [store.summary] if store.summary else []


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
    """The feature tags the plan itself shows (spec/tags.toml), read off the final requests."""
    tags: set[str] = set()
    requests = plan.final_requests()
    turns = [r.turn for r in requests]
    texts = expected_summaries(plan)
    if any(a == b for a, b in itertools.pairwise(texts)):
        tags.add("repeat-summary")
    if any(a == c != b for a, b, c in zip(texts, texts[1:], texts[2:], strict=False)):
        tags.add("aba")
    flags = [is_compaction_turn(t) for t in turns]
    if any(a and b for a, b in itertools.pairwise(flags)):
        tags.add("back-to-back")
    if expected_reboots(plan) != expected_reboots_v1(plan):
        tags.add("count-changed-v2")
    for request in requests:
        turn = request.turn
        store = stored(request, plan)
        completed = [c for c in turn.compactions if not c.cancelled]
        if len(completed) > 1:
            tags.add("multi-compaction")
        if phantom_reason(store) is not None and (store.completed_marker or store.manual):
            tags.add("phantom")
        if turn.cancelled:
            tags.add("cancelled")
        if any(t == "" for t in store.summaries or ()):
            tags.add("failed-summary")
        if turn.manual is not None:
            tags.add("manual-compact")
        if events(store) and not (store.completed_marker or store.manual):
            tags.add("summary-without-marker")
        if turn.provider and store.rounds:
            tags |= {"server-compaction", "provider-compaction"}
        if turn.mention_marker:
            tags.add("marker-text-elsewhere")
        if any(s for s, _ in store.rounds or ()):
            tags.add("round-summary")
            entry = set(store.summaries or ()) | {store.summary}
            if any(s and s not in entry for s, _ in store.rounds or ()):
                tags.add("round-summary-only")
        foreground = [c for c in completed if c.summary and not c.background]
        if plan.summary_field == "summaries" and foreground and store.summaries:
            tags.add("summaries-pair")
        if turn.retry is not None and completed and not store.completed_marker:
            tags.add("marker-cleared")
        if plan.locale != "en" and store.completed_marker:
            tags.add("localized-marker")
        if turn.other_task:
            tags.add("other-progress-task")
        if any(c.background for c in completed):
            tags.add("background-compaction")
        if turn.background_pass is not None and turn.tools and store.rounds is not None:
            tags.add("unapplied-background")
        if turn.error == "fetch":
            tags.add("error-result")
        elif turn.error is not None:
            tags.add("no-response")
        if request.flag in ("whole", "hidden") and request.flag_on_disk:
            tags.add("removal-flag")
        if request.flag == "hidden" and request.flag_on_disk:
            tags.add("is-hidden")
        if request.flag == "partial" and request.flag_on_disk:
            tags.add("partial-undo")
    if any(isinstance(step, Fork) for step in plan.steps):
        tags.add("fork")
    if plan.container == "export":
        tags.add("export")
    if plan.truncate_over is not None and any(TRUNCATED.split(";")[0] in text for text in texts):
        tags.add("truncated-string")
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
        "count-changed-v2",
        "round-summary",
        "round-summary-only",
        "summaries-pair",
        "provider-compaction",
        "marker-cleared",
        "localized-marker",
        "other-progress-task",
        "background-compaction",
        "unapplied-background",
        "error-result",
        "no-response",
        "removal-flag",
        "is-hidden",
        "partial-undo",
        "fork",
        "export",
        "truncated-string",
    }
)
