"""Scenarios of files of no host (HST-4) and of an empty file: raw bytes, no plan.

The expected answer is the rejection the bytes call for (`E-HOST`, `E-EMPTY` at line 0); the
case has no `host` key and its era is "none".
"""

from __future__ import annotations

from ..scenario import Scenario
from . import strangers

BASE_RULES = ("HST-1", "HST-2")
# HST-2, HST-4: a near miss, a file that looks like a known host's and carries none of its marks.
NEAR_MISS = ("HST-4", "HST-2", "ERR-13", "ERR-10")
NEAR_TAGS = ("unknown-host", "near-miss", "rejection")


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
    # -- near misses: a host the spec does not count yet, next to one it does -------------
    Scenario(
        "near-miss-cline-api-history",
        None,
        ("none",),
        "a Cline task's api_conversation_history.json alone, a JSON array: no known host's",
        (*NEAR_MISS, "LEG-1", "CLN-1"),
        NEAR_TAGS,
        raw=strangers.cline_api_history(),
        reject="E-HOST",
        comment="Anthropic-style messages in an array; spec 2.0 read it by VS Code's rules "
        "(E-STATE). A Cline task is given as its folder or its ui_messages.json (CLN-1); the api "
        "history alone is not one, and no other row claims it.",
        options="json",
    ),
    Scenario(
        "near-miss-cline-sdk-messages",
        None,
        ("none",),
        "a Cline SDK messages file under another name: a number version and a sessionId but "
        "no requests, no known host's",
        (*NEAR_MISS, "LEG-1", "CLN-12"),
        NEAR_TAGS,
        raw=strangers.cline_sdk_messages(),
        reject="E-HOST",
        comment="Spec 2.0 took it for a VS Code flat session (a number version, a string "
        "sessionId) and counted 0; VS Code's marks include the requests array (LEG-1, HST-2). "
        "The SDK's file is <id>.messages.json in its session folder (CLN-12); under another "
        "name it is not one, and no other row claims it.",
        options="json",
    ),
    Scenario(
        "near-miss-session-events",
        None,
        ("none",),
        "another writer's session.* events with a data object: not a Copilot CLI log, no known "
        "host's",
        (*NEAR_MISS, "CPL-1"),
        NEAR_TAGS,
        raw=strangers.session_events(),
        reject="E-HOST",
        comment="A Copilot CLI log begins with a session.start whose data names producer "
        "copilot-agent (CPL-1); session.* types and a data object alone are anyone's. Spec 3.0 "
        "part three read this file by the Copilot CLI's rules and counted 0.",
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
