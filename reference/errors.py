"""What a counter reports besides the count: rejections (ERR-*) and warnings (OUT-2).

A rejection is an exception because it ends the replay at once: the spec never lets a counter
print a number for a log VS Code itself could not load. A warning is data: the count stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Error codes of the spec's ERR-* rules (a closed list; SPEC.md defines each one).
E_EMPTY = "E-EMPTY"  # ERR-1
E_NO_INITIAL = "E-NO-INITIAL"  # ERR-2
E_JSON = "E-JSON"  # ERR-3
E_ENTRY = "E-ENTRY"  # ERR-4
E_STATE = "E-STATE"  # ERR-5
E_PATH = "E-PATH"  # ERR-6
E_PUSH = "E-PUSH"  # ERR-7
E_LIMIT = "E-LIMIT"  # ERR-8

ERROR_CODES = (E_EMPTY, E_NO_INITIAL, E_JSON, E_ENTRY, E_STATE, E_PATH, E_PUSH, E_LIMIT)


class Rejection(Exception):
    """The log is one the spec rejects (exit 1). `line` is 1-based; 0 means the whole file."""

    def __init__(self, line: int, code: str, reason: str) -> None:
        super().__init__(f"{line}: {code}: {reason}")
        self.line = line
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Notice:
    """A warning (OUT-2): something a person should know; it never changes the count."""

    code: str
    message: str
    line: int | None = None
    request: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        if self.request is not None:
            out["request"] = self.request
        return out


W_TORN_TAIL = "W-TORN-TAIL"
W_SUMMARY_WITHOUT_MARKER = "W-SUMMARY-WITHOUT-MARKER"
W_SERVER_COMPACTION = "W-SERVER-COMPACTION"
W_IN_PROGRESS = "W-IN-PROGRESS"
W_FAILED_SUMMARY = "W-FAILED-SUMMARY"
