"""claude-compaction-viewer (PyPI): a terminal UI whose `ccv --summary FILE` prints "N
compaction(s) found"; the harness (a `python -c` script run by the peer's own venv) calls the
`parse_jsonl` that number comes from and prints `{"compactions": N}`. Nothing is re-implemented.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, harness_line
from .base import Invocation, Peer
from .install import Package

# `ccv --summary FILE` prints "N compaction(s) found" for len(compactions) of parse_jsonl.
VIEWER = """\
import json, sys
from claude_compaction_viewer.parser import parse_jsonl
_, compactions, _ = parse_jsonl(sys.argv[1])
print(json.dumps({"compactions": len(compactions)}))
"""


class CompactionViewer(Peer):
    name: ClassVar[str] = "claude-compaction-viewer"
    package: ClassVar[Package] = Package("pypi", "claude-compaction-viewer", "0.1.0")
    hosts: ClassVar[tuple[str, ...]] = ("claude-code",)
    reads: ClassVar[str] = "the compactions of its `parse_jsonl` (what `ccv --summary` prints)"
    notes: ClassVar[str] = (
        "Its CLI module needs Python 3.12 (a backslash in an f-string) and this machine has "
        "3.11, so the harness calls the parser the CLI prints from."
    )

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        return Invocation([str(self.package.bin("python", self.root)), "-c", VIEWER, str(copy)])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        return harness_line(result.stdout)
