"""One JSON shape per stream: rows that stream are JSON Lines, for `cases` and `sessions` alike.

Why: a script reading `cases --json` and `sessions --json` with one loop (`jq -c`, a line
reader) broke on `cases`, which printed one array while `sessions` printed a line a row
(issue 46). Both now print one object a line; the documents written whole (`cases export`'s
manifest.json, report.json) stay single documents.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CHAT_LOOP = FIXTURES / "2QKE" / "input"  # a chain of four basic-agent-chat-loop files


def rebootspec(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *args],
        capture_output=True, text=True, timeout=120, check=False, cwd=home,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"},
    )  # fmt: skip


def objects(stdout: str) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in stdout.splitlines()]
    assert all(isinstance(row, dict) for row in rows)
    return rows


def test_cases_json_is_one_case_a_line(tmp_path: Path) -> None:
    done = rebootspec("cases", "--host", "pi", "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = objects(done.stdout)
    pi = {
        p.parent.name
        for p in FIXTURES.glob("*/case.toml")
        if tomllib.loads(p.read_text("utf-8")).get("host") == "pi"
    }
    assert {row["id"] for row in rows} == pi and len(rows) == len(pi)


def test_sessions_json_is_one_session_a_line(tmp_path: Path) -> None:
    done = rebootspec("sessions", "--json", "--no-cache", "--path", str(CHAT_LOOP), home=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = objects(done.stdout)
    assert len(rows) == len(list(CHAT_LOOP.glob("*.md")))
    assert {row["host"] for row in rows} == {"basic-agent-chat-loop"}
