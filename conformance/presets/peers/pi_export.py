"""pi's own HTML export (npm `@mariozechner/pi-coding-agent`): `pi --export FILE out.html`; the
`N compactions` of the page's header (see `answers.pi_export`)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, pi_export
from .base import Invocation, Peer, read_page
from .install import Package


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
        html = read_page(work / "out.html")
        return (None, "no out.html") if html is None else pi_export(html)
