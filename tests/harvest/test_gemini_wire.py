"""The scripted server's Gemini API: routes, SSE and JSON shapes, the summary prompt, usage."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from rebootspec.generators.harvest import script
from rebootspec.generators.harvest.server import serving


def _post(url: str, body: dict[str, Any]) -> tuple[int, bytes, str]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, answer.read(), answer.headers.get("Content-Type", "")


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


TOOLS = [{"functionDeclarations": [{"name": "run_shell_command"}, {"name": "read_file"}]}]


def test_parse_reads_contents_tools_and_model() -> None:
    body = {
        "systemInstruction": {"parts": [{"text": "be brief"}]},
        "contents": [
            _user("Turn 1. answer with 1 shell tool calls; report 900000 input tokens"),
            {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command"}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command"}}]},
        ],
        "tools": TOOLS,
    }
    request = script.parse("gemini", body, "gemini-2.5-flash")
    assert request.model == "gemini-2.5-flash"
    assert [m.role for m in request.messages] == ["system", "user", "call", "tool"]
    assert request.tools == ("run_shell_command", "read_file")
    assert script.decide(request).kind == "text"  # the one call is answered


def test_summary_prompts_are_recognised_and_answered_with_a_snapshot() -> None:
    for prompt in (
        "First, reason in your scratchpad. Then, generate the <state_snapshot>.",
        "First, reason in your scratchpad. Then, generate the updated <state_snapshot>.",
        "Critically evaluate the <state_snapshot> you just generated.",
    ):
        request = script.parse("gemini", {"contents": [_user("hi"), _user(prompt)]}, "m")
        reply = script.decide(request)
        assert reply.kind == "summary"
        assert reply.text.startswith("<state_snapshot>\nHARVEST-SUMMARY ")


def test_server_speaks_sse_json_and_count_tokens() -> None:
    with serving(max_requests=10, max_seconds=30) as server:
        base = server.base_url.removesuffix("/v1") + "/v1beta/models/gemini-2.5-flash"
        body = {
            "contents": [_user("go. answer with 1 shell tool calls; report 900000 input tokens")]
        }
        body["tools"] = TOOLS
        status, raw, kind = _post(base + ":streamGenerateContent?alt=sse", body)
        assert status == 200 and kind == "text/event-stream"
        event = json.loads(raw.decode().removeprefix("data: ").strip())
        part = event["candidates"][0]["content"]["parts"][0]
        assert part["functionCall"]["name"] == "run_shell_command"
        assert event["usageMetadata"]["promptTokenCount"] == 900000
        summary = {"contents": [_user("Then, generate the <state_snapshot>.")]}
        status, raw, kind = _post(base + ":generateContent", summary)
        answer = json.loads(raw)
        assert kind == "application/json"
        assert "<state_snapshot>" in answer["candidates"][0]["content"]["parts"][0]["text"]
        status, raw, _ = _post(base + ":countTokens", {"contents": []})
        assert json.loads(raw) == {"totalTokens": script.SMALL_USAGE}
    kinds = [e.classification for e in server.entries]
    assert kinds == ["tool-call", "summary", "count-tokens"]
    assert all(e.model == "gemini-2.5-flash" for e in server.entries)
