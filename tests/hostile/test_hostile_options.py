"""Every option a person can type, given a value no one should: one line, exit 2 (issue 43).

The matrix (test_command_matrix.py) gives each command hostile *files*; these are the option
values a fuzz over every option of every subcommand found ending in a traceback (a 5,000
character name the system refuses, a byte that is not UTF-8 in a JSON key, a 20-digit memory
bound, an escape in a tag name). Each must be one usage line naming the option, escaped, with
exit 2, before any case runs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rebootspec.conformance.cli import main as rebootspec

LONG = "x" * 5000  # ENAMETOOLONG: the system refuses to look the name up
NOT_UTF8 = os.fsdecode(b"key-\xff")  # a byte that is not UTF-8, as Python holds argv
ESCAPE = "tag\x1b[31m\nforged"
FAST = ["--candidate", "false"]  # never started: every case below is refused before
RUN = ["run", "-k", "446W", "-p", "no:cacheprovider", *FAST]

CASES = {
    "smoke-answer-key": ["smoke", *FAST, "--answer-key", NOT_UTF8],
    "smoke-answer-pointer": ["smoke", *FAST, "--answer-pointer", "/" + NOT_UTF8],
    "fuzz-pass-env": ["fuzz", *FAST, "--out", "never", "--pass-env", NOT_UTF8],
    "smoke-profile": ["smoke", *FAST, "--profile", LONG],
    "smoke-snapshots": ["smoke", *FAST, "--conformance-snapshots", LONG],
    "fuzz-out": ["fuzz", *FAST, "--out", LONG],
    "fuzz-avoid": ["fuzz", *FAST, "--out", "never", "--avoid", ESCAPE],
    "run-case-memory": [*RUN, "--case-memory", "9" * 20],
    "run-answer-key": [*RUN, "--answer-key", NOT_UTF8],
    "run-report-dir": [*RUN, "--report-dir", LONG],
    "run-profile": [*RUN, "--profile", LONG],
    "run-snapshots": [*RUN, "--conformance-snapshots", LONG],
}


@pytest.mark.parametrize("args", list(CASES.values()), ids=list(CASES))
def test_a_hostile_option_value_is_one_usage_line(
    args: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing a refused run might leave lands in the checkout
    try:
        code = rebootspec(list(args))
    except SystemExit as stop:  # argparse's way out
        code = int(stop.code or 0)
    out = capsys.readouterr()
    lines = [line for line in out.err.splitlines() if line.strip()]
    assert code == 2, out
    assert len(lines) == 1 and "usage error" in lines[0], out.err[-500:]
    assert not [c for c in out.err if ord(c) < 32 and c != "\n"], out.err[-300:]
    assert "Traceback" not in out.err + out.out
    assert sorted(os.listdir(tmp_path)) == []
