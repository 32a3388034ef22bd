"""A live chat session and the things that happen to it, as VS Code's model would record them.

`Session.state` is the live model in storage shape (the writer's extraction orders its keys).
Each method is one event of the timeline: typing, sending, streaming markdown, tool calls, a
compaction that starts and then completes or is cancelled, the result, removal and retry of
requests. Facts: research/vscode-format.md 2.3-2.5, 4.3, 5.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from generators.eras import Era, Manual
from generators.texts import FILES, TOOLS, sentence, uid, words

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
        content = {"value": self.era.in_progress, "uris": {}}
        self.current["response"].append(
            {"kind": self.marker_kind, "content": content, "progress": []}
        )
        return len(self.current["response"]) - 1

    def compaction_complete(self, index: int, summary: str | None) -> None:
        """The task resolves to the completed text (always, even when summarization failed)."""
        self.tick(2000, 30_000)
        content = {
            "value": self.era.completed,
            "isTrusted": False,
            "supportThemeIcons": False,
            "supportHtml": False,
            "supportAlertSyntax": False,
        }
        self.current["response"][index] = {
            "kind": self.marker_kind,
            "content": content,
            "progress": [],
        }
        round_id = self.rounds[-1]["id"] if self.rounds else uid(self.rng)
        if summary is None:
            entry: dict[str, Any] = {"toolCallRoundId": "", "text": "", "outcome": "budgetExceeded"}
        else:
            entry = {"toolCallRoundId": round_id, "text": summary}
            if self.rounds:
                self.rounds[-1]["summary"] = summary
        self.summaries.append(entry)

    def cancel(self) -> None:
        """The user stops the request: later chunks are dropped, no metadata is stored."""
        when = self.tick()
        self.current["result"] = {"timings": {"firstProgress": 900, "totalElapsed": when % 90_000}}
        self.current["modelState"] = {"value": 2, "completedAt": when}

    def finish(
        self,
        stray_summary: str | None = None,
        server_compaction: bool = False,
        manual_summary: str | None = None,
    ) -> None:
        """The request completes: its result and modelState are set (it is sealed from now)."""
        when = self.tick()
        metadata: dict[str, Any] = {
            "codeBlocks": [],
            "toolCallRounds": self.rounds,
            "toolCallResults": {},
            "modelMessageId": uid(self.rng),
            "responseId": uid(self.rng),
            "sessionId": self.state["sessionId"],
            "agentId": AGENT["id"],
        }
        if server_compaction and self.rounds:
            self.rounds[-1]["compaction"] = {
                "type": "compaction",
                "id": "cmp_" + uid(self.rng)[:18],
            }
        if manual_summary is not None:
            metadata["summary"] = {"toolCallRoundId": uid(self.rng), "text": manual_summary}
        else:
            self._store_summaries(metadata, stray_summary)
        self.current["result"] = {
            "timings": {"firstProgress": 700 + when % 900, "totalElapsed": 5000 + when % 60_000},
            "metadata": metadata,
        }
        self.current["modelState"] = {"value": 1, "completedAt": when}

    def _store_summaries(self, metadata: dict[str, Any], stray: str | None) -> None:
        entries = list(self.summaries)
        if stray is not None:
            entries.append({"toolCallRoundId": uid(self.rng), "text": stray})
        if not entries:
            return
        if self.era.summary_field == "summaries":
            metadata["summaries"] = [self._enrich(entry) for entry in entries]
            return
        good = [entry for entry in entries if entry["text"]]
        if good:  # the singular field holds the last summary of the turn
            metadata["summary"] = good[-1]

    def _enrich(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A summaries[] entry carries more fields (source, model, durations...)."""
        if not entry["text"]:
            return entry
        return {
            **entry,
            "source": "foreground",
            "outcome": "success",
            "model": MODEL_ID.split("/")[-1],
            "durationMs": self.rng.randrange(3000, 40_000),
            "contextLengthBefore": self.rng.randrange(90_000, 190_000),
            "numRounds": len(self.rounds),
        }

    def manual_start(self) -> None:
        """`/compact` runs: a progressMessage part with the in-progress text."""
        self.progress_message(self.manual.in_progress)

    def manual_done(self) -> None:
        """`/compact` finished: a bare markdown part with the completed text."""
        self.tick(2000, 20_000)
        self.current["response"].append(markdown(self.manual.completed_markdown))
