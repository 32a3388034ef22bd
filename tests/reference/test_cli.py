"""The reference's command line as a user runs it: a subprocess, exit codes, one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

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
        [sys.executable, "-m", "reference", *map(str, args)],
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


def test_count_reads_a_legacy_json_by_extension(tmp_path: Path) -> None:
    flat = orjson.dumps(orjson.loads(COMPACTED)["v"], option=orjson.OPT_INDENT_2)
    done = run("count", write(tmp_path, "s.json", flat))
    assert (done.returncode, orjson.loads(done.stdout)["reboots"]) == (0, 1)


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
