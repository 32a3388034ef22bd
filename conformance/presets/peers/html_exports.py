"""Peers that render a transcript as HTML: the compaction markers of the page are counted.

- claude-code-log: `claude-code-log FILE -o out.html`; each compacted-summary message is a
  `message user compacted` element.
- claude-code-transcripts and ai-code-sessions (its fork): `json FILE -o DIR`; each
  continuation summary is a `<details class="continuation">` block, over every `page-*.html`.
- pi: `pi --export FILE out.html`; the header's `N compactions` (see `answers.pi_export`).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, compacted_messages, continuation_blocks, pi_export
from .base import Invocation, Peer
from .install import Package


def _read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return None


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
        html = _read(work / "out.html")
        return (None, "no out.html") if html is None else compacted_messages(html)


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
        texts = [text for page in pages if (text := _read(page)) is not None]
        return continuation_blocks(texts)


class AiCodeSessions(ClaudeCodeTranscripts):
    name: ClassVar[str] = "ai-code-sessions"
    package: ClassVar[Package] = Package("pypi", "ai-code-sessions", "0.3.1")
    program: ClassVar[str] = "ai-code-sessions"


class PiExport(Peer):
    name: ClassVar[str] = "pi-export"
    package: ClassVar[Package] = Package("npm", "@mariozechner/pi-coding-agent", "0.73.1")
    hosts: ClassVar[tuple[str, ...]] = ("pi",)
    reads: ClassVar[str] = "the `N compactions` of `pi --export`'s page header"

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        program = str(self.package.bin("pi", self.root))
        return Invocation([program, "--export", str(copy), str(work / "out.html")])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        html = _read(work / "out.html")
        return (None, "no out.html") if html is None else pi_export(html)
