"""Spec 2.0 answers: the count is still the only thing judged; `reboots_possible` and the
phantom reasons (OUT-3) are carried into the report as information, never into a verdict."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.conformance.reports.compare import compare
from rebootspec.conformance.reports.report import build, render, show_informative, show_phantoms
from rebootspec.conformance.runner.answers import (
    JsonPointerReader,
    LastIntegerReader,
    read_informative,
)
from rebootspec.conformance.runner.outcome import RunResult, classify
from rebootspec.conformance.runner.records import Record
from rebootspec.reference.cli import main as reference_main

MARKER = {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}
COUNT_1 = {"outcome": "count", "reboots": 1}


def reference_stdout(tmp_path: Path) -> str:
    """The reference's own 2.0 answer for: summary A; a request with no events; a completed
    marker on a request that ended in an error (rounds kept, entries dropped: UNC-1); a plain
    completed marker; a removed request. By hand: 1 reboot, phantoms lost-after-error and
    unknown, reboots_possible 2, removed [4]."""
    requests: list[dict[str, Any]] = [
        {"response": [MARKER], "result": {"metadata": {"summary": {"text": "A"}}}},
        {"response": [], "result": {}},
        {
            "response": [MARKER],
            "result": {"errorDetails": {"message": "x"}, "metadata": {"toolCallRounds": [{}]}},
        },
        {"response": [MARKER]},
        {"response": [], "shouldBeRemovedOnSend": True},
    ]
    path = tmp_path / "s.json"
    path.write_bytes(orjson.dumps({"version": 3, "requests": requests}))
    out = io.StringIO()
    assert reference_main(["count", str(path)], out, io.StringIO()) == 0
    return out.getvalue()


def test_the_reference_2_0_answer_is_read_as_its_count(tmp_path: Path) -> None:
    stdout = reference_stdout(tmp_path)
    answer = orjson.loads(stdout)
    assert {"reboots_possible", "phantoms", "removed"} <= answer.keys()  # the 2.0 members
    assert JsonPointerReader().read(stdout) == (1, None)
    verdict = classify(COUNT_1, RunResult(exit_code=0, stdout=stdout), JsonPointerReader())
    assert (verdict.outcome, verdict.actual) == ("pass", {"outcome": "count", "reboots": 1})
    assert verdict.informative == {
        "reboots_possible": 2,
        "phantoms": [
            {"request": 2, "reason": "lost-after-error"},
            {"request": 3, "reason": "unknown"},
        ],
    }


def test_informative_members_are_read_beside_the_count_of_a_pointer() -> None:
    stdout = '{"result": {"reboots": 1, "reboots_possible": 3, "phantoms": [{"reason": "x"}]}}'
    reader = JsonPointerReader("/result/reboots")
    assert reader.read(stdout) == (1, None)
    assert read_informative(stdout, reader) == {
        "reboots_possible": 3,
        "phantoms": [{"reason": "x"}],
    }


@pytest.mark.parametrize(
    ("stdout", "informative"),
    [
        ('{"reboots": 1}', {}),
        ('{"reboots": 1, "reboots_possible": "2"}', {}),
        ('{"reboots": 1, "reboots_possible": -1}', {}),
        ('{"reboots": 1, "reboots_possible": true}', {}),
        ('{"reboots": 1, "reboots_possible": 2.0}', {}),
        ('{"reboots": 1, "phantoms": "many"}', {}),
        ('{"reboots": 1, "phantoms": []}', {"phantoms": []}),
        ('{"reboots": 1, "phantoms": [3, {"request": 0}]}', {"phantoms": [{"request": 0}]}),
        (
            '{"reboots": 1, "phantoms": [{"request": -2, "reason": 7, "marker": "M"}]}',
            {"phantoms": [{}]},
        ),
        (
            '{"reboots": 1, "phantoms": [{"reason": "' + "r" * 100 + '"}]}',
            {"phantoms": [{"reason": "r" * 40}]},
        ),
    ],
)
def test_malformed_informative_members_are_left_out_and_never_change_the_outcome(
    stdout: str, informative: dict[str, Any]
) -> None:
    verdict = classify(COUNT_1, RunResult(exit_code=0, stdout=stdout), JsonPointerReader())
    assert verdict.outcome == "pass"
    assert verdict.informative == informative


def test_informative_never_decides_a_verdict() -> None:
    wrong = '{"reboots": 2, "reboots_possible": 1, "phantoms": [{"reason": "lost-after-error"}]}'
    assert (
        classify(COUNT_1, RunResult(exit_code=0, stdout=wrong), JsonPointerReader()).outcome
        == "fail"
    )
    right = '{"reboots": 1, "reboots_possible": 99}'
    assert (
        classify(COUNT_1, RunResult(exit_code=0, stdout=right), JsonPointerReader()).outcome
        == "pass"
    )


def test_no_informative_from_prose_or_a_rejection() -> None:
    prose = RunResult(exit_code=0, stdout='counted 1 {"reboots_possible": 2}')
    assert classify(COUNT_1, prose, LastIntegerReader()).informative == {}
    rejected = RunResult(exit_code=1, stdout='{"reboots": 1, "reboots_possible": 2}')
    assert classify({"outcome": "reject"}, rejected, JsonPointerReader()).informative == {}


def test_a_long_phantom_list_is_cut_and_says_so() -> None:
    phantoms = [{"request": i, "reason": "unknown"} for i in range(500)]
    stdout = orjson.dumps({"reboots": 1, "phantoms": phantoms}).decode()
    found = read_informative(stdout, JsonPointerReader())
    assert len(found["phantoms"]) == 200 and found["phantoms_total"] == 500
    assert show_phantoms(found) == "unknown (200) (first 200 of 500)"


def record(case_id: str, count: int, informative: dict[str, Any]) -> Record:
    return Record(
        id=case_id,
        title=f"case {case_id}",
        rules=["CNT-2"],
        tags=["phantom"],
        era="compacted",
        container="jsonl",
        expected={"outcome": "count", "reboots": count},
        actual={"outcome": "count", "reboots": count},
        outcome="pass",
        gate="pass",
        informative=informative,
    )


HEAD = {
    "candidate": ["mytool"],
    "answer": "JSON pointer /reboots",
    "profile": "spec-v2",
    "suite_version": "2",
    "spec_version": "2.0",
    "case_timeout": 10,
    "started": "2026-11-23T00:00:00+00:00",
}


def test_the_report_keeps_reboots_possible_and_phantom_reasons() -> None:
    lost = {"reboots_possible": 2, "phantoms": [{"request": 2, "reason": "lost-after-error"}]}
    records = [
        record("AAAA", 1, lost),
        record("BBBB", 0, {"reboots_possible": 0, "phantoms": [{"request": 0}]}),
        record("CCCC", 3, {}),
    ]
    report = build(HEAD, records)
    assert report["verdict"] == "PASS"
    assert report["informative"] == {
        "cases": 2,
        "above_count": 1,
        "phantom_reasons": {"lost-after-error": 1, "unstated": 1},
    }
    assert report["cases"][0]["informative"] == lost
    md = render(report, "report.md.j2")
    assert "## Informative details (never a verdict)" in md
    assert "| AAAA | pass | 1 | 2 | lost-after-error (1) |" in md
    assert "| BBBB | pass | 0 | 0 | unstated (1) |" in md
    assert "CCCC" not in md.split("## Informative details")[1]
    html = render(report, "report.html.j2")
    assert "Informative details (never a verdict)" in html and "lost-after-error (1)" in html


def test_a_report_without_informative_details_says_so() -> None:
    report = build(HEAD, [record("AAAA", 1, {})])
    assert report["informative"] == {"cases": 0, "above_count": 0, "phantom_reasons": {}}
    assert "printed nothing beside its counts" in render(report, "report.md.j2")


def test_informative_details_of_a_failing_case_are_shown_with_it() -> None:
    failing = record("AAAA", 1, {"reboots_possible": 2})
    failing.actual, failing.outcome, failing.gate = (
        {"outcome": "count", "reboots": 5},
        "fail",
        "fail",
    )
    md = render(build(HEAD, [failing]), "report.md.j2")
    assert "- informative (never a verdict): reboots\\_possible 2" in md
    assert show_informative({}) == "-"


def test_records_round_trip_and_old_records_have_no_informative() -> None:
    rec = record("AAAA", 1, {"reboots_possible": 2})
    assert Record.from_json(rec.to_json()) == rec
    old = rec.to_json()
    del old["informative"]
    assert Record.from_json(old).informative == {}


def test_compare_ignores_informative_changes() -> None:
    old = {"cases": [record("AAAA", 1, {"reboots_possible": 1}).to_json()]}
    new = {"cases": [record("AAAA", 1, {"reboots_possible": 2}).to_json()]}
    result = compare(old, new)
    assert (result.broken, result.fixed, result.still_failing) == ([], [], [])
