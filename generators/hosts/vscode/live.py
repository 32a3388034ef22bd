"""A live chat session and the things that happen to it, as VS Code's model would record them.

`Session.state` is the live model in storage shape (the writer's extraction orders its keys).
Each method is one event of the timeline: typing, sending, streaming markdown, tool calls, a
compaction that starts and then completes or is cancelled, the result, removal and retry of
requests. Facts: VS Code's `chatModel.ts` and the storage schema of `chatSessionOperationLog.ts`;
Copilot Chat's summarization code (microsoft/vscode-copilot-chat:
`summarizedConversationHistory.tsx`, `agentIntent.ts`, `toolCallingLoop.ts`,
`defaultIntentRequestHandler.ts`). Each method names the rule of spec/SPEC.md that states the
fact it reproduces.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from .eras import Era, Manual
from .texts import FILES, TOOLS, sentence, uid, words

AGENT = {
    "extensionId": {"value": "GitHub.copilot-chat", "_lower": "github.copilot-chat"},
    "id": "github.copilot.editsAgent",
    "name": "agent",
    "fullName": "GitHub Copilot",
    "isDefault": True,
    "locations": ["panel"],
    "modes": ["agent"],
}
MODEL_ID = "copilot/claude-sonnet-4"
BASE_URI = {"$mid": 1, "path": "/home/dev/project/", "scheme": "file"}


def day_ms(date: str) -> int:
    """Milliseconds since the epoch at midnight UTC of an ISO date."""
    return int(datetime.fromisoformat(date).replace(tzinfo=UTC).timestamp()) * 1000


def markdown(text: str) -> dict[str, Any]:
    """A markdown response part: a bare IMarkdownString, no `kind`."""
    return {"value": text, "supportThemeIcons": False, "supportHtml": False, "baseUri": BASE_URI}


class Session:
    """The live model of one chat session."""

    def __init__(self, era: Era, manual: Manual, rng: random.Random, marker_kind: str) -> None:
        self.era = era
        self.manual = manual
        self.rng = rng
        self.marker_kind = marker_kind
        self.clock = day_ms(era.from_date) + rng.randrange(1, 20) * 86_400_000
        self.clock += rng.randrange(8 * 3_600_000, 18 * 3_600_000)
        self.state: dict[str, Any] = {
            "version": 3,
            "creationDate": self.clock,
            "initialLocation": "panel",
            "responderUsername": "GitHub Copilot",
            "sessionId": uid(rng),
            "requests": [],
        }
        self.rounds: list[dict[str, Any]] = []  # tool-call rounds of the running request
        self.summaries: list[dict[str, Any]] = []  # summary entries of the running request
        self.completed_text = era.completed  # marker texts (a translation for another locale)
        self.in_progress_text = era.in_progress
        self.background: tuple[str, str] | None = None  # (round id, text) of a finished pass

    # time and the input box -------------------------------------------------------------

    def tick(self, low: int = 200, high: int = 4000) -> int:
        self.clock += self.rng.randrange(low, high)
        return self.clock

    def type_input(self, text: str) -> None:
        """The input box holds `text` (inputState appears when it was empty)."""
        self.state["inputState"] = {
            "attachments": [],
            "mode": {"id": "agent", "kind": "agent"},
            "selectedModel": {"identifier": MODEL_ID, "metadata": {"name": "Claude Sonnet 4"}},
            "inputText": text,
            "selections": [],
            "contrib": {},
        }

    def clear_input(self) -> None:
        """The input box is emptied: inputState becomes undefined (a kind-3 line)."""
        self.state.pop("inputState", None)

    def set_title(self, text: str) -> None:
        self.state["customTitle"] = text

    def set_pending_edits(self, value: bool | None) -> None:
        if value is None:
            self.state.pop("hasPendingEdits", None)
        else:
            self.state["hasPendingEdits"] = value

    # requests ---------------------------------------------------------------------------

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.state["requests"]  # type: ignore[no-any-return]

    @property
    def current(self) -> dict[str, Any]:
        return self.requests[-1]

    def send(self, text: str, slash: bool = False) -> None:
        """A new request, running (modelState 0), with an empty response."""
        when = self.tick()
        part: dict[str, Any] = {
            "range": {"start": 0, "endExclusive": len(text)},
            "editorRange": {
                "startLineNumber": 1,
                "startColumn": 1,
                "endLineNumber": 1,
                "endColumn": len(text) + 1,
            },
            "text": text,
            "kind": "text",
        }
        request: dict[str, Any] = {
            "requestId": "request_" + uid(self.rng),
            "timestamp": when,
            "message": {"text": text, "parts": [part]},
            "agent": AGENT,
            "modelId": MODEL_ID,
            "variableData": {"variables": []},
            "response": [],
            "responseId": "response_" + uid(self.rng),
            "modelState": {"value": 0},
            "contentReferences": [],
            "codeCitations": [],
            "timeSpentWaiting": when,
        }
        if slash:
            command = {"name": self.manual.slash_command, "description": "Compact the conversation"}
            request["slashCommand"] = command
            part["kind"] = "slash"
            part["slashCommand"] = command
        self.requests.append(request)
        self.rounds = []
        self.summaries = []
        self.clear_input()

    def remove(self, index: int) -> None:
        del self.requests[index]

    def truncate(self, index: int) -> None:
        """Requests from `index` on are dropped (before a retry sends a new one there)."""
        del self.requests[index:]

    # the streaming response -------------------------------------------------------------

    def stream(self, text: str) -> None:
        """Markdown grows: the last markdown part is replaced by a longer copy, or starts."""
        self.tick(50, 900)
        response = self.current["response"]
        if response and "kind" not in response[-1]:
            response[-1] = markdown(response[-1]["value"] + text)
        else:
            response.append(markdown(text))

    def progress_message(self, text: str) -> None:
        self.current["response"].append(
            {"kind": "progressMessage", "content": {"value": text, "uris": {}}}
        )

    def tool_start(self) -> int:
        """A tool invocation appears (not complete yet); returns its part index."""
        self.tick()
        tool = self.rng.choice(TOOLS)
        call_id = "toolu_" + uid(self.rng).replace("-", "")[:24]
        message = f"Running {tool.removeprefix('copilot_')}"
        part = {
            "kind": "toolInvocationSerialized",
            "invocationMessage": {"value": message, "uris": {}},
            "isConfirmed": {"type": 1},
            "isComplete": False,
            "source": {"type": "internal", "label": "Built-In"},
            "toolCallId": call_id,
            "toolId": tool,
        }
        self.current["response"].append(part)
        round_id = uid(self.rng)
        self.rounds.append(
            {
                "response": sentence(self.rng, 3, 8),
                "toolCalls": [{"name": tool, "arguments": "{}", "id": call_id}],
                "toolInputRetry": 0,
                "id": round_id,
            }
        )
        return len(self.current["response"]) - 1

    def tool_finish(self, index: int) -> None:
        """The tool invocation completes: its part changes (deep-compared, so re-pushed)."""
        self.tick()
        part = dict(self.current["response"][index])
        part["pastTenseMessage"] = {"value": "Ran " + part["toolId"], "uris": {}}
        part["isComplete"] = True
        part["resultDetails"] = {"output": words(self.rng, 5)}
        self.current["response"][index] = part

    def edit_start(self) -> int:
        """An edit group for a file appears while the edits stream in; returns its index."""
        self.tick()
        name = self.rng.choice(FILES)
        uri = {
            "$mid": 1,
            "external": f"file:///home/dev/project/{name}",
            "path": f"/home/dev/project/{name}",
            "scheme": "file",
        }
        line = self.rng.randrange(1, 200)
        edit = {
            "text": words(self.rng, 6),
            "range": {
                "startLineNumber": line,
                "startColumn": 1,
                "endLineNumber": line + 2,
                "endColumn": 1,
            },
        }
        self.current["response"].append({"kind": "textEditGroup", "uri": uri, "edits": [[edit]]})
        return len(self.current["response"]) - 1

    def edit_done(self, index: int) -> None:
        """The editing session settles: the group is marked done (deep-compared: re-pushed)."""
        part = dict(self.current["response"][index])
        part["done"] = True
        self.current["response"][index] = part

    def compaction_start(self) -> int:
        """The compaction task appears with the era's in-progress text; returns its index."""
        self.tick()
        content = {"value": self.in_progress_text, "uris": {}}
        self.current["response"].append(
            {"kind": self.marker_kind, "content": content, "progress": []}
        )
        return len(self.current["response"]) - 1

    def compaction_complete(self, index: int, summary: str | None) -> None:
        """The task resolves to the completed text (always, even when summarization failed).

        SUM-6, UNC-1 (the anchor is chosen in Copilot's `summarizedConversationHistory.tsx`): the
        summary anchors on the last round of this request when it has two rounds or more, and
        that round keeps the text (`round.summary`); otherwise it anchors on the previous
        request's last round, which is already stored, so nothing lands in any round. SUM-2,
        SUM-1, SUM-3: the singular era keeps the last summary, the array era two entries per
        success (`_entries`), one failure entry per failure.
        """
        self.tick(2000, 30_000)
        self.current["response"][index] = self._marker(self.completed_text)
        if summary is None:
            if self.era.summary_field == "summaries":
                self.summaries.append(self._failure_entry())
            return
        if len(self.rounds) >= 2:
            round_id = self.rounds[-1]["id"]
            self.rounds[-1]["summary"] = summary
        else:
            round_id = self.previous_round_id()
        self.summaries += self._entries(round_id, summary)

    def _marker(self, text: str) -> dict[str, Any]:
        content = {
            "value": text,
            "isTrusted": False,
            "supportThemeIcons": False,
            "supportHtml": False,
            "supportAlertSyntax": False,
        }
        return {"kind": self.marker_kind, "content": content, "progress": []}

    def previous_round_id(self) -> str:
        """The id of the previous request's last stored round (a fresh id when it has none)."""
        if len(self.requests) >= 2:
            metadata = self.requests[-2].get("result", {}).get("metadata", {})
            rounds = metadata.get("toolCallRounds") or []
            if rounds:
                return str(rounds[-1]["id"])
        return uid(self.rng)

    def _entries(self, round_id: str, text: str) -> list[dict[str, Any]]:
        """SUM-2, SUM-1: a successful foreground compaction. The singular era keeps one
        {toolCallRoundId, text}; the array era pushes two entries with the same id and text:
        the enriched copy of `buildPrompt` (Copilot's `agentIntent.ts`: source, outcome,
        contextLengthBefore...), then the raw render metadata of `runOne` (`toolCallingLoop.ts`)."""
        raw = {"toolCallRoundId": round_id, "text": text}
        if self.era.summary_field != "summaries":
            return [raw]
        model = MODEL_ID.split("/")[-1]
        enriched = {
            **raw,
            "model": model,
            "summarizationMode": "full",
            "numRounds": len(self.rounds),
            "durationMs": self.rng.randrange(3000, 40_000),
            "source": "foreground",
            "outcome": "success",
            "contextLengthBefore": self.rng.randrange(90_000, 190_000),
        }
        return [enriched, {**raw, "model": model, "summarizationMode": "full"}]

    def _failure_entry(self) -> dict[str, Any]:
        """SUM-3: a failed foreground compaction in the array era: empty id and text."""
        return {
            "toolCallRoundId": "",
            "text": "",
            "model": MODEL_ID.split("/")[-1],
            "source": "foreground",
            "outcome": self.rng.choice(("budgetExceeded", "error")),
            "contextLengthBefore": self.rng.randrange(90_000, 190_000),
        }

    def background_pass(self, text: str) -> None:
        """UNC-5: a background pass finished while this request ran; its render set
        `summary` on the anchor round (the last round so far) before any apply, marker or entry.
        """
        if not self.rounds:
            return
        self.rounds[-1]["summary"] = text
        self.background = (self.rounds[-1]["id"], text)

    def background_apply(self, text: str) -> None:
        """UNC-4, SUM-1: a finished background pass is applied at a render of a later request:
        a task whose initial text and result are both the completed text. 0.38-0.39 store no
        entry; the array era one entry with source "background", anchored on the earlier
        request's round (the text is the one that round already holds)."""
        self.tick(500, 3000)
        self.current["response"].append(self._marker(self.completed_text))
        if self.era.summary_field != "summaries":
            return
        round_id = self.background[0] if self.background else uid(self.rng)
        self.summaries.append(
            {
                "toolCallRoundId": round_id,
                "text": text,
                "model": MODEL_ID.split("/")[-1],
                "summarizationMode": "full",
                "numRounds": len(self.rounds),
                "durationMs": self.rng.randrange(3000, 40_000),
                "source": "background",
                "outcome": "success",
                "contextLengthBefore": self.rng.randrange(90_000, 190_000),
            }
        )
        self.background = None

    def other_task(self, text: str) -> None:
        """MRK-3: Copilot reports other work with the same part kind, e.g. workspace
        search's "Collecting workspace information"; its task returns nothing, the text stays."""
        self.tick()
        content = {"value": text, "uris": {}}
        self.current["response"].append(
            {"kind": "progressTaskSerialized", "content": content, "progress": []}
        )

    def clear_to_previous_tool_invocation(self, warning: bool) -> None:
        """SUM-5 (VS Code's `clearToPreviousToolInvocation` in `chatModel.ts`): a retried model
        fetch (filter, network, 5xx) drops every response part after the last tool invocation
        (all parts when there is none); filter retries add a warning. A compaction marker of
        that iteration goes; the turn's metadata stays."""
        self.tick()
        response = self.current["response"]
        last = max(
            (n for n, p in enumerate(response) if p.get("kind") == "toolInvocationSerialized"),
            default=-1,
        )
        del response[last + 1 :]
        if warning:
            text = "The response was filtered. Retrying the request."
            response.append({"kind": "warning", "content": {"value": text, "uris": {}}})

    def cancel(self) -> None:
        """The user stops the request: later chunks are dropped, no metadata is stored."""
        when = self.tick()
        self.current["result"] = {"timings": {"firstProgress": 900, "totalElapsed": when % 90_000}}
        self.current["modelState"] = {"value": 2, "completedAt": when}

    def finish(
        self,
        stray_summary: str | None = None,
        provider: tuple[str, ...] = (),
        manual_summary: str | None = None,
        error: str | None = None,
    ) -> None:
        """The request completes: its result and modelState are set (it is sealed from now)."""
        when = self.tick()
        ids = {
            "modelMessageId": uid(self.rng),
            "responseId": uid(self.rng),
            "sessionId": self.state["sessionId"],
            "agentId": AGENT["id"],
        }
        for offset, ident in enumerate(provider):
            self._provider_compaction(max(0, len(self.rounds) - len(provider) + offset), ident)
        timings = {"firstProgress": 700 + when % 900, "totalElapsed": 5000 + when % 60_000}
        if error is not None:
            self.current["result"] = self._error_result(error, timings, ids)
            self.current["modelState"] = {"value": 1, "completedAt": when}
            return
        metadata: dict[str, Any] = {
            "codeBlocks": [],
            "toolCallRounds": self.rounds,
            "toolCallResults": {},
            **ids,
        }
        if manual_summary is not None:
            anchor = self.previous_round_id()
            metadata["summary"] = {"toolCallRoundId": anchor, "text": manual_summary}
        else:
            self._store_summaries(metadata, stray_summary)
        self.current["result"] = {"timings": timings, "metadata": metadata}
        self.current["modelState"] = {"value": 1, "completedAt": when}

    def _provider_compaction(self, index: int, ident: str) -> None:
        """SUM-7: a Responses-API stream delivered a compaction item: the round stores
        `compaction = {type, id, encrypted_content}`; no marker, no summary entry."""
        if not self.rounds:
            return
        blob = "gAAAAB" + uid(self.rng).replace("-", "") + uid(self.rng).replace("-", "")
        self.rounds[index]["compaction"] = {
            "type": "compaction",
            "id": ident,
            "encrypted_content": blob,
        }

    def _error_result(
        self, error: str, timings: dict[str, Any], ids: dict[str, Any]
    ) -> dict[str, Any]:
        """The last fetch failed (Copilot's `defaultIntentRequestHandler.ts`). "fetch" (UNC-1):
        errorDetails and a metadata with only the rounds, the tool results, the resolved model
        and the ids: no summary/summaries. "no-response" (UNC-2): errorDetails and the ids only.
        modelState stays Complete (VS Code derives Failed from errorDetails)."""
        if error == "fetch":
            details: dict[str, Any] = {
                "message": "Sorry, your request failed. Reason: Server error: 503",
                "responseIsIncomplete": True,
            }
            metadata: dict[str, Any] = {
                "toolCallRounds": self.rounds,
                "toolCallResults": {},
                "resolvedModel": MODEL_ID.split("/")[-1],
                **ids,
            }
        else:
            details = {"message": "Sorry, no response was returned."}
            metadata = {"responseId": ids["responseId"], "sessionId": ids["sessionId"]}
        return {"errorDetails": details, "timings": timings, "metadata": metadata}

    def _store_summaries(self, metadata: dict[str, Any], stray: str | None) -> None:
        entries = list(self.summaries)
        if stray is not None:
            entries.append({"toolCallRoundId": uid(self.rng), "text": stray})
        if not entries:
            return
        if self.era.summary_field == "summaries":
            metadata["summaries"] = entries
            return
        # the singular field holds the last summary pushed on the turn (SUM-2)
        metadata["summary"] = entries[-1]

    # flags and forks --------------------------------------------------------------------

    def flag(self, index: int, partial: bool = False, hidden: bool = False) -> None:
        """CNT-5, CNT-6 (VS Code's `_setDisabledRequests` in `chatModel.ts`): the editing
        session disables a request; the next send would remove it (partial: finalize its undo).
        The request object is replaced, so the writer sees a changed sealed request (which it
        still does not diff)."""
        request = dict(self.requests[index])
        if hidden:
            request["isHidden"] = True
        else:
            flag: dict[str, Any] = {"requestId": request["requestId"]}
            if partial:
                flag["afterUndoStop"] = uid(self.rng)
            request["shouldBeRemovedOnSend"] = flag
        self.requests[index] = request

    def fork(self, title: str) -> None:
        """UNC-7 (VS Code's `chatForkActions.ts`): `/fork` clones the model into a new session:
        new sessionId, customTitle "Forked: <title>", bare-UUID requestIds, new responseIds,
        timestamp = fork time + index, modelState Complete, flags cleared; responses and results
        copied verbatim."""
        when = self.tick()
        requests = []
        for index, old in enumerate(self.requests):
            cleared = ("shouldBeRemovedOnSend", "isHidden")
            request = {k: v for k, v in old.items() if k not in cleared}
            request["requestId"] = uid(self.rng)
            request["responseId"] = "response_" + uid(self.rng)
            request["timestamp"] = when + index
            request["modelState"] = {"value": 1, "completedAt": when + index}
            requests.append(request)
        self.state = {
            "version": 3,
            "creationDate": when,
            "customTitle": f"Forked: {title}",
            "initialLocation": "panel",
            "responderUsername": "GitHub Copilot",
            "sessionId": uid(self.rng),
            "requests": requests,
        }

    def manual_start(self) -> None:
        """`/compact` runs: a progressMessage part with the in-progress text."""
        self.progress_message(self.manual.in_progress)

    def manual_done(self) -> None:
        """`/compact` finished: a bare markdown part with the completed text."""
        self.tick(2000, 20_000)
        self.current["response"].append(markdown(self.manual.completed_markdown))
