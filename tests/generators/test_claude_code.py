"""The Claude Code writer model (generators/hosts/claude_code.py) and the cases built from it.

The expected counts come from the plans; these tests check the bytes against the plans with a
small reading of their own (by JSON value), never by running the reference: the boundaries of
the main thread by distinct uuid, the copy marks of CLC-6, the side file of CLC-5, the CC0
summaries of CLC-7, and where the plans put the damage.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from rebootspec.generators.corpus import cases
from rebootspec.generators.corpus.cases import Case
from rebootspec.generators.hosts.claude_code import writer as claude_code
from rebootspec.generators.hosts.claude_code.plan import ClaudePlan, expected_reboots

CASES = cases.all_cases(hosts={"claude-code"})


def values(data: bytes) -> Iterator[tuple[int, Any]]:
    """(line, value) of every value that parses; a piece that does not parse ends its line."""
    decoder = json.JSONDecoder()
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        position = 0
        while position < len(raw):
            try:
                value, position = decoder.raw_decode(raw, position)
            except ValueError:
                break
            yield number, value


def records(data: bytes) -> list[dict[str, Any]]:
    return [v for _, v in values(data) if isinstance(v, dict)]


def plan(case: Case) -> ClaudePlan:
    the_plan = case.plan
    assert isinstance(the_plan, ClaudePlan)
    return the_plan


def is_boundary(record: dict[str, Any]) -> bool:
    return record.get("type") == "system" and record.get("subtype") == "compact_boundary"


def main_thread(data: bytes) -> list[dict[str, Any]]:
    return [r for r in records(data) if r.get("isSidechain") is not True]


def test_every_era_has_a_case() -> None:
    assert {case.era for case in CASES} == {"CC0", "CC1", "CC2", "CC3"}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key)
def test_the_first_value_is_one_hst_2_gives_to_claude_code(case: Case) -> None:
    first = next(v for _, v in values(case.data))
    assert isinstance(first, dict) and isinstance(first.get("type"), str)
    assert "kind" not in first and "payload" not in first and first["type"] != "session"
    threaded = all(isinstance(first.get(m), str) for m in ("uuid", "sessionId", "userType"))
    titled = first["type"] == "summary" and isinstance(first.get("leafUuid"), str)
    snapshot = first["type"] == "file-history-snapshot" and isinstance(first.get("messageId"), str)
    assert threaded or titled or snapshot


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key)
def test_the_own_boundaries_are_the_plan_count(case: Case) -> None:
    """Distinct uuids of main-thread boundaries without forkedFrom (CC0: flagged summaries); a
    primary without a uuid is one of its own (CLC-3)."""
    own = main_thread(case.data)
    if case.era == "CC0":
        assert not any(is_boundary(r) for r in records(case.data))
        marks = [r for r in own if r.get("isCompactSummary") is True]
    else:
        marks = [r for r in own if is_boundary(r)]
    keys = [r.get("uuid", ("no uuid", n)) for n, r in enumerate(marks)]
    forked = {key for key, r in zip(keys, marks, strict=True) if "forkedFrom" in r}
    distinct = set(keys) - forked
    assert len(distinct) == case.expect["reboots"] == expected_reboots(plan(case))


@pytest.mark.parametrize("case", [c for c in CASES if c.era != "CC0"], ids=lambda c: c.key)
def test_each_boundary_is_followed_by_its_summary(case: Case) -> None:
    found = records(case.data)
    for index, record in enumerate(found):
        if is_boundary(record) and index + 1 < len(found):
            after = found[index + 1]
            assert after.get("isCompactSummary") is True
            assert after["parentUuid"] == record.get("uuid")  # None: a boundary without one
            assert record["parentUuid"] is None
            if case.era in ("CC2", "CC3"):
                assert isinstance(record["logicalParentUuid"], str)


def _case(name: str) -> Case:
    return next(case for case in CASES if case.scenario.name == name)


def test_a_manual_compaction_is_followed_by_its_earlier_stamped_command() -> None:
    found = records(_case("claude-manual").data)
    index = next(i for i, r in enumerate(found) if is_boundary(r))
    boundary = found[index]
    assert boundary["compactMetadata"]["trigger"] == "manual"
    command = next(r for r in found[index:] if "/compact" in str(r.get("message")))
    assert found.index(command) > index + 1
    assert _instant(command["timestamp"]) < _instant(boundary["timestamp"])


def test_the_side_file_is_sidechain_records_of_the_summarizer() -> None:
    found = records(_case("claude-side-file").data)
    assert found and all(r["isSidechain"] is True for r in found)
    assert all(r["agentId"].startswith("acompact-") for r in found)
    assert not any(is_boundary(r) for r in found)


def test_the_sidechain_boundary_is_the_subagents() -> None:
    found = records(_case("claude-sidechain").data)
    sidechain = [r for r in found if r.get("isSidechain") is True]
    assert any(is_boundary(r) for r in sidechain)
    assert sum(1 for r in found if is_boundary(r)) == 2


def test_a_branch_copy_repeats_the_source_with_forked_from_before_its_own() -> None:
    case = _case("claude-branch-copy")
    the_plan = plan(case)
    assert the_plan.copy is not None
    source = claude_code.play(the_plan.copy.parent)
    found = records(case.data)
    copied = [r for r in found if "forkedFrom" in r]
    assert [r["uuid"] for r in copied] == [r["uuid"] for r in source.records if "uuid" in r]
    assert found[: len(copied)] == copied  # the copy comes first
    assert sum(1 for r in copied if is_boundary(r)) == expected_reboots(the_plan.copy.parent) == 2
    assert all(r["forkedFrom"]["sessionId"] == source.session for r in copied)


def test_a_reappend_repeats_records_with_their_uuids() -> None:
    found = records(_case("claude-reappend").data)
    boundaries = [r["uuid"] for r in found if is_boundary(r)]
    assert len(boundaries) == 3 and len(set(boundaries)) == 2
    first = next(r for r in found if is_boundary(r))
    again = [r for r in found if r.get("uuid") == first["uuid"]]
    assert len(again) == 2 and again[0] == again[1]


def test_a_walk_of_the_chain_sees_one_boundary_of_two() -> None:
    """CLC-9: from the last record back through parentUuid, the walk stops at a boundary."""
    found = [r for r in records(_case("claude-chain-break").data) if "uuid" in r]
    by_uuid = {r["uuid"]: r for r in found}
    node: dict[str, Any] | None = found[-1]
    seen = 0
    while node is not None:
        seen += is_boundary(node)
        parent = node.get("parentUuid")
        node = by_uuid.get(parent) if isinstance(parent, str) else None
    assert seen == 1 and sum(1 for r in found if is_boundary(r)) == 2


def test_failed_compactions_leave_the_command_and_no_boundary() -> None:
    data = _case("claude-failed-compaction").data
    found = records(data)
    assert not any(is_boundary(r) or r.get("isCompactSummary") for r in found)
    assert b"Error during compaction" in data


def test_damage_is_where_the_plans_put_it() -> None:
    torn = _case("claude-torn-tail").data
    assert not torn.endswith(b"\n") and b"compact_boundary" in torn.rsplit(b"\n", 1)[1]
    glued = _case("claude-glued").data
    line = next(raw for raw in glued.split(b"\n") if b'"compact_boundary"' in raw)
    assert line.count(b'"uuid"') == 2  # the boundary shares its line with the record before it
    bad = _case("claude-bad-line").data.split(b"\n")
    broken = [raw for raw in bad if raw and not _parses(raw)]
    assert len(broken) == 1


def test_cc3_metadata_and_the_microcompact_companion() -> None:
    found = records(_case("claude-not-compactions").data)
    assert found[0]["type"] == "summary"
    assert any(r.get("subtype") == "microcompact_boundary" for r in found)
    boundary = next(r for r in found if is_boundary(r))
    assert {"postTokens", "durationMs"} <= set(boundary["compactMetadata"])


def _parses(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
