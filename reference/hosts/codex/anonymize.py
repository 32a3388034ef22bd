"""What of a Codex rollout is structure and what is a person's text (`anonymize`, issue #33).

Kept: member names of the rollout schema; record, payload and item types (CDX-3, CDX-4 read
them); time stamps and the CLI version (CDX-5, CDX-8); the time prefix of UUIDv7 ids, so every
turn id stays before or after its thread's id exactly as before (CDX-5). Replaced: messages,
reasoning, tool calls and their output, instructions, paths, git data, every other id.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP, UUID, UUID7, VERSION, names

KEYS = names(
    """
account_scoped action active agent_nickname agent_path agent_role agents_md agents_states
aggregated_output annotations approval_policy approvals_reviewer approved_command_prefixes
apps_instructions arguments assistant_messages assistant_messages_incomplete audio balance
base_instructions body branch cache_write_input_tokens cached_input_tokens call_id cli_version
client_authored cmd codex_error_info collaboration_mode collaboration_mode_kind command
commit_hash comp_hash compaction_output compaction_response_id complete completed_at
completed_at_ms content content_item_kinds content_item_metadata context_window
context_window_guidance create_time credits current_date cwd depth developer_instructions
disabled_plugin_ids duration duration_ms dynamic_tools effort enabled encrypted_content
end_byte_offset end_ordinal_exclusive environments environments_instructions error
exclude_slash_tmp exclude_tmpdir_env_var exit_code fallback_token_limit_override filesystem
first_window_id forked_from_id forked_from_ordinal_exclusive full git git_attribution
has_credits history_base history_mode history_sequence hook host_skills id image_url images
includeInstructions incomplete individual_limit info initiating_agent_path input input_tokens
instructions internal_chat_message_metadata_passthrough item kind last_agent_message
last_started_turn_id last_token_usage last_usage_includes_reasoning latest_token_usage_record
limit limit_id limit_name local local_audio local_images managed_developer_instructions
mcp_attribution memory_citation message message_id metadata mode model model_catalog
model_context_window model_provider model_provider_id multi_agent_mode multi_agent_version name
namespace nanos network_access next_order num_turns orchestrator_skills order ordinal
originator output output_tokens parent_thread_id parent_turn_id parsed_cmd payload
permission_profile permissions persistent_mode personality phase plan_type plugins_instructions
previous_turn_settings previous_window_id primary process_id prompt provenance queries query
rate_limit_reached_type rate_limits realtime realtime_active reason reasoning_effort
reasoning_output_tokens reasoning_summary receiver_agents receiver_thread_ids record_type
replacement_history replacement_history_metadata repository_url requested_approvals_reviewer
resets_at response_id resume_metadata retained_context retained_source revision role
root_turn_id runtime_workspace_roots sampled_through_sequence sandbox_policy secondary secs
sender_thread_id service_tier session_id settings shell skills source spend_control_reached
started_at started_at_ms state status subagent subagent_history_start_ordinal subagents summary
text text_elements thread_id thread_settings thread_source thread_spawn thread_token_usage
time_to_first_token_ms timestamp timezone tool tools total_token_usage total_tokens
truncation_policy turn_attribution turn_id turn_token_usage turn_trigger type unlimited usage
used_percent user_input_order user_instructions user_messages user_messages_incomplete
verified_answers window_id window_minutes window_number workspace_roots writable_roots
"""
)
# Closed sets written by Codex's code (protocol enums), never typed by a person.
TYPES = names(
    """
AgentMessage CollabAgentToolCall CommandExecution ContextCompaction Text UserMessage
agent_message agent_reasoning agent_reasoning_raw_content compacted compaction
compaction_summary context_compacted contextCompaction context_compaction custom_tool_call
custom_tool_call_output danger-full-access disabled event_msg exec_command_begin
exec_command_end function_call function_call_output harness input_image input_text
item_completed item_started local_shell_call message model output_text read-only reasoning
response_item search session_meta skills summary_text task_complete task_started text
thread_rolled_back thread_settings_applied token_count token_usage_record tool turn_aborted
turn_complete turn_context turn_started unknown user user_message web_search_call
workspace-write world_state
"""
)
POLICY = {
    "format": "records",
    "keys": KEYS,
    "values": {
        "type": TYPES,
        "kind": TYPES | {"plain"},
        "role": frozenset({"assistant", "developer", "system", "user", "tool"}),
        "phase": frozenset({"commentary", "final_answer"}),
        "status": frozenset({"available", "completed", "in_progress", "failed", "none"}),
        "source": frozenset({"cli", "exec", "vscode", "mcp", "unified_exec_startup"}),
        "effort": frozenset({"minimal", "low", "medium", "high", "xhigh", "none"}),
        "summary": frozenset({"auto", "concise", "detailed", "none"}),
        "reason": frozenset({"interrupted", "replaced", "review_ended"}),
        "cli_version": VERSION,
        "timestamp": TIMESTAMP,
    },
    "ids": (UUID7, UUID),
    "markers": (),
    "answer_text": (),
}
