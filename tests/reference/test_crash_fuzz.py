"""Crash fuzzing of the reference on malformed bytes: only defined outcomes, never a traceback.

Inputs are structure-aware mutations of the corpus's valid logs (cut a line, splice lines,
rewrite a kind, an `i`, a path element, insert garbage or CR bytes, truncate the file), so the
mutants reach deep into replay and counting instead of failing at the first byte. The outcome
must be an answer (exit 0, a JSON object with a non-negative integer count) or a rejection
(exit 1, one `error:` line naming the file); exit 70 (an internal error) fails the test.
"""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebootspec.reference.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _seed_logs() -> list[bytes]:
    logs = []
    for case in sorted(FIXTURES.glob("*/case.toml")):
        meta = tomllib.loads(case.read_text(encoding="utf-8"))
        session = case.parent / "session.jsonl"
        if meta["expect"]["outcome"] == "count" and session.exists():
            logs.append(session.read_bytes())
    return logs or [b'{"kind":0,"v":{"requests":[]}}\n']


SEEDS = _seed_logs()
REPLACEMENTS = [
    b'"kind":0',
    b'"kind":1',
    b'"kind":2',
    b'"kind":3',
    b'"kind":7',
    b'"i":0',
    b'"i":-1',
    b'"i":99999999',
    b'"k":[]',
    b'"k":["requests",0]',
    b'"k":"requests"',
    b'"v":null',
    b'"v":[]',
    b'"v":{}',
    b'"v":"x"',
    b"null",
    b"[",
    b"]",
    b"{",
    b"}",
    b"\r",
    b"\xff",
    b"\n",
]


@st.composite
def mutated_log(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from(SEEDS))
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["cut", "splice", "drop", "dup", "swap", "poke", "truncate"]))
        index = draw(st.integers(0, max(0, len(lines) - 1)))
        line = lines[index]
        if action == "cut" and line:
            lines[index] = line[: draw(st.integers(0, len(line)))]
        elif action == "splice" and index + 1 < len(lines):
            lines[index : index + 2] = [lines[index] + lines[index + 1]]
        elif action == "drop" and len(lines) > 1:
            del lines[index]
        elif action == "dup":
            lines.insert(index, line)
        elif action == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
        elif action == "poke" and line:
            at = draw(st.integers(0, len(line)))
            end = draw(st.integers(at, min(len(line), at + 12)))
            lines[index] = line[:at] + draw(st.sampled_from(REPLACEMENTS)) + line[end:]
        elif action == "truncate":
            joined = b"\n".join(lines)
            lines = joined[: draw(st.integers(0, len(joined)))].split(b"\n")
    return b"\n".join(lines)


def _count(tmp: Path, data: bytes) -> tuple[int, str, str]:
    path = tmp / "mutant.jsonl"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = main(["count", str(path)], out, err)
    return code, out.getvalue(), err.getvalue()


@given(data=mutated_log())
def test_mutated_logs_get_an_answer_or_a_one_line_rejection(
    data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    code, out, err = _count(folder, data)
    assert code in (0, 1), err
    if code == 0:
        reboots = orjson.loads(out)["reboots"]
        assert isinstance(reboots, int) and reboots >= 0
    else:
        assert out == ""
        assert err.startswith(f"error: {folder / 'mutant.jsonl'}:")
        assert err.count("\n") == 1


@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_never_crash_the_flat_reader(
    data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "mutant.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    assert main(["count", str(path)], out, err) in (0, 1), err.getvalue()
