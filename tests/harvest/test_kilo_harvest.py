"""Kilo's harvest without npm: the driver is opencode's with Kilo's names (no copy of it)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.harvest import cli, run, script, sweep
from rebootspec.generators.harvest.hosts import common, kilo, opencode


def test_the_config_is_kilos_file_with_a_context_the_scenario_overflows(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(kilo, "CONFIG", tmp_path / ".config" / "kilo" / "kilo.json")
    opencode.write_config("http://127.0.0.1:4321/v1", target=kilo.CONFIG, context=kilo.CONTEXT)
    config = json.loads(kilo.CONFIG.read_text())
    provider = config["provider"]["harvest"]
    assert provider["options"]["baseURL"] == "http://127.0.0.1:4321/v1"
    limit = provider["models"]["harvest-model"]["limit"]["context"]
    reported = int(kilo.OVER.split()[1])
    assert script.SMALL_USAGE < limit < reported  # over the limit only when the turn says so


def test_kilos_switches_and_retry_limit(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setattr(opencode, "HOME", tmp_path)
    monkeypatch.setattr(opencode.shutil, "which", lambda name: "/usr/bin/true")
    env = kilo._env()
    assert env["KILO_DISABLE_AUTOUPDATE"] == env["KILO_DISABLE_SHARE"] == "1"
    assert not [name for name in env if name.startswith("OPENCODE_")]
    assert env["KILO_SESSION_RETRY_LIMIT"] == kilo.RETRIES


@pytest.mark.parametrize(("version", "status"), [("7.0.33", 400), ("7.7.2", 500), ("7.7.9", 500)])
def test_a_failed_summary_is_one_kilo_gives_up_on(version: str, status: int) -> None:
    """7.0 retries a 500 without end: its failure is a 400; 7.7 stops after the retry limit."""
    text = f"Turn 1. {kilo.OVER}; {kilo._failure_directive(version)}"
    request = script.parse(
        "chat",
        {
            "model": "harvest-model",
            "messages": [
                {"role": "system", "content": "You are a context summarization agent."},
                {"role": "user", "content": text},
            ],
        },
    )
    assert script.decide(request).status == status


def test_every_registry_binary_is_swept_and_every_scenario_runs_on_it() -> None:
    assert sweep.VERSIONS["kilo"] == ("7.0.33", "7.7.2", "7.7.7", "7.7.9")
    jobs = [job for job in sweep.jobs() if job[0] == "kilo"]
    assert len(jobs) == 4 * len(kilo.SCENARIOS)


def test_the_binary_is_found_in_the_platform_package(tmp_path: Path) -> None:
    with pytest.raises(common.HarvestError):
        kilo.binary(tmp_path)
    program = tmp_path / "node_modules" / "@kilocode" / "cli-linux-x64" / "bin" / "kilo"
    program.parent.mkdir(parents=True)
    program.write_bytes(b"")
    assert kilo.binary(tmp_path) == program


def test_the_drift_check_names_a_release_without_its_binary_instead_of_running_an_older_one(
    tmp_path: Path, monkeypatch: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nov 2026: ``@kilocode/cli`` is at 7.8.1 but the registry's linux-x64 binary stops at 7.7.9.

    ``--latest`` must ask the wrapper (the release users install) and say 7.8.1 was not run, not
    quietly harvest 7.7.9 again (the platform package's own newest)."""
    newest = {kilo.RELEASE: "7.8.1", kilo.PACKAGE: "7.7.9"}
    monkeypatch.setattr(cli, "latest", lambda package: newest[package])
    monkeypatch.setattr(kilo, "published", lambda package, version: version == newest[package])
    monkeypatch.setattr(kilo, "cache_root", lambda: tmp_path / "cache")

    def no_install(package: str, version: str) -> common.Install:
        raise AssertionError(f"installed {package}@{version}")

    monkeypatch.setattr(run, "install", no_install)
    assert cli.main(["--host", "kilo", "--latest", "--out", str(tmp_path / "out")]) == 0
    table = capsys.readouterr().out
    rows = [line for line in table.splitlines() if line.startswith("| kilo |")]
    assert len(rows) == len(kilo.SCENARIOS)
    assert all("| 7.8.1 |" in row and "not run" in row for row in rows)
    assert "7.7.9" not in table


def test_a_cached_binary_needs_no_registry_look_up(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(kilo, "cache_root", lambda: tmp_path)
    (tmp_path / f"{kilo.PACKAGE}@7.7.9").mkdir(parents=True)
    (tmp_path / f"{kilo.PACKAGE}@7.7.9" / ".complete").write_text("7.7.9\n")

    def offline(package: str, version: str) -> bool:
        raise AssertionError("asked the registry")

    monkeypatch.setattr(kilo, "published", offline)
    assert kilo.installable("7.7.9") is None


@pytest.mark.parametrize(
    ("code", "out", "err", "said"),
    [
        (0, "7.7.9\n", "", True),
        (1, "", "npm error code E404\nnpm error 404 No match found for version 7.8.1", False),
        (1, "", "npm error code ENOTFOUND\nnpm error network getaddrinfo ENOTFOUND", None),
    ],
)
def test_a_missing_version_is_told_apart_from_an_unreachable_registry(
    monkeypatch: Any, code: int, out: str, err: str, said: bool | None
) -> None:
    """Only npm's E404 means "not published"; an offline registry must not pass for one (it
    would make opencode install its bare binary, or Kilo skip a release that exists)."""
    done = subprocess.CompletedProcess(["npm"], code, stdout=out, stderr=err)
    monkeypatch.setattr(common.subprocess, "run", lambda *args, **kwargs: done)
    version = "7.7.9" if said else "7.8.1"
    if said is None:
        with pytest.raises(common.HarvestError, match="ENOTFOUND"):
            common.published(kilo.PACKAGE, version)
    else:
        assert common.published(kilo.PACKAGE, version) is said
