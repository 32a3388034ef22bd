"""The scripted model as Cline's core needs it: every answer a tool use, and the log says why.

Cline's agent loop (extension core 3.x, run by Cline CLI 1.x and 2.x) accepts no plain text: a
reply must use a tool (``execute_command``, ``attempt_completion``, ``summarize_task``,
``condense``), given either natively (Chat Completions ``tool_calls``, when the request offers
tools) or as Cline's XML tags in the text. Its compactions are tool uses too, so the script
tells them by the instructions Cline appends to the request's last user content:

- ``<explicit_instructions type="summarize_task">`` (auto-compact, core 3.25+): the answer
  calls ``summarize_task`` with the summary as ``context`` (``fail the summary`` anywhere in
  the conversation: HTTP 500 instead); logged ``summary`` (or ``summary-failed``);
- ``<explicit_instructions type="condense">`` (``/smol``, ``/compact``): the answer calls
  ``condense``; logged ``condense``. Whether it counts depends on the user: the request after
  it carries either "The user has accepted the condensed conversation summary" (logged
  ``condense-accepted``) or the user's feedback (``condense-feedback``);
- the request after a ``summarize_task`` carries its continuation prompt with the summary in it
  (logged ``continued``): the summary reached the model.

Cline CLI 3.x (the Cline SDK) is told by its shell tool, ``run_commands``; a reply without a
tool call ends its run (``submit_and_exit`` when offered). Its agentic compaction
is a request of its own, "Summarize this session for continuation" (answered with the summary,
``step=K`` in it: the shell calls made so far); a later request that carries the summary is
logged ``continued``. The steps are numbered over the whole
session (the highest ``harvest-step-K`` the request shows), as the projection after a
compaction keeps only the summary of the turn.

A user turn's directives are those of ``script.py`` (``report N input tokens``, ``answer with K
shell tool calls``), read from the latest user or tool text that names a ``Harvest turn``. After
a summary, an acceptance or feedback the turn ends (``attempt_completion``): the summary records
no progress, and Cline drops the turn's own message from the request.
"""

from __future__ import annotations

import re
from typing import Any

from .script import _CALLS, _USAGE, SMALL_USAGE, SUMMARY_PREFIX, Reply, Request, failure_status

SUMMARIZE = '<explicit_instructions type="summarize_task">'
CONDENSE = '<explicit_instructions type="condense">'
CONTINUED = "This session is being continued from a previous conversation"
ACCEPTED = "The user has accepted the condensed conversation summary"
FEEDBACK = "The user provided feedback on the condensed conversation summary"
TURN = "Harvest turn"
SDK_SUMMARY = "Summarize this session for continuation"
_STEP = re.compile(r"harvest-step-(\d+)|" + SUMMARY_PREFIX + r" [0-9a-f]{12} step=(\d+)")
# A tool result of Cline's XML mode, as the next user message begins it.
_XML_RESULT = re.compile(r"\[execute_command for '")


def _tail(request: Request) -> str:
    """The text the host added since the model last spoke (tool results and user content)."""
    texts: list[str] = []
    for message in reversed(request.messages):
        if message.role in ("assistant", "call"):
            break
        if message.role in ("user", "tool"):
            texts.append(message.text)
    return "\n".join(reversed(texts))


def _native(request: Request) -> bool:
    return "attempt_completion" in request.tools


def _use(request: Request, tool: str, arguments: dict[str, Any], **reply: Any) -> Reply:
    """A tool use in the request's own form: a native call, or Cline's XML tags as text."""
    if _native(request):
        return Reply(kind="tool", tool=tool, arguments=arguments, **reply)
    tags = "".join(f"<{key}>{value}</{key}>\n" for key, value in arguments.items())
    return Reply(kind="text", text=f"<{tool}>\n{tags}</{tool}>", **reply)


def _shell(request: Request, step: int, tokens: int) -> Reply:
    arguments: dict[str, Any] = {"command": f"echo harvest-step-{step}"}
    arguments["requires_approval"] = False if _native(request) else "false"
    return _use(request, "execute_command", arguments, input_tokens=tokens)


def _complete(request: Request, label: str = "", tokens: int = SMALL_USAGE) -> Reply:
    text = f"harvest reply {request.raw_digest[:12]}"
    return _use(request, "attempt_completion", {"result": text}, input_tokens=tokens, label=label)


def _turn(request: Request) -> tuple[str, int]:
    """The current turn's directive text and the shell calls answered since it was given."""
    for index in range(len(request.messages) - 1, -1, -1):
        message = request.messages[index]
        if message.role in ("user", "tool") and TURN in message.text:
            later = request.messages[index + 1 :]
            # Core 3.82 answers a native call twice: a tool message ("result missing") and
            # the result as user text; other builds one way or the other.
            tools = sum(1 for m in later if m.role == "tool")
            texts = sum(1 for m in later if m.role == "user" and _XML_RESULT.search(m.text))
            return message.text[message.text.rfind(TURN) :], max(tools, texts)
    return "", 0


def _steps(request: Request) -> int:
    """The highest shell step the request shows (a command, its output, or a summary's note)."""
    found = [int(a or b) for m in request.messages for a, b in _STEP.findall(m.text)]
    return max(found, default=0)


def decide_sdk(request: Request) -> Reply:
    """The reply to one of Cline CLI 3.x's requests (the SDK's tools and compaction)."""
    text = "\n".join(m.text for m in request.messages)
    done = _steps(request)
    if SDK_SUMMARY in _tail(request) or any(
        SDK_SUMMARY in m.text for m in request.messages if m.role == "system"
    ):
        status = failure_status(request)
        if status is not None:
            return Reply(kind="error", status=status, text="scripted failure during the summary")
        # The turn's directive goes into the summary: the projection may keep nothing else.
        directive = _turn(request)[0].split("\n", 1)[0]
        summary = f"{SUMMARY_PREFIX} {request.raw_digest[:12]} step={done} {directive}".strip()
        return Reply(kind="text", text=summary, label="summary")
    label = "continued" if SUMMARY_PREFIX in text else ""
    directive, _ = _turn(request)
    usage = _USAGE.search(directive)
    calls = _CALLS.search(directive)
    wanted = int(calls.group(1)) if calls else 0
    if done < wanted:
        tokens = int(usage.group(1)) if usage else SMALL_USAGE
        arguments = {"commands": [f"echo harvest-step-{done + 1}"]}
        return Reply(
            "tool", tool="run_commands", arguments=arguments, input_tokens=tokens, label=label
        )
    text = f"harvest reply {request.raw_digest[:12]}"
    if "submit_and_exit" in request.tools:
        result = {"summary": text, "verified": True}
        return Reply("tool", tool="submit_and_exit", arguments=result, label=label)
    return Reply("text", text=text, label=label)  # a reply without a tool call ends the run


def decide(request: Request) -> Reply:
    """The reply to one of Cline's requests; the same request always gets the same reply."""
    if "run_commands" in request.tools or SDK_SUMMARY in _tail(request):
        return decide_sdk(request)
    tail = _tail(request)
    summary = f"{SUMMARY_PREFIX} {request.raw_digest[:12]}"
    if SUMMARIZE in tail:
        status = failure_status(request)
        if status is not None:
            return Reply(kind="error", status=status, text="scripted failure during the summary")
        return _use(request, "summarize_task", {"context": summary}, label="summary")
    if CONDENSE in tail:
        return _use(request, "condense", {"context": summary}, label="condense")
    if CONTINUED in tail and SUMMARY_PREFIX in tail:
        return _complete(request, "continued")
    if ACCEPTED in tail:
        return _complete(request, "condense-accepted")
    if FEEDBACK in tail:
        return _complete(request, "condense-feedback")
    directive, done = _turn(request)
    usage = _USAGE.search(directive)
    tokens = int(usage.group(1)) if usage else SMALL_USAGE
    calls = _CALLS.search(directive)
    wanted = int(calls.group(1)) if calls else 0
    if done < wanted:
        return _shell(request, done + 1, tokens)
    return _complete(request, tokens=SMALL_USAGE if wanted else tokens)


def reboots(labels: list[str]) -> int:
    """A Cline run's compactions per its server log: each ``summary`` answered and then carried
    to the model (a ``continued`` request before the next summary), and each ``/smol`` summary
    the user accepted (``condense-accepted``). A summary answered but never carried (the
    host gave up) and a ``/smol`` answered with feedback are no compaction."""
    count, pending = 0, False
    for label in labels:
        if label == "summary":
            pending = True
        elif label == "continued" and pending:
            count, pending = count + 1, False
        elif label == "condense-accepted":
            count += 1
    return count
