"""A candidate named by a relative path runs, although every case runs in an empty folder.

The user types `--candidate "./mytool {path}"` in the folder that holds `mytool`; the runner
must find it there (issue 25, item 1), in `smoke`, `run`, plain `pytest --candidate` and `fuzz`,
and a preset's relative PATH likewise. Each end-to-end test starts rebootspec as a user does, a
subprocess whose working directory is the tool's folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cf_kit as kit
import pytest

from rebootspec.conformance.presets import parse_candidate
from rebootspec.conformance.runner.candidates import CommandCandidate, anchored

# A real counter (the reference) behind a script the runner must find by its relative name.
TOOL = f"""#!{sys.executable}
import sys
from rebootspec.reference.cli import main
sys.exit(main(["count", *sys.argv[1:]]))  # the path, and a store's session after it (PRO-1)
"""


def tool_folder(tmp_path: Path) -> Path:
    """A user's folder: `bin/mytool` (executable) and `mytool.py` (run by a Python)."""
    home = tmp_path / "work"
    (home / "bin").mkdir(parents=True)
    script = home / "bin" / "mytool"
    script.write_text(TOOL, encoding="utf-8")
    script.chmod(0o755)
    (home / "mytool.py").write_text(TOOL, encoding="utf-8")
    return home


def rebootspec(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CONFORMANCE_", "PYTEST_"))}
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def small_corpus(tmp_path: Path) -> list[str]:
    """The runner-test corpus and its snapshots, as --conformance-corpus/-snapshots options."""
    root, snaps = tmp_path / "fixtures", tmp_path / "snaps"
    kit.write_corpus(root)
    kit.write_snapshots(snaps, root)
    return ["--corpus", str(root), "--conformance-snapshots", str(snaps)]


@pytest.mark.parametrize("command", ["./bin/mytool {path}", "bin/mytool", "PY mytool.py"])
def test_smoke_finds_a_relative_candidate(tmp_path: Path, command: str) -> None:
    home = tool_folder(tmp_path)
    done = rebootspec(home, "smoke", "--candidate", command.replace("PY", sys.executable))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: the adapter is wired right" in done.stdout
    assert "cannot start" not in done.stdout


def test_run_finds_a_relative_candidate_on_every_worker(tmp_path: Path) -> None:
    home = tool_folder(tmp_path)
    args = small_corpus(tmp_path)
    done = rebootspec(home, "run", "--candidate", "./bin/mytool {path}", *args, "-n", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(kit.SESSIONS)} passed" in done.stdout


# No Hypothesis plugin: no property test here, and it costs seconds a start (cf_runner).
QUIET_PYTEST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q")


def test_plain_pytest_finds_a_relative_candidate(tmp_path: Path) -> None:
    home = tool_folder(tmp_path)
    root, snaps = tmp_path / "fixtures", tmp_path / "snaps"
    kit.write_corpus(root)
    kit.write_snapshots(snaps, root)
    options = ["--candidate", "./bin/mytool", "--conformance-corpus", str(root)]
    options += ["--conformance-snapshots", str(snaps)]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *QUIET_PYTEST, *options],
        cwd=home,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(kit.SESSIONS)} passed" in done.stdout


@pytest.mark.slow  # a fuzz search; the same lookup is tested for run, smoke and plain pytest
def test_fuzz_finds_a_relative_candidate(tmp_path: Path) -> None:
    home = tool_folder(tmp_path)
    done = rebootspec(
        home, "fuzz", "--candidate", "./bin/mytool", "--out", "found", "--examples", "3"
    )
    # The reference agrees with every plan: three sessions run, nothing found.
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (home / "found").exists()


@pytest.mark.parametrize("command", ["smoke", "run", "fuzz"])
def test_a_missing_relative_program_is_one_line_naming_where_it_was_looked_for(
    tmp_path: Path, command: str
) -> None:
    extra = ["--out", "found"] if command == "fuzz" else []
    done = rebootspec(tmp_path, command, "--candidate", "./nosuch {path}", *extra)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{tmp_path / 'nosuch'} does not exist" in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert not (tmp_path / "found").exists()  # no "divergence" written for a typo


def test_what_is_anchored_and_what_is_not(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "rules.toml").write_text("", encoding="utf-8")
    argv = ("bin/tool", "count", "rules.toml", "--config=rules.toml", "-", "{path}", "/abs/x")
    assert anchored(argv, tmp_path) == (
        str(tmp_path / "bin" / "tool"),  # a relative program, even before it exists
        "count",  # a word that names nothing here stays a word
        str(tmp_path / "rules.toml"),  # an argument naming an existing file
        "--config=rules.toml",  # options are the tool's business
        "-",
        "{path}",
        "/abs/x",
    )
    # A bare program name is looked up on PATH, never in the folder.
    (tmp_path / "tool").write_text("", encoding="utf-8")
    assert anchored(("tool", "x"), tmp_path)[0] == "tool"


def test_the_folder_is_the_one_rebootspec_was_started_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert CommandCandidate.parse("./mytool {path}").argv[0] == str(tmp_path / "mytool")


def test_presets_take_a_relative_path_from_the_same_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "qhoami" / "out").mkdir(parents=True)
    (tmp_path / "qhoami" / "out" / "cli.js").write_text("", encoding="utf-8")
    (tmp_path / "count.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert parse_candidate("qhoami:qhoami").describe() == [f"qhoami:{tmp_path / 'qhoami'}"]
    assert parse_candidate("reboot-count:count.py").describe() == [
        f"reboot-count:{tmp_path / 'count.py'}"
    ]
