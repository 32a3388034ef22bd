"""`compare`: the release gate between two reports, aligned by case ID, that cannot be narrowed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rebootspec.conformance.reports.compare import compare, format_comparison

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout


def case(case_id: str, outcome: str, reboots: int | None = None) -> dict[str, Any]:
    actual = (
        {"outcome": "count", "reboots": reboots} if reboots is not None else {"outcome": outcome}
    )
    gate = outcome if outcome in ("pass", "not-claimed") else "fail"
    return {
        "id": case_id,
        "title": f"case {case_id}",
        "outcome": outcome,
        "gate": gate,
        "actual": actual,
    }


def on_disk(path: Path, report: dict[str, Any]) -> Path:
    """`report` as a file `compare` reads: with the members every report has (not compared)."""
    path.write_text(json.dumps({"verdict": "FAIL", "totals": {}, "matrix": {}, **report}))
    return path


def head(**changes: Any) -> dict[str, Any]:
    header: dict[str, Any] = {
        "candidate": ["mytool", "count"],
        "answer": "JSON pointer /reboots",
        "profile": "spec-v2",
        "profile_claims": {"unclaimed": [], "match_codes": False},
        "selection": {"keyword": "", "markexpr": "", "args": [], "deselect": [],
                      "selected": 6, "corpus_cases": 6, "corpus": "/a/fixtures"},
        "corpus_digest": "c" * 64,
        "snapshots_digest": "s" * 64,
        "isolation": {"pass_env": [], "case_memory_mb": None},
    }  # fmt: skip
    for key, value in changes.items():
        if key in ("keyword", "selected"):
            header["selection"] = {**header["selection"], key: value}
        else:
            header[key] = value
    return header


OLD = {"header": head(), "cases": [
    case("AAAA", "pass", 1), case("BBBB", "fail", 2), case("CCCC", "pass", 0),
    case("DDDD", "crash"), case("EEEE", "pass", 1), case("GGGG", "pass", 2),
    case("HHHH", "pass", 0), case("IIII", "pass", 0)]}  # fmt: skip
NEW = {"header": head(selection={**head()["selection"], "corpus": "/elsewhere/fixtures"}),
       "cases": [
    case("AAAA", "pass", 1), case("BBBB", "pass", 3), case("CCCC", "fail", 4),
    case("DDDD", "timeout"), case("FFFF", "fail", 9), case("GGGG", "not-claimed"),
    case("HHHH", "crash"), case("IIII", "timeout")]}  # fmt: skip


def test_buckets_and_every_way_a_pass_can_be_lost() -> None:
    result = compare(OLD, NEW)
    assert result.mismatches == []  # the corpus's place on disk is not its identity
    # CCCC wrong now, EEEE missing, GGGG not claimed, HHHH crash, IIII timeout: all broken
    assert result.broken == ["CCCC", "EEEE", "GGGG", "HHHH", "IIII"]
    assert result.fixed == ["BBBB"]
    assert result.still_failing == ["DDDD"]
    assert result.added == ["FFFF"]
    text = format_comparison(result, "old", "new")
    assert "EEEE  pass (1) -> missing" in text
    assert "rebootspec run -k HHHH --candidate 'mytool count'" in text
    assert text.index("CCCC") < text.index("EEEE") < text.index("GGGG")


def test_reports_of_another_corpus_profile_or_selection_do_not_gate() -> None:
    same = {"header": head(), "cases": OLD["cases"]}
    assert not compare(OLD, same).failed
    for changed, aspect in (
        (head(corpus_digest="d" * 64), "corpus"),
        (head(snapshots_digest="t" * 64), "corpus"),
        (head(profile="seed-rubric-2026-02"), "profile"),
        (head(profile_claims={"unclaimed": [], "match_codes": True}), "profile"),
        (head(keyword="AAAA"), "selection"),
        (head(selected=1), "selection"),
    ):
        other = {"header": changed, "cases": OLD["cases"]}
        result = compare(OLD, other)
        assert result.failed and [m.split(":")[0] for m in result.mismatches] == [aspect]
        assert not result.broken
        assert not compare(OLD, other, frozenset({aspect})).failed
    tampered = {"header": head(), "cases": OLD["cases"], "corpus_changes": ["x (deleted)"]}
    assert compare(OLD, tampered).failed and "changed during the new run" in str(
        compare(OLD, tampered).mismatches
    )
    legacy = {"cases": OLD["cases"]}  # no header: an older runner's report
    assert compare(legacy, same).failed


def test_a_different_wrong_count_is_an_unchanged_failure() -> None:
    result = compare(
        {"header": head(), "cases": [case("AAAA", "fail", 2)]},
        {"header": head(), "cases": [case("AAAA", "fail", 5)]},
    )
    assert result.still_failing == ["AAAA"] and not result.failed


def test_cli_exit_code_is_the_gate(tmp_path: Path) -> None:
    old, new = on_disk(tmp_path / "old.json", OLD), on_disk(tmp_path / "new.json", NEW)
    narrowed = on_disk(
        tmp_path / "narrowed.json", {"header": head(keyword="AAAA"), "cases": OLD["cases"][:1]}
    )

    def run(*args: Path | str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rebootspec.conformance", "compare", *map(str, args)],
            capture_output=True, text=True, cwd=REPO_ROOT, check=False,
        )  # fmt: skip

    broke = run(old, new)
    assert broke.returncode == 1 and "newly broken: 5" in broke.stdout and "CCCC" in broke.stdout
    same = run(old, old)
    assert same.returncode == 0 and "nothing newly broke" in same.stdout
    subset = run(old, narrowed)
    assert subset.returncode == 1 and "different selection" in subset.stdout
    allowed = run(old, narrowed, "--allow-different", "selection")
    assert allowed.returncode == 1 and "newly broken: 5" in allowed.stdout  # missing = broken
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{")
    bad = run(garbage, new)
    assert (
        bad.returncode == 2 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
    )
    assert run(old, new, "--allow-different", "colour").returncode == 2
    for not_a_report, reason in (
        ({"cases": OLD["cases"]}, "no header member"),
        ([OLD], "a JSON list, not an object"),
        ({**OLD, "cases": [case("AAAA", "passed")]}, "outcome 'passed' is not one of pass, fail"),
        ({**OLD, "header": head(report_format=9)}, "report_format 9"),
    ):
        odd = tmp_path / "odd.json"
        odd.write_text(json.dumps({"verdict": "PASS", "totals": {}, "matrix": {}} | not_a_report)
                       if isinstance(not_a_report, dict) else json.dumps(not_a_report))  # fmt: skip
        refused = run(odd, new)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, reason
        assert refused.stderr.count("\n") == 1 and reason in refused.stderr, refused.stderr
