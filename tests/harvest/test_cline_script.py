"""The scripted model's answers to Cline (cline_script): tool uses only, and the log's labels.

Requests are built in the shapes measured from Cline CLI 2.18.0 and 3.0.65 (chat completions,
native tool calls; core 3.82 answers a call with a tool message and a user text both).
"""

from __future__ import annotations

from typing import Any

from rebootspec.generators.harvest import cline_script, script

CORE_TOOLS = ("execute_command", "read_file", "attempt_completion")
SDK_TOOLS = ("read_files", "run_commands", "apply_patch")
TURN = "<task>\nHarvest turn 1. answer with 1 shell tool calls; report 120000 input tokens\n</task>"


def _chat(*messages: tuple[str, Any], tools: tuple[str, ...] = CORE_TOOLS) -> script.Request:
    body: dict[str, Any] = {
        "model": "gpt-5-probe",
        "messages": [{"role": role, "content": content} for role, content in messages],
        "tools": [{"type": "function", "function": {"name": name}} for name in tools],
    }
    return script.parse("chat", body)


def _result(step: int) -> tuple[str, Any]:
    return (
        "user",
        [
            {
                "type": "text",
                "text": f"[execute_command for 'echo harvest-step-{step}'] "
                f"Result:\nharvest-step-{step}",
            }
        ],
    )


def test_a_turn_calls_the_shell_over_the_threshold_then_completes_small() -> None:
    first = cline_script.decide(_chat(("user", TURN)))
    assert (first.kind, first.tool, first.input_tokens) == ("tool", "execute_command", 120000)
    assert first.arguments["command"] == "echo harvest-step-1"
    # core 3.82: the call answered by a tool message and the result as user text, counted once
    done = _chat(("user", TURN), ("assistant", None), ("tool", "result missing"), _result(1))
    after = cline_script.decide(done)
    assert (after.tool, after.input_tokens, after.label) == ("attempt_completion", 1000, "")


def test_the_summarize_task_instruction_gets_a_summary_or_the_scripted_failure() -> None:
    ask = (
        f"{_result(1)[1][0]['text']}\n{cline_script.SUMMARIZE}\nsummarize\n</explicit_instructions>"
    )
    reply = cline_script.decide(_chat(("user", TURN), ("assistant", None), ("user", ask)))
    assert (reply.tool, reply.label) == ("summarize_task", "summary")
    assert reply.arguments["context"].startswith(script.SUMMARY_PREFIX)
    failing = TURN.replace("</task>", "; fail the summary</task>")
    failed = cline_script.decide(_chat(("user", failing), ("assistant", None), ("user", ask)))
    assert (failed.kind, failed.status) == ("error", 500)


def test_xml_mode_answers_in_clines_tags_when_no_tools_are_offered() -> None:
    reply = cline_script.decide(_chat(("user", TURN), tools=()))
    assert reply.kind == "text" and reply.text.startswith("<execute_command>")
    assert "<command>echo harvest-step-1</command>" in reply.text


def test_the_requests_after_a_summary_or_a_smol_say_what_became_of_it() -> None:
    carried = (
        f"[summarize_task] Result:\n\n{cline_script.CONTINUED}:\nHARVEST-SUMMARY 0123456789ab."
    )
    later = cline_script.decide(_chat(("user", TURN), ("assistant", None), ("user", carried)))
    assert (later.tool, later.label) == ("attempt_completion", "continued")
    smol = cline_script.decide(_chat(("user", f"{cline_script.CONDENSE}\ncondense")))
    assert (smol.tool, smol.label) == ("condense", "condense")
    accepted = f"[condense] Result:\n{cline_script.ACCEPTED} you generated."
    feedback = f"[condense] Result:\n{cline_script.FEEDBACK}:\n<feedback>\nno\n</feedback>"
    for text, label in ((accepted, "condense-accepted"), (feedback, "condense-feedback")):
        reply = cline_script.decide(_chat(("user", "x"), ("assistant", None), ("user", text)))
        assert reply.label == label


def test_the_sdk_compacts_by_a_request_of_its_own_and_steps_survive_in_the_summary() -> None:
    turn = "Harvest turn 1. answer with 2 shell tool calls; report 900000 input tokens"
    first = cline_script.decide(_chat(("user", turn), tools=SDK_TOOLS))
    assert (first.tool, first.arguments, first.input_tokens) == (
        "run_commands",
        {"commands": ["echo harvest-step-1"]},
        900000,
    )
    asked = f"{cline_script.SDK_SUMMARY}. Conversation:\nuser: {turn}\ntool: harvest-step-1"
    summary = cline_script.decide(_chat(("user", asked), tools=()))
    assert summary.label == "summary" and "step=1 Harvest turn 1." in summary.text
    resumed = _chat(("user", summary.text), tools=SDK_TOOLS)
    second = cline_script.decide(resumed)
    assert (second.arguments, second.label) == ({"commands": ["echo harvest-step-2"]}, "continued")
    ended = cline_script.decide(
        _chat(("user", summary.text), ("tool", "harvest-step-2"), tools=SDK_TOOLS)
    )
    assert (ended.kind, ended.input_tokens) == ("text", script.SMALL_USAGE)


def test_reboots_are_summaries_carried_on_and_accepted_smols() -> None:
    assert cline_script.reboots(["tool-call", "summary", "continued", "turn"]) == 1
    assert cline_script.reboots(["summary", "continued", "continued", "summary", "continued"]) == 2
    assert cline_script.reboots(["summary-failed", "summary-failed", "turn"]) == 0
    assert cline_script.reboots(["summary", "turn"]) == 0  # answered, never carried on
    assert (
        cline_script.reboots(["condense", "condense-feedback", "condense", "condense-accepted"])
        == 1
    )


def test_the_same_request_gets_the_same_answer() -> None:
    request = _chat(("user", TURN))
    assert cline_script.decide(request) == cline_script.decide(request)
