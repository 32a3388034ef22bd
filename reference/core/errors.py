"""What a counter reports besides the count: rejections (ERR-*) and warnings (OUT-2).

A rejection is an exception because it ends the replay at once: the spec never lets a counter
print a number for a log VS Code itself could not load. A warning is data: the count stands.
"""

from __future__ import annotations

from .plain import Frozen

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
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
E_READ = "E-READ"  # ERR-12
E_HOST = "E-HOST"  # ERR-13: no known host (HST-4)
E_UNMEASURABLE = "E-UNMEASURABLE"  # ERR-14: an era that recorded no compaction (RBT-5)
E_SESSION = "E-SESSION"  # ERR-15: the session asked about is not in the store, or none was named
E_CHAIN = "E-CHAIN"  # ERR-16: a chain of session files that cannot be walked

ERROR_CODES = (
    E_EMPTY,
    E_NO_INITIAL,
    E_JSON,
    E_ENTRY,
    E_STATE,
    E_PATH,
    E_PUSH,
    E_LIMIT,
    E_READ,
    E_HOST,
    E_UNMEASURABLE,
    E_SESSION,
    E_CHAIN,
)


class Rejection(Exception):
    """The log is one the spec rejects (exit 1). `line` is 1-based; 0 means the whole file."""

    # The other files the rejection was read from, as `Answer.sources` (a chain's files, the
    # missing one included): a cached rejection stands only while none of them changes.
    sources: tuple[str, ...] = ()

    def __init__(self, line: int, code: str, reason: str) -> None:
        super().__init__(f"{line}: {code}: {reason}")
        self.line = line
        self.code = code
        self.reason = reason


class Notice(Frozen):
    """A warning (OUT-2): something a person should know; it never changes the count."""

    __slots__ = ("code", "line", "message", "request")
    _fields = ("code", "message", "line", "request")

    def __init__(
        self, code: str, message: str, line: int | None = None, request: int | None = None
    ) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.request = request

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        if self.request is not None:
            out["request"] = self.request
        return out


W_TORN_TAIL = "W-TORN-TAIL"  # ERR-9
W_FAILED_SUMMARY = "W-FAILED-SUMMARY"  # SUM-3
W_NO_MARKER = "W-NO-MARKER"  # SUM-5
W_PROVIDER_COMPACTION = "W-PROVIDER-COMPACTION"  # SUM-7
W_REMOVED = "W-REMOVED"  # CNT-5
W_TRUNCATED = "W-TRUNCATED"  # UNC-8
W_RETRIED = "W-RETRIED"  # ERR-11: a transient rejection went away on a re-read
W_GUESSED = "W-GUESSED"  # WHO-5: `whoami --guess` took the newest session; no host named it

# OUT-3: one warning code per phantom reason (SUM-4).
PHANTOM_WARNINGS = {
    "failed": "W-PHANTOM-FAILED",
    "lost-after-error": "W-PHANTOM-LOST",
    "cancelled": "W-PHANTOM-CANCELLED",
    "in-progress-only": "W-PHANTOM-IN-PROGRESS",
    "unknown": "W-PHANTOM",
}


def os_reason(error: OSError) -> str:
    """An operating system's refusal in the one wording every command uses: a missing file is
    "no such file" everywhere (never "No such file or directory" in one place and another
    phrase elsewhere); any other refusal is the system's own words."""
    import errno

    if error.errno == errno.ENOENT:
        return "no such file"
    return error.strerror or str(error)
