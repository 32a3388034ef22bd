"""The Gemini CLI writer model: the bytes per era against the plans (GEM-1..GEM-8).

Read here with a small reading of its own (not the reference): the distinct ids of snapshot
messages in `$set.messages` histories, and whether the file ever synced its history.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rebootspec.generators.corpus import cases
from rebootspec.generators.hosts.gemini_cli import writer as gemini
from rebootspec.generators.hosts.gemini_cli.plan import (
    Compress,
    GemPlan,
    GemResume,
    Mask,
    Prompt,
    Rewind,
    expected_reboots,
)
from rebootspec.generators.hosts.gemini_cli.scenarios import SCENARIOS


def reading(data: bytes) -> tuple[bool, int]:
    """(synced, distinct snapshot keys) of a `.jsonl` chat: a snapshot message's id, or its
    text when it has none; entries of a history that are not messages are skipped."""
    synced, ids = False, set()
    for raw in data.split(b"\n"):
        try:
            value: Any = json.loads(raw)
        except ValueError:
            continue
        update = value.get("$set") if isinstance(value, dict) else None
        if not isinstance(update, dict) or "messages" not in update:
            continue
        synced = True
        for message in update["messages"]:
            if not isinstance(message, dict):
                continue
            text = "".join(p.get("text", "") for p in message["content"] if isinstance(p, dict))
            if message["type"] == "user" and "<state_snapshot>" in text:
                ids.add(message.get("id", text))
    return synced, len(ids)


STEPS = (
    Prompt(2),
    Compress(),
    Prompt(1),
    GemResume(),
    Mask(),
    Compress("manual", interactive=True),
    Rewind(),
    Compress(done=False),
)


def test_g1_snapshots_match_the_plan() -> None:
    plan = GemPlan("G1", STEPS)
    synced, snapshots = reading(gemini.play(plan).bytes())
    assert synced and snapshots == expected_reboots(plan) == 2


@pytest.mark.parametrize("era", ["G0", "J0"])
def test_earlier_eras_record_no_history(era: str) -> None:
    data = gemini.play(GemPlan(era, STEPS)).bytes()
    if era == "J0":
        document = json.loads(data)
        assert {"sessionId", "projectHash", "messages"} <= set(document)
        assert "<state_snapshot>" not in data.decode()
    else:
        assert reading(data) == (False, 0)


def test_deterministic_and_no_machine_paths() -> None:
    plan = GemPlan("G1", STEPS, torn=True)
    first, second = gemini.play(plan).bytes(), gemini.play(plan).bytes()
    assert first == second and not first.endswith(b"\n")
    assert b"/tmp/" not in first.replace(b"/home/dev/.gemini/tmp/", b"")


def test_every_gemini_scenario_builds_and_its_plan_counts() -> None:
    gem = [s for s in SCENARIOS if s.host == "gemini-cli"]
    assert len(gem) >= 10
    for scenario in gem:
        for era in scenario.eras:
            case = cases.generate(scenario, era, "TEST")
            assert case.container == ("json" if era == "J0" else "jsonl")
            if scenario.reject is None:
                plan = case.plan
                assert plan is not None
                assert reading(case.data)[1] == case.expect["reboots"] == expected_reboots(plan)
            else:
                assert case.expect == {"outcome": "reject", "error": "E-UNMEASURABLE", "line": 0}
