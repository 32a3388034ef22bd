"""The scripted model: what to answer, decided from one request alone.

A harvest run drives a real host against this model. Its user prompts carry directives that
push the host over its compaction threshold or make it call tools; the model answers the same
request the same way every time, so a run's compactions are caused by the script, and the
server's log (not a counter) says how many. Directives, in the text of a user message:

- ``report N input tokens``: the replies of this turn report N input tokens (over the host's
  threshold, so the host compacts: before its next turn, or after a tool call mid-turn);
- ``answer with K shell tool calls``: the turn's first K replies are shell tool calls (``K long
  shell tool calls``: each prints ``LONG_OUTPUT`` characters; ``K medium shell tool calls``:
  ``MEDIUM_OUTPUT``);
- ``spawn a forked subagent``: the turn's first reply calls ``spawn_agent`` with
  ``fork_context: true`` (Codex);
- ``spawn a task subagent``: the turn's first reply calls opencode's ``task`` tool (a child
  session runs ``SUBAGENT_PROMPT``);
- ``fail the summary``: every summary request of this conversation gets an HTTP 500;
- ``refuse the summary``: every summary request of this conversation gets an HTTP 400, an error
  no client retries (opencode retries a 500 with a doubling delay for minutes);
- ``cut the summary short``: every summary of this conversation is streamed cut short, its first
  chunk only (no finish reason, no usage), as a dropped connection leaves it;
- ``summaries report N input tokens``: a summary of this conversation reports N input tokens
  (Qwen Code 0.8-0.15 refuse a compression whose size, reckoned from the summary request's
  usage, grew: a summary reporting little makes every compression "inflated" and unwritten).
  The summary repeats the directive: a later summary request may hold only the earlier
  summary, not the turn that said it (0.15 summarises the history before its kept tail).

A turn without a directive gets a small usage, so a host that re-sends its history after a
compaction never compacts again in a loop. Progress through a turn's tool calls survives a
compaction because the summary text records it (``calls=N``) and the next request carries it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

# The host's own summarisation prompts, as they reach the model (measured; real-writers.md).
SUMMARY_MARKERS = (
    "CONTEXT CHECKPOINT COMPACTION",  # Codex, local compaction (0.80 and later)
    "You have exceeded the maximum number of tokens",  # Codex 0.40-era compaction prompt
    "context summarization assistant",  # pi
    "You are a summarization assistant. A conversation follows",  # Codex 0.34 and earlier
    "generate the <state_snapshot>",  # Gemini CLI, up to the verification pass
    "generate the updated <state_snapshot>",  # Gemini CLI 0.4x and later
    "Critically evaluate the <state_snapshot>",  # Gemini CLI's verification pass
    "tasked with summarizing conversations",  # opencode 1.0-1.2, the compaction agent's system
    "anchored context summarization assistant",  # opencode 1.14 (system)
    "You are a context summarization agent",  # opencode 1.18 (system)
    "summary of our conversation above",  # opencode 1.0 (the request's last user text)
    "prompt for continuing our conversation above",  # opencode 1.1-1.2
    "anchored summary",  # opencode 1.14 and later ("Create a new / Update the anchored summary")
    "create a detailed summary of the conversation so far",  # Copilot CLI (1.0.x)
    "produce the <state_snapshot>",  # Qwen Code 0.24 (0.5-0.21 ask as Gemini CLI does)
)
SMALL_USAGE = 1000
SUMMARY_PREFIX = "HARVEST-SUMMARY"

_USAGE = re.compile(r"(?<!summaries )report (\d+) input tokens")
_SUMMARY_USAGE = re.compile(r"summaries report (\d+) input tokens")
# A summary the script wrote, as a later request carries it: the digest of its request.
_CARRIED = re.compile(SUMMARY_PREFIX + r" ([0-9a-f]{12})")
_CALLS = re.compile(r"answer with (\d+) (long |medium |whoami )?shell tool calls?")
# `answer with K whoami shell tool calls`: each call runs WHOAMI (issue #34: the host's shell
# names its session to `rebootspec whoami`); the server logs the output the host sends back.
# By the path the harvest exports (a login shell, as Codex's, sets PATH again).
WHOAMI = '"${REBOOTSPEC_BIN:-rebootspec}" whoami --json'
LONG_OUTPUT = 30000  # characters a long call prints: opencode's bash tool keeps up to 30,000
# A medium call prints this many: the Copilot CLI moves a tool output over about 20 KB into a
# file and keeps only a note in the context, so only outputs under that fill its window.
MEDIUM_OUTPUT = 15000
_PROGRESS = re.compile(SUMMARY_PREFIX + r" [0-9a-f]{12} calls=(\d+)")
_SPAWN = "spawn a forked subagent"
# The spawned agent's task: one tool call over the limit, so it compacts once mid-turn itself.
SUBAGENT_PROMPT = "Subagent task. answer with 1 shell tool calls; report 60000 input tokens"
# The Copilot CLI counts tokens itself (the usage reported is not read): its sub-agent compacts
# once its own calls' outputs fill the window.
COPILOT_SUBAGENT_PROMPT = "Subagent task. answer with 6 medium shell tool calls"
_FAIL = "fail the summary"
_REFUSE = "refuse the summary"
_TASK = "spawn a task subagent"
_CUT = "cut the summary short"


@dataclass(frozen=True)
class Message:
    """One conversation item as the script sees it, whatever the wire API."""

    role: str  # "user", "assistant", "system", "tool" (a tool result), "call" (a tool call)
    text: str


@dataclass(frozen=True)
class Request:
    """The parts of a model request the script decides on."""

    api: str  # "responses", "chat" or "gemini"
    model: str
    messages: tuple[Message, ...]
    tools: tuple[str, ...]
    raw_digest: str  # sha256 of the body's canonical JSON: the summary's source
    # Chat Completions tools' required argument names (opencode's bash wants a description)
    required: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or one tool call; the usage; or an error status."""

    kind: str  # "text", "tool", "summary", "error"
    text: str = ""
    tool: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    input_tokens: int = SMALL_USAGE
    status: int = 200
    cut: bool = False  # stream only the first chunk: no finish reason, no usage
    label: str = ""  # the log's classification when the kind alone does not say it (Cline)


def _text_of(content: Any) -> str:
    """The plain text of a message's content (a string or a list of parts), parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict):
                value = part.get("text")
                if isinstance(value, str):
                    parts.append(value)
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    return ""


def _responses_messages(body: dict[str, Any]) -> list[Message]:
    """Items of a Responses API ``input``: messages, function calls and their outputs."""
    out: list[Message] = []
    instructions = body.get("instructions")
    if isinstance(instructions, str):
        out.append(Message("system", instructions))
    items = body.get("input")
    if isinstance(items, str):
        return [*out, Message("user", items)]
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind == "message":
            role = str(item.get("role", ""))
            role = "system" if role == "developer" else role
            out.append(Message(role, _text_of(item.get("content"))))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            out.append(Message("tool", _text_of(item.get("output"))))
        elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
            out.append(Message("call", str(item.get("name", kind))))
    return out


def _chat_messages(body: dict[str, Any]) -> list[Message]:
    """Chat Completions ``messages``: system, user, assistant (tool calls noted), tool."""
    out: list[Message] = []
    for item in body.get("messages") or []:
        if not isinstance(item, dict):
            continue
        role = str(item.get("role", ""))
        role = "system" if role == "developer" else role
        out.append(Message(role, _text_of(item.get("content"))))
        for call in item.get("tool_calls") or []:
            if isinstance(call, dict):
                function = call.get("function") or {}
                out.append(Message("call", str(function.get("name", ""))))
    return out


def _gemini_messages(body: dict[str, Any]) -> list[Message]:
    """Gemini ``contents`` (user / model turns of parts) and ``systemInstruction``.

    A user turn of ``functionResponse`` parts is a tool result; a model turn's ``functionCall``
    parts are calls, its text parts an assistant message.
    """
    out: list[Message] = []
    system = body.get("systemInstruction")
    if isinstance(system, str):
        out.append(Message("system", system))
    elif isinstance(system, dict):
        out.append(Message("system", _text_of(system.get("parts")) or str(system.get("text", ""))))
    for turn in body.get("contents") or []:
        if not isinstance(turn, dict):
            continue
        parts = [p for p in turn.get("parts") or [] if isinstance(p, dict)]
        user = turn.get("role") == "user"
        text = _text_of(parts)
        if user:
            for part in parts:
                if "functionResponse" in part:
                    out.append(Message("tool", json.dumps(part["functionResponse"])[:4000]))
            if text or not any("functionResponse" in part for part in parts):
                out.append(Message("user", text))
            continue
        for part in parts:
            call = part.get("functionCall")
            if isinstance(call, dict):
                out.append(Message("call", str(call.get("name", ""))))
        if text:
            out.append(Message("assistant", text))
    return out


def _gemini_tools(tools: Any) -> tuple[str, ...]:
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        if isinstance(tool, dict):
            for declaration in tool.get("functionDeclarations") or []:
                if isinstance(declaration, dict) and isinstance(declaration.get("name"), str):
                    names.append(declaration["name"])
    return tuple(names)


def _tool_names(tools: Any, namespace: str = "") -> tuple[str, ...]:
    """The names of the tools the host offers (both APIs' shapes); ``ns/name`` inside a
    namespace (Codex 0.15x groups the agent tools in one)."""
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict):
            continue
        name = tool.get("name") or (tool.get("function") or {}).get("name") or tool.get("type")
        if not isinstance(name, str):
            continue
        if tool.get("type") == "namespace":
            names.extend(_tool_names(tool.get("tools"), name))
        else:
            names.append(f"{namespace}/{name}" if namespace else name)
    return tuple(names)


def _required(tools: Any) -> dict[str, tuple[str, ...]]:
    """Each Chat Completions function's required argument names, from its JSON schema."""
    out: dict[str, tuple[str, ...]] = {}
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        schema = function.get("parameters")
        wanted = schema.get("required") if isinstance(schema, dict) else None
        if isinstance(wanted, list):
            out[function["name"]] = tuple(str(item) for item in wanted)
    return out


def _find_tool(request: Request, name: str) -> str | None:
    """``name`` or ``ns/name`` as the request offers it, or None."""
    for offered in request.tools:
        if offered == name or offered.endswith("/" + name):
            return offered
    return None


def parse(api: str, body: dict[str, Any], model: str = "") -> Request:
    """A wire body (already JSON-decoded) as a Request; Gemini names the model in the URL."""
    if api == "gemini":
        messages = _gemini_messages(body)
        tools = _gemini_tools(body.get("tools"))
    else:
        messages = _responses_messages(body) if api == "responses" else _chat_messages(body)
        tools = _tool_names(body.get("tools"))
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return Request(
        api=api,
        model=model or str(body.get("model", "")),
        messages=tuple(messages),
        tools=tools,
        raw_digest=hashlib.sha256(canonical).hexdigest(),
        required=_required(body.get("tools")) if api == "chat" else {},
    )


def _last_user(request: Request) -> str:
    for message in reversed(request.messages):
        if message.role == "user":
            return message.text
    return ""


def is_summary_request(request: Request) -> bool:
    """The host asks for its own summary: a marker in the last user message or a system one.

    Only those two places: an earlier turn's text that merely quotes a marker (or a summary kept
    in the history) must not turn an ordinary request into a summary request.
    """
    places = [_last_user(request)] + [m.text for m in request.messages if m.role == "system"]
    return any(marker in place for marker in SUMMARY_MARKERS for place in places)


def _directive_index(request: Request) -> int | None:
    """The index of the latest user message that carries a directive (summaries excluded)."""
    for index in range(len(request.messages) - 1, -1, -1):
        message = request.messages[index]
        if message.role != "user" or SUMMARY_PREFIX in message.text:
            continue
        if any(
            marker in message.text for marker in SUMMARY_MARKERS
        ):  # a summarisation prompt quoting the conversation
            continue
        return index
    return None


def calls_done(request: Request, start: int) -> int:
    """Tool calls of the current turn already answered: the last summary's note plus outputs."""
    done = 0
    for message in request.messages[start + 1 :]:
        found = _PROGRESS.findall(message.text) if message.role == "user" else []
        if found:
            done = int(found[-1])
        elif message.role == "tool":
            done += 1
    return done


def wants_failure(request: Request) -> bool:
    """Any user text of the conversation asks the summaries to fail (500 or 400)."""
    return failure_status(request) is not None


def failure_status(request: Request) -> int | None:
    """The HTTP status the conversation's summaries fail with: 500, 400 (refused), or None."""
    texts = [m.text for m in request.messages if m.role == "user"]
    if any(_FAIL in text for text in texts):
        return 500
    if any(_REFUSE in text for text in texts):
        return 400
    return None


def wants_cut(request: Request) -> bool:
    """Any user text of the conversation asks the summaries to be cut short."""
    return any(m.role == "user" and _CUT in m.text for m in request.messages)


def _shell_call(
    request: Request, step: int, size: int = 0, whoami: bool = False
) -> tuple[str, dict[str, Any]]:
    """A harmless shell call in the shape of whichever shell tool the host offers; a long or
    medium one prints ``size`` characters after its step (outputs that fill a window, old
    outputs a host may prune); a whoami one runs ``WHOAMI``."""
    text = f"echo harvest-step-{step}"
    argv = ["echo", f"harvest-step-{step}"]
    if size:
        text += f"; head -c {size} /dev/zero | tr '\\0' x"
    wrapped = text
    if whoami:
        text, argv = f"{WHOAMI} 2>&1", ["sh", "-c", f"{WHOAMI} 2>&1"]
        # Qwen Code 0.15's shell tool finds no command root in a quoted `${...}` and refuses
        # to run it: `sh -c` names one.
        wrapped = f"sh -c '{text}'"
    shapes: tuple[tuple[str, dict[str, Any]], ...] = (
        ("shell", {"command": argv}),
        ("shell_command", {"command": text}),
        ("exec_command", {"cmd": text}),
        ("bash", {"command": text}),
        ("run_shell_command", {"command": wrapped}),  # Gemini CLI, Qwen Code
    )
    for name, arguments in shapes:
        found = _find_tool(request, name)
        if found:
            if "description" in request.required.get(found, ()):  # opencode's bash
                arguments = {**arguments, "description": f"harvest step {step}"}
            if "is_background" in request.required.get(found, ()):  # Qwen Code 0.5-0.21
                arguments = {**arguments, "is_background": False}
            return found, arguments
    return "shell", {"command": ["echo", f"harvest-step-{step}"]}


def whoami_output(request: Request) -> str:
    """The output of a ``WHOAMI`` call when it is what this request answers (its last item is
    a tool result that reads as whoami's JSON or refusal), else ""."""
    if not request.messages or request.messages[-1].role != "tool":
        return ""
    text = request.messages[-1].text.strip()
    try:  # Codex 0.95 wraps a tool's output: {"output": "...", "metadata": {...}}
        wrapped = json.loads(text)
    except ValueError:
        wrapped = None
    if isinstance(wrapped, dict) and isinstance(wrapped.get("response"), dict):
        wrapped = wrapped["response"]  # Gemini's functionResponse: {"response": {"output"}}
    if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
        text = wrapped["output"].strip()
    if '"source"' in text or "error: whoami" in text or "rebootspec" in text:
        return text[:2000]
    return ""


def summary_text(request: Request) -> str:
    """The summary for a summary request: a hash of the request plus the turn's progress."""
    start = _directive_index(request)
    done = calls_done(request, start) if start is not None else 0
    text = f"{SUMMARY_PREFIX} {request.raw_digest[:12]} calls={done}"
    usage = summary_usage(request)
    if usage != SMALL_USAGE:  # carried on: a later summary may see only this one (Qwen 0.15)
        text += f"; summaries report {usage} input tokens"
    if request.api == "gemini" or _asks_for_snapshot(request):
        # Gemini CLI and Qwen Code ask for (and keep) a <state_snapshot> element; Qwen Code
        # 0.24 drops a summary without a closed one as truncated.
        return f"<state_snapshot>\n{text}\n</state_snapshot>"
    return text


def _asks_for_snapshot(request: Request) -> bool:
    """The summary prompt (last user message or a system one) asks for a <state_snapshot>."""
    places = [_last_user(request)] + [m.text for m in request.messages if m.role == "system"]
    return any("<state_snapshot>" in place for place in places)


def summary_usage(request: Request) -> int:
    """The input tokens a summary reports: ``summaries report N input tokens`` in the
    conversation's latest user text that says it, else the small usage."""
    for message in reversed(request.messages):
        found = _SUMMARY_USAGE.search(message.text) if message.role == "user" else None
        if found:
            return int(found.group(1))
    return SMALL_USAGE


def carried(request: Request) -> tuple[str, ...]:
    """The summaries this request carries (their requests' digests, first seen first): the
    evidence that a summary reached the model's context, which a refused compression's never
    does (Qwen Code 0.8-0.15 answer 200 to the host, then drop an "inflated" summary)."""
    found: dict[str, None] = {}
    for message in request.messages:
        for digest in _CARRIED.findall(message.text):
            found.setdefault(digest)
    return tuple(found)


def decide(request: Request) -> Reply:
    """The reply to one request; the same request always gets the same reply."""
    if is_summary_request(request):
        status = failure_status(request)
        if status is not None:
            return Reply(kind="error", status=status, text="scripted failure during the summary")
        return Reply(
            kind="summary",
            text=summary_text(request),
            input_tokens=summary_usage(request),
            cut=wants_cut(request),
        )
    start = _directive_index(request)
    directive = request.messages[start].text if start is not None else ""
    usage_match = _USAGE.search(directive)
    tokens = int(usage_match.group(1)) if usage_match else SMALL_USAGE
    done = calls_done(request, start) if start is not None else 0
    spawn = _find_tool(request, "spawn_agent")
    if _SPAWN in directive and done == 0 and spawn:
        arguments = {"message": SUBAGENT_PROMPT, "fork_context": True}
        return Reply(kind="tool", tool=spawn, arguments=arguments, input_tokens=tokens)
    task = _find_tool(request, "task")
    if _TASK in directive and done == 0 and task:  # opencode's subagent tool
        arguments = {
            "description": "harvest subtask",
            "prompt": SUBAGENT_PROMPT,
            "subagent_type": "general",
        }
        if "agent_type" in request.required.get(task, ()):  # the Copilot CLI's task tool
            arguments = {
                "description": "harvest subtask",
                "prompt": COPILOT_SUBAGENT_PROMPT,
                "agent_type": "task",
                "name": "harvester",
            }
        return Reply(kind="tool", tool=task, arguments=arguments, input_tokens=tokens)
    calls_match = _CALLS.search(directive)
    wanted = int(calls_match.group(1)) if calls_match else 0
    if done < wanted:
        kind = calls_match.group(2) if calls_match is not None else None
        size = {"long ": LONG_OUTPUT, "medium ": MEDIUM_OUTPUT}.get(kind or "", 0)
        name, arguments = _shell_call(request, done + 1, size, kind == "whoami ")
        return Reply(kind="tool", tool=name, arguments=arguments, input_tokens=tokens)
    if wanted:  # the usage pushed each tool call over; the turn's answer reports little
        tokens = SMALL_USAGE
    return Reply(kind="text", text=f"harvest reply {request.raw_digest[:12]}", input_tokens=tokens)
