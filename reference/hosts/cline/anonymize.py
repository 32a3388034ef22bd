"""What of a Cline-family session folder is structure and what is a person's text (`anonymize`).

A task folder carries the user's paths (every request's environment details name the working
folder), whole files read into the context, commands and their output, and the model's
answers: all of it is replaced. Kept: the member names of the formats (ClineMessage, Roo's
`clineMessageSchema`, the api history's Anthropic blocks, task_metadata.json, the SDK's
messages and compaction documents); the closed values the count and the member marks read
(`type`, `say`, `ask`, `role`, block types, CLN-2); versions (CLN-3); and inside replaced texts
the result prefixes and phrases CLN-4 and CLN-6 read, and the summarizeTask tool name of the
companion rows. Numbers and booleans (`ts`, ranges, `partial`, `isSummary`) stay as they are.
"""

from __future__ import annotations

from ...core.anonymize import UUID, VERSION, names

KEYS = names(
    """
api_req_started ask cacheReads cacheWrites checkpoint cline_edit_date cline_read_date
cline_version commandCompleted commitRange condenseId condenseParent content contextCondense
contextTruncation conversationHistoryDeletedRange conversationHistoryIndex cost environment_history
files files_in_context from host_name host_version id images input isAnswered
isCheckpointCheckedOut isOperationOutsideWorkspace isProtected isSummary isTruncationMarker
kiloCode kind lastCheckpointHash messages messagesRemoved metadata mode model_id
model_provider_id model_usage modelInfo name newContextTokens os_arch os_name os_version
partial path
prevContextTokens progressStatus reasoning record_source record_state role say sessionId
source_last_message_key source_message_count source_prefix_hash summary system_prompt text
to tokensIn tokensOut tool_use_id truncationId truncationParent ts type updated_at
user_edit_date version agent origin apiProtocol request cacheWrites
"""
)
SAYS = names(
    """
task error error_retry api_req_started api_req_finished text reasoning completion_result
user_feedback user_feedback_diff api_req_retried command command_output tool
shell_integration_warning browser_action_launch browser_action browser_action_result
mcp_server_request_started mcp_server_response use_mcp_server diff_error deleted_api_reqs
clineignore_error checkpoint_created info task_progress subagent api_req_retry_delayed
api_req_rate_limit_wait api_req_deleted image subtask_result checkpoint_saved rooignore_error
condense_context condense_context_error sliding_window_truncation codebase_search_result
user_edit_todos too_many_tools_warning browser_session_status
"""
)
ASKS = names(
    """
followup plan_mode_respond act_mode_respond command command_output completion_result tool
api_req_failed resume_task resume_completed_task mistake_limit_reached browser_action_launch
use_mcp_server new_task condense summarize_task report_bug auto_approval_max_req_reached
payment_required_prompt invalid_model checkpoint_restore
"""
)
# Cline's tool names (a native tool_use block's `name`): `summarize_task` and `condense` are
# also inside the result prefixes the count reads, so they are kept wherever they stand.
TOOLS = names(
    """
access_mcp_resource apply_patch ask_followup_question attempt_completion browser_action
condense execute_command generate_explanation list_code_definition_names list_files
load_mcp_documentation new_task plan_mode_respond act_mode_respond read_file replace_in_file
report_bug search_files summarize_task use_mcp_tool use_skill use_subagents web_fetch web_search
write_to_file
"""
)
POLICY = {
    "format": "folder",
    "keys": KEYS,
    "values": {
        "type": frozenset({"say", "ask", "text", "image", "tool_use", "tool_result", "thinking"}),
        "say": SAYS,
        "ask": ASKS,
        "role": frozenset({"user", "assistant", "system"}),
        "kind": frozenset({"compaction", "compaction_summary"}),
        "cline_version": VERSION,
        "name": TOOLS,
    },
    "ids": (UUID,),
    # CLN-4, CLN-6: what the count reads inside the api history's texts; CLN-5: the companion
    # row's tool name.
    "markers": (
        r"\[summarize_task\] Result:",
        r"\[condense\] Result:",
        r"This session is being continued from a previous conversation that ran out of context",
        r"The user has accepted the condensed conversation summary",
        r'"summarizeTask"',
    ),
    "answer_text": ("file",),
}
