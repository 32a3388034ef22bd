"""The stub agent basic-agent-chat-loop loads in a harvest run: no model, a log of every call.

basic-agent-chat-loop loads a Python module and uses its ``root_agent``: ``name``,
``description`` and an async ``stream_async(prompt)`` whose events carry text (``{"text": ...}``)
and, in the last event, usage (``{"usage": {...}}``; 1.6.0-1.7.0 fail a reply without one). Text
goes out as a plain string, the one event shape every version reads (1.5.1 reads no ``{"text"}``
dict, 1.6.0's summary reads no ``.data`` object). The
chat loop itself asks the agent for everything it writes: the turn's answer, the session summary
(a prompt starting "Generate a progressive session summary", on ``#compact`` and on the save at
exit) and the restoration acknowledgement (a prompt starting "CONTEXT RESTORATION", after a
compaction and on a resume). So this module is the whole scripted model for this host.

Every call is one JSON line in the file named by ``HARVEST_STUB_LOG``: its classification,
the process, and for a restoration the parent session id the prompt names. That log is the
evidence of how many compactions and resumes the script caused (``chat_loop.restorations``).

The driver copies this file as the agent module, so it imports nothing but the standard library.
A summary fails on purpose (no markers, classification ``summary-failed``) when the session the
summary is about contains the directive ``fail the summary``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import AsyncIterator
from typing import Any

SUMMARY_PROMPT = "Generate a progressive session summary"
RESTORE_PROMPT = "CONTEXT RESTORATION"
FAIL_DIRECTIVE = "fail the summary"
START = "<!-- SESSION_SUMMARY_START -->"
END = "<!-- SESSION_SUMMARY_END -->"
# The restoration prompt names the session it restores: "(Session ID: <id>, N queries, ...".
PARENT = re.compile(r"Session ID: ([^,\s]+),")


def current_session(prompt: str) -> str:
    """The part of a summary prompt about this session (after the previous summary, if any)."""
    head, marker, rest = prompt.partition("**Current Session:**")
    return rest if marker else head


def classify(prompt: str) -> str:
    """``turn``, ``summary``, ``summary-failed`` or ``restore``, from the prompt alone."""
    if prompt.startswith(SUMMARY_PROMPT):
        return "summary-failed" if FAIL_DIRECTIVE in current_session(prompt) else "summary"
    if prompt.startswith(RESTORE_PROMPT):
        return "restore"
    return "turn"


def digest(text: str) -> str:
    """A short hash, so the same prompt always gets the same words back."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def reply(prompt: str) -> str:
    """The stub's answer to one prompt (deterministic: derived from the prompt)."""
    kind = classify(prompt)
    if kind == "summary":
        return (
            f"{START}\n**Background Context:** harvest session.\n\n"
            "**Current Session Summary:**\n**Topics Discussed:**\n"
            f"- scripted harvest turns (digest {digest(current_session(prompt))})\n\n"
            "**Decisions Made:**\n- none\n\n**Pending:**\n- the next scripted turn\n"
            f"{END}"
        )
    if kind == "summary-failed":
        return "I cannot summarise this session."
    if kind == "restore":
        match = PARENT.search(prompt)
        parent = match.group(1) if match else "an unnamed session"
        return f"Context from {parent} restored; ready to continue."
    first = prompt.strip().splitlines()[0][:60] if prompt.strip() else ""
    return f"Stub answer to: {first} (digest {digest(prompt)})"


def log_call(prompt: str, kind: str) -> None:
    """Append one line to ``HARVEST_STUB_LOG`` (nothing when it is not set)."""
    path = os.environ.get("HARVEST_STUB_LOG")
    if not path:
        return
    match = PARENT.search(prompt) if kind == "restore" else None
    entry = {
        "time": round(time.time(), 3),
        "pid": os.getpid(),
        "kind": kind,
        "parent": match.group(1) if match else None,
        "prompt": digest(prompt),
        "head": prompt[:60],
    }
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


class StubAgent:
    """What the chat loop reads from ``root_agent``: a name, a description, ``stream_async``."""

    name = "harvest"
    description = "scripted stub agent of the rebootspec harvest"

    async def stream_async(self, prompt: str) -> AsyncIterator[str | dict[str, Any]]:
        """The reply as one text event, then a usage event (the chat loop reads the last)."""
        kind = classify(prompt)
        log_call(prompt, kind)
        text = reply(prompt)
        yield text
        usage = {"input_tokens": 100 + len(prompt) // 4, "output_tokens": 10 + len(text) // 4}
        yield {"usage": usage}


root_agent = StubAgent()
