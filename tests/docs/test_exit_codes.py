"""The exit-code table of docs/cli.md is what the commands do: each row's example is run.

Why: a user's script branches on the exit code and greps the first word of stderr; a table that
says 2 where the command returns 1 breaks those scripts silently. Each row with an example is
run in a checkout-rooted folder with a private HOME and no host's session variable, and its
exit code and the first line of its stderr are held to the row. The codes without an example
(3, 70, 130, 141) are the constants the commands use, checked here by name.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cli.md"
# Placeholders of the "stderr begins with" column -> what each stands for.
PLACEHOLDERS = {
    "PATH": r".+?",
    "LINE": r"\d+",
    "E-CODE": r"E-[A-Z-]+",
    "SUBCOMMAND": r"[a-z-]+",
    "reason": r".+",
}


def rows() -> list[list[str]]:
    text = PAGE.read_text("utf-8")
    table = text.split("<!-- exit-codes:begin", 1)[1].split("<!-- exit-codes:end", 1)[0]
    lines = [line for line in table.splitlines() if line.startswith("| ")][2:]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]


def pattern(begins: str) -> re.Pattern[str] | None:
    """The first stderr line a row promises, as a pattern (None: stderr stays empty)."""
    if begins.startswith("nothing"):
        return None
    parts = re.findall(r"`([^`]*)`", begins)
    regex = ""
    for index, part in enumerate(parts):
        piece = re.escape(part)
        for word, meaning in PLACEHOLDERS.items():
            piece = piece.replace(re.escape(word), meaning)
        regex += ("^" if index == 0 else ".*") + piece
    return re.compile(regex)


def run(example: str, home: Path) -> subprocess.CompletedProcess[str]:
    argv = shlex.split(example)
    assert argv[0] == "rebootspec", example
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("CONFORMANCE_") and not k.endswith(("SESSION_ID", "THREAD_ID"))
    }
    env["HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *argv[1:]],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


EXAMPLES = [row for row in rows() if row[3]]


def test_the_table_has_every_code_once_at_least() -> None:
    assert {row[0] for row in rows()} == {"0", "1", "2", "3", "70", "130", "141"}
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("row", EXAMPLES, ids=[row[3].strip("`") for row in EXAMPLES])
def test_each_example_exits_and_words_as_its_row_says(row: list[str], tmp_path: Path) -> None:
    code, begins, _, example = row
    done = run(example.strip("`"), tmp_path)
    assert done.returncode == int(code), done.stderr
    wanted = pattern(begins)
    if wanted is None:
        assert done.stderr == ""
        return
    first = done.stderr.splitlines()[0]
    assert wanted.search(first), (wanted.pattern, first)
    assert all(line.startswith("  ") for line in done.stderr.splitlines()[1:]), done.stderr


def test_the_codes_without_an_example_are_the_commands_constants() -> None:
    from rebootspec.conformance.commands import whoami
    from rebootspec.generators.anonymize.command import EXIT_CHANGED
    from rebootspec.generators.corpus.add_fixture import EXIT_REFUSED
    from rebootspec.reference.cli import EXIT_INTERNAL
    from rebootspec.reference.core.endings import EXIT_INTERRUPTED
    from rebootspec.reference.core.userio import EXIT_PIPE

    codes = {row[0] for row in rows()}
    for constant in (EXIT_CHANGED, EXIT_REFUSED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_PIPE):
        assert str(constant) in codes, constant
    assert whoami.EXIT_INTERNAL == EXIT_INTERNAL


def test_the_pattern_reading_can_fail() -> None:
    wanted = pattern("`error: PATH:LINE: E-CODE: reason`")
    assert wanted is not None
    assert wanted.search("error: /x/y.jsonl:3: E-JSON: not JSON")
    assert not wanted.search("error: /x/y.jsonl: cannot read: no such file")
