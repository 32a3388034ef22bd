"""claude-code-log (PyPI): `claude-code-log FILE -o out.html`; each compacted-summary message it
renders is a `message user compacted` element, and those are counted."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, compacted_messages
from .base import Invocation, Peer, read_page
from .install import Package


class ClaudeCodeLog(Peer):
    name: ClassVar[str] = "claude-code-log"
    package: ClassVar[Package] = Package("pypi", "claude-code-log", "1.7.0")
    hosts: ClassVar[tuple[str, ...]] = ("claude-code",)
    reads: ClassVar[str] = "rendered `message user compacted` elements of its HTML"
    notes: ClassVar[str] = (
        "Its HTML shows no compaction summary of these transcripts, real 2.1.39 one included "
        "(the records are loaded, then left out of the rendered tree), so it reads 0."
    )

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        program = str(self.package.bin("claude-code-log", self.root))
        return Invocation([program, str(copy), "-o", str(work / "out.html")])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        html = read_page(work / "out.html")
        return (None, "no out.html") if html is None else compacted_messages(html)
