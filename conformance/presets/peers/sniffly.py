"""sniffly (PyPI): a web dashboard of Claude Code logs; its "compact summaries" come from
`ClaudeLogProcessor.process_logs`, which the harness (a `python -c` script run by the peer's own
venv) calls on a folder holding the case, printing `{"compactions": N}`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, harness_line
from .base import Invocation, Peer
from .install import Package
from .layout import SESSION_UUID

# The dashboard's "compact summaries" (and its commands-per-context ratio) are the
# `compact_summary` message type of process_logs' overview.
SNIFFLY = """\
import json, sys
from sniffly.core.processor import ClaudeLogProcessor
_, stats = ClaudeLogProcessor(sys.argv[1]).process_logs()
types = stats["overview"]["message_types"]
print(json.dumps({"compactions": types.get("compact_summary", 0)}))
"""


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
