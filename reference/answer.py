"""The answer for a host that appends records (Codex, pi): the count and its details (OUT-4).

VS Code's answer is `count.Count` (OUT-1..OUT-3), built from a replayed state; the other hosts'
readers collect the same kind of facts from a stream of records, so they share this one shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Notice


@dataclass
class RecordCount:
    """OUT-4: the normative count (`reboots`) and what a person needs to check it."""

    host: str
    reboots: int
    era: str | None = None
    host_version: str | None = None
    records: int = 0  # JSON values read (JSV-1)
    events: list[dict[str, Any]] = field(default_factory=list)  # one per counted record
    inherited: list[int] = field(default_factory=list)  # lines of excluded copies (RBT-3)
    companions: int = 0  # companion records seen, never counted (RBT-2)
    on_path: int | None = None  # pi: compactions on the current path (PIA-6)
    notices: list[Notice] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reboots": self.reboots, "host": self.host}
        if self.host_version is not None:
            out["host_version"] = self.host_version
        if self.era is not None:
            out["era"] = self.era
        out["records"] = self.records
        out["reboot_events"] = self.events
        out["inherited"] = self.inherited
        out["companions"] = self.companions
        if self.on_path is not None:
            out["on_path"] = self.on_path
        out["warnings"] = [n.to_json() for n in self.notices]
        return out
