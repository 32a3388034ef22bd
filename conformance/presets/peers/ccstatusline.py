"""ccstatusline (npm): its Compaction Counter widget, fed the status-line hook's JSON.

Claude Code runs a status-line command with a JSON object on stdin that names the transcript
(`transcript_path`); ccstatusline renders the widgets of `~/.config/ccstatusline/settings.json`.
The preset writes a settings file with the one widget (format `text-and-number`) and the hook's
JSON, and reads the rendered `Compactions: N`. The runner gives every candidate an empty stdin,
so the hook's JSON is redirected from a file by `sh -c 'exec ... < FILE'`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import orjson

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, status_line
from .base import Invocation, Peer
from .install import Package

SETTINGS = {
    "version": 3,
    "lines": [
        [{"id": "1", "type": "compaction-counter", "metadata": {"format": "text-and-number"}}]
    ],
}


class Ccstatusline(Peer):
    name: ClassVar[str] = "ccstatusline"
    package: ClassVar[Package] = Package("npm", "ccstatusline", "2.2.30")
    hosts: ClassVar[tuple[str, ...]] = ("claude-code",)
    reads: ClassVar[str] = "the rendered `Compactions: N` of its Compaction Counter widget"

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        settings = home / ".config" / "ccstatusline" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_bytes(orjson.dumps(SETTINGS))
        hook = home / "hook.json"
        hook.write_bytes(
            orjson.dumps(
                {
                    "session_id": "c0de",
                    "transcript_path": str(copy),
                    "cwd": str(work),
                    "model": {"id": "claude", "display_name": "Claude"},
                }
            )
        )
        script = self.package.module("dist/ccstatusline.js", self.root)
        argv = ["sh", "-c", 'exec node "$0" < "$1"', str(script), str(hook)]
        return Invocation(argv, {"FORCE_COLOR": "0"})

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        return status_line(result.stdout)
