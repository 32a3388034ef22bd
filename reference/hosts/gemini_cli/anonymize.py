"""What of a Gemini CLI chat is structure and what is a person's text (`anonymize`, issue #33).

Kept: member names of the chat's records (`$set`, `$rewindTo` too); message types (GEM-3,
GEM-5 read them); time stamps; the `<session_context>` and `<state_snapshot>` elements inside a
message, the word "compress" of the UI's notes (GEM-5), and ids' equality, so a snapshot seen
again is still the same snapshot (GEM-4). Replaced: every other text of messages, thoughts, tool
calls and their results, the project hash, names.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP, UUID, UUID7, names

KEYS = names(
    """
$rewindTo $set args bg bold cached command content description dim displayName fg functionCall
functionResponse id input inverse isUninitialized italic kind lastUpdated messages model name
output projectHash renderOutputAsMarkdown response result resultDisplay sessionId startTime
status text thoughts timestamp tokens tool toolCalls total type underline subject thought
candidates prompt summary directories
"""
)
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": frozenset({"error", "gemini", "info", "user", "warning"}),
        "kind": frozenset({"main", "subagent"}),
        "status": frozenset({"cancelled", "error", "success"}),
        "timestamp": TIMESTAMP,
        "startTime": TIMESTAMP,
        "lastUpdated": TIMESTAMP,
    },
    "ids": (UUID7, UUID),
    # GEM-3: the snapshot element and the context that opens a history; GEM-5: the UI's notes.
    "markers": ("<session_context>", "<state_snapshot>", "(?i:compress)"),
    "answer_text": ("snapshot",),
}
