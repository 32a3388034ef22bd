"""Scenarios of files of no host (HST-4) and of an empty file: raw bytes, no plan.

The expected answer is the rejection the bytes call for (`E-HOST`, `E-EMPTY` at line 0); the
case has no `host` key and its era is "none".
"""

from __future__ import annotations

from ..scenario import Scenario

BASE_RULES = ("HST-1", "HST-2")


SCENARIOS: tuple[Scenario[None], ...] = (
    # -- no host -------------------------------------------------------------------------
    Scenario(
        "unknown-host-object",
        None,
        ("none",),
        "a JSON lines file whose first object has no kind, type or id: rejected",
        ("HST-4", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"foo":1}\n{"type":"compacted","payload":{"message":"x"}}\n',
        reject="E-HOST",
    ),
    Scenario(
        "unknown-host-title-row",
        None,
        ("none",),
        "a first record shaped like a Claude Code title row without leafUuid: rejected",
        ("HST-4", "HST-2", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"type":"summary","summary":"A title","timestamp":"2026-06-01T10:00:00.000Z"}\n'
        b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s1"}\n',
        reject="E-HOST",
        comment="HST-2 knows a summary row by its string leafUuid (CLC-1); a string timestamp "
        "makes a Codex C0 header only with a string id and no type.",
    ),
    Scenario(
        "unknown-host-no-uuid",
        None,
        ("none",),
        "a first record with a type and a sessionId but no uuid: rejected",
        ("HST-4", "HST-2", "ERR-13", "ERR-10"),
        ("unknown-host", "rejection"),
        raw=b'{"type":"user","sessionId":"s1","message":{"role":"user","content":"hi"}}\n'
        b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s1"}\n',
        reject="E-HOST",
        comment="HST-2 knows a Claude Code conversation record by a string uuid and a string "
        "sessionId together (CLC-1).",
    ),
    Scenario(
        "empty-file",
        None,
        ("none",),
        "an empty file is no host's: VS Code's rules reject it at line 0",
        ("ERR-1", "ERR-10"),
        ("rejection",),
        raw=b"",
        reject="E-EMPTY",
    ),
)
