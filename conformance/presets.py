"""Presets: existing tools that look a session up by id in a VS Code user-data tree (PRO-1).

A preset lays the case's input into a fresh fake tree as
`<user>/workspaceStorage/<hash>/chatSessions/<session id>.<ext>` (one file per hash folder,
so tools that parse every sibling see only this one), points the tool at it through HOME or
APPDATA, and reads the count the tool prints. Adding a preset is one small class plus one
line in `PRESETS`.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from conformance.answers import AnswerReader, JsonPointerReader, PatternReader
from conformance.candidates import (
    Candidate,
    CandidateError,
    place_copy,
    private_workdir,
    without_workdir,
)
from conformance.outcome import RunResult
from conformance.process import run_command

SESSION_ID = "00000000-0000-4000-8000-00000000c0de"
WORKSPACE_HASH = "0123456789abcdef0123456789abcdef"
FLAVOR = "Code - Insiders"


def user_dir(home: Path, platform: str = sys.platform) -> Path:
    """Where VS Code (Insiders) keeps `User/` under a HOME, as the Node tools compute it."""
    if platform == "darwin":
        return home / "Library" / "Application Support" / FLAVOR / "User"
    if platform == "win32":
        return home / "AppData" / "Roaming" / FLAVOR / "User"
    return home / ".config" / FLAVOR / "User"


def lay_session(source: Path, user: Path) -> Path:
    """Copy the case's input into a fake tree under `user`; the extension stays the signal."""
    target = (
        user / "workspaceStorage" / WORKSPACE_HASH / "chatSessions" / f"{SESSION_ID}{source.suffix}"
    )
    return place_copy(source, target)


@dataclass(frozen=True)
class QhoamiPreset:
    """VSQode/qhoami: `node out/cli.js --session-id ID --workspace-hash HASH`, count at `patch`.

    It finds sessions under `$HOME/.config/Code - Insiders/User` (Linux), so HOME points at the
    fake tree. "Session not found" is its exit 1: for this tool that is a rejection.
    """

    checkout: Path
    name: ClassVar[str] = "qhoami"

    @classmethod
    def create(cls, argument: Path) -> QhoamiPreset:
        if not (argument / "out" / "cli.js").is_file():
            raise CandidateError(
                f"qhoami: {argument}/out/cli.js does not exist (a qhoami checkout?)"
            )
        return cls(argument.resolve())

    def describe(self) -> list[str]:
        return [f"{self.name}:{self.checkout}"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader("/patch")

    def run(self, source: Path, timeout: float) -> RunResult:
        with private_workdir() as home:
            lay_session(source, user_dir(home))
            env = dict(os.environ, HOME=str(home), APPDATA=str(home / "AppData" / "Roaming"))
            argv = [
                "node",
                str(self.checkout / "out" / "cli.js"),
                "--session-id",
                SESSION_ID,
                "--workspace-hash",
                WORKSPACE_HASH,
            ]
            result = run_command(argv, timeout=timeout, cwd=home, env=env)
            return without_workdir(result, home)


_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)


@dataclass(frozen=True)
class RebootCountPreset:
    """VSQode/reboot-count's script: `python SCRIPT SESSION_ID HASH`, count on `Patch = N`.

    It reads `$APPDATA/Code - Insiders/User/workspaceStorage/...`. The script has no rejection:
    its exit 1 is an uncaught exception, so exit 1 with a Python traceback is a crash, never a
    correct rejection.
    """

    script: Path
    name: ClassVar[str] = "reboot-count"

    @classmethod
    def create(cls, argument: Path) -> RebootCountPreset:
        if not argument.is_file():
            raise CandidateError(
                f"reboot-count: {argument} is not a file (count_reboots_ground_truth.py?)"
            )
        return cls(argument.resolve())

    def describe(self) -> list[str]:
        return [f"{self.name}:{self.script}"]

    def default_reader(self) -> AnswerReader:
        return PatternReader(r"^Patch = (\d+)\s*$")

    def run(self, source: Path, timeout: float) -> RunResult:
        with private_workdir() as home:
            appdata = home / "AppData" / "Roaming"
            lay_session(source, appdata / FLAVOR / "User")
            env = dict(os.environ, APPDATA=str(appdata), HOME=str(home), PYTHONIOENCODING="utf-8")
            argv = [sys.executable, str(self.script), SESSION_ID, WORKSPACE_HASH]
            result = run_command(argv, timeout=timeout, cwd=home, env=env)
            if result.exit_code == 1 and _TRACEBACK.search(result.stderr):
                last = result.stderr.strip().splitlines()[-1]
                result = replace(result, crash_note=f"uncaught exception: {last[:200]}")
            return without_workdir(result, home)


PRESETS: dict[str, Callable[[Path], Candidate]] = {
    QhoamiPreset.name: QhoamiPreset.create,
    RebootCountPreset.name: RebootCountPreset.create,
}
