"""Numbers that change with the corpus are never typed twice (issue #35).

The size of the corpus changes with every new case, so a doc or a help text that quotes it
("the 262-case corpus") goes stale the day a case is added. Each such number must be either the
corpus's size now, or part of a dated measurement (a paragraph with a YYYY-MM-DD date or
"then"), which is history and may keep its number. `rebootspec smoke --help` says how many
cases smoke runs: the number it prints must be the number of cases it runs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    *(ROOT / "README.md", ROOT / "conformance" / "README.md", ROOT / "CONTRIBUTING.md"),
    *sorted((ROOT / "docs").glob("*.md")),
]
# "the 262-case corpus", "(236 cases", "82 of 183 cases", "423 cases": a corpus-sized number.
QUOTED = re.compile(r"\b(\d{3})(?:-case\b| cases?\b)")
DATED = re.compile(r"\b20\d\d-\d\d-\d\d\b|\bthen\b")
SUBCOMMANDS = ["run", "smoke", "cases", "fuzz", "compare", "sessions", "count", "explain"]


def corpus_size() -> int:
    return sum(1 for p in (ROOT / "fixtures").iterdir() if (p / "case.toml").is_file())


def paragraphs(text: str) -> list[str]:
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


def stale(text: str, size: int) -> list[str]:
    """The corpus-sized numbers of `text` that are neither `size` nor in a dated paragraph."""
    found = []
    for paragraph in paragraphs(text):
        for match in QUOTED.finditer(paragraph):
            number = int(match.group(1))
            if number >= 100 and number != size and not DATED.search(paragraph):
                found.append(f"{match.group(0)!r} in: {paragraph.strip()[:120]}")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_doc_quotes_an_old_corpus_size_as_if_it_were_now(doc: Path) -> None:
    if not doc.exists():
        pytest.skip(f"{doc.name} is absent")
    assert stale(doc.read_text("utf-8"), corpus_size()) == []


def test_the_check_catches_a_stale_number_and_spares_a_dated_one() -> None:
    assert stale("Runs the 262-case corpus in a second.", 423)
    assert not stale("Measured on 2026-11-25 on the 262-case corpus.", 423)
    assert not stale("The whole corpus (423 cases) runs in a second.", 423)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_no_help_text_quotes_an_old_corpus_size(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", command, "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stale(done.stdout, corpus_size()) == []


def test_smoke_help_says_how_many_cases_smoke_runs(tmp_path: Path) -> None:
    helped = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "smoke", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    said = re.search(r"(\d+) easy cases", " ".join(helped.stdout.split()))
    assert said, helped.stdout
    ran = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "smoke"],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    table = ran.stdout.split("\n\n")[0].splitlines()[1:]  # the rows under the heading
    assert len(table) == int(said.group(1)), ran.stdout


def test_fuzz_help_says_it_draws_vs_code_sessions_only() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "fuzz", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "random VS Code sessions" in " ".join(done.stdout.split())


def test_the_readme_states_the_corpus_size_once() -> None:
    """The size now is written in one place (the README's opening); every other number of cases
    in the README and docs/ is a dated measurement."""
    text = "\n".join(doc.read_text("utf-8") for doc in DOCS if doc.exists())
    now = [m for m in QUOTED.finditer(text) if int(m.group(1)) == corpus_size()]
    assert len(now) == 1, [text[m.start() - 60 : m.end()] for m in now]
