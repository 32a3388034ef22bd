"""`compare`: newly broken / newly fixed between two reports, aligned by case ID (the gate)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conformance import REPO_ROOT
from conformance.compare import compare


def case(case_id: str, outcome: str, reboots: int | None = None) -> dict[str, Any]:
    actual = (
        {"outcome": "count", "reboots": reboots} if reboots is not None else {"outcome": outcome}
    )
    return {"id": case_id, "title": f"case {case_id}", "outcome": outcome, "actual": actual}


OLD = {"cases": [case("AAAA", "pass", 1), case("BBBB", "fail", 2), case("CCCC", "pass", 0),
                 case("DDDD", "crash"), case("EEEE", "pass", 1)]}  # fmt: skip
NEW = {"cases": [case("AAAA", "pass", 1), case("BBBB", "pass", 3), case("CCCC", "fail", 4),
                 case("DDDD", "timeout"), case("FFFF", "fail", 9)]}  # fmt: skip


def test_buckets() -> None:
    result = compare(OLD, NEW)
    assert result.broken == ["CCCC"]
    assert result.fixed == ["BBBB"]
    assert result.changed == ["DDDD"]
    assert result.added == ["FFFF"]
    assert result.removed == ["EEEE"]


def test_a_different_wrong_count_is_a_change() -> None:
    result = compare({"cases": [case("AAAA", "fail", 2)]}, {"cases": [case("AAAA", "fail", 5)]})
    assert result.changed == ["AAAA"] and not result.broken


def test_cli_exit_code_is_the_gate(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD))
    new.write_text(json.dumps(NEW))

    def run(a: Path, b: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "conformance", "compare", str(a), str(b)],
            capture_output=True, text=True, cwd=REPO_ROOT, check=False,
        )  # fmt: skip

    broke = run(old, new)
    assert broke.returncode == 1 and "newly broken: 1" in broke.stdout and "CCCC" in broke.stdout
    same = run(old, old)
    assert same.returncode == 0 and "nothing newly broke" in same.stdout
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{")
    bad = run(garbage, new)
    assert (
        bad.returncode == 2 and bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
    )
