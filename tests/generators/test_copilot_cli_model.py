"""The Copilot CLI writer model (generators/hosts/copilot_cli) against its plans.

The bytes are read here with `json` line by line (the model writes one event a line, except the
damage a plan asks for) and checked against what the plan says: how many applied completes of
the main agent, which events a sub-agent wrote, what a fork copied and a rewind removed. The
reference is never imported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rebootspec.generators.hosts.copilot_cli import plan as model
from rebootspec.generators.hosts.copilot_cli.plan import (
    Compact,
    CopilotPlan,
    Prompt,
    Rewind,
    SubAgent,
)
from rebootspec.generators.hosts.copilot_cli.scenarios import SCENARIOS
from rebootspec.generators.hosts.copilot_cli.writer import play

PAIRS = [(s, era) for s in SCENARIOS for era in s.eras]
APPLIED = Compact()


def events(data: bytes) -> list[dict[str, Any]]:
    """Every line that parses as one object (damaged and glued lines left out)."""
    out = []
    for raw in data.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        out.append(value)
    return out


def applied(values: list[dict[str, Any]], main: bool = True) -> list[dict[str, Any]]:
    return [
        v
        for v in values
        if v["type"] == "session.compaction_complete"
        and v["data"].get("success") is True
        and v["data"].get("summaryContent")
        and ("agentId" in v) is not main
    ]


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=[f"{s.name}/{e}" for s, e in PAIRS])
def test_a_build_is_byte_identical_and_leaks_no_machine_path(scenario: Any, era: str) -> None:
    first = play(scenario.plan(era)).bytes()
    assert first == play(scenario.plan(era)).bytes()
    assert b"/tmp/" not in first and b"/root" not in first
    assert first.startswith(b'{"type":"session.start","data":{')


def test_each_event_links_to_the_one_before() -> None:
    plan = CopilotPlan("P2", (Prompt("a", tools=2), APPLIED, Prompt("b")))
    values = events(play(plan).bytes())
    assert values[0]["parentId"] is None
    assert [v["parentId"] for v in values[1:]] == [v["id"] for v in values[:-1]]
    assert all(list(v)[:5] == ["type", "data", "id", "timestamp", "parentId"] for v in values)


@pytest.mark.parametrize("era", ["P1", "P2"])
def test_every_ending_writes_what_its_era_writes(era: str) -> None:
    ends = ("applied", "failed", "cancelled", "lone", "empty")
    steps = tuple(x for end in ends for x in (Prompt(end), Compact(end=end)))
    values = events(play(CopilotPlan(era, steps)).bytes())
    starts = [v for v in values if v["type"] == "session.compaction_start"]
    completes = [v for v in values if v["type"] == "session.compaction_complete"]
    assert len(starts) == 5 and len(completes) == 4  # the lone start has none
    assert [c["data"]["success"] for c in completes] == [True, False, False, True]
    assert len(applied(values)) == 1
    outcomes = [c["data"].get("outcome") for c in completes]
    if era == "P2":
        assert outcomes == ["applied", "failed", "cancelled", "applied"]
    else:
        assert outcomes == [None] * 4


def test_a_sub_agents_events_carry_its_id_and_the_mains_do_not() -> None:
    plan = CopilotPlan("P2", (Prompt("a"), SubAgent((APPLIED, APPLIED)), APPLIED))
    values = events(play(plan).bytes())
    agents = {v["agentId"] for v in values if "agentId" in v}
    assert len(agents) == 1
    assert len(applied(values, main=False)) == 2 and len(applied(values)) == 1
    inside = [v for v in values if v.get("agentId")]
    assert inside[0]["type"] == "subagent.started" and inside[-1]["type"] == "subagent.completed"
    assert all("checkpointNumber" not in v["data"] for v in applied(values, main=False))


def test_a_fork_copies_its_parents_events_then_its_mark() -> None:
    parent = CopilotPlan("P2", (Prompt("a"), APPLIED))
    fork = CopilotPlan("P2", (Prompt("b"), APPLIED), parent=parent)
    source = events(play(parent).bytes())
    copy = events(play(fork).bytes())
    assert [v["id"] for v in copy[: len(source)]] == [v["id"] for v in source]
    assert copy[0]["data"]["sessionId"] != source[0]["data"]["sessionId"]
    assert [v["timestamp"] for v in copy[1 : len(source)]] == [v["timestamp"] for v in source[1:]]
    assert all(v["timestamp"] < copy[0]["timestamp"] for v in copy[1 : len(source)])
    mark = copy[len(source)]
    assert mark["type"] == "session.info" and mark["data"]["infoType"] == "fork"
    assert mark["timestamp"] == copy[0]["timestamp"]
    copied_path = applied(copy)[0]["data"]["checkpointPath"]
    assert copy[0]["data"]["sessionId"] in copied_path
    assert model.expected_reboots(fork) == 1 and model.inherited_applied(fork) == 1


def test_a_rewind_removes_the_events_from_its_prompt_on() -> None:
    steps = (Prompt("a"), APPLIED, Prompt("b"), APPLIED, Rewind(2), Prompt("c"), APPLIED)
    plan = CopilotPlan("P2", steps)
    values = events(play(plan).bytes())
    assert [v["data"]["content"] for v in values if v["type"] == "user.message"] == ["a", "c"]
    assert len(applied(values)) == 2 == model.expected_reboots(plan)
    assert [v["data"]["checkpointNumber"] for v in applied(values)] == [1, 2]  # reused
    notes = [v for v in values if v["type"] == "session.info"]
    assert [n["data"]["infoType"] for n in notes] == ["rewind"]


def test_the_damage_the_plan_asks_for_is_in_the_bytes() -> None:
    scenario = next(s for s in SCENARIOS if s.name == "copilot-damaged")
    data = play(scenario.plan("P2")).bytes()
    lines = data.split(b"\n")
    assert any(line.startswith(b'{"type": "session.info"') for line in lines)  # JSV-3
    assert any(line.count(b'{"type":') > 1 for line in lines)  # glued (JSV-1)
    assert not data.endswith(b"\n")  # a torn tail (JSV-2)


def test_the_plans_count_follows_the_spec() -> None:
    """CPL-3..CPL-8 as the plan computes them, on plans a person counts by eye."""
    base = (Prompt("a"), APPLIED, Prompt("b"), Compact(end="failed"), SubAgent((APPLIED,)))
    assert model.expected_reboots(CopilotPlan("P1", base)) == 1
    fork = CopilotPlan("P2", (APPLIED,), parent=CopilotPlan("P2", base))
    assert model.expected_reboots(fork) == 1
    unmarked = CopilotPlan("P2", (APPLIED,), parent=CopilotPlan("P2", base), mark=False)
    assert model.expected_reboots(unmarked) == 2
    rewound = CopilotPlan("P2", (*base, Rewind(1)))
    assert model.expected_reboots(rewound) == 0 and model.rewound(rewound)
