"""Files of hosts the spec does not count yet, written the way their own programs write them:
the near-miss cases of HST-2 (each looks like a known host's file and carries none of its
marks), whose answer is `E-HOST` until a chapter for the host is written.

Each function gives the bytes of one small but faithful session; the shapes are restated from
the writers' sources (named in each docstring) and from the research notes of issue 42. Ids
and times are fixed, so a build is reproducible.
"""

from __future__ import annotations

import json
from typing import Any

SESSION = "6c1f0a52-93d4-4e0b-8a27-3f5e9b1c7d40"
CWD = "/home/dev/project"


def _lines(records: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in records)


def cline_api_history() -> bytes:
    """Cline 3.x `tasks/<id>/api_conversation_history.json`: one JSON array of Anthropic-style
    messages (`role`, `content` blocks), kept whole; an auto-compact leaves the assistant's
    `summarize_task` call and a user message beginning `[summarize_task] Result:`."""
    continued = (
        "[summarize_task] Result:\n\nThis session is being continued from a previous "
        "conversation that ran out of context."
    )
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "<task>\nfix the parser\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "The parser is fixed."}]},
        {"role": "user", "content": [{"type": "text", "text": "now the tests"}]},
        {
            "role": "assistant",
            "content": [
                {
                    "type": "text",
                    "text": "<summarize_task>\n<context>the parser is fixed</context>\n"
                    "</summarize_task>",
                }
            ],
        },
        {"role": "user", "content": [{"type": "text", "text": continued}]},
    ]
    return json.dumps(messages, separators=(",", ":")).encode()


def cline_sdk_messages() -> bytes:
    """Cline CLI 3.x / extension 4.x `sessions/<id>/<id>.messages.json` (cline/cline
    `sdk/packages/core`): one object with a number `version`, `updated_at`, `agent`,
    `sessionId`, `origin`, `messages` (`id`, `role`, `content` blocks, `ts`) and
    `system_prompt`: a number `version` and a string `sessionId` like a VS Code flat session,
    but `messages` where VS Code has `requests`. It keeps the whole history and no trace of a
    compaction (that is the sibling `<id>.compaction.json`)."""
    document = {
        "version": 1,
        "updated_at": "2026-11-20T10:01:00.000Z",
        "agent": "cline",
        "sessionId": "1764000000000",
        "origin": "cli",
        "messages": [
            {
                "id": "m1",
                "role": "user",
                "content": [{"type": "text", "text": "fix the parser"}],
                "ts": 1764000000000,
            },
            {
                "id": "m2",
                "role": "assistant",
                "content": [{"type": "text", "text": "The parser is fixed."}],
                "ts": 1764000005000,
            },
        ],
        "system_prompt": "You are Cline, a software engineer.",
    }
    return json.dumps(document, indent=2).encode()


def session_events() -> bytes:
    """Another writer's `session.*` events: opencode's server event names (`session.created`,
    `session.compacted`) as an event-logging plugin writes them, one object a line with a
    `data` object. Not the Copilot runtime's log: no `session.start` naming `producer`
    `copilot-agent` (CPL-1)."""
    ident = "ses_5a1b2c3d4e5fabcdefABCDEF01"
    return _lines(
        [
            {
                "type": "session.created",
                "data": {"sessionID": ident, "title": "fix the parser"},
                "timestamp": "2026-11-20T10:00:00.000Z",
            },
            {
                "type": "session.compacted",
                "data": {"sessionID": ident},
                "timestamp": "2026-11-20T10:05:00.000Z",
            },
            {
                "type": "session.idle",
                "data": {"sessionID": ident},
                "timestamp": "2026-11-20T10:06:00.000Z",
            },
        ]
    )
