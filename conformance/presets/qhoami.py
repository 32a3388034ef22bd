"""The `qhoami:DIR` preset: a checkout of VSQode/qhoami, run as `node out/cli.js`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

from ..runner.answers import AnswerReader, JsonPointerReader
from ..runner.candidates import CandidateError, CaseInput, Isolation, confined_run, private_workdir
from ..runner.outcome import RunResult
from .vscode_tree import SESSION_ID, WORKSPACE_HASH, lay_session, preset_folders, user_dir

QHOAMI_NOT_FOUND = re.compile("Session not found")


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
    # HST-1: it counts VS Code sessions only; other hosts' cases are not claimed.
    hosts: ClassVar[tuple[str, ...]] = ("vscode",)

    @classmethod
    def create(cls, argument: Path, isolation: Isolation | None = None) -> QhoamiPreset:
        if not (argument / "out" / "cli.js").is_file():
            raise CandidateError(
                f"qhoami: {argument}/out/cli.js does not exist (a qhoami checkout?)"
            )
        return cls(argument.resolve(), isolation or Isolation())

    def describe(self) -> list[str]:
        return [f"{self.name}:{self.checkout}"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader("/patch")

    def program(self) -> str:
        return "node"

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult:
        given = CaseInput.of(source)
        if given.root is not None:  # HST-1: the preset claims VS Code's one-file sessions only
            return RunResult(start_error=f"{self.name}: takes one VS Code session file per case")
        source = given.path
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
