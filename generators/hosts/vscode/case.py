"""VS Code's adapter to the one case builder: a (scenario, era) pair played into a log.

The expectation comes from the plan (`plan.expected_reboots`) or, for damaged logs, from what
the damage is; detected shape tags only describe the bytes.
"""

from __future__ import annotations

from typing import Any

from ..scenario import Adapter, Made, Scenario
from . import eras as era_table
from .eras import Era
from .plan import PLAN_TAGS, Plan, expected_reboots, plan_note, plan_tags, stored
from .player import TORN_LINE, Player, marker_test
from .scenarios import SCENARIOS, SUMMARY_TAGS, Writing
from .shapes import SHAPE_RULES, log_shapes
from .writer import LogWriter

# Shapes worth a tag everywhere they occur; push-append and set are in nearly every log, so
# only scenarios that are about them declare them.
DETECTED = (
    "push-index",
    "push-truncate",
    "set-without-v",
    "delete",
    "later-initial",
    "initial-only",
)
TITLE_LIMIT = 140  # a longer "title (era)" keeps the scenario's title alone


def make(scenario: Scenario[Plan], era_id: str) -> Made:
    """Play the scenario in the era of spec/eras.toml with this id and describe the result."""
    return play_in(scenario, era_table.era(era_id))


def play_in(scenario: Scenario[Plan], era: Era) -> Made:
    """Play the scenario in an era row (one of the table's, or a test's new row)."""
    how: Writing = scenario.options
    plan = how.plan(era)
    player = Player(
        era,
        how.seed,
        save_rate=how.save_rate,
        marker_kind=era.old_marker_kind if how.old_marker_kind else None,
        brief=how.brief,
        writer=LogWriter(watch=marker_test(era)),
    )
    player.play(plan)
    declared = set(scenario.tags)
    tags = declared | plan_tags(plan)
    rules = list(scenario.rules)
    expect: dict[str, Any] = {"outcome": "count", "reboots": expected_reboots(plan)}
    data = player.bytes(how.export or how.container)
    if how.container == "jsonl":
        if how.damage == "torn-tail":
            data += TORN_LINE
        elif how.damage == "first-write-lost":
            data = data[data.index(b"\n") + 1 :]
            expect = {"outcome": "reject", "error": "E-NO-INITIAL", "line": 1}
        shapes = log_shapes(data) & set(DETECTED)
        if player.writer.rewrites:
            shapes.add("rewrite-1024")
        if player.writer.duplicated():
            shapes.add("duplicate-artifact")
        tags |= shapes
        rules += [SHAPE_RULES[t] for t in shapes if t in SHAPE_RULES]
        unshown = declared & (set(DETECTED) | {"rewrite-1024", "duplicate-artifact"}) - shapes
        if unshown:
            raise ValueError(f"{scenario.name}/{era.id}: the log does not show {sorted(unshown)}")
    if earlier_round_anchor(player.session.state):
        tags.add("earlier-round-anchor")
    unplanned = declared & PLAN_TAGS - plan_tags(plan)
    if unplanned:
        raise ValueError(f"{scenario.name}/{era.id}: the plan does not show {sorted(unplanned)}")
    if stores_summaries(plan):
        tags.update(SUMMARY_TAGS[era.summary_field])
        rules.append("SUM-1" if era.summary_field == "summaries" else "SUM-2")
    title = f"{scenario.title} ({era.id})"
    return Made(
        files={f"session.{how.container}": data},
        container=how.container,
        expect=expect,
        rules=rules,
        tags=tags,
        note=plan_note(plan),
        title=title if len(title) <= TITLE_LIMIT else scenario.title,
        seed=how.seed,
        plan=plan,
    )


def stores_summaries(plan: Plan) -> bool:
    """Some request of the final state holds the era's summary field in its result metadata."""
    for request in plan.final_requests():
        store = stored(request, plan)
        if store.manual:
            continue
        if store.summaries is not None or store.summary is not None:
            return True
    return False


def earlier_round_anchor(state: dict[str, Any]) -> bool:
    """A summary entry of some request names a round stored in an earlier request."""
    seen: set[str] = set()
    for request in state.get("requests", []):
        metadata = (request.get("result") or {}).get("metadata") or {}
        entries = list(metadata.get("summaries") or [])
        if isinstance(metadata.get("summary"), dict):
            entries.append(metadata["summary"])
        if any(entry.get("toolCallRoundId") in seen for entry in entries):
            return True
        seen |= {r["id"] for r in metadata.get("toolCallRounds") or []}
    return False


ADAPTER = Adapter(SCENARIOS, make)
