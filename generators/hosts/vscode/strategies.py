"""Hypothesis strategies for generated sessions: the one place property tests and fuzzing draw
them from.

A draw is a `Drawn`: a plan made of this package's step vocabulary (`plan.Send`, `Remove`,
`Retry`, `Flag`...) plus the writer options that decide its bytes (era, container, save
cadence, writer seed, rewrite threshold, marker part kind, a torn tail). Two strategies give one:

- `drawn_sessions`: long, realistic sessions, the seeded random plans of `randomized` fed by a
  Hypothesis random (replay and count properties);
- `shrinkable_sessions`: short plans drawn step by step, each turn kind its own branch, so
  Hypothesis shrinks the plan itself (fewer steps, summary labels towards "A", plainer turns).
  This is what differential fuzzing and the metamorphic properties use. `avoid` leaves out the
  branches whose feature tag (spec/tags.toml) the caller does not want.

Either way the expected count is the plan's (`plan.expected_reboots`), never a counter's.
Hypothesis is a test dependency, so only tests and fuzzers import this module.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from hypothesis import strategies as st

from .eras import Era, eras
from .plan import (
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
)
from .player import TORN_LINE, Player, marker_test
from .randomized import long_session_steps
from .scenarios import has_manual as manual_allowed
from .texts import Labels, prompt, summary_text
from .writer import REWRITE_AFTER, LogWriter

__all__ = [
    "LABELS",
    "Drawn",
    "Played",
    "compile_plan",
    "drawn_sessions",
    "label_of",
    "manual_allowed",
    "raw_steps",
    "shrinkable_sessions",
    "summary_of",
    "turns",
]

LABELS = "ABCD"
MANUAL_PROMPT = "/compact"
PLACEHOLDER = "?"  # prompts are filled in when the plan is compiled
TITLE = "Fix the flaky parser tests"


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


# -- the writer options ---------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """The bytes of a played draw and what the writer saw while writing them."""

    data: bytes
    rewrites: int  # Initial lines written because the entry counter passed the threshold
    duplicated: bool  # a marker part appears in more than one line (the duplicate artifact)
    marker_copies: dict[tuple[str, int], int] = field(default_factory=dict)


@dataclass(frozen=True)
class Drawn:
    """A drawn plan and everything that decides its bytes."""

    plan: Plan
    era: Era
    seed: int  # the writer's: save cadence draws, answer texts, ids
    save_rate: float
    rewrite_after: int = REWRITE_AFTER
    container: str = "jsonl"  # or "json" (flat session)
    old_marker_kind: bool = False  # marker parts of kind progressTask instead of ...Serialized
    torn_tail: bool = False  # an unterminated, unparsable last line (ERR-9); jsonl only
    brief: bool = False  # shorter answers

    def play(self) -> Player:
        """The plan played by the VS Code-like writer (which counts marker part copies)."""
        player = Player(
            self.era,
            self.seed,
            save_rate=self.save_rate,
            marker_kind=self.era.old_marker_kind if self.old_marker_kind else None,
            brief=self.brief,
            writer=LogWriter(rewrite_after=self.rewrite_after, watch=marker_test(self.era)),
        )
        player.play(self.plan)
        return player

    def written(self) -> Played:
        """The file's bytes in the drawn container (and the torn tail, if drawn)."""
        player = self.play()
        data = player.bytes(self.container)
        if self.container == "jsonl" and self.torn_tail:
            data += TORN_LINE
        writer = player.writer
        return Played(data, writer.rewrites, writer.duplicated(), dict(writer.copies))


# -- long realistic sessions ----------------------------------------------------------------


@st.composite
def drawn_sessions(draw: st.DrawFn, max_turns: int = 25) -> Drawn:
    """A `randomized` long session: up to `max_turns` requests, any save cadence and threshold."""
    era = draw(st.sampled_from(eras()))
    rng: random.Random = draw(st.randoms(use_true_random=False))
    size = draw(st.integers(1, max_turns))
    manual = draw(st.booleans())
    steps = long_session_steps(rng, Labels(rng), size, manual=manual)
    return Drawn(
        plan=Plan(tuple(steps), era.summary_field),
        era=era,
        seed=draw(st.integers(0, 2**32 - 1)),
        save_rate=draw(st.sampled_from([0.0, 0.3, 0.7, 1.0])),
        rewrite_after=draw(st.sampled_from([4, 40, 1024])),
    )


# -- shrinkable plans -----------------------------------------------------------------------


def _labels() -> st.SearchStrategy[str]:
    return st.sampled_from(LABELS).map(summary_of)


def _compactions(avoid: frozenset[str]) -> st.SearchStrategy[tuple[Compaction, ...]]:
    # `at` (tool rounds before the compaction) shrinks to None, the plan's default position
    at = st.none() | st.integers(0, 3)
    completed: st.SearchStrategy[Compaction] = st.builds(
        lambda s, n: Compaction(s, at=n), _labels(), at
    )
    if not avoid & {"phantom", "failed-summary"}:
        completed = completed | st.builds(lambda n: Compaction(None, at=n), at)
    most = 1 if "multi-compaction" in avoid else 3
    cancel = st.just(False) if "cancelled" in avoid else st.booleans()

    def assemble(done: list[Compaction], cancelled: bool) -> tuple[Compaction, ...]:
        tail = (Compaction(None, cancelled=True),) if cancelled else ()
        return (*done, *tail)

    return st.builds(assemble, st.lists(completed, min_size=1, max_size=most), cancel)


def turns(era: Era, avoid: frozenset[str] = frozenset()) -> st.SearchStrategy[Turn]:
    """One turn; the simplest kinds first, so shrinking moves towards a plain turn.

    The kinds are those of `randomized.random_turn` (plain, compactions, `/compact`, a stray
    summary, provider compactions, an error or a retried fetch after compactions, another
    progress task, background passes), plus the marker text quoted and an edit group.
    """
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
    if not avoid & {"server-compaction", "provider-compaction"}:
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
    if not avoid & {"error-result", "no-response"}:
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
    # background compaction exists from 0.38, the eras that have `/compact`
    if manual_allowed(era) and "background-compaction" not in avoid:
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
        st.builds(Title, st.just(TITLE)),
        st.builds(PendingEdits, st.sampled_from([True, None])),
    ]
    if "later-initial" not in avoid:
        options.append(st.just(Reinit()))
    if "rewrite-1024" not in avoid:
        options.append(st.just(TypeUntilRewrite()))
    if "fork" not in avoid:
        options.append(st.just(Fork(TITLE)))
    if not avoid & {"removal-flag", "partial-undo", "later-initial"}:
        options.append(st.builds(Flag, index, st.booleans()))
    return st.one_of(options)


def compile_plan(steps: Iterable[Step], era: Era) -> Plan:
    """A valid plan from drawn steps: prompts filled in, indexes fitted to the alive requests.

    Indexes are drawn as free integers and fitted here, so any shrink of the step list still
    compiles. A Remove with nothing alive is dropped; a Retry with nothing alive becomes a Send;
    a plan that leaves no request ends with a plain one. A Flag is followed by an appended
    kind-0 line (Reinit), so the flag is in the file whatever the container or the writer's
    rewrite threshold (a sealed request's flag reaches a log only with a kind-0 line: UNC-6).
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
    return replace(turn, prompt=quoted if turn.mention_marker else prompt(rng))


@cache
def _step_lists(era: Era, avoid: frozenset[str], max_steps: int) -> st.SearchStrategy[list[Step]]:
    """Built once per era: a strategy made afresh on every draw costs Hypothesis ~50 ms."""
    return st.lists(raw_steps(era, avoid), min_size=1, max_size=max_steps)


def _sometimes(one_in: int) -> st.SearchStrategy[bool]:
    """True about once in `one_in` draws; shrinks to False."""
    return st.integers(0, one_in - 1).map(lambda n: n == one_in - 1)


@st.composite
def shrinkable_sessions(
    draw: st.DrawFn, avoid: frozenset[str] = frozenset(), max_steps: int = 12
) -> Drawn:
    """A short session: era, container, plan, save cadence, writer seed, marker kind, damage.

    Written with brief answers at the default rewrite threshold; the feature tags in `avoid`
    are left out of what is drawn (the container and writer options that show them too).
    """
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
    return Drawn(
        plan=compile_plan(steps, era),
        era=era,
        container=container,
        save_rate=draw(st.sampled_from([0.5, 1.0, 0.0, 0.25])),
        seed=draw(st.integers(0, 2**16 - 1)),
        old_marker_kind=old_kind,
        torn_tail=torn,
        brief=True,
    )
