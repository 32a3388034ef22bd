"""The GitHub Copilot CLI reader: an `events.jsonl` -> its reboots (spec/hosts/copilot-cli.md).

    events (JSV-1) -> the main agent's events (CPL-5: an `agentId` marks a sub-agent's)
                   -> its applied `session.compaction_complete` events (CPL-3)
                   -> less a fork's copied prefix (CPL-6, RBT-3)
                   -> the count, with W-REWOUND when the file was rewound (CPL-8)

Companions are tallied, never counted (CPL-4). Only the applied compactions are kept, a few
fields each, so memory is the longest line, not the file. The same code reads a session of
VS Code's Agent Host, which writes this format (CPL-11).
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.instants import before, instant

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ...core.instants import Instant

HOST = "copilot-cli"
START = "session.start"
COMPLETE = "session.compaction_complete"  # CPL-3: the primary record, when applied
INFO = "session.info"
FORK = "fork"  # CPL-6: `infoType` of the fork's mark (and of the source's note)
REWIND = "rewind"  # CPL-8: `infoType` written after a rewind rewrote the file
# CPL-4: events about a compaction, or a loss of context, that are never a reboot.
COMPANION_TYPES = frozenset(
    {
        "session.compaction_start",
        "session.truncation",
        "session.context_cleared",
        "session.handoff",
        "session.usage_checkpoint",
    }
)
W_REWOUND = "W-REWOUND"  # CPL-8: a rewind may have removed compactions: a lower bound
FIRST_COMPACTING = (0, 0, 376)  # CPL-2: the first release that could compact (era P1)


class CopilotCount(RecordCount):
    """OUT-4 plus the lines of sub-agents' applied compactions (CPL-5, informative)."""

    _fields = (*RecordCount._fields, "subagent")  # type: ignore[assignment]  # a longer tuple

    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)
        self.subagent: list[int] = []

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["subagent"] = self.subagent
        return out


class Session:
    """What the reader keeps of one file while it streams."""

    def __init__(self) -> None:
        self.records = 0
        self.version: str | None = None
        self.start: Instant | None = None  # the first session.start's instant (CPL-6)
        self.in_run = False  # CPL-6: inside the run of events older than the start
        self.pending: list[dict[str, Any]] = []  # applied compactions of that run
        self.own: list[dict[str, Any]] = []
        self.inherited: list[int] = []
        self.subagent: list[int] = []
        self.companions = 0
        self.any_compaction = False
        self.outcome = False  # CPL-2: `outcome` or `compactionAttemptId` seen (era P2)
        self.rewound: int | None = None  # the line of the first own rewind note (CPL-8)
        self.pending_rewind: int | None = None  # a rewind note inside the run (CPL-6)

    def add(self, line: int, value: Any) -> None:
        """Take one event (a JSON value of the file, starting on `line`)."""
        self.records += 1
        if not isinstance(value, dict):
            return  # CPL-1: not an event
        kind = value.get("type")
        data = value.get("data")
        data = data if isinstance(data, dict) else {}
        main = value.get("agentId") is None  # CPL-5: absent or null: the main agent
        if self.in_run:
            stamp = instant(value.get("timestamp"))
            if stamp is None or self.start is None or not before(stamp, self.start):
                self._end_run(main and kind == INFO and data.get("infoType") == FORK)
        if kind == START and self.start is None and self.records == 1:
            self._take_start(data, value)
            return
        if kind == COMPLETE:
            self._take_complete(line, data, main)
        elif kind in COMPANION_TYPES:
            self.companions += 1
            if kind == "session.compaction_start":
                self.any_compaction = True
                self.outcome |= "compactionAttemptId" in data  # CPL-2: a P2 start
        elif kind == INFO and main and data.get("infoType") == REWIND:
            self._take_rewind(line)

    def _take_start(self, data: dict[str, Any], value: dict[str, Any]) -> None:
        """CPL-1, CPL-6: the version, and the instant a fork's copied run is measured from."""
        version = data.get("copilotVersion")
        self.version = version if isinstance(version, str) else None
        self.start = instant(value.get("timestamp"))
        self.in_run = self.start is not None

    def _take_complete(self, line: int, data: dict[str, Any], main: bool) -> None:
        """CPL-3: applied means `success` is true and the summary is a non-empty string."""
        self.any_compaction = True
        if "outcome" in data or "compactionAttemptId" in data:
            self.outcome = True
        summary = data.get("summaryContent")
        applied = data.get("success") is True and isinstance(summary, str) and summary != ""
        if not applied:
            self.companions += 1  # CPL-4: failed, cancelled or empty
        elif not main:
            self.subagent.append(line)  # CPL-5
        else:
            trigger = data.get("trigger")  # CPL-9 (informative): manual, threshold, ...
            event = {"line": line, "trigger": trigger if isinstance(trigger, str) else "unknown"}
            (self.pending if self.in_run else self.own).append(event)

    def _take_rewind(self, line: int) -> None:
        """CPL-8: the first rewind note; one in a fork's copy is the source's (CPL-6)."""
        if self.in_run:
            if self.pending_rewind is None:
                self.pending_rewind = line
        elif self.rewound is None:
            self.rewound = line

    def _end_run(self, fork_mark: bool) -> None:
        """CPL-6: the run ended; it was a fork's copy only if the fork's mark ended it."""
        self.in_run = False
        if fork_mark:
            self.inherited.extend(event["line"] for event in self.pending)
        else:
            self.own[:0] = self.pending
            self.rewound = self.pending_rewind
        self.pending = []
        self.pending_rewind = None

    def answer(self) -> CopilotCount:
        """The count (CPL-3) and its details (OUT-4)."""
        if self.in_run:
            self._end_run(False)  # the file ended inside the run: no mark, no copy
        count = CopilotCount(host=HOST, reboots=len(self.own), records=self.records)
        count.host_version = self.version
        count.era = self._era()
        count.events = self.own
        count.inherited = self.inherited
        count.companions = self.companions
        count.subagent = self.subagent
        if self.rewound is not None:
            count.notices.append(
                Notice(
                    W_REWOUND,
                    "the session was rewound: compactions after the rewind point were removed"
                    " from the file, so the count is a lower bound (CPL-8)",
                    line=self.rewound,
                )
            )
        return count

    def _era(self) -> str:
        """CPL-2: P2 by its marks, P1 by any compaction event, else by the version."""
        if self.outcome:
            return "P2"
        if self.any_compaction:
            return "P1"
        release = _release(self.version)
        return "P0" if release is not None and release < FIRST_COMPACTING else "P1"


def count_records(records: Iterable[tuple[int, Any]]) -> CopilotCount:
    """Count the reboots of one Copilot CLI session given its `(line, value)` events.

    Every process that resumed the session appended to this one file, and old compactions are
    never written again, so the whole file is read and each primary record counted (CPL-7)."""
    session = Session()
    for line, value in records:
        session.add(line, value)
    return session.answer()


def _release(version: str | None) -> tuple[int, int, int] | None:
    """`copilotVersion` as (major, minor, patch), a pre-release suffix ignored (CPL-2)."""
    if version is None:
        return None
    parts = version.split("-", 1)[0].split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])
