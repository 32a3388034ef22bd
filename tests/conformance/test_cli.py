"""`rebootspec`: one command, every subcommand with help and an example, one-line usage errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.cli import COMMANDS, main

EXPECTED = [
    "count",
    "explain",
    "whoami",
    "hook",
    "sessions",
    "run",
    "cases",
    "smoke",
    "compare",
    "fuzz",
    "report",
    "baseline",
    "anonymize",
    "add-fixture",
    "peers",
    "completion",
    "version",
]


def test_the_subcommands_are_the_documented_ones() -> None:
    assert list(COMMANDS) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_each_subcommand_has_help_with_an_example(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", name, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "example" in done.stdout, done.stdout
    assert f"rebootspec {name}" in done.stdout, done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_an_unknown_subcommand_is_one_line_listing_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["cuont", "x.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'cuont'" in err and "count" in err and "add-fixture" in err


def test_no_subcommand_is_a_usage_error_and_shows_the_overview(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 2
    assert "subcommands:" in capsys.readouterr().err


def test_version_names_the_spec_and_the_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rebootspec ")
    assert "\nspec 3.0\n" in out
    assert "cases, digest " in out


# A typo of an option: what the user typed, the nearest real option, in rebootspec's words.
TYPOS = [
    (["run", "--candidat", "x"], "rebootspec run", "--candidat", "--candidate"),
    (["run", "--profle", "spec-v1"], "rebootspec run", "--profle", "--profile"),
    (["run", "--junitxm=j.xml"], "rebootspec run", "--junitxm", "--junitxml"),  # pytest's own
    (["smoke", "--candidatx", "x"], "rebootspec smoke", "--candidatx", "--candidate"),
    (["fuzz", "--out", "o", "--budgte", "1"], "rebootspec fuzz", "--budgte", "--budget"),
    (
        ["compare", "a", "b", "--allow-difrent", "x"],
        "rebootspec compare",
        "--allow-difrent",
        "--allow-different",
    ),
    (["report", "r.json", "--outt", "x"], "rebootspec report", "--outt", "--out"),
    (["baseline", "r.json", "--oot", "x"], "rebootspec baseline", "--oot", "--out"),
    (["anonymize", "a", "b", "--forse"], "rebootspec anonymize", "--forse", "--force"),
]


@pytest.mark.parametrize(("argv", "prog", "typed", "nearest"), TYPOS)
def test_an_option_typo_is_one_line_naming_the_nearest_option(
    argv: list[str], prog: str, typed: str, nearest: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"usage error: {prog}: unknown option {typed}; did you mean {nearest}? (try --help)\n"
    )
    assert done.stdout == ""  # no usage dump, no pytest.main(), no inifile or rootdir


def test_a_word_nothing_resembles_is_named_without_a_guess(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "run", "--zqxjv"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == "usage error: rebootspec run: unknown option --zqxjv (try --help)\n"


def test_pytests_other_usage_errors_use_the_names_rebootspec_run_takes(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "run", "--corpus"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "usage error: rebootspec run: argument --corpus: expected one argument (try --help)\n"
    )


# What only other subcommands need: the runner's, the reports', fuzzing's and the tests'.
HEAVY = ("pytest", "_pytest", "syrupy", "jinja2", "hypothesis", "psutil", "jsonschema")
LOADED = f"""
import sys
from rebootspec.conformance.cli import main
code = main(sys.argv[1:])
print("loaded:", *sorted({{name.split(".")[0] for name in sys.modules}} & {set(HEAVY)!r}),
      file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("argv", [["count", "S"], ["explain", "S"], ["version"], ["--help"]])
def test_the_quick_subcommands_load_nothing_they_do_not_need(
    argv: list[str], tmp_path: Path
) -> None:
    """`rebootspec count` is run once per session by scripts and once per case by a subprocess
    candidate: it must not pay for pytest, syrupy, jinja2, Hypothesis or psutil."""
    session = tmp_path / "s.jsonl"
    session.write_bytes(b'{"kind":0,"v":{"version":3,"requests":[]}}\n')
    args = [str(session) if a == "S" else a for a in argv]
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "loaded:"  # none of HEAVY
