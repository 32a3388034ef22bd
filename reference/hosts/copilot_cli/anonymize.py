"""What of a Copilot CLI `events.jsonl` is structure and what is a person's text (`anonymize`).

Kept: the event envelope and the member names the CLI writes (from its published event types and
the files it wrote offline, generators/harvest); event types, `infoType`, `outcome` and `trigger`
(CPL-3..CPL-9 read them); time stamps (CPL-6 compares them) and the CLI version (CPL-2); the
version digit of UUIDs, every other hex digit keyed, so equal ids stay equal. Replaced: messages,
summaries, tool calls and their output, prompts, paths, model names, every other id. A member
name not listed here is data and gets a pseudonym; the count reads none of those.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP, UUID, VERSION, names

KEYS = names(
    """
accounting accountingSnapshot adaptive_thinking agentDescription agentDisplayName agentId
agentMetrics agentName agentType agent_id agent_name agent_type aiCreditsStatus
allowAllPermissionMode allowAllPermissions alreadyInUse apiCallId apiEndpoint api_endpoint
api_id arguments availableToolCount behaviorModelId byokKind cacheDetailsReported
cacheReadTokens cacheWriteTokens capabilities checkpointNumber checkpointPath choices clientName
client_request_id coauthorEnabled codeChanges command commandTimeout compactionAttemptId
compactionTokensUsed completion_tokens content contentBlocks contentFilterTriggered context
contextTier context_current_tokens context_token_limit conversation conversationTokens
copilotVersion cost count created currentModel currentTokens customTimeout customToolCallCount
cwd data delivery delta description detached duration durationMs enabledFeatureFlags error
errorType eventCount eventsFileSizeBytes executionMode execution_mode exitCode failureReason
failure_kind filesModified filesModifiedCount finishReason finish_reason firstDispatchedModel
frontierSource function gitCommitTrailer hasWriteFileRedirection id index infoType initiator
inputTokens intentionSummary interTokenLatencyMs interactionId interactionType isAuto isByok
isStatic kind large_output_threshold_bytes lastActiveModel lastCallInputTokens
lastCallOutputTokens limits linesAdded linesRemoved maxOutputTokens maxPromptTokens
max_context_window_tokens max_output_tokens max_prompt_image_size max_prompt_images
max_prompt_tokens message messageId messages messagesCleared messagesRemoved
messagesRemovedDuringTruncation messagesTokenCounts metadata metrics model modelCacheState
modelCall modelCallDurationMs modelDisplayName modelId modelInfo modelMetrics modelProvider
modelSelectionSource models multiTurn name newModel numToolCalls numberOfToolCallsMadeByAgent
object originatingMessageId orphanToolCallCount outcome outputTokens outputTtftMs
parentAgentTaskId parentId parentToolCallId pendingRewriteSources performedBy possiblePaths
postCompactionTokens postTruncationMessagesLength postTruncationTokensInMessages
preCompactionMessagesLength preCompactionTokens preTruncationMessagesLength
preTruncationTokensInMessages previousAllowAllPermissionMode previousAllowAllPermissions
producer prompt promptCacheBreakState prompt_cache_details_reported prompt_cache_frontier_source
prompt_length prompt_tokens properties provider providerModelMetrics providerType quotaSnapshots
reason reasoningEffort reasoningTokens refusal remoteSteerable requestBodyBytes
requestBodyEncoding requestBodyWireBytes requestCount requestMessages requestSettings
request_body_bytes request_body_encoding request_body_wire_bytes request_id requests
resolved_model response responseChunk responseUsage response_length responses_message_status
restrictedProperties result result_token_count resumable resumeTime retry_attempt role rte
sandboxApplied sandboxOptOutRequested selectedModel sequence service_request_id sessionId
sessionLimits sessionStartTime sessionWasActive shellExecution shellToolInfo shutdownType source
sourceSessionId sourceType startTime status statusCode success summary summaryContent
supportedNativeDocumentMimeTypes supported_endpoints supported_media_types supports systemTokens
task taskModelSource timeToFirstTokenMs timestamp timestampMs tokenAccountingBasis tokenLimit
tokensRemoved tokensRemovedDuringTruncation toolCallId toolCount toolCounts
toolDefinitionsTokenCount toolDefinitionsTokens toolName toolRequests toolTelemetry toolTitle
toolTokenCount tool_call_id tool_calls totalApiDurationMs totalNanoAiu totalPremiumRequestCost
totalPremiumRequests totalTokens totalToolCalls totalUserRequests total_tokens
transformedContent transport trigger ttftMs turn turnId type unmatchedToolResultCount usage
usageAccountingWatermarks usageId variables version vision
"""
)
# Event types the CLI writes (the Copilot SDK's session-event types; a closed set of its code).
TYPES = names(
    """
abort assistant.message assistant.reasoning assistant.turn_end assistant.turn_start
assistant.usage hook.end hook.start model.message model.messages_snapshot
model.model_call_failure model.model_call_started model.model_call_success model.response
model.turn_ended model.turn_failed model.turn_retry model.turn_started permission.completed
permission.requested session.compaction_complete session.compaction_start
session.context_cleared session.error session.handoff session.idle session.info
session.model_change session.permissions_changed session.resume session.shutdown
session.snapshot_rewind session.start session.task_complete session.title_changed
session.truncation session.usage_checkpoint session.usage_info session.usage_record
session.warning subagent.completed subagent.configured subagent.deselected subagent.failed
subagent.selected subagent.started system.message tool.execution_complete
tool.execution_progress tool.execution_start user.message
"""
)
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": TYPES,
        "infoType": frozenset({"fork", "rewind", "notification", "model", "configuration"}),
        "outcome": frozenset({"applied", "failed", "cancelled"}),
        "trigger": frozenset(
            {"manual", "threshold", "context_limit_retry", "memory_pressure", "model_switch"}
        ),
        "role": frozenset({"assistant", "system", "user", "tool"}),
        "shutdownType": frozenset({"routine", "error"}),
        "producer": frozenset({"copilot-agent"}),
        "copilotVersion": VERSION,
        "timestamp": TIMESTAMP,
        "startTime": TIMESTAMP,
        "resumeTime": TIMESTAMP,
    },
    "ids": (UUID,),
    "markers": (),
    "answer_text": (),
}
