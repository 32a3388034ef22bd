"""codeburn (npm): `codeburn context --json --provider codex|claude PATH`, its `compactions`.

It counts every `compacted` record of a Codex rollout and every `compact_boundary` line of a
Claude Code transcript (each line parsed alone), sidechains and copies included. It needs
Node >= 22.13 (`engines`), so it runs on the Node that npm serves (`install.NODE`).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput, neutral_name, place_copy
from ...runner.outcome import RunResult
from .answers import Answer, json_member
from .base import Invocation, Peer
from .install import Package, node_binary

PROVIDERS = {"codex": "codex", "claude-code": "claude"}


class Codeburn(Peer):
    name: ClassVar[str] = "codeburn"
    package: ClassVar[Package] = Package("npm", "codeburn", "0.9.15")
    hosts: ClassVar[tuple[str, ...]] = ("codex", "claude-code")
    reads: ClassVar[str] = "`compactions` of `codeburn context --json`"
    needs_node22: ClassVar[bool] = True

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = place_copy(given.path, work / neutral_name(given.path))
        script = self.package.module("dist/cli.js", self.root)
        provider = PROVIDERS[self.host or "codex"]
        argv = [str(node_binary(self.root)), str(script), "context", "--json"]
        return Invocation([*argv, "--provider", provider, str(copy)])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        return json_member(result.stdout, "compactions")
