"""A model of the Cline family's writers: a plan played into a task folder, the way each line
writes it (spec/hosts/cline.md; the hosts' source is named there).

Cline's core (cline/cline apps/vscode/src/core/task: message-state.ts stamps every ui row with
`conversationHistoryIndex` and the current `conversationHistoryDeletedRange`; the
SummarizeTaskHandler and CondenseHandler set a new range and return the results CLN-4 reads;
checkpoints/index.ts cuts both arrays and writes `deleted_api_reqs`). Roo's line
(RooCodeInc/Roo-Code src/core/task/Task.ts, src/core/condense: `condense_context` rows, the api
history shaped by the release, `plan.roo_shape`; checkpoints/index.ts: `checkpoint_saved` rows).
The Kilo extension adds Cline's `/smol` (src/core/tools/kilocode/condenseTool.ts) and its
`metadata.kiloCode` on completions. The files are written as the hosts write them:
`JSON.stringify` with no spaces for the two message arrays and Roo's task_metadata.json,
two-space indentation for Cline's.
"""

from __future__ import annotations

import json
from typing import Any

from .plan import (
    CLINE,
    KILO,
    AutoCompact,
    Condense,
    EditLast,
    Notice,
    Restore,
    Resume,
    SdkCompact,
    SlidingWindow,
    Smol,
    StrayCondenseRow,
    TaskPlan,
    Truncate,
    Turn,
    roo_shape,
)

T0 = 1764200000000
CONTINUATION = (
    "\nThis session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\n{summary}.\n\nPlease continue the conversation from "
    "where we left it off without asking the user any further questions. Continue with the last "
    "task that you were asked to work on.\n"
)
ACCEPTED = (
    "The user has accepted the condensed conversation summary you generated. This summary covers "
    "important details of the historical conversation with the user which has been truncated.\n"
    '<explicit_instructions type="condense_response">It\'s crucial that you respond by ONLY asking '
    "the user what you should work on next.</explicit_instructions>"
)
FEEDBACK = (
    "The user provided feedback on the condensed conversation summary:\n<feedback>\n{text}\n"
    "</feedback>"
)
SUMMARIZE_ASK = (
    '<explicit_instructions type="summarize_task">\nThe current conversation is rapidly running '
    "out of context. Call the summarize_task tool with a detailed summary.\n"
    "</explicit_instructions>"
)
CONDENSE_ASK = (
    '<explicit_instructions type="condense">\nThe user has explicitly asked you to create a '
    "detailed summary of the conversation so far. Call the condense tool.\n"
    "</explicit_instructions>"
)
FILES = ("src/parse.py", "src/lines.py", "tests/test_parse.py", "README.md")


def dumps(value: Any) -> bytes:
    """`JSON.stringify(value)`: no spaces, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class Folder:
    """The task folder being written: both arrays, the range, the clock."""

    def __init__(self, plan: TaskPlan) -> None:
        self.plan = plan
        self.roo = plan.member != CLINE
        self.ui: list[dict[str, Any]] = []
        self.api: list[dict[str, Any]] = []
        self.range: list[int] | None = None
        self.clock = T0
        self.summaries = 0
        self.snapshots: list[tuple[int, int, list[int] | None]] = []
        self.calls = 0
        # Roo: the ui index of each condense's user message row, for EditLast
        self.edit_points: list[int] = []

    def now(self) -> int:
        self.clock += 1500
        return self.clock

    # -- rows -------------------------------------------------------------------------------
    def row(self, kind: str, value: str, text: str | None = None, **extra: Any) -> None:
        row: dict[str, Any] = {"ts": self.now(), "type": kind, kind: value}
        if text is not None:
            row["text"] = text
        row.update(extra)
        if not self.roo:  # message-state.ts: every new row gets the index and the range
            row["conversationHistoryIndex"] = len(self.api) - 1
            if self.range is not None:
                row["conversationHistoryDeletedRange"] = list(self.range)
        self.ui.append(row)

    def message(self, role: str, blocks: list[dict[str, Any]], **extra: Any) -> None:
        message: dict[str, Any] = {"role": role, "content": blocks}
        if self.roo:
            message["ts"] = self.clock
        message.update(extra)
        self.api.append(message)

    def request(self, tokens: int = 12000) -> None:
        info = {
            "request": "...",
            "tokensIn": tokens,
            "tokensOut": 180,
            "cacheWrites": 0,
            "cacheReads": 0,
            "cost": 0.01,
        }
        if self.roo:  # Roo's line keeps the protocol in the row's text, not as a member
            info["apiProtocol"] = "anthropic"
        self.row("say", "api_req_started", json.dumps(info))

    def tool_call(self, name: str, params: dict[str, str], lead: str = "") -> None:
        """The assistant's tool call, XML-style text or a native tool_use block."""
        self.calls += 1
        if self.plan.native and not self.roo:
            blocks: list[dict[str, Any]] = [{"type": "text", "text": lead or "Working on it."}]
            blocks.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_{self.calls:04d}",
                    "name": name,
                    "input": dict(params),
                }
            )
        else:
            inner = "".join(f"<{k}>{v}</{k}>" for k, v in params.items())
            blocks = [{"type": "text", "text": f"{lead}\n<{name}>\n{inner}\n</{name}>".strip()}]
        self.message("assistant", blocks)

    def result(self, name: str, text: str, extra: list[dict[str, Any]] | None = None) -> None:
        """The user message carrying a tool's result (ToolResultUtils.pushToolResult)."""
        body = f"[{name}] Result:\n{text}"
        if self.plan.native and not self.roo:
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": f"toolu_{self.calls:04d}",
                "content": body,
            }
        else:
            block = {"type": "text", "text": body}
        self.message("user", [block, *(extra or [])])


def play(plan: TaskPlan) -> dict[str, bytes]:
    """The plan on disk: the task folder's files by name (or an SDK session folder's)."""
    if plan.era == "S1":
        return _play_sdk(plan)
    folder = Folder(plan)
    folder.row("say", "text", plan.title)
    folder.message(
        "user",
        [
            {"type": "text", "text": f"<task>\n{plan.title}\n</task>"},
            {
                "type": "text",
                "text": "<environment_details>\n# Current Working "
                "Directory (/home/user/project)\n</environment_details>",
            },
        ],
    )
    folder.request()
    first = True
    for step in plan.steps:
        if isinstance(step, Turn):
            _turn(folder, step, first)
            first = False
        elif isinstance(step, AutoCompact):
            _auto_compact(folder, step)
        elif isinstance(step, Smol):
            _smol(folder, step)
        elif isinstance(step, Truncate):
            _truncate(folder)
        elif isinstance(step, Resume):
            _resume(folder)
        elif isinstance(step, Restore):
            _restore(folder, step)
        elif isinstance(step, Condense):
            _condense(folder, step)
        elif isinstance(step, SlidingWindow):
            _sliding_window(folder)
        elif isinstance(step, StrayCondenseRow):
            _stray_condense_row(folder, step)
        elif isinstance(step, EditLast):
            _edit_last(folder)
        elif isinstance(step, Notice):
            _notice(folder, step)
    if plan.strays:
        _add_strays(folder)
    files = {"ui_messages.json": dumps(folder.ui)}
    if plan.ui_resaved:  # CLN-1: still the family's after a byte order mark and whitespace
        files["ui_messages.json"] = b"\xef\xbb\xbf\n" + files["ui_messages.json"]
    if plan.api_cut:  # cut in the middle of the array: the document ends early
        whole = dumps(folder.api)
        files["api_conversation_history.json"] = whole[: len(whole) // 2]
    elif plan.api_not_array:  # CLN-13: the messages kept, but under a member, not as the array
        files["api_conversation_history.json"] = dumps({"messages": folder.api})
    elif not plan.drop_api:
        files["api_conversation_history.json"] = dumps(folder.api)
    files["task_metadata.json"] = _metadata(plan)
    return files


def _add_strays(folder: Folder) -> None:
    """Values that are no objects, as another tool's edit might leave them (CLN-1): one after
    the first ui row, one after the first api message, and one before the first block of the
    first message that carries a summary's result (CLN-4)."""
    rows: list[Any] = folder.ui  # from here on the arrays hold more than the hosts' objects
    messages: list[Any] = folder.api
    rows.insert(1, None)
    messages.insert(1, "a note")
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(_is_summary_result(b) for b in content):
            content.insert(0, None)
            break


def _is_summary_result(block: Any) -> bool:
    body = block.get("text", block.get("content")) if isinstance(block, dict) else None
    return isinstance(body, str) and body.startswith(("[summarize_task] Result:", "[condense]"))


def _turn(folder: Folder, step: Turn, first: bool) -> None:
    if not first:  # the user's next message (after the last answer)
        folder.row("say", "user_feedback", step.text)
        folder.message("user", [{"type": "text", "text": f"<feedback>\n{step.text}\n</feedback>"}])
        folder.request()
    for n in range(step.tools):
        path = FILES[(folder.calls + n) % len(FILES)]
        folder.row("say", "text", f"Let me look at {path}.")
        folder.tool_call("read_file", {"path": path}, f"Let me look at {path}.")
        tool = json.dumps(
            {"tool": "readFile", "path": path, "content": f"/home/user/project/{path}"}
        )
        folder.row("ask" if folder.roo else "say", "tool", tool)
        folder.result(f"read_file for '{path}'", "1 | def parse(text):\n2 |     return text\n")
        folder.request()
    folder.row("say", "text", "The parser now splits on CRLF as well.")
    folder.message(
        "assistant", [{"type": "text", "text": "The parser now splits on CRLF as well."}]
    )
    if folder.roo and folder.plan.checkpoints and not folder.snapshots:  # the first checkpoint
        checkpoint = {"from": "4b825dc6", "to": "9daeafb9", "suppressMessage": False}
        folder.row("say", "checkpoint_saved", "9daeafb9", checkpoint=checkpoint)
        if folder.plan.member == KILO:  # Kilo: the completion row names the commits it spans
            metadata = {"kiloCode": {"commitRange": {"from": "4b825dc6", "to": "9daeafb9"}}}
            folder.row("say", "completion_result", "Done.", metadata=metadata)
    folder.snapshots.append((len(folder.ui), len(folder.api), folder.range))


def _auto_compact(folder: Folder, step: AutoCompact) -> None:
    """CLN-4: the summarize_task round; its result is written with the next request."""
    folder.message("user", [{"type": "text", "text": "Continue.\n\n" + SUMMARIZE_ASK}])
    for attempt in range(step.failures + (3 if step.gave_up else 0)):
        info = {
            "attempt": attempt % 3 + 1,
            "maxAttempts": 3,
            "delaySeconds": 2,
            "errorMessage": "500 Internal Server Error",
        }
        folder.row("say", "error_retry", json.dumps(info))
    folder.request(118000)
    if step.gave_up:  # every retry failed: no summary, the user is asked (RBT-1)
        folder.row("ask", "api_req_failed", "500 Internal Server Error")
        return
    folder.summaries += 1
    summary = f"1. Primary Request: CRLF handling (summary {folder.summaries})"
    folder.tool_call("summarize_task", {"context": summary})
    folder.row("say", "tool", json.dumps({"tool": "summarizeTask", "content": summary}))
    folder.range = [2, max(len(folder.api) - 2, 2)]
    image = _image_read(folder) if step.image_after else []
    folder.result("summarize_task", CONTINUATION.format(summary=summary), image)
    folder.range = [folder.range[0], folder.range[1] + 2]  # the next request moves it by two
    folder.request(9000)
    folder.message("assistant", [{"type": "text", "text": "Continuing with the CRLF fix."}])


def _image_read(folder: Folder) -> list[dict[str, Any]]:
    """Parallel native tool calls: a read_file of an image called beside summarize_task. Its
    result is a list (formatResponse.toolResult with images), which ToolResultUtils passes on
    as the tool_result's content without the `[read_file] Result:` prefix."""
    calls = folder.api[-1]["content"]
    calls.append(
        {"type": "tool_use", "id": "toolu_image", "name": "read_file", "input": {"path": "a.png"}}
    )
    png = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
    content = [
        {"type": "text", "text": "Successfully read image"},
        {"type": "image", "source": png},
    ]
    return [{"type": "tool_result", "tool_use_id": "toolu_image", "content": content}]


def _smol(folder: Folder, step: Smol) -> None:
    """CLN-6 (Cline) and CLN-11 (Kilo): /smol's condense tool, accepted or answered."""
    folder.message("user", [{"type": "text", "text": "/smol\n\n" + CONDENSE_ASK}])
    folder.request()
    folder.summaries += 1
    summary = f"Condensed: the CRLF work so far (summary {folder.summaries})"
    folder.tool_call("condense", {"context": summary})
    folder.row("ask", "condense", summary)
    if not step.accepted:
        folder.row("say", "user_feedback", "also mention the tests")
        folder.result("condense", FEEDBACK.format(text="also mention the tests"))
        folder.request()
        folder.message("assistant", [{"type": "text", "text": "Noted; carrying on."}])
        return
    if folder.roo:  # Kilo: Roo's condense runs on acceptance and writes its own row (CLN-11)
        _condense(folder, Condense("manual", step.condense_fails), before=True)
    else:
        folder.range = [2, max(len(folder.api) - 3, 2)]
    folder.result("condense", ACCEPTED)
    folder.request(7000)
    folder.message("assistant", [{"type": "text", "text": "What should I work on next?"}])


def _truncate(folder: Folder) -> None:
    """CLN-7: legacy truncation: half of the middle dropped, no summary."""
    start = 2 if folder.range is None else folder.range[0]
    end = max(start, (len(folder.api) // 2) & ~1)
    folder.range = [start, end + 1]
    folder.message("user", [{"type": "text", "text": "Keep going."}])
    folder.request(99000)
    folder.message("assistant", [{"type": "text", "text": "Going on."}])


def _resume(folder: Folder) -> None:
    """CLN-9: the task opened again: a resume ask, the resumption text appended."""
    folder.row("ask", "resume_task")
    text = (
        "[TASK RESUMPTION] This task was interrupted 3 minutes ago. It may or may not be "
        "complete, so please reassess the task context."
    )
    if folder.api and folder.api[-1]["role"] == "user":
        folder.api[-1]["content"].append({"type": "text", "text": text})
    else:
        folder.message("user", [{"type": "text", "text": text}])
    folder.request()
    folder.message("assistant", [{"type": "text", "text": "Picking the task up again."}])


def _restore(folder: Folder, step: Restore) -> None:
    """CLN-8: both arrays cut after the turn, the range reset, `deleted_api_reqs` written."""
    ui_len, api_len, kept_range = folder.snapshots[step.to - 1]
    del folder.ui[ui_len:]
    del folder.api[api_len:]
    folder.range = kept_range
    del folder.snapshots[step.to :]
    info = {"tokensIn": 240000, "tokensOut": 2100, "cacheWrites": 0, "cacheReads": 0, "cost": 0.4}
    folder.row("say", "deleted_api_reqs", json.dumps(info))


def _condense(folder: Folder, step: Condense, before: bool = False) -> None:
    """CLN-10: Roo's condense: the summary put into the api history the way the plan's release
    does (`roo_shape`), and one `condense_context` row (none in 3.17); a failure writes
    `condense_context_error`. The row is written through Task.say with `partial` false, which
    stores neither `partial` nor an absent `text`."""
    if not before:  # the user's message, then the request over the threshold
        folder.edit_points.append(len(folder.ui))
        folder.row("say", "user_feedback", "Continue with the tests.")
        folder.message("user", [{"type": "text", "text": "Continue with the tests."}])
        folder.request(150000)
    if step.fails:
        folder.row("say", "condense_context_error", "Failed to condense context: 500")
        if not before:
            folder.message("assistant", [{"type": "text", "text": "Carrying on."}])
        return
    folder.summaries += 1
    summary = f"## Conversation summary {folder.summaries}: the CRLF fix and its tests"
    condense_id = f"c{folder.summaries:07d}-9b2e-4c1d-8a6f-2f0b5e7d1a3c"
    shape = roo_shape(folder.plan)
    _SUMMARY_SHAPES[shape](folder.api, summary, condense_id)
    if folder.plan.era not in ("R1", "KX0"):  # Roo 3.17 wrote no ui row
        condense: dict[str, Any] = {
            "summary": summary,
            "cost": 0.02,
            "newContextTokens": 9000,
            "prevContextTokens": 150000,
        }
        if shape in ("tagged", "fresh") and step.trigger != "forced":
            condense["condenseId"] = condense_id  # the forced path's row leaves it out
        folder.row("say", "condense_context", None, contextCondense=condense)
    if not before:
        folder.request(9000)
        folder.message("assistant", [{"type": "text", "text": "Continuing from the summary."}])


KEEP = 3  # Roo's N_MESSAGES_TO_KEEP: the last messages a condense leaves in place


def _inserted(api: list[dict[str, Any]], summary: str, condense_id: str) -> None:
    """3.17.0 to 3.28.0: an assistant summary (string content) put before the last three
    messages, stamped with the first kept one's time; nothing is deleted."""
    at = max(len(api) - KEEP, 1)
    message = {"role": "assistant", "content": summary, "ts": api[at]["ts"], "isSummary": True}
    api.insert(at, message)


def _rebuilt(api: list[dict[str, Any]], summary: str, condense_id: str) -> None:
    """3.28.1 to 3.35: the history rebuilt as [first, summary, the last three]: only the latest
    summary survives."""
    kept = api[-KEEP:]
    message = {"role": "assistant", "content": summary, "ts": kept[0]["ts"], "isSummary": True}
    api[:] = [api[0], message, *kept]


def _tagged(api: list[dict[str, Any]], summary: str, condense_id: str) -> None:
    """3.36 to 3.42: the middle (not the first, not the last three) tagged `condenseParent`,
    an assistant summary with its `condenseId` put before the kept three."""
    at = max(len(api) - KEEP, 1)
    for message in api[1:at]:
        message.setdefault("condenseParent", condense_id)
    summary_message = {
        "role": "assistant",
        "content": summary,
        "ts": api[at]["ts"] - 1,
        "isSummary": True,
        "condenseId": condense_id,
    }
    api.insert(at, summary_message)


def _fresh(api: list[dict[str, Any]], summary: str, condense_id: str) -> None:
    """3.43 on ("fresh start"): every message tagged `condenseParent` (unless already tagged),
    a user summary of text blocks appended after the last."""
    for message in api:
        message.setdefault("condenseParent", condense_id)
    api.append(
        {
            "role": "user",
            "content": [{"type": "text", "text": f"## Conversation Summary\n{summary}"}],
            "ts": api[-1]["ts"] + 1,
            "isSummary": True,
            "condenseId": condense_id,
        }
    )


_SUMMARY_SHAPES = {"inserted": _inserted, "rebuilt": _rebuilt, "tagged": _tagged, "fresh": _fresh}


def _edit_last(folder: Folder) -> None:
    """CLN-8, CLN-10: the user edits the message before the latest condense. The ui is cut at
    its row. Before 3.36 the api history is cut from the first message at or after its time,
    which leaves a summary stamped with an earlier kept message's time; from 3.36 the summary
    whose row went is removed as well, and the tags that named it are cleared."""
    ui_at = folder.edit_points.pop()
    cut_ts = folder.ui[ui_at]["ts"]
    removed_ids = {
        r["contextCondense"].get("condenseId")
        for r in folder.ui[ui_at:]
        if r.get("say") == "condense_context" and isinstance(r.get("contextCondense"), dict)
    }
    del folder.ui[ui_at:]
    api = folder.api
    first = next((i for i, m in enumerate(api) if m["ts"] >= cut_ts), len(api))
    del api[first:]
    if roo_shape(folder.plan) in ("tagged", "fresh"):  # MessageManager (3.36 on)
        api[:] = [m for m in api if not (m.get("isSummary") and m.get("condenseId") in removed_ids)]
        for message in api:
            if message.get("condenseParent") in removed_ids:
                del message["condenseParent"]
    folder.row("say", "user_feedback", "Continue with the tests, and the docs.")
    folder.message("user", [{"type": "text", "text": "Continue with the tests, and the docs."}])
    folder.request(9000)
    folder.message("assistant", [{"type": "text", "text": "Working on the tests and docs."}])


def _notice(folder: Folder, step: Notice) -> None:
    """CLN-2: a row of one line that no rule counts. Roo's retry countdown is one row, said
    partial every second and completed in place (Task.say keeps it, `partial: false`); the
    asks wait for the user."""
    if step.kind == "retry":
        text = "429 Too Many Requests\n\nRetry attempt 1\nRetrying now..."
        folder.row("say", "api_req_retry_delayed", text, partial=False)
    elif step.kind == "browser":
        folder.row("say", "browser_session_status", "Browser session opened")
    elif step.kind == "approval-limit":
        folder.row("ask", "auto_approval_max_req_reached", json.dumps({"count": 20}))
    else:
        payment = {"title": "Low credit", "balance": "0.00", "buyCreditsUrl": "https://x.invalid"}
        folder.row("ask", "payment_required_prompt", json.dumps(payment))
    folder.request()
    folder.message("assistant", [{"type": "text", "text": "Carrying on."}])


def _stray_condense_row(folder: Folder, step: StrayCondenseRow) -> None:
    """A `condense_context` row no completed condense wrote (CLN-10): a streaming one with its
    summary so far, or a final-looking one without `contextCondense`."""
    if step.partial:
        condense = {"cost": 0, "prevContextTokens": 150000, "newContextTokens": 0, "summary": ""}
        folder.row("say", "condense_context", None, partial=True, contextCondense=condense)
    else:
        folder.row("say", "condense_context", None, partial=False)


def _sliding_window(folder: Folder) -> None:
    """Roo's truncation (as 3.36.1 on writes it): half of the visible messages after the
    first tagged `truncationParent`, a user marker put where the kept ones begin, and a ui row;
    no summary."""
    truncation_id = f"t{len(folder.ui):07d}-5d1e-4f2a-9c3b-7e8d6a1b2c4f"
    api = folder.api
    visible = [
        i
        for i, m in enumerate(api)
        if "truncationParent" not in m and not m.get("isTruncationMarker")
    ]
    removed = (len(visible) - 1) // 2
    removed -= removed % 2
    assert removed > 0, "a sliding window over too short a history removes nothing"
    for index in visible[1 : removed + 1]:
        api[index]["truncationParent"] = truncation_id
    at = visible[removed + 1] if removed + 1 < len(visible) else len(api)
    first_kept_ts = api[at]["ts"] if at < len(api) else folder.clock
    api.insert(
        at,
        {
            "role": "user",
            "content": f"[Sliding window truncation: {removed} messages hidden to reduce context]",
            "ts": first_kept_ts - 1,
            "isTruncationMarker": True,
            "truncationId": truncation_id,
        },
    )
    truncation = {
        "truncationId": truncation_id,
        "messagesRemoved": removed,
        "prevContextTokens": 150000,
        "newContextTokens": 80000,
    }
    folder.row("say", "sliding_window_truncation", None, contextTruncation=truncation)
    folder.request(80000)
    folder.message("assistant", [{"type": "text", "text": "Continuing."}])


def _metadata(plan: TaskPlan) -> bytes:
    """task_metadata.json: files in context, and in Cline the models and the environment it ran
    in (CLN-3). Roo's line writes the files alone, with its own date names (Roo's
    FileContextTracker: `files_in_context` only)."""
    if plan.member != CLINE:
        entry = {
            "path": "src/parse.py",
            "record_state": "active",
            "record_source": "read_tool",
            "roo_read_date": T0 + 3000,
            "roo_edit_date": None,
            "user_edit_date": None,
        }
        return dumps({"files_in_context": [entry]})
    data: dict[str, Any] = {
        "files_in_context": [
            {
                "path": "src/parse.py",
                "record_state": "active",
                "record_source": "read_tool",
                "cline_read_date": T0 + 3000,
                "cline_edit_date": None,
                "user_edit_date": None,
            }
        ],
        "model_usage": [
            {
                "ts": T0 + 2000,
                "model_id": "gpt-5-probe",
                "model_provider_id": "openai",
                "mode": "act",
            }
        ],
    }
    if plan.member == CLINE and plan.version is not None:
        data["environment_history"] = [
            {
                "ts": T0 + 1000,
                "os_name": "linux",
                "os_version": "6.8.0",
                "os_arch": "x64",
                "host_name": "Cline CLI",
                "host_version": "1.0.10",
                "cline_version": plan.version,
            }
        ]
    return json.dumps(data, indent=2).encode()


def _play_sdk(plan: TaskPlan) -> dict[str, bytes]:
    """CLN-12: an SDK session folder: manifest, whole history, and the latest compaction only."""
    sid = plan.task_id
    messages: list[dict[str, Any]] = [
        {
            "id": "m0001",
            "role": "user",
            "content": [{"type": "text", "text": plan.title}],
            "ts": T0 + 1000,
        },
    ]
    compaction: dict[str, Any] | None = None
    clock = T0 + 1000
    for index, step in enumerate(plan.steps, 2):
        clock += 1500
        if isinstance(step, Turn):
            messages.append(
                {
                    "id": f"m{index:04d}",
                    "role": "assistant",
                    "content": [{"type": "text", "text": "Done a step."}],
                    "ts": clock,
                }
            )
            messages.append(
                {
                    "id": f"m{index:04d}u",
                    "role": "user",
                    "content": [{"type": "text", "text": step.text}],
                    "ts": clock + 10,
                }
            )
        elif isinstance(step, SdkCompact):  # overwritten: only the latest projection stays
            kind = "compaction_summary" if step.strategy == "agentic" else "compaction"
            compaction = {
                "version": 1,
                "updated_at": clock,
                "source_message_count": len(messages),
                "source_prefix_hash": "9f3a",
                "source_last_message_key": messages[-1]["id"],
                "messages": [
                    {
                        "id": f"s{index:04d}",
                        "role": "user",
                        "content": [{"type": "text", "text": "Summary so far."}],
                        "metadata": {"kind": kind},
                    }
                ],
            }
    files = {
        f"{sid}.json": json.dumps(
            {
                "session_id": sid,
                "status": "completed",
                "provider": "openai",
                "model": "gpt-5-probe",
                "cwd": "/home/user/project",
            },
            indent=2,
        ).encode(),
        f"{sid}.messages.json": json.dumps(
            {
                "version": 1,
                "updated_at": clock,
                "agent": "cline",
                "sessionId": sid,
                "origin": "cli",
                "messages": messages,
                "system_prompt": "You are Cline.",
            },
            indent=2,
        ).encode(),
    }
    if compaction is not None:
        files[f"{sid}.compaction.json"] = json.dumps(compaction, indent=2).encode()
    return files
