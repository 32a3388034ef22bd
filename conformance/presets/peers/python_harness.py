"""Peers that are Python libraries with a UI on top: a few lines call the function that counts.

claude-compaction-viewer and sniffly show their counts in a terminal UI or a web dashboard; the
number a user reads there comes from one function of theirs. The harness (a `python -c` script
run by the peer's own venv) calls exactly that function on the case and prints
`{"compactions": N}`. Nothing is re-implemented: a change in their counting shows up here.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, harness_line
from .base import Invocation, Peer
from .install import Package
from .layout import SESSION_UUID

# `ccv --summary FILE` prints "N compaction(s) found" for len(compactions) of parse_jsonl.
VIEWER = """\
import json, sys
from claude_compaction_viewer.parser import parse_jsonl
_, compactions, _ = parse_jsonl(sys.argv[1])
print(json.dumps({"compactions": len(compactions)}))
"""

# The dashboard's "compact summaries" (and its commands-per-context ratio) are the
# `compact_summary` message type of process_logs' overview.
SNIFFLY = """\
import json, sys
from sniffly.core.processor import ClaudeLogProcessor
_, stats = ClaudeLogProcessor(sys.argv[1]).process_logs()
types = stats["overview"]["message_types"]
print(json.dumps({"compactions": types.get("compact_summary", 0)}))
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


class Sniffly(Peer):
    name: ClassVar[str] = "sniffly"
    package: ClassVar[Package] = Package("pypi", "sniffly", "0.1.5")
    hosts: ClassVar[tuple[str, ...]] = ("claude-code",)
    reads: ClassVar[str] = "the dashboard's `compact_summary` messages (`process_logs`)"

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        project = work / "project"
        place_copy(given.path, project / f"{SESSION_UUID}.jsonl")
        return Invocation([str(self.package.bin("python", self.root)), "-c", SNIFFLY, str(project)])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        return harness_line(result.stdout)
