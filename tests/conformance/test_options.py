"""One place for options: `run`, `smoke` and `fuzz` read the same settings the same way.

Each command is run as a user runs it (a subprocess of `python -m rebootspec.conformance`), with
the CONFORMANCE_* variables of this process removed so only the test's own settings count.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cf_runner import corpus, fake

from rebootspec.conformance.fuzzing.differential import cli as fuzz_cli
from rebootspec.conformance.options import OptionError, Settings
from rebootspec.conformance.presets import parse_candidate
from rebootspec.conformance.runner.answers import JsonPointerReader, LastIntegerReader
from rebootspec.conformance.runner.candidates import CommandCandidate

REPO_ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("run", "smoke", "fuzz")


def clean_env(**settings: str) -> dict[str, str]:
    """This process's environment without CONFORMANCE_*, plus `settings`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONFORMANCE_")}
    env.update(settings)
    return env


def rebootspec(
    command: str, tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m rebootspec.conformance COMMAND` on a tiny corpus (fuzz: writing to tmp_path)."""
    if command == "fuzz":
        where = ["--out", str(tmp_path / "found"), "--examples", "30", "--budget", "60"]
    else:
        root, snaps, _ = corpus(tmp_path)
        where = ["--corpus", str(root), "--conformance-snapshots", str(snaps)]
        if command == "run":
            where += ["-p", "no:cacheprovider"]
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", command, *where, *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env if env is not None else clean_env(),
        timeout=240,
        check=False,
    )


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


# -- the same variable works everywhere ------------------------------------------------------


def seven(tmp_path: Path) -> str:
    """A candidate that answers 7 for every session: wrong for every case of the tiny corpus and
    for every drawn session the fuzzer is likely to find first."""
    return fake(tmp_path, {}, default={"do": "count", "n": 7})


@pytest.mark.parametrize("command", COMMANDS)
def test_the_candidate_variable_is_the_candidate_tested(command: str, tmp_path: Path) -> None:
    candidate = seven(tmp_path)
    done = rebootspec(command, tmp_path, env=clean_env(CONFORMANCE_CANDIDATE=candidate))
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "fake_candidate.py" in done.stdout  # the run names the candidate it tested


def test_smoke_with_false_as_the_candidate_fails_clearly(tmp_path: Path) -> None:
    done = rebootspec("smoke", tmp_path, env=clean_env(CONFORMANCE_CANDIDATE="false"))
    assert done.returncode == 1
    assert "candidate: false;" in done.stdout and "NOT OK: 5 crash" in done.stdout


def test_the_command_line_wins_over_the_variable(tmp_path: Path) -> None:
    env = clean_env(CONFORMANCE_CANDIDATE="false")
    done = rebootspec("smoke", tmp_path, "--candidate", "reference", env=env)
    assert done.returncode == 0 and "OK: the adapter is wired right (5 cases pass" in done.stdout


def test_fuzz_reproduce_line_carries_the_candidate_from_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [n for n in os.environ if n.startswith("CONFORMANCE_")]:
        monkeypatch.delenv(name)
    candidate = seven(tmp_path)
    monkeypatch.setenv("CONFORMANCE_CANDIDATE", candidate)
    out, err = io.StringIO(), io.StringIO()
    argv = ["--out", str(tmp_path / "found"), "--seed", "3", "--examples", "30", "--budget", "60"]
    assert fuzz_cli(argv, out, err) == 1, out.getvalue() + err.getvalue()
    reproduce = [line for line in out.getvalue().splitlines() if "--seed 3" in line][-1]
    assert "--candidate" in reproduce and "fake_candidate.py" in reproduce


# -- conflicting and bad settings: one line, exit 2 ------------------------------------------


CONFLICTS = {
    "flags": ({}, ["--answer-key", "count", "--answer-last-int"]),
    "variables": (
        {"CONFORMANCE_ANSWER_KEY": "count", "CONFORMANCE_ANSWER_POINTER": "/count"},
        [],
    ),
    "mixed": ({"CONFORMANCE_ANSWER_LAST_INT": "1"}, ["--answer-pointer", "/count"]),
}


@pytest.mark.parametrize("source", CONFLICTS)
@pytest.mark.parametrize("command", COMMANDS)
def test_two_answer_readers_are_a_usage_error(command: str, source: str, tmp_path: Path) -> None:
    variables, args = CONFLICTS[source]
    done = rebootspec(command, tmp_path, *args, env=clean_env(**variables))
    assert done.returncode == 2, done.stdout[-2000:]
    line = one_line(done.stderr)
    assert "only one of --answer-key, --answer-pointer, --answer-last-int" in line


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_preset_lists_the_known_ones(command: str, tmp_path: Path) -> None:
    done = rebootspec(command, tmp_path, "--candidate", f"nosuch:{tmp_path}")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "unknown preset 'nosuch'" in line
    assert "qhoami:PATH" in line and "reboot-count:PATH" in line


def test_an_unknown_preset_from_the_variable_names_the_variable(tmp_path: Path) -> None:
    done = rebootspec("run", tmp_path, env=clean_env(CONFORMANCE_CANDIDATE="nosuch:/x"))
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "CONFORMANCE_CANDIDATE" in line and "qhoami:PATH" in line


@pytest.mark.parametrize(
    ("args", "variables", "where"),
    [
        (["--answer-pointer", "reboots"], {}, "--answer-pointer"),
        ([], {"CONFORMANCE_ANSWER_POINTER": "reboots"}, "CONFORMANCE_ANSWER_POINTER"),
    ],
)
def test_smoke_with_a_bad_pointer_is_one_line(
    args: list[str], variables: dict[str, str], where: str, tmp_path: Path
) -> None:
    done = rebootspec("smoke", tmp_path, *args, env=clean_env(**variables))
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert where in line and "starts with '/'" in line


@pytest.mark.parametrize("command", ["smoke", "fuzz"])
def test_a_bad_timeout_from_the_variable_is_one_line(command: str, tmp_path: Path) -> None:
    done = rebootspec(command, tmp_path, env=clean_env(CONFORMANCE_CASE_TIMEOUT="soon"))
    assert done.returncode == 2
    assert "CONFORMANCE_CASE_TIMEOUT" in one_line(done.stderr)


# -- help --------------------------------------------------------------------------------------

CANDIDATE_VARIABLES = [
    "CONFORMANCE_CANDIDATE",
    "CONFORMANCE_ANSWER_KEY",
    "CONFORMANCE_ANSWER_POINTER",
    "CONFORMANCE_ANSWER_LAST_INT",
    "CONFORMANCE_CASE_TIMEOUT",
    "CONFORMANCE_CASE_MEMORY",
    "CONFORMANCE_PASS_ENV",
]
RUN_ONLY = ["CONFORMANCE_KNOWN_DIVERGENCES", "CONFORMANCE_REPORT_DIR"]
CORPUS_VARIABLES = ["CONFORMANCE_PROFILE", "CONFORMANCE_CORPUS", "CONFORMANCE_SNAPSHOTS"]


@pytest.mark.parametrize(
    ("command", "variables"),
    [
        ("run", CANDIDATE_VARIABLES + CORPUS_VARIABLES + RUN_ONLY),
        ("smoke", CANDIDATE_VARIABLES + CORPUS_VARIABLES),
        ("fuzz", CANDIDATE_VARIABLES),
    ],
)
def test_help_names_each_variable(command: str, variables: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", command, "--help"],
        capture_output=True,
        text=True,
        env=clean_env(COLUMNS="100"),
        check=False,
    )
    assert done.returncode == 0
    missing = [name for name in variables if name not in done.stdout]
    assert missing == []


# -- the rules of reading, on their own ------------------------------------------------------


def settings(given: dict[str, object], environ: dict[str, str]) -> Settings:
    return Settings(given.get, environ)


def test_an_empty_variable_counts_as_unset() -> None:
    read = settings({}, {"CONFORMANCE_ANSWER_KEY": "", "CONFORMANCE_ANSWER_LAST_INT": "1"})
    assert isinstance(read.reader(CommandCandidate(("tool",))), LastIntegerReader)


def test_a_value_on_the_command_line_replaces_the_same_variable() -> None:
    read = settings({"answer_key": "patch"}, {"CONFORMANCE_ANSWER_KEY": "reboots"})
    assert read.reader(CommandCandidate(("tool",))) == JsonPointerReader("/patch")
    assert settings({"case_timeout": "2.5"}, {"CONFORMANCE_CASE_TIMEOUT": "9"}).case_timeout() == (
        2.5
    )


def test_pass_env_joins_the_command_line_and_the_variable() -> None:
    read = settings({"pass_env": ["LICENSE_KEY"]}, {"CONFORMANCE_PASS_ENV": "A, B,LICENSE_KEY"})
    assert read.pass_env() == ("LICENSE_KEY", "A", "B")


def test_a_flag_variable_must_say_yes_or_no() -> None:
    with pytest.raises(OptionError, match="CONFORMANCE_ANSWER_LAST_INT"):
        settings({}, {"CONFORMANCE_ANSWER_LAST_INT": "maybe"}).flag("answer_last_int")
    assert not settings({}, {"CONFORMANCE_ANSWER_LAST_INT": "0"}).flag("answer_last_int")


@pytest.mark.parametrize(
    "spec",
    ["./tool:v2 count", "C:\\tools\\count.exe", "python3 -c 'x = {1: 2}'", "mytool count"],
)
def test_a_command_is_never_taken_for_a_preset(spec: str) -> None:
    assert isinstance(parse_candidate(spec), CommandCandidate)
