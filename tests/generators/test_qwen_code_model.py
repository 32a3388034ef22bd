"""The Qwen Code writer model (generators/hosts/qwen_code) against its plans.

The bytes are read here with `json` line by line and checked against what the plan says: how
many summary compressions the session's own thread completed (each a `chat_compression` record
whose new history starts with a fresh `<state_snapshot>` summary), what a fork copied, what a
sub-agent and a Q0 chat hold. The reference is never imported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rebootspec.generators.hosts.qwen_code.plan import (
    QwenCompress,
    QwenNearMiss,
    QwenPlan,
    QwenTurn,
    expected_reboots,
)
from rebootspec.generators.hosts.qwen_code.scenarios import SCENARIOS
from rebootspec.generators.hosts.qwen_code.writer import play

PAIRS = [(s, era) for s in SCENARIOS for era in s.eras]


def records(data: bytes) -> list[dict[str, Any]]:
    """Every line that parses as one object (a damaged line, a stray value and a torn tail left
    out)."""
    out = []
    for raw in data.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def summaries(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main thread's `system` compression records of status 1 whose new history starts with
    a `<state_snapshot>` summary and the model's acknowledgement (a near-miss record, put in by
    another tool, lacks one of these)."""
    found = []
    for value in values:
        if value.get("subtype") != "chat_compression" or value.get("type") != "system":
            continue
        payload = value.get("systemPayload")
        if value.get("isSidechain") or not isinstance(payload, dict):
            continue
        info, history = payload.get("info"), payload.get("compressedHistory")
        if not isinstance(info, dict) or type(info.get("compressionStatus")) is not int:
            continue
        if info["compressionStatus"] != 1 or not isinstance(history, list) or len(history) < 2:
            continue
        head, ack = history[0], history[1]
        if not isinstance(head, dict) or ack.get("role") != "model" or not ack.get("parts"):
            continue
        if head["parts"][0].get("text", "").startswith("<state_snapshot>"):
            found.append(value)
    return found


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=[f"{s.name}/{e}" for s, e in PAIRS])
def test_a_build_is_byte_identical_and_leaks_no_machine_path(scenario: Any, era: str) -> None:
    first = play(scenario.plan(era)).bytes()
    assert first == play(scenario.plan(era)).bytes()
    assert b"/tmp/" not in first and b"/root" not in first


@pytest.mark.parametrize(
    ("scenario", "era"),
    [(s, e) for s, e in PAIRS if s.reject is None],
    ids=[f"{s.name}/{e}" for s, e in PAIRS if s.reject is None],
)
def test_the_own_fresh_summaries_are_the_plans_count(scenario: Any, era: str) -> None:
    plan = scenario.plan(era)
    values = records(play(plan).bytes())
    every = summaries(values)
    own = [v for v in every if "forkedFrom" not in v]
    seen: set[str] = set()
    fresh = 0
    for value in every:  # a summary repeated at the head of a /compress-fast history is old
        text = value["systemPayload"]["compressedHistory"][0]["parts"][0]["text"]
        fresh += text not in seen and "forkedFrom" not in value
        seen.add(text)
    assert fresh == expected_reboots(plan)
    assert all(v["systemPayload"]["info"]["compressionStatus"] == 1 for v in own)


@pytest.mark.parametrize("name", ["qwen-status-near-miss", "qwen-history-near-miss"])
def test_near_miss_records_are_written_beside_the_real_compression(name: str) -> None:
    plan = next(s for s in SCENARIOS if s.name == name).plan("Q1")
    values = records(play(plan).bytes())
    marked = [v for v in values if v.get("subtype") == "chat_compression"]
    near = [s for s in plan.steps if isinstance(s, QwenNearMiss)]
    assert len(marked) == len(near) + 1 and expected_reboots(plan) == 1
    assert len(summaries(values)) == 1


def test_a_sub_agents_turns_in_the_main_file_are_marked_and_leave_its_thread() -> None:
    plan = next(s for s in SCENARIOS if s.name == "qwen-sidechain-in-main").plan("Q1")
    values = records(play(plan).bytes())
    side = [v for v in values if v.get("isSidechain") is True]
    main = [v for v in values if "isSidechain" not in v]
    assert side and main and values[0] in main
    assert {v["parentUuid"] for v in main} & {v["uuid"] for v in side} == set()


def test_a_fork_copies_the_live_chain_each_record_stamped() -> None:
    fork = next(s for s in SCENARIOS if s.name == "qwen-fork-copy").plan("Q1")
    assert fork.copy is not None
    parent = play(fork.copy.parent)
    values = records(play(fork).bytes())
    copied = [v for v in values if "forkedFrom" in v]
    assert [v["uuid"] for v in copied] == [r["uuid"] for r in parent.records]
    assert {v["forkedFrom"]["sessionId"] for v in copied} == {parent.session}
    assert len({v["sessionId"] for v in values}) == 1 != parent.session


def test_failed_and_subagent_compressions_write_no_record() -> None:
    failed = QwenPlan("Q1", (QwenTurn(1), QwenCompress(done=False), QwenTurn(1)))
    sub = QwenPlan("Q1", (QwenTurn(1), QwenCompress(), QwenTurn(1)), subagent=True)
    for plan in (failed, sub):
        values = records(play(plan).bytes())
        assert not [v for v in values if v.get("subtype") == "chat_compression"]
    assert all(v["isSidechain"] is True for v in records(play(sub).bytes()))


def test_a_q0_chat_is_one_document_with_qwen_replies() -> None:
    plan = QwenPlan("Q0", (QwenTurn(1), QwenCompress(), QwenTurn(1)), version="0.1.4")
    document = json.loads(play(plan).bytes())
    kinds = {m["type"] for m in document["messages"]}
    assert kinds == {"user", "qwen"}
    assert set(document) == {"sessionId", "projectHash", "startTime", "lastUpdated", "messages"}
