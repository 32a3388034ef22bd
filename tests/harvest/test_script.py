"""The scripted model's decisions: directives, summary classification, determinism."""

from __future__ import annotations

from typing import Any

from rebootspec.generators.harvest import script, wire


def _chat(*messages: tuple[str, str], tools: tuple[str, ...] = ("bash",)) -> script.Request:
    body: dict[str, Any] = {
        "model": "m",
        "messages": [{"role": role, "content": text} for role, text in messages],
        "tools": [{"type": "function", "function": {"name": name}} for name in tools],
    }
    return script.parse("chat", body)


def test_usage_directive_applies_to_its_turn_only() -> None:
    first = script.decide(_chat(("user", "Turn 1. report 60000 input tokens")))
    assert (first.kind, first.input_tokens) == ("text", 60000)
    later = _chat(
        ("user", "Turn 1. report 60000 input tokens"),
        ("assistant", "ok"),
        ("user", "Turn 2."),
    )
    assert script.decide(later).input_tokens == script.SMALL_USAGE


def test_tool_call_directive_counts_outputs_then_answers_small() -> None:
    turn = ("user", "answer with 2 shell tool calls; report 60000 input tokens")
    one = script.decide(_chat(turn))
    assert (one.kind, one.tool, one.input_tokens) == ("tool", "bash", 60000)
    two = script.decide(_chat(turn, ("tool", "harvest-step-1")))
    assert two.kind == "tool" and "harvest-step-2" in str(two.arguments)
    done = script.decide(_chat(turn, ("tool", "1"), ("tool", "2")))
    assert (done.kind, done.input_tokens) == ("text", script.SMALL_USAGE)


def test_progress_survives_a_compaction_through_the_summary_note() -> None:
    turn = ("user", "answer with 3 shell tool calls")
    summary_request = _chat(turn, ("tool", "1"), ("user", "CONTEXT CHECKPOINT COMPACTION"))
    note = script.decide(summary_request)
    assert note.kind == "summary" and note.text.endswith("calls=1")
    # After the compaction the tool output is gone; the summary carries the progress.
    after = script.decide(_chat(turn, ("user", note.text)))
    assert after.kind == "tool" and "harvest-step-2" in str(after.arguments)
    after_two = script.decide(_chat(turn, ("user", note.text), ("tool", "2"), ("tool", "3")))
    assert after_two.kind == "text"


def test_summary_markers_of_each_host_version() -> None:
    for system, user in (
        ("", "CONTEXT CHECKPOINT COMPACTION"),
        ("", "You have exceeded the maximum number of tokens, please stop"),
        ("You are a context summarization assistant.", "<conversation/>"),
        ("You are a summarization assistant. A conversation follows", "Start Summarization"),
    ):
        messages = [("system", system)] if system else []
        assert script.is_summary_request(_chat(*messages, ("user", user))), user


def test_a_quoted_marker_in_an_earlier_turn_is_not_a_summary_request() -> None:
    request = _chat(
        ("user", "what does CONTEXT CHECKPOINT COMPACTION mean?"),
        ("assistant", "it is a prompt"),
        ("user", "thanks"),
    )
    assert not script.is_summary_request(request)
    assert script.decide(request).kind == "text"


def test_same_request_same_reply_bytes() -> None:
    request = _chat(("user", "hello"))
    first = wire.chat_events(script.decide(request), "x", "m")
    again = wire.chat_events(script.decide(_chat(("user", "hello"))), "x", "m")
    assert first == again
    other = wire.chat_events(script.decide(_chat(("user", "hello!"))), "x", "m")
    assert other != first


def test_spawn_directive_uses_the_namespaced_agent_tool() -> None:
    body = {
        "model": "m",
        "input": [
            {"type": "message", "role": "user", "content": "Turn 3. spawn a forked subagent"}
        ],
        "tools": [
            {"type": "function", "name": "exec_command"},
            {
                "type": "namespace",
                "name": "multi_agent_v1",
                "tools": [{"type": "function", "name": "spawn_agent"}],
            },
        ],
    }
    reply = script.decide(script.parse("responses", body))
    assert reply.tool == "multi_agent_v1/spawn_agent"
    assert reply.arguments["fork_context"] is True
    item = wire.responses_json(reply, "x", "m")["output"][0]
    assert (item["name"], item["namespace"]) == ("spawn_agent", "multi_agent_v1")


def test_pi_compactions_are_runs_of_summary_requests() -> None:
    from rebootspec.generators.harvest.hosts.pi import compactions

    log = ["turn", "summary", "summary", "turn", "summary", "turn", "summary-failed", "turn"]
    assert compactions(log) == 2  # a split turn's two requests are one compaction
    assert compactions(["turn", "tool-call", "turn"]) == 0


def test_the_copilot_clis_summary_request_medium_calls_and_task_tool() -> None:
    """The Copilot CLI asks for its summary in the last user message; its window fills only
    with outputs under its 20 KB spill limit (medium calls); its task tool needs a type."""
    ask = "Please create a detailed summary of the conversation so far. The history is long."
    assert script.is_summary_request(_chat(("user", "hi"), ("assistant", "ok"), ("user", ask)))
    medium = script.decide(_chat(("user", "answer with 2 medium shell tool calls")))
    assert medium.kind == "tool"
    assert f"head -c {script.MEDIUM_OUTPUT} " in str(medium.arguments)
    assert script.MEDIUM_OUTPUT < 20000 < script.LONG_OUTPUT
    body: dict[str, Any] = {
        "model": "m",
        "messages": [{"role": "user", "content": "spawn a task subagent"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "task",
                    "parameters": {"required": ["name", "prompt", "agent_type", "description"]},
                },
            }
        ],
    }
    spawn = script.decide(script.parse("chat", body))
    assert spawn.tool == "task"
    assert spawn.arguments["agent_type"] == "task" and spawn.arguments["name"]
    assert spawn.arguments["prompt"] == script.COPILOT_SUBAGENT_PROMPT


def test_qwen_code_summaries_report_their_usage_and_keep_a_snapshot() -> None:
    """Qwen Code 0.24 asks with its own directive and keeps a closed <state_snapshot> only;
    0.8-0.15 drop a compression whose summary reports less than the history it replaced."""
    turn = ("user", "Turn 2. report 900000 input tokens; summaries report 899000 input tokens")
    ask = ("user", "Then, produce the <state_snapshot> XML.")
    reply = script.decide(_chat(turn, ("tool", "1"), ask))
    assert (reply.kind, reply.input_tokens) == ("summary", 899000)
    assert reply.text.startswith("<state_snapshot>\n") and reply.text.endswith("</state_snapshot>")
    # The turn itself reports its own usage, not the summaries'.
    assert script.decide(_chat(turn)).input_tokens == 900000
    # A later summary request that holds only that summary still reports the usage.
    again = script.decide(_chat(("user", reply.text), ("assistant", "Got it."), ask))
    assert (again.kind, again.input_tokens) == ("summary", 899000)
    plain = script.decide(_chat(("user", "Turn 1."), ("user", "CONTEXT CHECKPOINT COMPACTION")))
    assert plain.input_tokens == script.SMALL_USAGE and not plain.text.startswith("<")


def test_a_request_carries_the_summaries_in_its_messages_once_each() -> None:
    first = f"{script.SUMMARY_PREFIX} 0123456789ab calls=0"
    second = f"<state_snapshot>\n{script.SUMMARY_PREFIX} ba9876543210 calls=1\n</state_snapshot>"
    request = _chat(("user", first), ("assistant", "ok"), ("user", second), ("user", first))
    assert script.carried(request) == ("0123456789ab", "ba9876543210")
    assert script.carried(_chat(("user", "Turn 1."))) == ()


def test_a_shell_call_fills_the_flag_qwen_code_requires() -> None:
    """Qwen Code 0.5-0.21's run_shell_command requires `is_background`: a call without it is
    refused by the host and the scripted turn would never run its command."""
    body: dict[str, Any] = {
        "model": "m",
        "messages": [{"role": "user", "content": "answer with 1 shell tool calls"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "run_shell_command",
                    "parameters": {"type": "object", "required": ["command", "is_background"]},
                },
            }
        ],
    }
    reply = script.decide(script.parse("chat", body))
    assert reply.tool == "run_shell_command"
    assert reply.arguments == {"command": "echo harvest-step-1", "is_background": False}
    body["tools"][0]["function"]["parameters"]["required"] = ["command"]  # 0.24
    assert "is_background" not in script.decide(script.parse("chat", body)).arguments
