"""The Cline family's writer models (generators/hosts/cline) against their plans.

The files are read here with `json` and checked against what the plan says: how many answered
summaries and accepted /smol results Cline's api history holds, how many completed condense rows
Roo's line writes, what a restore removed, whether an SDK session has its compaction file. The
reference is never imported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rebootspec.generators.hosts.cline.plan import (
    CLINE,
    AutoCompact,
    Restore,
    Smol,
    StrayCondenseRow,
    TaskPlan,
    expected,
    kept_steps,
)
from rebootspec.generators.hosts.cline.scenarios import SCENARIOS
from rebootspec.generators.hosts.cline.writer import play

PAIRS = [(s, era) for s in SCENARIOS for era in s.eras]
IDS = [f"{s.name}/{e}" for s, e in PAIRS]


def _texts(message: dict[str, Any]) -> list[str]:
    out = []
    for block in message.get("content", []):
        if block.get("type") == "text":
            out.append(block["text"])
        elif block.get("type") == "tool_result":
            out.append(block["content"])
    return out


def _results(api: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(answered summaries, accepted /smol, /smol with feedback) in the api history."""
    summaries = accepted = feedback = 0
    for message in api:
        if message["role"] != "user":
            continue
        for text in _texts(message):
            summaries += text.startswith("[summarize_task] Result:") and "being continued" in text
            accepted += text.startswith("[condense] Result:") and "has accepted" in text
            feedback += text.startswith("[condense] Result:") and "provided feedback" in text
    return summaries, accepted, feedback


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=IDS)
def test_a_build_is_byte_identical_and_leaks_no_machine_path(scenario: Any, era: str) -> None:
    first = play(scenario.plan(era))
    assert first == play(scenario.plan(era))
    for data in first.values():
        assert b"/tmp/" not in data and b"/root" not in data and b"/work/" not in data
        json.loads(data)


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=IDS)
def test_the_records_are_the_plans(scenario: Any, era: str) -> None:
    plan: TaskPlan = scenario.plan(era)
    files = play(plan)
    if era == "S1":
        compacted = any(name.endswith(".compaction.json") for name in files)
        assert compacted == (expected(plan)[0] == "reject")
        return
    ui = json.loads(files["ui_messages.json"])
    stamps = [row["ts"] for row in ui]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert all(row["type"] in ("say", "ask") and isinstance(row[row["type"]], str) for row in ui)
    if plan.drop_api:
        assert "api_conversation_history.json" not in files
        return
    api = json.loads(files["api_conversation_history.json"])
    if plan.api_not_array:  # CLN-13: the messages under a member, not the array Cline writes
        assert isinstance(api, dict) and isinstance(api["messages"], list)
        return
    kept = kept_steps(plan)
    summaries, accepted, feedback = _results(api)
    rows = [
        r
        for r in ui
        if r.get("say") == "condense_context"
        and "contextCondense" in r
        and r.get("partial") is not True
    ]
    strays = [s for s in plan.steps if isinstance(s, StrayCondenseRow)]
    every = [r for r in ui if r.get("say") == "condense_context"]
    assert len(every) == len(rows) + len(strays)
    if plan.member == CLINE:
        assert summaries == sum(isinstance(s, AutoCompact) and not s.gave_up for s in kept)
        assert accepted == sum(isinstance(s, Smol) and s.accepted for s in kept)
        assert feedback == sum(isinstance(s, Smol) and not s.accepted for s in kept)
        assert rows == []
        assert any(isinstance(s, Restore) for s in plan.steps) == any(
            r.get("say") == "deleted_api_reqs" for r in ui
        )
    else:
        assert summaries == 0
        outcome, value = expected(plan)
        if outcome == "count":
            assert len(rows) == value
        else:  # Roo 3.17: summaries in the api history, no row
            assert rows == [] and any(m.get("isSummary") for m in api)
        assert sum(r.get("partial") is True for r in every) == sum(s.partial for s in strays)


def test_pre_336_keeps_only_the_latest_summary_and_336_keeps_all() -> None:
    """Roo's api history: before 3.36 one summary survives three condenses; from 3.36 all do."""
    (scenario,) = [s for s in SCENARIOS if s.name == "roo-condense-three"]
    api = json.loads(play(scenario.plan("R2"))["api_conversation_history.json"])
    assert sum(1 for m in api if m.get("isSummary")) == 1
    (scenario,) = [s for s in SCENARIOS if s.name == "roo-condense"]
    api = json.loads(play(scenario.plan("R3"))["api_conversation_history.json"])
    assert sum(1 for m in api if m.get("isSummary")) == 2
