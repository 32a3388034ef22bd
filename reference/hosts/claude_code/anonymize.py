"""What of a Claude Code transcript is structure and what is a person's text (`anonymize`,
issue #33).

Kept: member names of the transcript schema; record types and subtypes (CLC-3, CLC-4 read
them), roles, the compaction trigger (CLC-8), `isSidechain`, `isCompactSummary` and the other
flags (they are not strings); time stamps and the CLI version; the `acompact-` prefix of the
summarizer's agent id (CLC-5); ids keep their shape and equality, so `uuid`/`parentUuid` links
and a uuid written twice (CLC-6) stay as they were. Replaced: messages, summaries, tool input
and output, file contents and paths (the keys of `trackedFileBackups` too), the cwd-encoded
folder names, git branches, slugs.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP, UUID, UUID7, VERSION, names

KEYS = names(
    """
agentId allowedTools args backupFileName backupTime bytes cache_creation
cache_creation_input_tokens cache_read_input_tokens caller code codeText command commandName
compactMetadata content context_management cwd data description durationMs elapsedTimeSeconds
ephemeral_1h_input_tokens ephemeral_5m_input_tokens file filePath file_path filenames forkedFrom
fullOutput gitBranch hasOutput hookCount hookErrors hookEvent hookInfos hookName id
inference_geo input input_tokens interrupted isCompactSummary isImage isMeta isSidechain
isSnapshotUpdate isVisibleInTranscriptOnly is_error iterations leafUuid level limit lines
logicalParentUuid maxThinkingTokens message messageId messageUuid microcompactMetadata mode
model name newLines newStart newString new_string noOutputExpected normalizedMessages numFiles
numLines offset oldLines oldStart oldString old_string originalFile output output_mode
output_tokens parentToolUseID parentUuid path pattern permissionMode postTokens preTokens
preventedContinuation prompt query replaceAll replace_all requestId result
returnCodeInterpretation role server_tool_use service_tier sessionId signature skill slug
snapshot sourceToolAssistantUUID sourceToolUseID startLine status stderr stdout stopReason
stop_reason stop_sequence structuredPatch subagent_type subtype success summary text thinking
thinkingMetadata timeout timeoutMs timestamp todos toolUseID toolUseResult tool_use_id
totalDurationMs totalLines totalTokens totalToolUseCount trackedFileBackups trigger truncated
type url usage userModified userType uuid version web_fetch_requests web_search_requests
customTitle aiTitle leafUuid isApiErrorMessage preservedSegment preservedMessages
"""
)
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": names(
            """
agent_progress ai-title assistant bash_progress create custom-title direct
file-history-snapshot hook_progress image message progress queue-operation redacted_thinking
summary system text thinking tool_result tool_use update user
"""
        ),
        "subtype": names(
            """
api_error compact_boundary informational local_command microcompact_boundary
stop_hook_summary turn_duration
"""
        ),
        "role": frozenset({"assistant", "user"}),
        "userType": frozenset({"external", "internal"}),
        "level": frozenset({"error", "info", "suggestion", "warning"}),
        "trigger": frozenset({"auto", "manual"}),
        "hookEvent": names(
            """
Notification PostToolUse PostToolUseFailure PreCompact PreToolUse SessionEnd SessionStart Stop
SubagentStop UserPromptSubmit
"""
        ),
        "stop_reason": frozenset({"end_turn", "max_tokens", "stop_sequence", "tool_use"}),
        "permissionMode": frozenset({"acceptEdits", "bypassPermissions", "default", "plan"}),
        "version": VERSION,
        "timestamp": TIMESTAMP,
    },
    # CLC-5: the summarizer's side file names its agent `acompact-<hex>`.
    "ids": (UUID7, UUID, r"(?P<keep>acompact-)(?P<hex>[0-9a-f]+)"),
    "markers": (),
    "answer_text": (),
    # A tool's input and its result are the tool's own JSON (an MCP server's `{"id": ...,
    # "amount": ...}`): no count reads inside them, and their numbers are a person's data.
    "data": ("input", "toolUseResult"),
}
