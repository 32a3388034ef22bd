"""claude-code-transcripts (PyPI): `claude-code-transcripts json FILE -o DIR`; each continuation
summary it renders is a `<details class="continuation">` block, counted over every page."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, continuation_blocks
from .base import Invocation, Peer, read_page
from .install import Package


class ClaudeCodeTranscripts(Peer):
    name: ClassVar[str] = "claude-code-transcripts"
    package: ClassVar[Package] = Package("pypi", "claude-code-transcripts", "0.6")
    hosts: ClassVar[tuple[str, ...]] = ("claude-code",)
    reads: ClassVar[str] = 'rendered `<details class="continuation">` blocks over its pages'
    program: ClassVar[str] = "claude-code-transcripts"

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        program = str(self.package.bin(self.program, self.root))
        return Invocation([program, "json", str(copy), "-o", str(work / "out")])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        pages = sorted((work / "out").glob("*.html"))
        texts = [text for page in pages if (text := read_page(page)) is not None]
        return continuation_blocks(texts)
