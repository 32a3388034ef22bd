"""`rebootspec`: one command, every subcommand with help and an example, one-line usage errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rebootspec.conformance.cli import COMMANDS, main

EXPECTED = [
    "count",
    "explain",
    "run",
    "smoke",
    "compare",
    "fuzz",
    "report",
    "baseline",
    "anonymize",
    "add-fixture",
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
