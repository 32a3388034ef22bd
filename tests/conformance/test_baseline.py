"""`rebootspec baseline REPORT`: a divergences file; a person writes the reasons."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.reports.baseline import TODO, baseline, write_baseline
from rebootspec.conformance.runner.divergences import DivergenceError, load_divergences

REPORT = {
    "header": {"candidate": ["mytool", "count"]},
    "cases": [
        {"id": "K7QX", "gate": "fail", "outcome": "fail", "title": "t1", "detail": "counted 0"},
        {"id": "2BL5", "gate": "pass", "outcome": "pass", "title": "t2", "detail": ""},
        {"id": "AAAA", "gate": "fail", "outcome": "crash", "title": "t3", "detail": "exit 70"},
    ],
}


def test_one_table_per_failing_case_in_id_order() -> None:
    text = baseline(REPORT)
    assert text.index("[AAAA]") < text.index("[K7QX]")
    assert "[2BL5]" not in text
    assert text.count(TODO) == 2


def test_unreviewed_reasons_are_refused_and_reviewed_ones_load(tmp_path: Path) -> None:
    path = tmp_path / "known.toml"
    path.write_text(baseline(REPORT), "utf-8")
    with pytest.raises(DivergenceError, match="no reason yet"):
        load_divergences(path, {"K7QX", "AAAA", "2BL5"})
    path.write_text(baseline(REPORT).replace(TODO, "predates spec 2.0"), "utf-8")
    loaded = load_divergences(path, {"K7QX", "AAAA", "2BL5"})
    assert {k: v.outcome for k, v in loaded.items()} == {"AAAA": "crash", "K7QX": "fail"}


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text('{"cases": []}', "utf-8")
    out = tmp_path / "known.toml"
    out.write_text("reviewed", "utf-8")
    with pytest.raises(FileExistsError):
        write_baseline(report, out)
    assert out.read_text("utf-8") == "reviewed"


def test_the_runners_own_outcomes_are_named_but_never_listed(tmp_path: Path) -> None:
    unpinned = {"id": "BBBB", "gate": "fail", "outcome": "unpinned", "title": "t4", "detail": ""}
    text = baseline({**REPORT, "cases": [*REPORT["cases"], unpinned]})
    assert "[BBBB]" not in text and "# BBBB: unpinned" in text
    path = tmp_path / "known.toml"
    path.write_text(text.replace(TODO, "predates spec 2.0"), "utf-8")
    assert set(load_divergences(path, {"K7QX", "AAAA", "2BL5", "BBBB"})) == {"AAAA", "K7QX"}


def test_a_file_that_is_not_a_report_is_refused_in_one_line(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"verdict": "FAIL", "totals": {}, "matrix": {}, **REPORT}))
    assert "[K7QX]" in write_baseline(report, None)
    for text in ("[1, 2]", json.dumps({**REPORT, "verdict": "FAIL"}), "{"):
        report.write_text(text, "utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "rebootspec.conformance", "baseline", str(report)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and done.stdout == "", text
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
