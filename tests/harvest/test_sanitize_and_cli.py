"""The leak scan and the command's usage errors (no npm needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rebootspec.generators.harvest import cli, sanitize


def test_scan_finds_machine_strings_and_passes_generic_ones(tmp_path: Path) -> None:
    patterns = {
        "home": re.compile(re.escape("/home/alice") + r"(?![A-Za-z0-9_.-])"),
        "user": re.compile(r"(?:/home/|@)bob(?![A-Za-z0-9])"),
        "tmp-run": re.compile(r"/tmp/[A-Za-z0-9_.-]{3,}"),
    }
    clean = tmp_path / "clean.jsonl"
    clean.write_text('{"cwd":"/home/dev/project","note":"bobcat at /tmp"}\n')
    dirty = tmp_path / "dirty.jsonl"
    dirty.write_text('{"a":1}\n{"cwd":"/home/alice/work"}\n{"t":"/tmp/pytest-of-x/y"}\n')
    assert sanitize.scan([clean], patterns) == []
    leaks = sanitize.scan([dirty], patterns)
    assert [(leak.line, leak.what) for leak in leaks] == [(2, "home"), (3, "tmp-run")]


def test_machine_patterns_never_flag_the_generic_sandbox_names(tmp_path: Path) -> None:
    generic = tmp_path / "generic.jsonl"
    generic.write_text('{"cwd":"/home/dev/project","host":"devbox","user":"dev"}\n')
    assert sanitize.scan([generic]) == []


def test_machine_patterns_catch_this_machines_home(tmp_path: Path) -> None:
    home = str(Path.home())
    if home in ("/", "/home/dev"):
        pytest.skip("this machine's home is already generic")
    leaked = tmp_path / "leaked.jsonl"
    leaked.write_text('{"cwd":"' + home + '/project"}\n')
    assert [leak.what for leak in sanitize.scan([leaked])] == ["home"]


def test_usage_errors_exit_2_without_running_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "--host is needed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(["--host", "codex", "--version", "0.40.0", "--scenario", "nope", "--out", "x"])
    assert stop.value.code == 2
    with pytest.raises(SystemExit) as stop:
        cli.main(["--host", "codex", "--version", "0.40.0", "--scenario", "fork", "--out", "x"])
    assert stop.value.code == 2  # 0.40 has no thread/fork: refused before any install
    with pytest.raises(SystemExit) as stop:
        cli.main(["--host", "pi", "--version", "latest!", "--out", "x"])
    assert stop.value.code == 2
    assert not (tmp_path / "harvest-table.md").exists()


def test_a_closing_tag_named_like_the_home_folder_is_not_a_leak(tmp_path: Path) -> None:
    home = str(Path.home())
    if home in ("/", "/home/dev"):
        pytest.skip("this machine's home is already generic")
    tag = "</" + home.strip("/").split("/")[-1] + ">"
    prompt = tmp_path / "prompt.jsonl"
    # Codex 0.15x writes <workspace_roots><root>/home/dev/project</root></workspace_roots>.
    prompt.write_text('{"text":"<root>/home/dev/project' + tag + '"}\n')
    leaks = [leak for leak in sanitize.scan([prompt]) if leak.what == "home"]
    if home == "/" + home.strip("/").split("/")[-1]:
        assert leaks == []
    prompt.write_text('{"cwd":"' + home + '/x"}\n')
    assert [leak.what for leak in sanitize.scan([prompt])] == ["home"]
