"""Presets: existing tools that look a session up by id in a VS Code user-data tree (PRO-1).

A preset lays the case's input into a fresh fake tree as
`<user>/workspaceStorage/<hash>/chatSessions/<session id>.<ext>` (one file per hash folder,
so tools that parse every sibling see only this one), points the tool at it through HOME or
APPDATA, and reads the count the tool prints. Adding a preset is one small class plus one
line in `PRESETS`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from .answers import AnswerReader, JsonPointerReader, PatternReader
from .candidates import (
    Candidate,
    CandidateError,
    Isolation,
    confined_run,
    neutral_name,
    place_copy,
    private_workdir,
)
from .outcome import RunResult

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


def preset_folders(root: Path, source: Path) -> tuple[Path, Path]:
    """(working directory, fake HOME) under `root`: the working directory holds only the
    input's neutral copy (PRO-1 applies to presets too), the HOME only the user-data tree."""
    work, home = root / "work", root / "home"
    place_copy(source, work / neutral_name(source))
    home.mkdir()
    return work, home


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
    fake tree. How its rejections are read (protocol 2): qhoami prints no `E-*` diagnostic; when it
    cannot load the one session the tree holds it prints "Session not found" and exits 1. The
    preset reads exactly that (exit 1 with "Session not found" on stderr or stdout) as a rejection
    *with no code*: it counts as a rejection, and it never matches an expected code (a profile
    with `match_codes = true` fails it). Any other exit 1 (a Node stack trace) is a crash.
    """

    checkout: Path
    isolation: Isolation = field(default_factory=Isolation)
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

    def program(self) -> str:
        return "node"

    def run(self, source: Path, timeout: float) -> RunResult:
        with private_workdir() as root:
            work, home = preset_folders(root, source)
            lay_session(source, user_dir(home))
            env = {"HOME": str(home), "APPDATA": str(home / "AppData" / "Roaming")}
            argv = [
                "node",
                str(self.checkout / "out" / "cli.js"),
                "--session-id",
                SESSION_ID,
                "--workspace-hash",
                WORKSPACE_HASH,
            ]
            result = confined_run(argv, root, timeout, self.isolation, env, cwd=work)
            if result.exit_code == 1 and QHOAMI_NOT_FOUND.search(result.stderr + result.stdout):
                result = replace(result, preset_rejection="qhoami: Session not found")
            return result


QHOAMI_NOT_FOUND = re.compile("Session not found")
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

    def program(self) -> str:
        return sys.executable

    def run(self, source: Path, timeout: float) -> RunResult:
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


PRESETS: dict[str, Callable[[Path], Candidate]] = {
    QhoamiPreset.name: QhoamiPreset.create,
    RebootCountPreset.name: RebootCountPreset.create,
}
