"""The named scenarios of the generated corpus.

A scenario is a plan template: given an era and a label-to-summary map it gives the plan, and
it says which eras it applies to, which spec rules and tags it shows, and how it is written
(save cadence, container, damage). Each (scenario, era) pair is one case; its ID lives in
`case_ids.toml`, chosen once at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from generators import eras as era_table
from generators.eras import Era
from generators.plan import (
    Churn,
    Compaction,
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
from generators.randomized import long_session_steps
from generators.texts import Labels, prompt

Builder = Callable[[Era, Labels, random.Random], list[Step]]


def _always(era: Era) -> bool:
    return "jsonl" in era.containers


def _has_manual(era: Era) -> bool:
    """`/compact` exists from its first day on; an era that began earlier never had it."""
    return "jsonl" in era.containers and era.from_date >= era_table.manual().since_date


def _flat(era: Era) -> bool:
    return "json" in era.containers


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    build: Builder
    applies: Callable[[Era], bool] = _always
    container: str = "jsonl"
    save_rate: float = 0.5
    seed: int = 1
    old_marker_kind: bool = False
    brief: bool = False
    damage: str | None = None  # "torn-tail", "first-write-lost"
    comment: str = ""

    def plan(self, era: Era) -> Plan:
        rng = random.Random(self.seed * 1_000_003 + 17)
        steps = self.build(era, Labels(rng), rng)
        return Plan(tuple(steps), era.summary_field)


def _plain(rng: random.Random, tools: int = 1) -> Send:
    return Send(Turn(prompt(rng), tools=tools))


def _auto(rng: random.Random, *summaries: str | None, tools: int = 2, first: bool = False) -> Send:
    compactions = tuple(Compaction(s) for s in summaries)
    return Send(Turn(prompt(rng), compactions, tools=tools, marker_first=first))


def single(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [_plain(rng), _plain(rng), _auto(rng, label("A")), _plain(rng)]


def duplicate(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """Two ways VS Code re-pushes a marker part: an earlier part of its response changes (an
    edit group marked done when the turn ends), and a request removed before it."""
    edited = Turn(prompt(rng), (Compaction(label("A")),), tools=3, edits=True)
    return [
        _plain(rng),
        Send(edited),
        _plain(rng),
        _auto(rng, label("B"), tools=3),
        Send(Turn(prompt(rng), (Compaction(label("C")),), tools=2, edits=True)),
        Remove(0),
    ]


def cancelled(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    stopped = Compaction(None, cancelled=True)
    return [
        _plain(rng),
        _auto(rng, label("A")),
        _plain(rng),
        Send(Turn(prompt(rng), (stopped,), tools=2)),
        _plain(rng),
        Send(Turn(prompt(rng), (Compaction(label("B")), stopped), tools=3)),
        _plain(rng),
    ]


def phantom(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _auto(rng, label("A")),
        _plain(rng),
        _auto(rng, None),
        _plain(rng),
        _auto(rng, label("A")),
    ]


def repeat(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [_plain(rng), _auto(rng, label("A")), _plain(rng), _auto(rng, label("A")), _plain(rng)]


def aba(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [_auto(rng, label("A")), _plain(rng), _auto(rng, label("B")), _auto(rng, label("A"))]


def back_to_back(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [_plain(rng), _auto(rng, label("A")), _auto(rng, label("B")), _auto(rng, label("C"))]


def multi(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _auto(rng, label("A")),
        _plain(rng),
        _auto(rng, label("B"), label("C"), tools=4),
        _auto(rng, None, label("D"), label("D"), tools=3),
    ]


def manual(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _plain(rng),
        _auto(rng, label("A")),
        Send(Turn("/compact", manual=label("B"))),
        _plain(rng),
        _auto(rng, label("C")),
        Send(Turn("/compact", manual=label("C"))),
    ]


def rewrite(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [_plain(rng), _auto(rng, label("A")), _auto(rng, label("B")), Churn(1030), _plain(rng)]


def removed(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _plain(rng),
        _auto(rng, label("A")),
        _auto(rng, label("B")),
        _plain(rng),
        Remove(2),
        _plain(rng),
        _auto(rng, label("C")),
        _auto(rng, label("D")),
        Remove(5),
    ]


def replaced(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _plain(rng),
        _auto(rng, label("A")),
        _auto(rng, label("B")),
        Retry(2, Turn(prompt(rng), (Compaction(label("A")),), tools=2)),
        _plain(rng),
        _auto(rng, label("C")),
        _auto(rng, label("D")),
        Retry(5, Turn(prompt(rng), tools=1)),
    ]


def churn(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        Churn(3),
        _plain(rng),
        Title("Fix the flaky parser tests"),
        PendingEdits(True),
        Churn(2),
        _auto(rng, label("A")),
        PendingEdits(None),
        Churn(4),
        _plain(rng),
    ]


def later_initial(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _auto(rng, label("A")),
        _auto(rng, label("B")),
        _plain(rng),
        Remove(1),
        Reinit(),
        _plain(rng),
        _auto(rng, label("C")),
    ]


def initial_only(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _plain(rng),
        _auto(rng, label("A")),
        _plain(rng),
        _auto(rng, None),
        _auto(rng, label("B")),
    ]


def legacy(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    stopped = Compaction(None, cancelled=True)
    return [
        _auto(rng, label("A")),
        _plain(rng),
        _auto(rng, None),
        Send(Turn(prompt(rng), (stopped,))),
        _auto(rng, label("B"), label("C"), tools=3),
        _auto(rng, label("C")),
    ]


def stray(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _plain(rng),
        Send(Turn(prompt(rng), stray_summary=label("Z"), tools=2)),
        Send(Turn(prompt(rng), server_compaction=True, tools=2)),
        _auto(rng, label("A")),
        Send(Turn(prompt(rng), stray_summary=label("A"), tools=1)),
        _auto(rng, label("B")),
    ]


def elsewhere(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    quoted = f'What does "{era.completed}" in the chat mean? And "{era.in_progress}"'
    return [
        Send(Turn(quoted, mention_marker=True, tools=1)),
        _auto(rng, label("A")),
        Send(Turn(f"{era.completed}", mention_marker=True, tools=0)),
    ]


def long_session(size: int) -> Builder:
    def build(era: Era, label: Labels, rng: random.Random) -> list[Step]:
        steps = long_session_steps(rng, label, size, manual=_has_manual(era))
        return [*steps, TypeUntilRewrite(), Send(Turn(prompt(rng), tools=1))]

    return build


SUMMARY_TAGS = {"summary": ("singular-summary",), "summaries": ("summaries-array",)}

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "single-compaction",
        "one automatic compaction with a summary between ordinary requests; one reboot",
        ("RPL-6", "RPL-7", "MRK-1", "MRK-5", "CNT-1", "CNT-2"),
        ("push-append", "set"),
        single,
    ),
    Scenario(
        "duplicate-artifact",
        "the same marker parts re-pushed in several lines (Push with i); three reboots",
        ("RPL-7", "RPL-10", "MRK-1", "MRK-5", "CNT-2"),
        ("duplicate-artifact", "push-index"),
        duplicate,
        save_rate=0.8,
        seed=2,
    ),
    Scenario(
        "cancelled",
        "compactions cancelled mid-way leave the in-progress text; one reboot",
        ("MRK-1", "MRK-2", "SUM-4", "CNT-3"),
        ("cancelled", "phantom"),
        cancelled,
        seed=3,
        comment="The cancelled request stores no result metadata, so a completed marker before "
        "the cancelled one in the same request is a phantom.",
    ),
    Scenario(
        "phantom",
        "A, a marker whose summarization failed, then A again; one reboot",
        ("SUM-3", "SUM-4", "CNT-2", "CNT-3"),
        ("phantom", "repeat-summary"),
        phantom,
        seed=4,
    ),
    Scenario(
        "repeat-summary",
        "two compactions store the same summary text (A, A); one reboot",
        ("CNT-2",),
        ("repeat-summary",),
        repeat,
        seed=5,
    ),
    Scenario(
        "aba",
        "summary texts A, B, A on three compactions; three reboots",
        ("CNT-1", "CNT-2"),
        ("aba", "back-to-back"),
        aba,
        seed=6,
    ),
    Scenario(
        "back-to-back",
        "compactions on three consecutive requests; three reboots",
        ("CNT-1", "CNT-2", "MRK-5"),
        ("back-to-back",),
        back_to_back,
        seed=7,
    ),
    Scenario(
        "multi-compaction",
        "several compactions in one request; the era's summary field decides what is stored",
        ("MRK-5", "SUM-1", "SUM-2", "CNT-1", "CNT-2"),
        ("multi-compaction",),
        multi,
        seed=8,
        comment="With the singular summary only the last summary of a request is stored; with "
        "summaries[] every one is, failed ones with empty text.",
    ),
    Scenario(
        "manual-compact",
        "the /compact command between automatic compactions; three reboots",
        ("MRK-4", "MRK-5", "SUM-2", "CNT-2"),
        ("manual-compact", "singular-summary"),
        manual,
        applies=_has_manual,
        seed=9,
    ),
    Scenario(
        "rewrite-1024",
        "markers only inside the kind-0 line the writer wrote after 1024 entries; two reboots",
        ("RPL-4", "RPL-6", "RPL-10", "MRK-1", "CNT-2"),
        ("rewrite-1024", "set"),
        rewrite,
        seed=10,
    ),
    Scenario(
        "request-removed",
        "compacted requests removed from the middle and the end; two reboots",
        ("RPL-7", "RPL-10", "CNT-1"),
        ("request-removed", "push-truncate", "push-index"),
        removed,
        seed=11,
    ),
    Scenario(
        "request-replaced",
        "compacted requests replaced by a retry with a new requestId; two reboots",
        ("RPL-7", "RPL-10", "CNT-1", "CNT-2"),
        ("request-replaced", "push-index"),
        replaced,
        seed=12,
    ),
    Scenario(
        "input-churn",
        "input box cleared (kind 3), title Set, hasPendingEdits Set without v; one reboot",
        ("RPL-6", "RPL-8", "CNT-2"),
        ("delete", "set", "set-without-v"),
        churn,
        seed=13,
    ),
    Scenario(
        "later-initial",
        "a kind-0 line after a removal resets the state; the removed compaction is gone",
        ("RPL-4", "RPL-10", "CNT-1"),
        ("later-initial", "request-removed"),
        later_initial,
        seed=14,
        comment="VS Code replaces the file when it writes an Initial; here one is appended "
        "(a writer that lost its state, or two versions concatenated).",
    ),
    Scenario(
        "initial-only",
        "a session saved once as a single kind-0 line (first save after migration); two reboots",
        ("RPL-4", "SUM-4", "CNT-3"),
        ("initial-only", "phantom"),
        initial_only,
        save_rate=0.0,
        seed=15,
    ),
    Scenario(
        "legacy-json",
        "a legacy flat .json session with phantoms, a cancel and a multi-compaction request",
        ("LEG-1", "MRK-1", "MRK-2", "SUM-2", "SUM-4", "CNT-2"),
        ("legacy-json", "initial-only", "phantom", "cancelled", "multi-compaction"),
        legacy,
        applies=_flat,
        container="json",
        seed=16,
    ),
    Scenario(
        "legacy-progress-task",
        "a legacy flat .json whose marker parts have kind progressTask; three reboots",
        ("LEG-1", "MRK-1", "CNT-2"),
        ("legacy-json", "initial-only", "progress-task-kind"),
        aba,
        applies=_flat,
        container="json",
        seed=17,
        old_marker_kind=True,
    ),
    Scenario(
        "summary-without-marker",
        "summaries stored on requests without a marker and a server-side compaction; two reboots",
        ("SUM-5", "CNT-1", "CNT-2"),
        ("summary-without-marker", "server-compaction"),
        stray,
        seed=18,
    ),
    Scenario(
        "marker-text-elsewhere",
        "the marker texts quoted in user messages and markdown; one reboot",
        ("MRK-1", "MRK-3"),
        ("marker-text-elsewhere",),
        elsewhere,
        seed=19,
    ),
    Scenario(
        "torn-tail",
        "a log whose last append was cut short (no final newline); three reboots",
        ("ERR-9", "RPL-1", "CNT-2"),
        ("torn-tail",),
        back_to_back,
        seed=20,
        damage="torn-tail",
    ),
    Scenario(
        "first-write-lost",
        "the first write (the kind-0 line) never reached the disk; the log is rejected",
        ("ERR-2", "ERR-10"),
        ("rejection",),
        single,
        applies=lambda era: era.summary_field == "summaries",
        seed=21,
        damage="first-write-lost",
        comment="The shape of microsoft/vscode#317478: the file starts with a kind 1/2/3 line.",
    ),
    Scenario(
        "long-session",
        "a long seeded random session: hundreds of requests, tens of compactions",
        ("RPL-4", "RPL-7", "RPL-10", "MRK-5", "SUM-4", "CNT-1", "CNT-2", "CNT-3"),
        ("long-session",),
        long_session(180),
        seed=101,
        save_rate=0.35,
        brief=True,
    ),
    Scenario(
        "long-session-b",
        "a second long seeded random session: hundreds of requests, tens of compactions",
        ("RPL-4", "RPL-7", "RPL-10", "MRK-5", "SUM-4", "CNT-1", "CNT-2", "CNT-3"),
        ("long-session",),
        long_session(420),
        applies=lambda era: era.summary_field == "summaries",
        seed=102,
        save_rate=0.6,
        brief=True,
    ),
)


def by_name(name: str) -> Scenario:
    for scenario in SCENARIOS:
        if scenario.name == name:
            return scenario
    raise KeyError(name)
