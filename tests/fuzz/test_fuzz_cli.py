"""`rebootspec fuzz` end to end: a subprocess candidate, the fixture it writes, the
corpus lint and the runner's snapshots on that fixture."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from fuzz_kit import FAKE_SCRIPT

from rebootspec.conformance.fuzzing.differential import cli
from rebootspec.conformance.runner.corpus import load_case
from rebootspec.generators.corpus.lint import SPEC, Lint

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout

FAKE_COMMAND = f"{sys.executable} {FAKE_SCRIPT}"
SEED = "5"


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """One CLI run against the subprocess fake: (exit code, stdout, out folder)."""
    out_dir = tmp_path_factory.mktemp("fuzz-out")
    out, err = io.StringIO(), io.StringIO()
    argv = ["--candidate", FAKE_COMMAND, "--out", str(out_dir), "--seed", SEED, "--budget", "0"]
    code = cli(argv, out, err)
    assert err.getvalue() == ""
    return code, out.getvalue(), out_dir


def _folder(out_dir: Path) -> Path:
    folders = [p for p in out_dir.iterdir() if p.is_dir()]
    assert len(folders) == 1, folders
    return folders[0]


@pytest.mark.slow
def test_the_seed_is_printed_first_and_a_divergence_exits_1(
    fuzzed: tuple[int, str, Path],
) -> None:
    code, text, _ = fuzzed
    assert code == 1
    assert text.splitlines()[0].startswith(f"fuzz: seed {SEED} (repeat with --seed {SEED})")
    assert f"--seed {SEED}" in text.splitlines()[-1]  # the reproduce line


@pytest.mark.slow
def test_the_fixture_passes_the_corpus_lint(fuzzed: tuple[int, str, Path], tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    folder = _folder(fuzzed[2])
    shutil.copytree(folder, fixtures / folder.name)
    lint = Lint(fixtures, SPEC)
    lint.run()
    assert lint.errors == []
    case = load_case(fixtures / folder.name)
    with (folder / "case.toml").open("rb") as handle:
        meta = tomllib.load(handle)
    assert meta["provenance"] == f"fuzz:{SEED}"
    assert "CNT-2" in case.rules
    assert case.title.startswith("fuzz: ")
    assert case.expect["outcome"] == "count"


@pytest.mark.slow
def test_the_explanation_sits_beside_the_folder(fuzzed: tuple[int, str, Path]) -> None:
    folder = _folder(fuzzed[2])
    text = (folder.parent / f"{folder.name}.EXPLAIN.txt").read_text(encoding="utf-8")
    assert "expected:" in text and "got:" in text
    assert "reference timeline" in text and "reboots:" in text
    assert len(text.splitlines()) < 60  # one screen
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["case.toml", f"session.{load_case(folder).container}"]
    )


def _runner(corpus: Path, snapshots: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "--conformance",
        "-p",
        "no:cacheprovider",
        "-q",
        "--conformance-corpus",
        str(corpus),
        "--conformance-snapshots",
        str(snapshots),
        *args,
    ]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=240)


@pytest.mark.slow
def test_the_fixture_round_trips_through_the_snapshots(
    fuzzed: tuple[int, str, Path], tmp_path: Path
) -> None:
    fixtures, snapshots = tmp_path / "fixtures", tmp_path / "snaps"
    folder = _folder(fuzzed[2])
    shutil.copytree(folder, fixtures / folder.name)
    pinned = _runner(fixtures, snapshots, "--snapshot-update")
    assert pinned.returncode == 0, pinned.stdout[-2000:]
    reference = _runner(fixtures, snapshots)
    assert reference.returncode == 0, reference.stdout[-2000:]
    # the runner sees the same divergence the fuzzer found
    fake = _runner(fixtures, snapshots, "--candidate", FAKE_COMMAND)
    assert fake.returncode == 1, fake.stdout[-2000:]
    assert folder.name in fake.stdout


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--candidate", "reference"], "--out"),
        (["--out", "x", "--avoid", "no-such-tag"], "no-such-tag"),
        (["--out", "x", "--candidate", "qhoami:/nonexistent"], "qhoami"),
        (["--out", "x", "--examples", "0"], "--examples"),
        (["--out", "x", "--answer-key", "a", "--answer-last-int"], "only one"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli(argv, out, err) == 2
    shown = err.getvalue() + capsys.readouterr().err
    assert words in shown
    assert "Traceback" not in shown


def test_no_divergence_exits_0_and_writes_nothing(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--out", str(tmp_path / "o"), "--seed", "2", "--examples", "20", "--budget", "0"]
    assert cli(argv, out, err) == 0
    assert "no divergence" in out.getvalue()
    assert not (tmp_path / "o").exists()
