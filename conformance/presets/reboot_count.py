"""The `reboot-count:SCRIPT` preset: VSQode/reboot-count's ground-truth script."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from ..runner.answers import AnswerReader, PatternReader
from ..runner.candidates import CandidateError, CaseInput, Isolation, confined_run, private_workdir
from ..runner.outcome import RunResult
from .vscode_tree import FLAVOR, SESSION_ID, WORKSPACE_HASH, lay_session, preset_folders

_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)


@dataclass(frozen=True)
class RebootCountPreset:
    """VSQode/reboot-count's script: `python SCRIPT SESSION_ID HASH`, count on `Patch = N`.

    It reads `$APPDATA/Code - Insiders/User/workspaceStorage/...`. How its rejections are read
    (protocol 2): it gets none. The script prints no `E-*` diagnostic and has no error message of
    its own; its exit 1 is an uncaught exception, which is a crash under protocol 2 anyway (the
    preset names the exception in the crash detail). Its profile, `seed-rubric-2026-02`, leaves
    the rejection cases out, so this costs it nothing there.
    """

    script: Path
    isolation: Isolation = field(default_factory=Isolation)
    name: ClassVar[str] = "reboot-count"
    # HST-1: it counts VS Code sessions only; other hosts' cases are not claimed.
    hosts: ClassVar[tuple[str, ...]] = ("vscode",)

    @classmethod
    def create(cls, argument: Path, isolation: Isolation | None = None) -> RebootCountPreset:
        if not argument.is_file():
            raise CandidateError(
                f"reboot-count: {argument} is not a file (count_reboots_ground_truth.py?)"
            )
        return cls(argument.resolve(), isolation or Isolation())

    def describe(self) -> list[str]:
        return [f"{self.name}:{self.script}"]

    def default_reader(self) -> AnswerReader:
        return PatternReader(r"^Patch = (\d+)\s*$")

    def program(self) -> str:
        return sys.executable

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult:
        given = CaseInput.of(source)
        if given.root is not None:  # HST-1: the preset claims VS Code's one-file sessions only
            return RunResult(start_error=f"{self.name}: takes one VS Code session file per case")
        source = given.path
        with private_workdir() as root:
            work, home = preset_folders(root, source)
            appdata = home / "AppData" / "Roaming"
            lay_session(source, appdata / FLAVOR / "User")
            env = {"APPDATA": str(appdata), "HOME": str(home)}
            argv = [sys.executable, str(self.script), SESSION_ID, WORKSPACE_HASH]
            result = confined_run(argv, root, timeout, self.isolation, env, cwd=work)
            if result.exit_code == 1 and _TRACEBACK.search(result.stderr):
                last = result.stderr.strip().splitlines()[-1]
                result = replace(result, crash_note=f"uncaught exception: {last[:200]}")
            return result
