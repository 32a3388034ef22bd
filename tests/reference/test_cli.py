"""The reference's command line as a user runs it: a subprocess, exit codes, one-line errors."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference import cli

ROOT = Path(__file__).resolve().parents[2]
COMPACTED = (
    b'{"kind":0,"v":{"requests":[{"requestId":"request_1","timestamp":1767000000000,'
    b'"message":{"text":"go"},"response":[{"kind":"progressTaskSerialized",'
    b'"content":{"value":"Compacted conversation"},"progress":[]}],'
    b'"result":{"metadata":{"summary":{"text":"A"}}}}]}}\n'
)


def run(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.reference", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_count_prints_one_json_object_with_reboots(tmp_path: Path) -> None:
    done = run("count", write(tmp_path, "s.jsonl", COMPACTED))
    assert done.returncode == 0, done.stderr
    assert orjson.loads(done.stdout)["reboots"] == 1
    assert done.stdout.count("\n") == 1
    assert done.stderr == ""


def test_leg1_count_reads_a_flat_session_json_by_extension(tmp_path: Path) -> None:
    state = {"version": 3, "sessionId": "s1", **orjson.loads(COMPACTED)["v"]}
    done = run("count", write(tmp_path, "s.json", orjson.dumps(state, option=orjson.OPT_INDENT_2)))
    assert (done.returncode, orjson.loads(done.stdout)["reboots"]) == (0, 1)


def test_leg3_count_reads_an_export_json(tmp_path: Path) -> None:
    state = {"responderUsername": "GitHub Copilot", **orjson.loads(COMPACTED)["v"]}
    done = run("count", write(tmp_path, "s.json", orjson.dumps(state, option=orjson.OPT_INDENT_2)))
    assert (done.returncode, orjson.loads(done.stdout)["reboots"]) == (0, 1)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(orjson.dumps(orjson.loads(COMPACTED)["v"]), id="neither-session-nor-export"),
        pytest.param(b"[]", id="array"),
    ],
)
def test_hst4_a_json_of_neither_shape_is_exit_1_e_host_line_0(tmp_path: Path, data: bytes) -> None:
    """HST-2, HST-4: a `.json` document without VS Code's marks (nor another host's) is of no
    known host; read as VS Code's (`--host vscode`) LEG-1 still rejects it, E-STATE line 1."""
    path = write(tmp_path, "s.json", data)
    done = run("count", path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: {path}:0: E-HOST: ")
    assert len(done.stderr.splitlines()) == 1
    done = run("count", "--host", "vscode", path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(f"error: {path}:1: E-STATE: ")


def test_rejection_is_exit_1_empty_stdout_one_stderr_line(tmp_path: Path) -> None:
    path = write(tmp_path, "s.jsonl", COMPACTED + b'{"kind":1,"k":["x","y"],"v":1}\n')
    done = run("count", path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"error: {path}:2: E-PATH: .x is missing or not an object or array\n"


def test_explain_shows_a_timeline_and_the_total(tmp_path: Path) -> None:
    done = run("explain", write(tmp_path, "s.jsonl", COMPACTED))
    assert done.returncode == 0
    assert "REBOOT" in done.stdout
    assert "2025-12-29 09:20:00" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("reboots: 1")


@pytest.mark.parametrize(
    "args",
    [(), ("count",), ("frobnicate", "x.jsonl"), ("count", "a.jsonl", "b.jsonl")],
)
def test_usage_errors_exit_2_without_traceback(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_missing_file_and_unknown_extension_exit_2(tmp_path: Path) -> None:
    for path in (tmp_path / "none.jsonl", write(tmp_path, "s.txt", COMPACTED)):
        done = run("count", path)
        assert done.returncode == 2
        assert done.stderr.startswith(f"error: {path}")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("garbage.jsonl", bytes(range(256)) * 64),
        ("garbage.json", bytes(range(256)) * 64),
        ("nul.jsonl", b"\x00" * 1000 + b"\n"),
        (
            "deep.jsonl",
            COMPACTED + b'{"kind":1,"k":["a"],"v":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
        ),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000),
        ("deepobj.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
        ("hugei.jsonl", COMPACTED + b'{"kind":2,"k":["requests"],"i":1000000000}\n'),
    ],
    ids=lambda value: value if isinstance(value, str) else "bytes",  # not the bytes themselves
)
def test_hostile_input_is_a_one_line_rejection(tmp_path: Path, name: str, data: bytes) -> None:
    done = run("count", write(tmp_path, name, data))
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_fifty_megabyte_line_is_counted(tmp_path: Path) -> None:
    big = b"x" * (50 * 1024 * 1024)
    line = b'{"kind":1,"k":["requests",0,"response",1],"v":{"value":"' + big + b'"}}\n'
    done = run("count", write(tmp_path, "big.jsonl", COMPACTED + line), timeout=120)
    assert done.returncode == 0, done.stderr
    assert orjson.loads(done.stdout)["reboots"] == 1


# OUT-3 through the command line: an error after a compaction (UNC-1) --------------------

MARKER = {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}


def lost_after_error_log() -> bytes:
    """Request 0 compacts (summary A); request 1 has no events; request 2 shows a completed
    marker but ended in an error that kept its one round and dropped the summary entries.

    By hand: count 1 (A); request 2 is a phantom `lost-after-error`; reboots_possible 1 + 1 = 2.
    """
    requests: list[dict[str, Any]] = [
        {
            "requestId": "request_0",
            "message": {"text": "go"},
            "response": [MARKER],
            "result": {"metadata": {"summary": {"toolCallRoundId": "r0", "text": "A"}}},
        },
        {"requestId": "request_1", "message": {"text": "more"}, "response": [], "result": {}},
        {
            "requestId": "request_2",
            "message": {"text": "and more"},
            "response": [MARKER],
            "result": {
                "errorDetails": {"message": "Sorry, your request failed.", "code": "failed"},
                "metadata": {"toolCallRounds": [{"id": "r1"}]},
            },
        },
    ]
    return orjson.dumps({"kind": 0, "v": {"version": 3, "requests": requests}}) + b"\n"


def test_out3_count_prints_the_lost_after_error_phantom_and_reboots_possible(
    tmp_path: Path,
) -> None:
    done = run("count", write(tmp_path, "s.jsonl", lost_after_error_log()))
    assert done.returncode == 0, done.stderr
    out = orjson.loads(done.stdout)
    assert out["reboots"] == 1
    assert out["reboots_possible"] == 2
    assert [(p["request"], p["reason"]) for p in out["phantoms"]] == [(2, "lost-after-error")]
    assert "W-PHANTOM-LOST" in [w["code"] for w in out["warnings"]]


def test_out3_explain_shows_both_numbers_and_the_reason(tmp_path: Path) -> None:
    done = run("explain", write(tmp_path, "s.jsonl", lost_after_error_log()))
    assert done.returncode == 0, done.stderr
    assert "lost-after-error" in done.stdout
    assert "reboots: 1" in done.stdout
    assert "reboots_possible: 2" in done.stdout


# ERR-11: --retry ---------------------------------------------------------------------------


def in_process(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_err11_retry_reads_a_file_that_became_valid_and_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "live.jsonl", b"")  # the kind-0 rewrite truncated the file
    pauses: list[float] = []

    def rewrite_finishes(seconds: float) -> None:
        pauses.append(seconds)
        path.write_bytes(COMPACTED)

    monkeypatch.setattr("rebootspec.reference.cli.time.sleep", rewrite_finishes)
    code, out, err = in_process("count", str(path), "--retry", "3")
    assert (code, err) == (0, "")
    answer = orjson.loads(out)
    assert answer["reboots"] == 1
    assert "W-RETRIED" in [w["code"] for w in answer["warnings"]]
    assert len(pauses) == 1


def test_err11_without_retry_an_empty_file_is_e_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "live.jsonl", b"")
    monkeypatch.setattr(
        "rebootspec.reference.cli.time.sleep", lambda seconds: path.write_bytes(COMPACTED)
    )
    code, out, err = in_process("count", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {path}:0: E-EMPTY: ") and err.count("\n") == 1


def test_err11_a_persistent_e_json_is_still_exit_1_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "broken.jsonl", COMPACTED + b"{not json\n" + COMPACTED)
    pauses: list[float] = []
    monkeypatch.setattr("rebootspec.reference.cli.time.sleep", pauses.append)
    code, out, err = in_process("count", str(path), "--retry", "2")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {path}:2: E-JSON: ")
    assert len(err.splitlines()) == 1
    assert len(pauses) == 2


def test_err11_retry_does_not_retry_other_rejections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "s.jsonl", COMPACTED + b'{"kind":1,"k":["x","y"],"v":1}\n')
    pauses: list[float] = []
    monkeypatch.setattr("rebootspec.reference.cli.time.sleep", pauses.append)
    code, _, err = in_process("count", str(path), "--retry", "5")
    assert code == 1 and ": E-PATH: " in err
    assert pauses == []


@pytest.mark.parametrize("value", ["-1", "x", "1.5", ""])
def test_err11_a_bad_retry_value_is_a_usage_error(tmp_path: Path, value: str) -> None:
    done = run("count", write(tmp_path, "s.jsonl", COMPACTED), "--retry", value)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
