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
    content = message.get("content", [])
    if isinstance(content, str):  # Roo's summaries and markers before 3.43
        return [content]
    out = []
    for block in content:
        if not isinstance(block, dict):  # a stray value (plan.strays)
            continue
        if block.get("type") == "text":
            out.append(block["text"])
        elif block.get("type") == "tool_result" and isinstance(block["content"], str):
            out.append(block["content"])
        elif block.get("type") == "tool_result":  # a list result: an image read's
            out += [b["text"] for b in block["content"] if b["type"] == "text"]
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
    for name, data in first.items():
        assert b"/tmp/" not in data and b"/root" not in data and b"/work/" not in data
        if not (scenario.plan(era).api_cut and name == "api_conversation_history.json"):
            json.loads(data)


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=IDS)
def test_the_records_are_the_plans(scenario: Any, era: str) -> None:
    plan: TaskPlan = scenario.plan(era)
    files = play(plan)
    if era == "S1":
        compacted = any(name.endswith(".compaction.json") for name in files)
        assert compacted == (expected(plan)[0] == "reject")
        return
    ui = json.loads(files["ui_messages.json"].decode("utf-8-sig"))
    strays = [row for row in ui if not isinstance(row, dict)]
    assert len(strays) == plan.strays  # another tool's edit: one null row (CLN-1)
    ui = [row for row in ui if isinstance(row, dict)]
    stamps = [row["ts"] for row in ui]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert all(row["type"] in ("say", "ask") and isinstance(row[row["type"]], str) for row in ui)
    if plan.drop_api:
        assert "api_conversation_history.json" not in files
        return
    if plan.api_cut:  # one line cut short: it fails to parse, and inside line 1 (ERR-3)
        data = files["api_conversation_history.json"]
        with pytest.raises(json.JSONDecodeError) as caught:
            json.loads(data)
        assert caught.value.lineno == 1 and b"\n" not in data
        return
    api = json.loads(files["api_conversation_history.json"])
    if plan.api_not_array:  # CLN-13: the messages under a member, not the array Cline writes
        assert isinstance(api, dict) and isinstance(api["messages"], list)
        return
    kept = kept_steps(plan)
    assert sum(not isinstance(m, dict) for m in api) == plan.strays
    api = [m for m in api if isinstance(m, dict)]
    summaries, accepted, feedback = _results(api)
    rows = [
        r
        for r in ui
        if r.get("say") == "condense_context"
        and "contextCondense" in r
        and r.get("partial") is not True
    ]
    stray_rows = [s for s in plan.steps if isinstance(s, StrayCondenseRow)]
    every = [r for r in ui if r.get("say") == "condense_context"]
    assert len(every) == len(rows) + len(stray_rows)
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
        assert sum(r.get("partial") is True for r in every) == sum(s.partial for s in stray_rows)


def _summaries(name: str, era: str) -> list[dict[str, Any]]:
    (scenario,) = [s for s in SCENARIOS if s.name == name]
    api = json.loads(play(scenario.plan(era))["api_conversation_history.json"])
    return [m for m in api if m.get("isSummary")]


def test_each_roo_release_leaves_its_own_number_of_summaries() -> None:
    """Roo's api history (src/core/condense at each tag): 3.18-3.28.0 keep every summary,
    3.28.1-3.35 only the latest of three, 3.36 on every one again with its condenseId."""
    assert len(_summaries("roo-condense-kept-summaries", "R2")) == 3
    assert len(_summaries("roo-condense-three", "R2")) == 1
    fresh = _summaries("roo-condense", "R3")
    assert len(fresh) == 2 and all(m["role"] == "user" and m["condenseId"] for m in fresh)
    tagged = _summaries("roo-condense-tagged", "R3")
    assert len(tagged) == 2 and all(m["role"] == "assistant" for m in tagged)


def test_a_roo_condense_row_stores_no_partial_member() -> None:
    """Task.say with partial false stores the row without `partial` or `text`; the forced
    condense's row has no condenseId."""
    (scenario,) = [s for s in SCENARIOS if s.name == "roo-condense-tagged"]
    ui = json.loads(play(scenario.plan("R3"))["ui_messages.json"])
    rows = [r for r in ui if r.get("say") == "condense_context"]
    assert [sorted(r) for r in rows] == [["contextCondense", "say", "ts", "type"]] * 2
    assert ["condenseId" in r["contextCondense"] for r in rows] == [True, False]


def test_an_edit_before_336_leaves_the_summary_and_from_336_takes_it() -> None:
    """Roo's rewind (webviewMessageHandler before 3.36, MessageManager after): the edited
    message's row and the condense row after it go; the summary stays only before 3.36."""
    (scenario,) = [s for s in SCENARIOS if s.name == "roo-edit-after-condense"]
    for era, summaries in (("R2", 1), ("R3", 0)):
        files = play(scenario.plan(era))
        ui = json.loads(files["ui_messages.json"])
        api = json.loads(files["api_conversation_history.json"])
        assert not [r for r in ui if r.get("say") == "condense_context"]
        assert sum(1 for m in api if m.get("isSummary")) == summaries
        assert not any("condenseParent" in m for m in api)
