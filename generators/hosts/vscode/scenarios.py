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
from typing import Any

from ..scenario import Scenario
from . import eras as era_table
from .eras import Era
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
from .randomized import long_session_steps
from .texts import Labels, prompt, uid

HOST = "vscode"
Builder = Callable[[Era, Labels, random.Random], list[Step]]


def _always(era: Era) -> bool:
    return "jsonl" in era.containers


def has_manual(era: Era) -> bool:
    """`/compact` exists from its first day on; an era that began earlier never had it."""
    return "jsonl" in era.containers and era.from_date >= era_table.manual().since_date


def _flat(era: Era) -> bool:
    return "json" in era.containers


def _translated(era: Era) -> bool:
    """ERA-3: the table knows a translation of this era's completed marker."""
    return era.completed in era_table.translated_strings("tr")


@dataclass(frozen=True)
class Writing:
    """How VS Code's writer plays a scenario's plan: what the plan alone does not say.

    `build` gives the plan's steps for an era; `applies` says which eras of spec/eras.toml the
    scenario is played in. The rest is how the session reaches the disk: its container, the save
    cadence, the RNG seed, the era's old marker kind, brief responses, damage done afterwards, an
    Export Chat document, the markers' language (ERA-3) and truncation (UNC-8).
    """

    build: Builder
    applies: Callable[[Era], bool] = _always
    container: str = "jsonl"
    save_rate: float = 0.5
    seed: int = 1
    old_marker_kind: bool = False
    brief: bool = False
    damage: str | None = None  # "torn-tail", "first-write-lost"
    export: str | None = None  # "export" / "export-old": written as an Export Chat .json
    locale: str = "en"  # the markers' display language (ERA-3)
    truncate_over: int | None = None  # strings longer than this are stored truncated (UNC-8)

    def plan(self, era: Era) -> Plan:
        rng = random.Random(self.seed * 1_000_003 + 17)
        steps = self.build(era, Labels(rng), rng)
        container = "export" if self.export else self.container
        return Plan(
            tuple(steps),
            era.summary_field,
            locale=self.locale,
            container=container,
            truncate_over=self.truncate_over,
        )


def _scenario(
    name: str,
    title: str,
    rules: tuple[str, ...],
    tags: tuple[str, ...],
    build: Builder,
    *,
    comment: str = "",
    **writing: Any,
) -> Scenario[Plan]:
    """A VS Code scenario of the one scenario type: its eras are those of spec/eras.toml its
    `applies` accepts, its plan is `Writing.plan` in the era of that id."""
    how = Writing(build, **writing)
    applies = tuple(era.id for era in era_table.eras() if how.applies(era))
    return Scenario(
        name,
        HOST,
        applies,
        title,
        rules,
        tags,
        plan=lambda era_id: how.plan(era_table.era(era_id)),
        comment=comment,
        options=how,
    )


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
        Send(Turn(prompt(rng), provider=("cmp_" + uid(rng)[:18],), tools=2)),
        _auto(rng, label("A")),
        Send(Turn(prompt(rng), stray_summary=label("A"), tools=1)),
        _auto(rng, label("B")),
    ]


def elsewhere(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    quoted = f'What does "{era.completed}" in the chat mean? And "{era.in_progress}"'
    return [
        Send(Turn(quoted, mention_marker=True, tools=1)),
        Send(Turn(prompt(rng), tools=1, other_task=True)),
        _auto(rng, label("A")),
        Send(Turn(f"{era.completed}", mention_marker=True, tools=0)),
    ]


def _at(summary: str | None, at: int) -> Compaction:
    return Compaction(summary, at=at)


def round_summaries(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """Three compactions in one request anchor on its rounds 1, 3 and 4; then one that runs
    after a single round anchors on the previous request's last round (text only in the
    entry)."""
    several = (_at(label("A"), 2), _at(label("B"), 4), _at(label("C"), 5))
    return [
        _plain(rng, tools=2),
        Send(Turn(prompt(rng), several, tools=5)),
        Send(Turn(prompt(rng), (_at(label("D"), 1),), tools=3)),
        _plain(rng),
    ]


def error_rounds(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """The real log: request 0 summarised four times (rounds 1, 3, 7, 10), then a server
    error: the result keeps the rounds, not the summary entries."""
    four = tuple(_at(label(x), at) for x, at in (("A", 2), ("B", 4), ("C", 8), ("D", 11)))
    return [Send(Turn(prompt(rng), four, tools=11, error="fetch"))]


def error_lost(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """A compaction after one round anchors on the previous request; the request then fails:
    no stored text anywhere (lost-after-error)."""
    return [
        _plain(rng, tools=2),
        _auto(rng, label("A")),
        Send(Turn(prompt(rng), (_at(label("B"), 1),), tools=3, error="fetch")),
        _plain(rng),
        _auto(rng, label("C")),
    ]


def no_response(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _auto(rng, label("A")),
        Send(Turn(prompt(rng), (Compaction(label("B")),), tools=2, error="no-response")),
        _plain(rng),
        _auto(rng, label("C")),
    ]


def marker_cleared(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """Retries drop the parts after the last tool invocation, the marker with them."""
    return [
        _auto(rng, label("A")),
        Send(Turn(prompt(rng), (Compaction(label("B")),), tools=2, retry="filter")),
        _plain(rng),
        Send(Turn(prompt(rng), (Compaction(label("C")),), tools=1, retry="network")),
        _plain(rng),
    ]


def localized(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        Send(Turn(prompt(rng), tools=1, other_task=True)),
        _auto(rng, label("A")),
        _plain(rng),
        Send(Turn(prompt(rng), (Compaction(label("B")),), tools=3, other_task=True)),
        _plain(rng),
    ]


def provider(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    ids = ["cmp_" + uid(rng).replace("-", "")[:24] for _ in range(3)]
    return [
        _plain(rng),
        Send(Turn(prompt(rng), provider=(ids[0], ids[1]), tools=3)),
        Send(Turn(prompt(rng), provider=(ids[2],), tools=2)),
        _auto(rng, label("A")),
    ]


def background(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """Passes finish in one request (text on its last round) and are applied at the first
    render of the next (a completed marker; 0.40+ one background entry)."""
    apply_a = Compaction(label("A"), at=0, background=True)
    apply_c = Compaction(label("C"), at=0, background=True)
    return [
        _plain(rng, tools=2),
        Send(Turn(prompt(rng), tools=3, background_pass=label("A"))),
        Send(Turn(prompt(rng), (apply_a, _at(label("B"), 2)), tools=3)),
        Send(Turn(prompt(rng), tools=2, background_pass=label("C"))),
        Send(Turn(prompt(rng), (apply_c,), tools=1)),
        _plain(rng),
    ]


def unapplied(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """A pass finished after the request's last prompt build and was never applied."""
    return [
        _plain(rng, tools=2),
        Send(Turn(prompt(rng), tools=2, background_pass=label("A"))),
        _plain(rng),
        _auto(rng, label("B")),
    ]


def flagged(rewrite: bool) -> Builder:
    def build(era: Era, label: Labels, rng: random.Random) -> list[Step]:
        steps: list[Step] = [
            _auto(rng, label("A")),
            _auto(rng, label("B")),
            _plain(rng),
            _auto(rng, label("C")),
            Flag(1),
            Flag(3, partial=True),
        ]
        return [*steps, TypeUntilRewrite()] if rewrite else steps

    return build


def hidden(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    return [
        _auto(rng, label("A")),
        _auto(rng, label("B")),
        _plain(rng),
        _auto(rng, label("C")),
        Flag(1, hidden=True),
        Flag(3, partial=True),
    ]


def fork(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    stopped = Compaction(None, cancelled=True)
    return [
        _auto(rng, label("A")),
        _plain(rng),
        _auto(rng, label("B")),
        Send(Turn(prompt(rng), (stopped,), tools=1)),
        Flag(2),
        Fork("Fix the flaky parser tests"),
        _plain(rng),
        _auto(rng, label("C")),
    ]


def truncation(era: Era, label: Labels, rng: random.Random) -> list[Step]:
    """Two different summaries of the same length, both over the limit: stored as the same
    truncation text."""
    a, b = label("A"), label("B")
    size = max(len(a), len(b))
    a, b = a.ljust(size, "."), b.ljust(size, ".")
    c = label("C").ljust(size + 7, ".")
    return [
        _plain(rng),
        _auto(rng, a),
        _plain(rng),
        _auto(rng, b),
        _auto(rng, c),
    ]


def long_session(size: int) -> Builder:
    def build(era: Era, label: Labels, rng: random.Random) -> list[Step]:
        steps = long_session_steps(rng, label, size, manual=has_manual(era))
        return [*steps, TypeUntilRewrite(), Send(Turn(prompt(rng), tools=1))]

    return build


SUMMARY_TAGS = {"summary": ("singular-summary",), "summaries": ("summaries-array",)}

SCENARIOS: tuple[Scenario[Plan], ...] = (
    _scenario(
        "single-compaction",
        "one automatic compaction with a summary between ordinary requests; one reboot",
        ("RPL-6", "RPL-7", "MRK-1", "MRK-5", "SUM-6", "SUM-8", "CNT-1", "CNT-2"),
        ("push-append", "set", "round-summary"),
        single,
    ),
    _scenario(
        "duplicate-artifact",
        "the same marker parts re-pushed in several lines (Push with i); three reboots",
        ("RPL-7", "RPL-10", "MRK-1", "MRK-5", "CNT-2"),
        ("duplicate-artifact", "push-index"),
        duplicate,
        save_rate=0.8,
        seed=2,
    ),
    _scenario(
        "cancelled",
        "compactions cancelled mid-way leave the in-progress text; one reboot",
        ("MRK-1", "MRK-2", "SUM-4", "OUT-3", "CNT-3"),
        ("cancelled", "phantom"),
        cancelled,
        seed=3,
        comment="The cancelled request stores no result metadata, so a completed marker before "
        "the cancelled one in the same request is a phantom.",
    ),
    _scenario(
        "phantom",
        "A, a marker whose summarization failed, then A again; one reboot",
        ("SUM-3", "SUM-4", "UNC-3", "OUT-3", "CNT-2", "CNT-3"),
        ("phantom", "repeat-summary"),
        phantom,
        seed=4,
    ),
    _scenario(
        "repeat-summary",
        "two compactions store the same summary text (A, A); one reboot",
        ("CNT-2",),
        ("repeat-summary",),
        repeat,
        seed=5,
    ),
    _scenario(
        "aba",
        "summary texts A, B, A on three compactions; three reboots",
        ("CNT-1", "CNT-2"),
        ("aba", "back-to-back"),
        aba,
        seed=6,
    ),
    _scenario(
        "back-to-back",
        "compactions on three consecutive requests; three reboots",
        ("CNT-1", "CNT-2", "MRK-5"),
        ("back-to-back",),
        back_to_back,
        seed=7,
    ),
    _scenario(
        "multi-compaction",
        "several compactions in one request, texts kept on their rounds and in the entries; "
        "four reboots",
        ("MRK-5", "SUM-1", "SUM-2", "SUM-3", "SUM-6", "SUM-8", "CNT-1", "CNT-2"),
        ("multi-compaction",),
        multi,
        seed=8,
        comment="With the singular summary only the last summary of a request is stored, but "
        "every summarised round of the request keeps its text (SUM-6); summaries[] stores every "
        "one (two entries per success), failed ones with empty text.",
    ),
    _scenario(
        "manual-compact",
        "the /compact command between automatic compactions; three reboots",
        ("MRK-4", "MRK-5", "SUM-2", "CNT-2"),
        ("manual-compact", "singular-summary"),
        manual,
        applies=has_manual,
        seed=9,
    ),
    _scenario(
        "rewrite-1024",
        "markers only inside the kind-0 line the writer wrote after 1024 entries; two reboots",
        ("RPL-4", "RPL-6", "RPL-10", "MRK-1", "CNT-2"),
        ("rewrite-1024", "set"),
        rewrite,
        seed=10,
    ),
    _scenario(
        "request-removed",
        "compacted requests removed from the middle and the end; two reboots",
        ("RPL-7", "RPL-10", "CNT-1"),
        ("request-removed", "push-truncate", "push-index"),
        removed,
        seed=11,
    ),
    _scenario(
        "request-replaced",
        "compacted requests replaced by a retry with a new requestId; two reboots",
        ("RPL-7", "RPL-10", "CNT-1", "CNT-2"),
        ("request-replaced", "push-index"),
        replaced,
        seed=12,
    ),
    _scenario(
        "input-churn",
        "input box cleared (kind 3), title Set, hasPendingEdits Set without v; one reboot",
        ("RPL-6", "RPL-8", "CNT-2"),
        ("delete", "set", "set-without-v"),
        churn,
        seed=13,
    ),
    _scenario(
        "later-initial",
        "a kind-0 line after a removal resets the state; the removed compaction is gone",
        ("RPL-4", "RPL-10", "CNT-1"),
        ("later-initial", "request-removed"),
        later_initial,
        seed=14,
        comment="VS Code replaces the file when it writes an Initial; here one is appended "
        "(a writer that lost its state, or two versions concatenated).",
    ),
    _scenario(
        "initial-only",
        "a session saved once as a single kind-0 line (first save after migration); two reboots",
        ("RPL-4", "SUM-4", "CNT-3"),
        ("initial-only", "phantom"),
        initial_only,
        save_rate=0.0,
        seed=15,
    ),
    _scenario(
        "legacy-json",
        "a legacy flat .json session with phantoms, a cancel and a multi-compaction request",
        ("LEG-1", "MRK-1", "MRK-2", "SUM-2", "SUM-4", "SUM-6", "CNT-2"),
        ("legacy-json", "initial-only", "phantom", "cancelled", "multi-compaction"),
        legacy,
        applies=_flat,
        container="json",
        seed=16,
    ),
    _scenario(
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
    _scenario(
        "summary-without-marker",
        "summaries stored on requests without a marker and a provider compaction all count; "
        "four reboots",
        ("SUM-5", "SUM-7", "SUM-8", "CNT-1", "CNT-2"),
        ("summary-without-marker", "server-compaction"),
        stray,
        seed=18,
    ),
    _scenario(
        "marker-text-elsewhere",
        "the marker texts quoted in messages and markdown, another progress task; one reboot",
        ("MRK-1", "MRK-3", "MRK-5"),
        ("marker-text-elsewhere", "other-progress-task"),
        elsewhere,
        seed=19,
    ),
    _scenario(
        "torn-tail",
        "a log whose last append was cut short (no final newline); three reboots",
        ("ERR-9", "RPL-1", "CNT-2"),
        ("torn-tail",),
        back_to_back,
        seed=20,
        damage="torn-tail",
    ),
    _scenario(
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
    _scenario(
        "long-session",
        "a long seeded random session: hundreds of requests, tens of compactions",
        ("RPL-4", "RPL-7", "RPL-10", "MRK-5", "SUM-4", "CNT-1", "CNT-2", "CNT-3"),
        ("long-session",),
        long_session(180),
        seed=101,
        save_rate=0.35,
        brief=True,
    ),
    _scenario(
        "long-session-b",
        "a second long seeded random session: hundreds of requests, tens of compactions",
        ("RPL-4", "RPL-7", "RPL-10", "MRK-5", "SUM-4", "CNT-1", "CNT-2", "CNT-3"),
        ("long-session",),
        long_session(390),
        applies=lambda era: era.summary_field == "summaries",
        seed=102,
        save_rate=0.6,
        brief=True,
    ),
    _scenario(
        "round-summaries",
        "three compactions in one request kept on rounds 1, 3, 4, one anchored on the previous "
        "request; four reboots",
        ("SUM-1", "SUM-2", "SUM-6", "SUM-8", "CNT-1", "CNT-2"),
        ("round-summary", "multi-compaction", "earlier-round-anchor"),
        round_summaries,
        seed=30,
        comment="A compaction anchors on the last round so far of its request; with one round "
        "or none it anchors on the previous request's last round, and no round of either request "
        "gets the text (SUM-6, UNC-1).",
    ),
    _scenario(
        "error-rounds",
        "four compactions in one request whose last fetch failed: texts only in "
        "toolCallRounds[1,3,7,10]; four reboots",
        ("SUM-6", "SUM-8", "UNC-1", "SUM-5", "CNT-2"),
        ("error-result", "round-summary", "round-summary-only", "multi-compaction"),
        error_rounds,
        seed=31,
        comment="The shape of a real log: an error result keeps toolCallRounds but drops "
        "summary/summaries (UNC-1).",
    ),
    _scenario(
        "error-lost",
        "a compaction anchored on the previous request, then a fetch error: no text stored "
        "anywhere (a phantom); two reboots",
        ("UNC-1", "UNC-9", "SUM-4", "OUT-3", "CNT-3"),
        ("error-result", "phantom", "earlier-round-anchor"),
        error_lost,
        seed=32,
        comment="The summary was set on the previous request's live round, which was stored "
        "before, so only memory held it: a lower bound (reboots_possible counts it).",
    ),
    _scenario(
        "no-response",
        "the no-response error result (errorDetails and ids only) after a compaction; two reboots",
        ("UNC-2", "SUM-4", "OUT-3", "CNT-3"),
        ("no-response", "phantom"),
        no_response,
        seed=33,
    ),
    _scenario(
        "marker-cleared",
        "retries cleared two markers while the summaries stayed; three reboots",
        ("MRK-5", "SUM-5", "SUM-8", "CNT-2"),
        ("marker-cleared", "summary-without-marker"),
        marker_cleared,
        seed=34,
        comment="A retried fetch (content filter: with a warning part; network) drops every part "
        "after the last tool invocation (SUM-5; VS Code's clearToPreviousToolInvocation in "
        "chatModel.ts).",
    ),
    _scenario(
        "localized-marker",
        "Turkish completed markers and a workspace-search progress task; two reboots",
        ("ERA-3", "MRK-1", "MRK-3", "SUM-2", "CNT-2"),
        ("localized-marker", "other-progress-task"),
        localized,
        applies=lambda era: _translated(era) and _always(era),
        locale="tr",
        seed=35,
        comment="Only the Turkish completed text is known; the generator writes it for both "
        "states of the task.",
    ),
    _scenario(
        "localized-marker-json",
        "a flat .json with Turkish progressTask markers, as in a real Turkish UI log; two reboots",
        ("ERA-3", "LEG-1", "MRK-1", "MRK-3", "CNT-2"),
        ("localized-marker", "legacy-json", "progress-task-kind"),
        localized,
        applies=lambda era: _translated(era) and _flat(era),
        container="json",
        old_marker_kind=True,
        locale="tr",
        seed=36,
    ),
    _scenario(
        "provider-compaction",
        "provider compactions on rounds (three different ids, no marker, no text); four reboots",
        ("SUM-7", "SUM-8", "SUM-5", "CNT-2"),
        ("provider-compaction", "server-compaction"),
        provider,
        applies=has_manual,
        seed=37,
    ),
    _scenario(
        "background-compaction",
        "background passes: text on a round of one request, marker where applied; three reboots",
        ("UNC-4", "UNC-5", "SUM-6", "SUM-8", "OUT-3", "CNT-2", "CNT-3"),
        ("background-compaction", "unapplied-background", "round-summary"),
        background,
        applies=has_manual,
        seed=38,
        comment="0.38-0.39 store no entry for an applied pass (its marker is a phantom); 0.40+ "
        "one source=background entry with the round's id and text, which equals the previous "
        "event (UNC-4, SUM-1, UNC-5).",
    ),
    _scenario(
        "unapplied-background",
        "a background pass never applied: its text on a round, no marker, no entry; two reboots",
        ("UNC-5", "SUM-5", "SUM-6", "CNT-2"),
        ("unapplied-background", "round-summary-only", "summary-without-marker"),
        unapplied,
        applies=has_manual,
        seed=47,
        comment="The background render sets the anchor round's summary when the pass finishes "
        "(UNC-5); no model may ever have seen it.",
    ),
    _scenario(
        "removal-flag",
        "requests flagged for removal (whole and partial undo), then a kind-0 rewrite; two reboots",
        ("CNT-5", "CNT-6", "UNC-6", "RPL-4", "CNT-1"),
        ("removal-flag", "partial-undo", "rewrite-1024"),
        flagged(rewrite=True),
        seed=39,
    ),
    _scenario(
        "removal-flag-unwritten",
        "a finished request flagged for removal, but no kind-0 rewrite followed: the flag never "
        "reached the log; three reboots",
        ("UNC-6", "CNT-1", "CNT-2"),
        (),
        flagged(rewrite=False),
        seed=40,
        comment="A sealed request is not diffed, so its shouldBeRemovedOnSend reaches a .jsonl "
        "only with the next kind-0 line (UNC-6, REW).",
    ),
    _scenario(
        "is-hidden",
        "a flat .json with a legacy isHidden request and a partial undo; two reboots",
        ("CNT-5", "CNT-6", "LEG-1", "CNT-1"),
        ("is-hidden", "removal-flag", "partial-undo", "legacy-json"),
        hidden,
        applies=_flat,
        container="json",
        seed=41,
    ),
    _scenario(
        "fork",
        "a /fork child: the parent's compactions copied, flags cleared, then one more; "
        "three reboots",
        ("UNC-7", "CNT-1", "CNT-2"),
        ("fork",),
        fork,
        applies=has_manual,
        seed=42,
        comment="The child file holds the parent's requests with bare-UUID requestIds, modelState "
        "Complete and no removal flags (UNC-7).",
    ),
    _scenario(
        "export",
        "an Export Chat .json (no version, no sessionId) with summaries A, B, A; three reboots",
        ("LEG-3", "LEG-1", "CNT-1", "CNT-2"),
        ("export", "aba"),
        aba,
        container="json",
        export="export",
        seed=43,
    ),
    _scenario(
        "export-old",
        "an older Export Chat .json with the requester fields; three reboots",
        ("LEG-3", "LEG-1", "CNT-2"),
        ("export",),
        aba,
        applies=_flat,
        container="json",
        export="export-old",
        seed=44,
    ),
    _scenario(
        "truncated-summaries",
        "two different summaries truncated for persistence to the same text compare equal; "
        "two reboots",
        ("UNC-8", "CNT-2"),
        ("truncated-string",),
        truncation,
        applies=lambda era: era.summary_field == "summaries",
        truncate_over=200,
        seed=45,
        comment="VS Code truncates strings over 1,048,576 UTF-16 units when an entry is too "
        "big to stringify; the generator scales the limit down to 200 characters.",
    ),
    _scenario(
        "coarse-save",
        "a 60 s save cadence: many changes per appended line; three reboots",
        ("RPL-6", "RPL-7", "CNT-1", "CNT-2"),
        ("coarse-save",),
        back_to_back,
        save_rate=0.05,
        seed=46,
    ),
)


def by_name(name: str) -> Scenario[Plan]:
    for scenario in SCENARIOS:
        if scenario.name == name:
            return scenario
    raise KeyError(name)
