"""The answer for a host that appends records (Codex, pi): the count and its details (OUT-4).

VS Code's answer is `count.Count` (OUT-1..OUT-3), built from a replayed state; the other hosts'
readers collect the same kind of facts from a stream of records, so they share this one shape.
"""

from __future__ import annotations

from .plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .errors import Notice


class RecordCount(Plain):
    """OUT-4: the normative count (`reboots`) and what a person needs to check it."""

    _fields = (
        "host", "reboots", "era", "host_version", "records", "events", "inherited",
        "companions", "on_path", "notices",
    )  # fmt: skip

    def __init__(
        self,
        host: str,
        reboots: int,
        era: str | None = None,
        host_version: str | None = None,
        records: int = 0,
        events: list[dict[str, Any]] | None = None,
        inherited: list[int] | None = None,
        companions: int = 0,
        on_path: int | None = None,
        notices: list[Notice] | None = None,
    ) -> None:
        self.host = host
        self.reboots = reboots
        self.era = era
        self.host_version = host_version
        self.records = records  # JSON values read (JSV-1)
        self.events: list[dict[str, Any]] = [] if events is None else events  # counted records
        self.inherited: list[int] = [] if inherited is None else inherited  # RBT-3: copies
        self.companions = companions  # companion records seen, never counted (RBT-2)
        self.on_path = on_path  # pi: compactions on the current path (PIA-6)
        self.notices: list[Notice] = [] if notices is None else notices

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
