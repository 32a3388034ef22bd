"""The scripted model server: loopback only, bounded, the wire shapes hosts parse, the log."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.harvest.server import LOOPBACK, ScriptedServer, serving


def _post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _events(raw: bytes) -> list[tuple[str | None, Any]]:
    """(event name, decoded data) per SSE event."""
    out: list[tuple[str | None, Any]] = []
    for block in raw.decode().split("\n\n"):
        if not block.strip():
            continue
        name = None
        data = ""
        for line in block.splitlines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        out.append((name, data if data == "[DONE]" else json.loads(data)))
    return out


def _user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def test_binds_to_loopback_only() -> None:
    with serving(max_requests=5, max_seconds=30) as server:
        host, port = server.address
        assert host == LOOPBACK == "127.0.0.1"
        assert server.base_url == f"http://127.0.0.1:{port}/v1"
        # The listening socket itself is bound to 127.0.0.1, not to every address.
        assert server._httpd.socket.getsockname()[0] == "127.0.0.1"


def test_refuses_after_its_request_budget_and_stops() -> None:
    server = ScriptedServer(max_requests=2, max_seconds=30).start()
    try:
        url = server.base_url + "/responses"
        assert _post(url, {"model": "m", "input": [_user("hi")]})[0] == 200
        assert _post(url, {"model": "m", "input": [_user("hi")]})[0] == 200
        status, _ = _post(url, {"model": "m", "input": [_user("hi")]})
        assert status == 503
        assert server.wait(5), "the server must stop by itself once its budget is spent"
        assert server.entries[-1].classification == "refused"
        with pytest.raises(OSError):
            socket.create_connection(server.address, timeout=2).close()
    finally:
        server.stop()


def test_stops_by_itself_after_its_time_bound() -> None:
    server = ScriptedServer(max_requests=100, max_seconds=0.5).start()
    start = time.monotonic()
    try:
        assert server.wait(10), "the server must stop by itself after max_seconds"
        assert time.monotonic() - start < 5
        assert server.stopped
        with pytest.raises(OSError):
            socket.create_connection(server.address, timeout=2).close()
    finally:
        server.stop()


def test_responses_stream_shape_and_reported_usage() -> None:
    with serving() as server:
        body = {"model": "m", "stream": True, "input": [_user("Turn 1. report 60000 input tokens")]}
        status, raw = _post(server.base_url + "/responses", body)
    assert status == 200
    events = _events(raw)
    names = [name for name, _ in events]
    assert names[0] == "response.created"
    assert names[-1] == "response.completed"
    assert "response.output_item.done" in names
    for name, data in events:
        assert data["type"] == name  # the data repeats the event name, as hosts check
    completed = events[-1][1]["response"]
    assert completed["usage"]["input_tokens"] == 60000
    item = completed["output"][0]
    assert item["type"] == "message" and item["content"][0]["type"] == "output_text"


def test_chat_stream_shape_tool_call_and_final_usage_chunk() -> None:
    with serving() as server:
        body = {
            "model": "m",
            "stream": True,
            "messages": [{"role": "user", "content": "answer with 1 shell tool calls"}],
            "tools": [{"type": "function", "function": {"name": "bash", "parameters": {}}}],
        }
        status, raw = _post(server.base_url + "/chat/completions", body)
    assert status == 200
    events = _events(raw)
    assert events[-1] == (None, "[DONE]")
    chunks = [data for _, data in events[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    call = chunks[0]["choices"][0]["delta"]["tool_calls"][0]
    assert call["function"]["name"] == "bash"
    assert json.loads(call["function"]["arguments"])["command"].startswith("echo ")
    assert chunks[1]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["prompt_tokens"] == 1000


def test_models_endpoint_lists_the_scripted_model() -> None:
    with (
        serving() as server,
        urllib.request.urlopen(server.base_url + "/models", timeout=10) as answer,
    ):
        listing = json.loads(answer.read())
    assert [m["id"] for m in listing["data"]] == ["harvest-model"]


def test_summary_requests_are_answered_with_a_summary_and_logged(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    with serving(log_path=log) as server:
        codex = {
            "model": "m",
            "input": [_user("Turn 1."), _user("CONTEXT CHECKPOINT COMPACTION: summarise")],
        }
        status, raw = _post(server.base_url + "/responses", codex)
        assert status == 200
        pi = {
            "model": "m",
            "messages": [
                {"role": "system", "content": "You are a context summarization assistant."},
                {"role": "user", "content": "<conversation>...</conversation>"},
            ],
        }
        assert _post(server.base_url + "/chat/completions", pi)[0] == 200
        assert server.summaries() == 2
    text = json.loads(raw)["output"][0]["content"][0]["text"]
    assert text.startswith("HARVEST-SUMMARY ")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["classification"] for line in lines] == ["summary", "summary"]
    assert lines[0]["path"] == "/v1/responses" and lines[1]["path"] == "/v1/chat/completions"
    assert all(line["model"] == "m" and line["input_tokens"] == 1000 for line in lines)


def test_failure_directive_makes_the_summary_fail() -> None:
    with serving() as server:
        body = {
            "model": "m",
            "input": [
                _user("Turn 1. fail the summary"),
                _user("CONTEXT CHECKPOINT COMPACTION"),
            ],
        }
        status, _ = _post(server.base_url + "/responses", body)
        assert status == 500
        assert server.summaries() == 0
        assert server.entries[-1].classification == "summary-failed"


def test_the_log_says_which_summaries_a_later_request_carries(tmp_path: Path) -> None:
    """Qwen Code's count is the summaries that reached the model again: the log names, per
    request, the scripted summaries it holds, and a summary never carried is not counted."""
    log = tmp_path / "log.jsonl"

    def chat(*texts: str) -> dict[str, Any]:
        return {"model": "m", "messages": [{"role": "user", "content": t} for t in texts]}

    directive = "Then, generate the <state_snapshot>."
    with serving(log_path=log) as server:
        url = server.base_url + "/chat/completions"
        _, raw = _post(url, chat("Turn 1. summaries report 899000 input tokens", directive))
        summary = json.loads(raw)["choices"][0]["message"]["content"]
        _, dropped = _post(url, chat("Turn 1b.", directive))
        _post(url, chat(summary, "Turn 2."))
        assert (server.summaries(), server.reached()) == (2, 1)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert summary.startswith("<state_snapshot>\nHARVEST-SUMMARY ")  # asked for a snapshot
    assert lines[0]["input_tokens"] == 899000 and lines[1]["input_tokens"] == 1000
    assert lines[2]["carries"] == [lines[0]["digest"]]
    assert "carries" not in lines[0] and "carries" not in lines[1]
    assert lines[1]["digest"] in json.loads(dropped)["choices"][0]["message"]["content"]
