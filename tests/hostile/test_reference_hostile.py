"""Hostile input to `rebootspec count`: a defined outcome, never a crash (ERR-8, ERR-12).

Each input gets an answer (exit 0, one JSON line) or a rejection (exit 1, one stderr line
`error: PATH:LINE: CODE: reason`) with the code written here by hand, within a time bound; never
exit 70, a traceback or a hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

INITIAL = b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}\n'
REQUEST = (
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"request_1","message":{"text":"go"},'
    b'"response":[%s],"result":{"metadata":{"summary":{"toolCallRoundId":"r","text":"A"}}}}]}\n'
)


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.reference", "count", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def assert_outcome(done: subprocess.CompletedProcess[str], path: Path, expect: str) -> None:
    """`expect` is "count:N" or an error code; the outcome is exactly that, cleanly reported."""
    assert "Traceback" not in done.stderr
    if expect.startswith("count:"):
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith('{"reboots":' + expect.split(":")[1] + ",")
        return
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {path}:")
    assert f": {expect}: " in lines[0]


# The entry itself is one level: 1023 nested arrays in `v` make 1024 levels in all, the bound.
DEEP_CASES = [
    ("v-1000", INITIAL + b'{"kind":1,"k":["x"],"v":' + nested(1000) + b"}\n", "count:0"),
    ("v-1023", INITIAL + b'{"kind":1,"k":["x"],"v":' + nested(1023) + b"}\n", "count:0"),
    ("v-1024", INITIAL + b'{"kind":1,"k":["x"],"v":' + nested(1024) + b"}\n", "E-LIMIT"),
    ("v-100000", INITIAL + b'{"kind":1,"k":["x"],"v":' + nested(100_000) + b"}\n", "E-LIMIT"),
    ("k-990", INITIAL + b'{"kind":1,"k":["x",' + nested(990) + b'],"v":1}\n', "E-PATH"),
    ("k-5000", INITIAL + b'{"kind":1,"k":["x",' + nested(5000) + b'],"v":1}\n', "E-LIMIT"),
    ("i-1000", INITIAL + b'{"kind":2,"k":["requests"],"i":' + nested(1000) + b"}\n", "E-ENTRY"),
    ("i-50000", INITIAL + b'{"kind":2,"k":["requests"],"i":' + nested(50_000) + b"}\n", "E-LIMIT"),
    ("part-1000", INITIAL + REQUEST % (b'{"kind":"x","p":' + nested(1000) + b"}"), "count:1"),
    # A lone surrogate on the same line sends the parse down the slow path: same bounds there.
    (
        "part-1000-slow",
        INITIAL + REQUEST % (b'{"kind":"x","s":"\\ud800","p":' + nested(1000) + b"}"),
        "count:1",
    ),
    (
        "part-1030-slow",
        INITIAL + REQUEST % (b'{"kind":"x","s":"\\ud800","p":' + nested(1030) + b"}"),
        "E-LIMIT",
    ),
    ("part-100000", INITIAL + REQUEST % (b'{"kind":"x","p":' + nested(100_000) + b"}"), "E-LIMIT"),
    # Integers beyond Python's 4300-digit str guard, where a number is allowed but not used.
    ("int-5000-part", INITIAL + REQUEST % (b'{"kind":"x","n":' + b"9" * 5000 + b"}"), "count:1"),
    ("int-5000-i", INITIAL + b'{"kind":2,"k":["requests"],"i":' + b"9" * 5000 + b"}\n", "E-ENTRY"),
    ("int-5000-kind", INITIAL + b'{"kind":' + b"1" * 5000 + b',"k":["x"],"v":1}\n', "E-ENTRY"),
]


@pytest.mark.parametrize(("name", "data", "expect"), DEEP_CASES, ids=[c[0] for c in DEEP_CASES])
def test_deep_and_long_values(tmp_path: Path, name: str, data: bytes, expect: str) -> None:
    """ERR-8: nesting and long numbers anywhere give an answer or a bounded rejection."""
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(data)
    assert_outcome(run(path), path, expect)


@pytest.mark.parametrize("depth", [1000, 1023, 100_000])
def test_deep_flat_json(tmp_path: Path, depth: int) -> None:
    """ERR-8 in a flat .json session: the document is one level, `requests` the next."""
    path = tmp_path / "deep.json"
    path.write_bytes(b'{"version":3,"sessionId":"s","x":' + nested(depth) + b',"requests":[]}')
    assert_outcome(run(path), path, "count:0" if depth + 1 <= 1024 else "E-LIMIT")


def test_directory_is_refused(tmp_path: Path) -> None:
    """ERR-12: a directory named like a log is refused at once."""
    path = tmp_path / "dir.jsonl"
    path.mkdir()
    assert_outcome(run(path), path, "E-READ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    """ERR-12: a FIFO with no writer would block a reader forever; it is refused at once."""
    path = tmp_path / "fifo.jsonl"
    os.mkfifo(path)
    assert_outcome(run(path), path, "E-READ")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_symlink_to_dev_zero_is_refused(tmp_path: Path) -> None:
    """ERR-12: a device behind a symlink (an endless stream of NULs) is refused, not read."""
    path = tmp_path / "zero.jsonl"
    path.symlink_to("/dev/zero")
    assert_outcome(run(path), path, "E-READ")


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    """A path that does not exist is the caller's mistake: exit 2, one line."""
    done = run(tmp_path / "absent.jsonl")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr
