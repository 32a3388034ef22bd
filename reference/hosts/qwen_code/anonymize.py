"""What of a Qwen Code transcript is structure and what is a person's text (`anonymize`,
issue #33).

Kept: member names of the recorder's schema (`ChatRecord`, its Gemini-style `message.parts`,
the `systemPayload` of the system records); record types and subtypes (QWN-3, QWN-5 read them),
roles, `compressionStatus` and the other numbers and flags; the trigger (`triggerReason`), the
provenance, time stamps and the CLI version; the model's acknowledgement after a summary, which
QWN-4 reads word for word; ids keep their shape and equality (`uuid`, `parentUuid`,
`forkedFrom`), and equal summaries stay equal (QWN-4 compares them). Replaced: messages,
summaries, tool calls and results, the working folder and every path, git branches, titles,
model names.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP, UUID, VERSION, names

KEYS = names(
    """
agentColor agentId agentName args assistantRecordUuid authType callId candidatesTokenCount
cachedContentTokenCount completedToolCallIds compressedHistory compressionStatus
contextWindowSize customTitle cwd displayText error errorType forkedFrom functionCall
functionResponse gitBranch hiddenInvocation id info isSidechain message messageUuid model
modelId name newTokenCount newTokenCountIsEstimated originalTokenCount
originalTokenCountIsEstimated output outputHistoryItems parentSessionId parentUuid parts phase
promptId promptIds promptTokenCount provenance rawCommand response resultDisplay role
sentToModel sessionId snapshot sourceId sourceType startExclusiveRecordUuid status subtype
systemPayload text thought thoughtSignature thoughtsTokenCount timestamp titleSource
toolCallResult totalTokenCount triggerReason truncatedCount type uiEvent usageMetadata uuid v
version
"""
)
# A Q0 chat document's own members (QWN-1 recognises it by them, QWN-9): structure too, or an
# anonymized 0.1.x chat would be a VS Code `.json` (found on the harvested 0.1.4 chat).
KEYS |= names("content lastUpdated messages projectHash startTime")
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": names("user assistant tool_result system qwen info error"),
        "subtype": names(
            """
agent_bootstrap agent_launch_prompt agent_retry agent_session_ready at_command
attribution_snapshot background_task_completed branch_checkpoint chat_compression cron
custom_title file_history_snapshot mid_turn_user_message notification parent_session rewind
session_approval_mode session_model session_source slash_command ui_telemetry
user_text_elements
"""
        ),
        "role": frozenset({"model", "user"}),
        "triggerReason": frozenset({"manual", "token_limit"}),
        "provenance": names("real_user assistant_output tool_result system goal_control"),
        "titleSource": frozenset({"auto", "manual"}),
        "phase": frozenset({"invocation", "result"}),
        # QWN-4: the model turn after a summary, read word for word.
        "text": frozenset({"Got it. Thanks for the additional context!"}),
        "version": VERSION,
        "timestamp": TIMESTAMP,
    },
    "ids": (UUID,),
    "markers": ("<state_snapshot>",),
    "answer_text": (),
}
