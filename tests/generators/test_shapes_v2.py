"""The spec 2.0 shapes the generator writes: what the file's final state holds is what the plan
says it holds (count, phantoms, flags, fork and export shapes).

The count is read by a small independent reading of the spec (v2_reading), not the reference,
so these tests check the writer against its plan on their own.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from rebootspec.generators.corpus.cases import Case, all_cases, pairs
from rebootspec.generators.hosts.vscode.eras import era
from rebootspec.generators.hosts.vscode.plan import (
    Flag,
    Fork,
    Plan,
    expected_phantoms,
    expected_reboots_possible,
)
from rebootspec.reference.hosts.vscode.count import count_state
from tests.generators.v2_reading import count, final_state, phantoms

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


# Playing VS Code's writer is most of a corpus build, so nothing is played while pytest
# collects (every xdist worker collects): the parametrized keys come from the scenario table,
# and each test plays only its own scenario's cases.
KEYS = sorted(
    f"{scenario.name}/{era_id}"
    for scenario, era_id in pairs()
    if scenario.host == "vscode"
    # A lost first write is rejected (E-NO-INITIAL): it has no count to compare.
    and scenario.options.damage != "first-write-lost"
)


@cache
def by_scenario(name: str) -> list[Case]:
    """VS Code's generated cases of one scenario, every era."""
    return all_cases(hosts={"vscode"}, scenarios={name})


def case_of(key: str) -> Case:
    """The generated case `scenario/era`; its plan must give a count (it is in KEYS)."""
    (case,) = [case for case in by_scenario(key.split("/")[0]) if case.key == key]
    assert case.expect.get("reboots") is not None, f"{key}: no planned count"
    return case


def state_of(case: Case) -> dict[str, Any]:
    return final_state(case.data, case.container)


@pytest.mark.parametrize("key", KEYS)
def test_the_final_state_counts_as_planned(key: str) -> None:
    case = case_of(key)
    state = state_of(case)
    assert count(state) == case.expect["reboots"]
    assert phantoms(state) == expected_phantoms(case.plan)


@pytest.mark.parametrize("name", ["removal-flag", "removal-flag-unwritten", "is-hidden"])
def test_a_flag_is_in_the_file_exactly_when_the_plan_says(name: str) -> None:
    for case in by_scenario(name):
        requests = state_of(case)["requests"]
        planned = case.plan.final_requests()
        flagged = {s.index for s in case.plan.steps if isinstance(s, Flag)}
        assert flagged
        for index in flagged:
            on_disk = "shouldBeRemovedOnSend" in requests[index] or "isHidden" in requests[index]
            assert on_disk == planned[index].flag_on_disk, (case.id, index)
        partial = [r.get("shouldBeRemovedOnSend") for r in requests]
        if name == "removal-flag":
            assert any(isinstance(p, dict) and p.get("afterUndoStop") for p in partial)


def test_round_summaries_sit_on_the_anchor_rounds() -> None:
    for case in by_scenario("error-rounds"):
        (request,) = state_of(case)["requests"]
        assert "errorDetails" in request["result"]
        metadata = request["result"]["metadata"]
        assert "summary" not in metadata and "summaries" not in metadata
        rounds = metadata["toolCallRounds"]
        assert [n for n, r in enumerate(rounds) if "summary" in r] == [1, 3, 7, 10]


def test_a_success_in_the_array_era_is_two_entries() -> None:
    case = case_of("single-compaction/compacted-summaries")
    entries = [
        r["result"]["metadata"]["summaries"]
        for r in state_of(case)["requests"]
        if "summaries" in r["result"]["metadata"]
    ]
    (pair,) = entries
    assert len(pair) == 2
    assert (
        pair[0]["text"] == pair[1]["text"]
        and pair[0]["toolCallRoundId"] == pair[1]["toolCallRoundId"]
    )
    assert pair[0]["source"] == "foreground" and pair[0]["outcome"] == "success"
    assert "source" not in pair[1] and "outcome" not in pair[1]


def test_a_fork_child_has_fresh_ids_and_complete_requests() -> None:
    for case in by_scenario("fork"):
        state = state_of(case)
        assert state["customTitle"].startswith("Forked: ")
        at = next(n for n, s in enumerate(case.plan.steps) if isinstance(s, Fork))
        copied = state["requests"][: len(Plan(case.plan.steps[:at], "summary").final_turns())]
        assert copied
        assert all(UUID.match(r["requestId"]) for r in copied)
        assert all(r["modelState"]["value"] == 1 for r in copied)
        assert not any("shouldBeRemovedOnSend" in r for r in state["requests"])


@pytest.mark.parametrize("name", ["export", "export-old"])
def test_an_export_is_a_pretty_document_without_session_identity(name: str) -> None:
    for case in by_scenario(name):
        document = json.loads(case.data)
        assert case.data.startswith(b'{\n  "')
        assert "version" not in document and "sessionId" not in document
        assert isinstance(document["responderUsername"], str)
        assert isinstance(document["requests"], list)
        assert ("requesterUsername" in document) == (name == "export-old")


def test_truncated_summaries_share_one_stored_text() -> None:
    (case,) = by_scenario("truncated-summaries")
    texts = [
        e["text"]
        for r in state_of(case)["requests"]
        for e in (r.get("result", {}).get("metadata", {}).get("summaries") or [])
    ]
    assert texts and all(t.startswith("[VS Code: value truncated for persistence;") for t in texts)
    assert len(set(texts)) == 2


def test_cleared_markers_leave_no_marker_after_the_last_tool() -> None:
    for case in by_scenario("marker-cleared"):
        requests = state_of(case)["requests"]
        assert any(p.get("kind") == "warning" for r in requests for p in r["response"])
        text = era(case.era).completed
        with_marker = [
            n
            for n, r in enumerate(requests)
            if any(
                isinstance(p.get("content"), dict) and p["content"].get("value") == text
                for p in r["response"]
            )
        ]
        assert with_marker == [0]


@pytest.mark.parametrize("key", KEYS)
def test_the_reference_finds_the_planned_phantoms(key: str) -> None:
    """OUT-3 is informative, but the plan states it: the reference should agree."""
    case = case_of(key)
    result = count_state(state_of(case))
    assert result.reboots == case.expect["reboots"]
    assert [(v.index, v.phantom_reason) for v in result.phantoms] == expected_phantoms(case.plan)
    assert result.reboots_possible == expected_reboots_possible(case.plan)
