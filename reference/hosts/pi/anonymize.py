"""What of a pi session is structure and what is a person's text (`anonymize`, issue #33).

Kept: member names of pi's session schema; entry and message types and roles (PIA-1, PIA-3,
PIA-4 read the types); time stamps (PIA-5 ends a copy's prefix by them); the shape of ids, and
equality between them, so the tree's `id`/`parentId` links and the current path stay (PIA-6).
Replaced: messages, summaries, tool calls and output, paths (`cwd`, `parentSession`, whose
cwd-encoded folder names go with them), names, labels.
"""

from __future__ import annotations

from ...core.anonymize import HEX_ID, TIMESTAMP, UUID, UUID7, names

KEYS = names(
    """
api arguments branchedFrom cacheRead cacheWrite cancelled command content cost customType cwd
data details diff display errorMessage exitCode firstKeptEntryId firstKeptEntryIndex
firstLineExceedsLimit fromHook fromId fullOutputPath id input isError items label
lastLinePartial limit maxBytes maxLines message model modelId modifiedFiles name newText offset
oldText output outputBytes outputLines parentId parentSession path provider readFiles
responseId role stopReason summary targetId text thinking thinkingLevel thinkingSignature
timestamp tokensBefore toolCallId toolName total totalBytes totalLines totalTokens truncated
truncatedBy truncation type usage version redacted image mimeType
"""
)
TYPES = names(
    """
branch_summary compaction custom custom_message label message model_change session
session_info text thinking thinking_level_change toolCall image
"""
)
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": TYPES,
        "role": frozenset(
            {"assistant", "bashExecution", "custom", "hookMessage", "toolResult", "user"}
        ),
        "stopReason": frozenset({"aborted", "error", "length", "stop", "toolUse"}),
        "thinkingLevel": frozenset({"high", "low", "medium", "minimal", "off", "xhigh"}),
        "api": frozenset(
            {"anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"}
        ),
        "timestamp": TIMESTAMP,
    },
    "ids": (UUID7, UUID, HEX_ID),
    "markers": (),
    "answer_text": (),
}
