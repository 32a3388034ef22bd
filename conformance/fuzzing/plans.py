"""Hypothesis strategies over the generator's plan types, for differential fuzzing.

The strategy draws the *plan* (generators.plan: turns, compactions, removals, retries, churn...)
and how it is written (era, container, save cadence, writer seed, marker kind, a torn tail), so
Hypothesis shrinks the plan itself: fewer steps, fewer compactions, summary labels towards "A",
simpler turns. Playing a drawn case gives the bytes; the expected count comes from the plan
(`generators.plan.expected_reboots`), never from a counter.

Removal and retry indexes are drawn as free integers and fitted to the requests alive at that
step when the plan is compiled, so any shrink of the step list still compiles to a valid plan.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import strategies as st

from ...generators.session import eras as era_table
from ...generators.session.eras import Era, eras
from ...generators.session.plan import (
    Churn,
    Compaction,
    Flag,
    Fork,
    PendingEdits,
    Plan,
    Reinit,
    Remove,
    Retry,
    Send,
    Step,
    Title,
    Turn,
    TypeUntilRewrite,
    expected_reboots,
)
from ...generators.session.player import Player
from ...generators.session.texts import prompt, summary_text
from ...generators.session.writer import LogWriter

LABELS = "ABCD"
MANUAL_PROMPT = "/compact"
PLACEHOLDER = "?"  # prompts are filled in when the plan is compiled
TORN_LINE = b'{"kind":1,"k":["inputState","inputText"],"v":"and then'


@cache
def summary_of(label: str) -> str:
    """The summary text of a label: equal labels give equal texts (CNT-2 compares texts)."""
    return summary_text(label, random.Random(LABELS.index(label) + 1))


def label_of(text: str) -> str:
    """The label back from a summary text (for titles and explanations)."""
    for label in LABELS:
        if summary_of(label) == text:
            return label
    return "?"


@dataclass(frozen=True)
class FuzzCase:
    """One drawn session: a plan and everything that decides its bytes."""

    plan: Plan
    era: Era
    container: str  # "jsonl" or "json"
    save_rate: float
    writer_seed: int
    old_marker_kind: bool = False  # marker parts of kind progressTask instead of ...Serialized
    torn_tail: bool = False  # an unterminated, unparsable last line (ERR-9); jsonl only
    rewrite_after: int = 1024

    def expected(self) -> dict[str, object]:
        """The normative answer, from the plan alone."""
        return {"outcome": "count", "reboots": expected_reboots(self.plan)}


@dataclass
class Played:
    """The bytes of a played case and what the writer saw while writing them."""

    data: bytes
    rewrites: int  # Initial lines written because the entry counter passed the threshold
    duplicated: bool  # a marker part appears in more than one line (the duplicate artifact)
    marker_copies: dict[tuple[str, int], int] = field(default_factory=dict)


def _marker_test(era: Era) -> Callable[[Any], bool]:
    kinds = {era.marker_kind, era.old_marker_kind}

    def test(part: Any) -> bool:
        if not isinstance(part, dict):
            return False
        content = part.get("content")
        return (
            isinstance(content, dict)
            and part.get("kind") in kinds
            and content.get("value") == era.completed
        )

    return test


def play_case(case: FuzzCase) -> Played:
    """Play the plan with the VS Code-like writer; the file's bytes (and a torn tail if drawn)."""
    writer = LogWriter(rewrite_after=case.rewrite_after, watch=_marker_test(case.era))
    player = Player(
        case.era,
        case.writer_seed,
        save_rate=case.save_rate,
        marker_kind=case.era.old_marker_kind if case.old_marker_kind else None,
        brief=True,
        writer=writer,
    )
    player.play(case.plan)
    data = player.bytes(case.container)
    if case.container == "jsonl" and case.torn_tail:
        data += TORN_LINE
    return Played(data, writer.rewrites, writer.duplicated(), dict(writer.copies))


def manual_allowed(era: Era) -> bool:
    """`/compact` exists only from its first day, and only in the log container."""
    return "jsonl" in era.containers and era.from_date >= era_table.manual().since_date


# -- the plan -------------------------------------------------------------------------------


def _labels() -> st.SearchStrategy[str]:
    return st.sampled_from(LABELS).map(summary_of)


def _compactions(avoid: frozenset[str]) -> st.SearchStrategy[tuple[Compaction, ...]]:
    # `at` (tool rounds before the compaction) shrinks to None, the plan's default position
    at = st.none() | st.integers(0, 3)
    completed: st.SearchStrategy[Compaction] = st.builds(
        lambda s, n: Compaction(s, at=n), _labels(), at
    )
    if "phantom" not in avoid and "failed-summary" not in avoid:
        completed = completed | st.builds(lambda n: Compaction(None, at=n), at)
    most = 1 if "multi-compaction" in avoid else 3
    cancel = st.just(False) if "cancelled" in avoid else st.booleans()

    def assemble(done: list[Compaction], cancelled: bool) -> tuple[Compaction, ...]:
        tail = (Compaction(None, cancelled=True),) if cancelled else ()
        return (*done, *tail)

    return st.builds(assemble, st.lists(completed, min_size=1, max_size=most), cancel)


def _background_allowed(era: Era) -> bool:
    """Background compaction exists from 0.38 (the eras that have `/compact`)."""
    return manual_allowed(era)


def turns(era: Era, avoid: frozenset[str] = frozenset()) -> st.SearchStrategy[Turn]:
    """One turn; the simplest kinds first, so shrinking moves towards a plain turn."""
    tools = st.integers(0, 2)

    def plain() -> st.SearchStrategy[Turn]:
        return st.builds(lambda n: Turn(PLACEHOLDER, tools=n), tools)

    def automatic() -> st.SearchStrategy[Turn]:
        return st.builds(
            lambda c, n, first: Turn(PLACEHOLDER, c, tools=n, marker_first=first),
            _compactions(avoid),
            st.integers(1, 3),
            st.booleans(),
        )

    # one_of picks a branch uniformly and merges a strategy object given twice, so a branch is
    # weighed by giving it as several objects (compactions are what counters get wrong)
    options: list[st.SearchStrategy[Turn]] = [plain(), plain()]
    options += [automatic() for _ in range(4)]
    if "cancelled" not in avoid:
        only = (Compaction(None, cancelled=True),)
        options.append(st.builds(lambda n: Turn(PLACEHOLDER, only, tools=n), tools))
    if manual_allowed(era) and "manual-compact" not in avoid:
        options.append(st.builds(lambda s: Turn(MANUAL_PROMPT, manual=s), _labels()))
    if "summary-without-marker" not in avoid:
        options.append(
            st.builds(lambda s, n: Turn(PLACEHOLDER, stray_summary=s, tools=n), _labels(), tools)
        )
    if "server-compaction" not in avoid and "provider-compaction" not in avoid:
        options.append(
            st.builds(
                lambda label, n: Turn(PLACEHOLDER, provider=(f"cmp_{label}",), tools=n),
                st.sampled_from(LABELS),
                st.integers(1, 2),
            )
        )
    if "marker-text-elsewhere" not in avoid:
        options.append(st.builds(lambda n: Turn(PLACEHOLDER, mention_marker=True, tools=n), tools))
    options.append(st.builds(lambda n: Turn(PLACEHOLDER, tools=n, edits=True), st.integers(1, 2)))
    if "error-result" not in avoid and "no-response" not in avoid:
        options.append(
            st.builds(
                lambda c, n, e: Turn(PLACEHOLDER, c, tools=n, error=e),
                _compactions(avoid),
                st.integers(1, 4),
                st.sampled_from(["fetch", "no-response"]),
            )
        )
    if "marker-cleared" not in avoid:
        options.append(
            st.builds(
                lambda c, n, r: Turn(PLACEHOLDER, c, tools=n, retry=r),
                _compactions(avoid),
                st.integers(0, 3),
                st.sampled_from(["filter", "network"]),
            )
        )
    if "other-progress-task" not in avoid:
        options.append(st.builds(lambda n: Turn(PLACEHOLDER, tools=n, other_task=True), tools))
    if _background_allowed(era) and "background-compaction" not in avoid:
        options.append(
            st.builds(
                lambda s, n: Turn(PLACEHOLDER, tools=n, background_pass=s),
                _labels(),
                st.integers(1, 3),
            )
        )
        options.append(
            st.builds(
                lambda s, n: Turn(PLACEHOLDER, (Compaction(s, at=0, background=True),), tools=n),
                _labels(),
                tools,
            )
        )
    return st.one_of(options)


def raw_steps(era: Era, avoid: frozenset[str] = frozenset()) -> st.SearchStrategy[Step]:
    """One step, before indexes are fitted. Sends are most likely; the rest are rarer."""
    index = st.integers(0, 15)
    options: list[st.SearchStrategy[Step]] = [st.builds(Send, turns(era, avoid)) for _ in range(6)]
    if "request-removed" not in avoid:
        options += [st.builds(Remove, index) for _ in range(2)]
    if "request-replaced" not in avoid:
        options.append(st.builds(Retry, index, turns(era, avoid)))
    options += [
        st.builds(Churn, st.integers(1, 4)),
        st.builds(Title, st.just("Fix the flaky parser tests")),
        st.builds(PendingEdits, st.sampled_from([True, None])),
    ]
    if "later-initial" not in avoid:
        options.append(st.just(Reinit()))
    if "rewrite-1024" not in avoid:
        options.append(st.just(TypeUntilRewrite()))
    if "fork" not in avoid:
        options.append(st.just(Fork("Fix the flaky parser tests")))
    if not avoid & {"removal-flag", "partial-undo", "later-initial"}:
        options.append(st.builds(Flag, index, st.booleans()))
    return st.one_of(options)


def compile_plan(steps: Iterable[Step], era: Era) -> Plan:
    """A valid plan from drawn steps: prompts filled in, indexes fitted to the alive requests.

    A Remove with nothing alive is dropped; a Retry with nothing alive becomes a Send; a plan
    that leaves no request ends with a plain one. A Flag is followed by an appended kind-0 line
    (Reinit), so the flag is in the file whatever the container or the writer's rewrite
    threshold (a sealed request's flag reaches a log only with a kind-0 line: UNC-6).
    """
    rng = random.Random(7)
    alive = 0
    out: list[Step] = []
    for step in steps:
        if isinstance(step, Send):
            out.append(Send(_with_prompt(step.turn, era, rng)))
            alive += 1
        elif isinstance(step, Remove):
            if alive:
                out.append(Remove(step.index % alive))
                alive -= 1
        elif isinstance(step, Retry):
            turn = _with_prompt(step.turn, era, rng)
            if alive:
                where = step.index % alive
                out.append(Retry(where, turn))
                alive = where + 1
            else:
                out.append(Send(turn))
                alive = 1
        elif isinstance(step, Flag):
            if alive:
                out += [Flag(step.index % alive, partial=step.partial), Reinit()]
        else:
            out.append(step)
    if not alive:  # VS Code keeps no session without a request; tools skip such files
        out.append(Send(_with_prompt(Turn(PLACEHOLDER, tools=1), era, rng)))
    return Plan(tuple(out), era.summary_field)


def _with_prompt(turn: Turn, era: Era, rng: random.Random) -> Turn:
    if turn.prompt != PLACEHOLDER:
        return turn
    quoted = f'What does "{era.completed}" in the chat mean?'
    text = quoted if turn.mention_marker else prompt(rng)
    return Turn(
        text,
        turn.compactions,
        manual=turn.manual,
        tools=turn.tools,
        stray_summary=turn.stray_summary,
        provider=turn.provider,
        mention_marker=turn.mention_marker,
        marker_first=turn.marker_first,
        edits=turn.edits,
        error=turn.error,
        retry=turn.retry,
        background_pass=turn.background_pass,
        other_task=turn.other_task,
    )


@cache
def _step_lists(era: Era, avoid: frozenset[str], max_steps: int) -> st.SearchStrategy[list[Step]]:
    """Built once per era: a strategy made afresh on every draw costs Hypothesis ~50 ms."""
    return st.lists(raw_steps(era, avoid), min_size=1, max_size=max_steps)


def _sometimes(one_in: int) -> st.SearchStrategy[bool]:
    """True about once in `one_in` draws; shrinks to False."""
    return st.integers(0, one_in - 1).map(lambda n: n == one_in - 1)


@st.composite
def fuzz_cases(
    draw: st.DrawFn, avoid: frozenset[str] = frozenset(), max_steps: int = 12
) -> FuzzCase:
    """A random session: era, container, plan, save cadence, writer seed, marker kind, damage."""
    era = draw(st.sampled_from(eras()))
    containers = [c for c in ("jsonl", "json") if c in era.containers]
    if "legacy-json" in avoid:
        containers = [c for c in containers if c != "json"] or containers
    container = draw(st.sampled_from(containers))
    steps = draw(_step_lists(era, avoid, max_steps))
    # A progressTask part is not deep-compared by the log writer, so its completion never
    # reaches a .jsonl; like VS Code (and the corpus), only the flat .json shows that kind.
    old_kind = False
    if container == "json" and "progress-task-kind" not in avoid:
        old_kind = draw(st.booleans())
    torn = False
    if container == "jsonl" and "torn-tail" not in avoid:
        torn = draw(_sometimes(8))
    return FuzzCase(
        plan=compile_plan(steps, era),
        era=era,
        container=container,
        save_rate=draw(st.sampled_from([0.5, 1.0, 0.0, 0.25])),
        writer_seed=draw(st.integers(0, 2**16 - 1)),
        old_marker_kind=old_kind,
        torn_tail=torn,
    )
