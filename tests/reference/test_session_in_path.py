"""`count PATH --session ID` / `count PATH SESSION` (issue #35): never ignored, a prefix in a store.

A file of one session has no session to choose: an id that is not its own is a usage error
(exit 2, one line), where it used to be ignored. In an opencode store the id may be a prefix,
as `count --session PREFIX` without a path always allowed. Expected counts are the generator's
plans (case.toml), never the reference's answers.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tomllib
from pathlib import Path

import orjson

from rebootspec.reference.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def table(case_id: str) -> dict[str, object]:
    return tomllib.loads((FIXTURES / case_id / "case.toml").read_text("utf-8"))


def first(**wanted: str) -> str:
    """The first case (by ID) whose case.toml has these values."""
    for folder in sorted(FIXTURES.iterdir()):
        toml = folder / "case.toml"
        if toml.is_file():
            meta = tomllib.loads(toml.read_text("utf-8"))
            if all(meta.get(k) == v for k, v in wanted.items()):
                return folder.name
    raise LookupError(wanted)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_an_id_that_is_not_the_files_own_is_a_usage_error() -> None:
    rollout = FIXTURES / first(host="codex", container="jsonl") / "session.jsonl"
    for argv in (["count", str(rollout), "--session", "019f"], ["count", str(rollout), "extra"]):
        code, out, err = run(*argv)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and err.startswith("usage error: ") and "one session" in err


def test_a_files_own_id_is_accepted() -> None:
    """The corpus copy of a VS Code session is `session.jsonl`: its id (by its name) is that."""
    case_id = first(container="jsonl", name="vscode/initial-only/summarized")
    expect = table(case_id)["expect"]
    code, out, err = run("count", str(FIXTURES / case_id / "session.jsonl"), "--session", "sess")
    assert isinstance(expect, dict) and expect["outcome"] == "count", case_id
    assert code == 0, err
    assert orjson.loads(out)["reboots"] == expect["reboots"]


def test_a_prefix_names_the_session_in_an_opencode_database() -> None:
    case_id = first(host="opencode", container="sqlite")
    meta = table(case_id)
    session, expect = meta["session"], meta["expect"]
    assert isinstance(session, str) and isinstance(expect, dict)
    database = FIXTURES / case_id / "input" / str(meta["input"])
    for given in (["--session", session[:12]], [session[:12]]):
        code, out, err = run("count", str(database), *given)
        assert code == 0, err
        assert orjson.loads(out)["reboots"] == expect["reboots"]


def test_sessions_with_a_path_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "sessions", "--path", str(tmp_path / "x")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage error: ") and done.stderr.count("\n") == 1
    assert "no such file" in done.stderr
