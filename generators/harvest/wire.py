"""A Reply in the wire shapes hosts parse: Responses API and Chat Completions, SSE or JSON.

Kept apart from the HTTP server so the shapes can be tested without a socket. Only the events
and members the hosts read are emitted; ids are derived from the request digest, so a replayed
request yields the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from .script import Reply


def _sse(event: str | None, data: dict[str, Any] | str) -> bytes:
    """One server-sent event (``event:`` line only when named)."""
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {text}\n\n".encode()


def _responses_item(reply: Reply, ident: str) -> dict[str, Any]:
    if reply.kind == "tool":
        namespace, _, name = reply.tool.rpartition("/")
        item: dict[str, Any] = {
            "type": "function_call",
            "id": f"fc_{ident}",
            "call_id": f"call_{ident}",
            "name": name,
            "arguments": json.dumps(reply.arguments),
            "status": "completed",
        }
        if namespace:
            item["namespace"] = namespace
        return item
    return {
        "type": "message",
        "id": f"msg_{ident}",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
    }


def _responses_usage(reply: Reply) -> dict[str, Any]:
    output = 50
    return {
        "input_tokens": reply.input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": reply.input_tokens + output,
    }


def responses_events(reply: Reply, ident: str, model: str) -> list[bytes]:
    """The SSE stream of a Responses API answer: created, the item, completed with usage."""
    item = _responses_item(reply, ident)
    response = {"id": f"resp_{ident}", "object": "response", "model": model, "status": "completed"}
    events = [
        _sse("response.created", {"type": "response.created", "response": response}),
        _sse(
            "response.output_item.added",
            {"type": "response.output_item.added", "output_index": 0, "item": item},
        ),
    ]
    if item["type"] == "message":
        delta = {
            "type": "response.output_text.delta",
            "item_id": item["id"],
            "output_index": 0,
            "content_index": 0,
            "delta": reply.text,
        }
        events.append(_sse("response.output_text.delta", delta))
    events.append(
        _sse(
            "response.output_item.done",
            {"type": "response.output_item.done", "output_index": 0, "item": item},
        )
    )
    done = {**response, "output": [item], "usage": _responses_usage(reply)}
    events.append(_sse("response.completed", {"type": "response.completed", "response": done}))
    return events


def _chunk(ident: str, model: str, choices: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{ident}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": choices,
    }


def _chat_usage(reply: Reply) -> dict[str, Any]:
    output = 50
    return {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": output,
        "total_tokens": reply.input_tokens + output,
    }


def chat_events(reply: Reply, ident: str, model: str) -> list[bytes]:
    """The SSE stream of a Chat Completions answer: deltas, a finish chunk, a usage chunk."""
    if reply.kind == "tool":
        call = {
            "index": 0,
            "id": f"call_{ident}",
            "type": "function",
            "function": {
                "name": reply.tool.rpartition("/")[2],
                "arguments": json.dumps(reply.arguments),
            },
        }
        delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        delta = {"role": "assistant", "content": reply.text}
        finish = "stop"
    return [
        _sse(None, _chunk(ident, model, [{"index": 0, "delta": delta, "finish_reason": None}])),
        _sse(None, _chunk(ident, model, [{"index": 0, "delta": {}, "finish_reason": finish}])),
        _sse(None, {**_chunk(ident, model, []), "usage": _chat_usage(reply)}),
        _sse(None, "[DONE]"),
    ]


def responses_json(reply: Reply, ident: str, model: str) -> dict[str, Any]:
    """A non-streamed Responses API answer."""
    item = _responses_item(reply, ident)
    return {
        "id": f"resp_{ident}",
        "object": "response",
        "model": model,
        "status": "completed",
        "output": [item],
        "usage": _responses_usage(reply),
    }


def chat_json(reply: Reply, ident: str, model: str) -> dict[str, Any]:
    """A non-streamed Chat Completions answer."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    finish = "stop"
    if reply.kind == "tool":
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{ident}",
                    "type": "function",
                    "function": {
                        "name": reply.tool.rpartition("/")[2],
                        "arguments": json.dumps(reply.arguments),
                    },
                }
            ],
        }
        finish = "tool_calls"
    return {
        "id": f"chatcmpl-{ident}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": _chat_usage(reply),
    }


def _gemini_usage(reply: Reply) -> dict[str, Any]:
    output = 50
    return {
        "promptTokenCount": reply.input_tokens,
        "candidatesTokenCount": output,
        "totalTokenCount": reply.input_tokens + output,
    }


def gemini_json(reply: Reply, ident: str, model: str) -> dict[str, Any]:
    """A Gemini API ``GenerateContentResponse``: one candidate, its parts, ``usageMetadata``.

    A tool reply is one ``functionCall`` part (with an id, which Gemini CLI keeps for the
    response); the usage is what Gemini CLI reads as the prompt's size.
    """
    if reply.kind == "tool":
        call = {"name": reply.tool.rpartition("/")[2], "args": reply.arguments, "id": f"fc_{ident}"}
        part: dict[str, Any] = {"functionCall": call}
    else:
        part = {"text": reply.text}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": _gemini_usage(reply),
        "modelVersion": model,
        "responseId": f"resp_{ident}",
    }


def gemini_events(reply: Reply, ident: str, model: str) -> list[bytes]:
    """``:streamGenerateContent?alt=sse``: the whole answer as one ``data:`` event."""
    return [_sse(None, gemini_json(reply, ident, model))]


def gemini_count(total: int) -> dict[str, Any]:
    """``:countTokens``: a small total, so a compressed history never looks inflated."""
    return {"totalTokens": total}
