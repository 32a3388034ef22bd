"""agentsview (PyPI, a Go program in a wheel): `agentsview sync`, then `compaction_count`.

It takes no path: it scans each host's own folders, so the case is laid in the host's home
layout (`layout`) under a private HOME, synced once with the daemon off
(`AGENTSVIEW_NO_DAEMON=1`), and the session's `compaction_count` is read from the SQLite store
it wrote (`~/.agentsview/sessions.db`), the number its web UI and `session get` show.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ...runner.candidates import CaseInput
from ...runner.outcome import RunResult
from .answers import Answer, agentsview_store
from .base import Invocation, Peer
from .install import Package
from .layout import host_file, lay_home

NO_DAEMON = {"AGENTSVIEW_NO_DAEMON": "1", "AGENTSVIEW_TELEMETRY_ENABLED": "0"}


class Agentsview(Peer):
    name: ClassVar[str] = "agentsview"
    package: ClassVar[Package] = Package("pypi", "agentsview", "0.46.1")
    hosts: ClassVar[tuple[str, ...]] = ("codex", "claude-code", "pi", "gemini-cli", "opencode")
    reads: ClassVar[str] = "`compaction_count` of the session in its store after `sync`"
    notes: ClassVar[str] = (
        "Its own code counts the messages its parser marks as compaction boundaries and, for a "
        "session with none, every drop of more than 30% in an assistant message's context "
        "tokens (a heuristic; no gallery row reproduces it yet, so its misses there show as "
        "unmatched)."
    )

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        lay_home(self.host or "", given, home)
        return Invocation([str(self.package.bin("agentsview", self.root)), "sync"], NO_DAEMON)

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        host = self.host or ""
        laid = home if host == "opencode" else host_file(host, home, given.path.suffix)
        session = given.session if host == "opencode" else None
        return agentsview_store(home / ".agentsview" / "sessions.db", laid, session)
