"""From a (scenario, era) pair to a case: its bytes and its case.toml metadata.

The expectation comes from the plan (`plan.expected_reboots`) or, for damaged logs, from what
the damage is; detected shape tags only describe the bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..hosts.vscode.eras import Era, eras
from ..hosts.vscode.plan import (
    PLAN_TAGS,
    Plan,
    expected_reboots,
    plan_note,
    plan_tags,
    stored,
)
from ..hosts.vscode.player import TORN_LINE, Player, marker_test
from ..hosts.vscode.scenarios import SCENARIOS, SUMMARY_TAGS, Scenario
from ..hosts.vscode.shapes import SHAPE_RULES, log_shapes
from ..hosts.vscode.writer import LogWriter
from . import casefile, ids

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


@dataclass
class Case:
    """One generated case, ready to be written to fixtures/<id>/."""

    id: str
    scenario: Scenario
    era: Era
    plan: Plan
    data: bytes
    expect: dict[str, Any]
    tags: list[str]
    rules: list[str]

    @property
    def key(self) -> str:
        return f"{self.scenario.name}/{self.era.id}"

    @property
    def container(self) -> str:
        return self.scenario.container

    @property
    def file_name(self) -> str:
        return f"session.{self.container}"

    @property
    def title(self) -> str:
        text = f"{self.scenario.title} ({self.era.id})"
        return text if len(text) <= 140 else self.scenario.title

    @property
    def provenance(self) -> str:
        return f"generator:{self.scenario.name}/era={self.era.id}/seed={self.scenario.seed}"

    def table(self) -> dict[str, Any]:
        """The case.toml table, keys in the order of spec/FIXTURES.md."""
        comment = " ".join(t for t in (self.scenario.comment, plan_note(self.plan)) if t)
        return {
            "id": self.id,
            "title": self.title,
            "rules": self.rules,
            "tags": self.tags,
            "era": self.era.id,
            "container": self.container,
            "provenance": self.provenance,
            "comment": comment,
            "expect": self.expect,
        }

    def toml(self) -> str:
        """case.toml as the one writer (casefile.render) lays it out: stable bytes."""
        return casefile.render(self.table())


def _rule_sort(rule: str) -> tuple[str, int]:
    prefix, number = rule.split("-")
    return prefix, int(number)


def generate(scenario: Scenario, era: Era, case_id: str) -> Case:
    """Play the scenario in the era and describe the result."""
    plan = scenario.plan(era)
    player = Player(
        era,
        scenario.seed,
        save_rate=scenario.save_rate,
        marker_kind=era.old_marker_kind if scenario.old_marker_kind else None,
        brief=scenario.brief,
        writer=LogWriter(watch=marker_test(era)),
    )
    player.play(plan)
    declared = set(scenario.tags)
    tags = declared | plan_tags(plan)
    rules = list(scenario.rules)
    expect: dict[str, Any] = {"outcome": "count", "reboots": expected_reboots(plan)}
    data = player.bytes(scenario.export or scenario.container)
    if scenario.container == "jsonl":
        if scenario.damage == "torn-tail":
            data += TORN_LINE
        elif scenario.damage == "first-write-lost":
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
    return Case(
        id=case_id,
        scenario=scenario,
        era=era,
        plan=plan,
        data=data,
        expect=expect,
        tags=sorted(tags),
        rules=sorted(set(rules), key=_rule_sort),
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


def pairs() -> list[tuple[Scenario, Era]]:
    """Every (scenario, era) pair the corpus holds, in registry order."""
    return [(s, e) for s in SCENARIOS for e in eras() if s.applies(e)]


def missing_ids() -> list[str]:
    """Keys `scenario/era` with no ID in the registry yet."""
    table = ids.registry()
    return [f"{s.name}/{e.id}" for s, e in pairs() if f"{s.name}/{e.id}" not in table]


def all_cases(only: str | None = None) -> list[Case]:
    """Generate every registered case (or the one with ID `only`)."""
    table = ids.registry()
    out = []
    for scenario, era in pairs():
        case_id = table.get(f"{scenario.name}/{era.id}")
        if case_id is None or (only is not None and case_id != only):
            continue
        out.append(generate(scenario, era, case_id))
    return out


TITLE_COUNT = re.compile(r"\b(no|one|two|three|four|five|six|\d+) reboots?\b")
NUMBERS = {"no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def title_count(title: str) -> int | None:
    """The count a title states ("two reboots"), if it states one."""
    match = TITLE_COUNT.search(title)
    if match is None:
        return None
    word = match.group(1)
    return NUMBERS[word] if word in NUMBERS else int(word)
