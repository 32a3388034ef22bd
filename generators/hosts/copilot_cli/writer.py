"""A model of the Copilot CLI's session event writer, per era (spec/hosts/copilot-cli.md).

Restated from the event schemas the package shipped (`schemas/session-events.schema.json`,
0.0.376-1.0.60), the Copilot SDK's generated session-event types (github/copilot-sdk
`nodejs/src/generated/session-events.ts`) and the files the released CLI 1.0.102 wrote offline
(generators/harvest): an envelope `{type, data, id, timestamp, parentId}` per line, `agentId`
last on a sub-agent's events, each event's `parentId` the previous event's id.

- `P0` (0.0.372): events without any compaction (the release could only truncate).
- `P1` (1.0.60's shapes): `session.compaction_start` with the token breakdown, then
  `session.compaction_complete` with `success`, `summaryContent`, the checkpoint and, for a
  failure, `error`; no `outcome`, no `trigger`. A cancelled `/compact` (Escape) is a complete
  with `success: false`; a cancelled background pass writes nothing after its start.
- `P2` (1.0.102's shapes): the start and complete carry `compactionAttemptId`, `trigger`,
  `outcome` (`applied`, `failed`, `cancelled`); the summary call's `model.*` events sit
  between them; `session.usage_checkpoint` follows an applied one; a rewind rewrites the file
  and writes a `session.info` with `infoType: "rewind"` (observed); a sub-agent's id is a UUID.

A fork (CPL-6) copies its parent's events with their ids and time stamps; its `session.start`
keeps the parent's event id and gets the fork's session id and time; a copied checkpoint path
points into the fork's folder; the fork's mark, a `session.info` with `infoType: "fork"`, is
written with its members in the order the CLI writes it (`data` last). No text of GitHub's
system prompt is modelled: `system.message` events are left out. Time and ids come from a
seeded RNG and a clock the plan moves, so a build is byte-identical.
"""

from __future__ import annotations

import random
from typing import Any

from ..common import Clock, line, start, uuid, words
from .plan import (
    Cleared,
    Compact,
    CopilotPlan,
    ForkNote,
    Garbage,
    Prompt,
    Resume,
    Rewind,
    SubAgent,
    Truncate,
)

__all__ = ["Session", "play"]

VERSION = {"P0": "0.0.372", "P1": "1.0.60", "P2": "1.0.102"}
START = {"P0": "2025-12-20T09:00:00", "P1": "2026-06-10T09:00:00", "P2": "2026-11-20T09:00:00"}
HOME = "/home/user/.copilot/session-state"  # no machine's path: a made-up home (CPL-11)
CWD = "/home/user/project"
MODEL = "gpt-4.1"
TOKEN_LIMIT = 64000


class Session:
    """One session file being written: its events as objects until the end (a rewind and a
    fork rewrite them)."""

    def __init__(self, plan: CopilotPlan, clock: Clock | None = None) -> None:
        self.plan = plan
        self.era = plan.era
        self.rng = random.Random(f"copilot/{plan.era}/{plan.seed}/{_depth(plan)}")
        self.clock = clock or Clock(start(START[plan.era]))
        self.session = uuid(self.rng, 4)
        self.events: list[dict[str, Any]] = []
        self.glue: set[int] = set()  # indexes of events written glued to the one before
        self.garbage: dict[int, bytes] = {}  # index -> a damaged line written before it
        self.prompts: list[int] = []  # index of each own prompt's user.message (CPL-8)
        self.checkpoints = 0
        self.turns = 0

    # -- the envelope -----------------------------------------------------------------------

    def event(self, kind: str, data: dict[str, Any], agent: str | None = None) -> dict[str, Any]:
        """Append one event; its `parentId` is the previous event's id (CPL-1)."""
        value: dict[str, Any] = {
            "type": kind,
            "data": data,
            "id": uuid(self.rng, 4),
            "timestamp": self.clock.tick(7),
            "parentId": self.events[-1]["id"] if self.events else None,
        }
        if agent is not None:
            value["agentId"] = agent  # CPL-5
        self.events.append(value)
        return value

    def open(self) -> None:
        """`session.start` (CPL-1): the session's id, the CLI version, the working folder."""
        data: dict[str, Any] = {
            "sessionId": self.session,
            "version": 1,
            "producer": "copilot-agent",
            "copilotVersion": VERSION[self.era],
            "startTime": self.clock.stamp(),
        }
        if self.era != "P0":
            data["selectedModel"] = MODEL
            data["context"] = {"cwd": CWD}
        if self.era == "P2":
            data["alreadyInUse"] = False
        self.event("session.start", data)

    # -- steps ------------------------------------------------------------------------------

    def prompt(self, step: Prompt, agent: str | None = None) -> None:
        """A user message and the agent's turn: its shell calls, then its answer."""
        self.clock.wait(20)
        turn = str(self.turns if agent is None else 0)
        if agent is None:
            self.prompts.append(len(self.events))
            self.turns += 1
        self.event("user.message", {"content": step.text, "turnId": turn}, agent)
        self.turn(step, turn, agent)

    def turn(self, step: Prompt, turn: str, agent: str | None) -> None:
        self.event("assistant.turn_start", {"turnId": turn}, agent)
        for call in range(step.tools):
            ident = f"call_{self.rng.getrandbits(48):012x}"
            request = {"toolCallId": ident, "name": "bash", "arguments": {"command": "make"}}
            self.event("assistant.message", self._answer("", [request]), agent)
            self.event("tool.execution_start", {"toolCallId": ident, "toolName": "bash"}, agent)
            result = {"content": f"step {call + 1} done"}
            done = {"toolCallId": ident, "success": True, "result": result}
            self.event("tool.execution_complete", done, agent)
        if self.era == "P2":
            self.event("session.usage_record", {"model": MODEL, "inputTokens": 1000}, agent)
        self.event("assistant.message", self._answer(words(self.rng, 8), []), agent)
        self.event("assistant.turn_end", {"turnId": turn}, agent)

    def _answer(self, text: str, requests: list[dict[str, Any]]) -> dict[str, Any]:
        return {"messageId": uuid(self.rng, 4), "content": text, "toolRequests": requests}

    def compact(self, step: Compact, agent: str | None = None) -> None:
        """A compaction's events per era (CPL-3, CPL-4)."""
        attempt = uuid(self.rng, 4)
        begin: dict[str, Any] = {"systemTokens": 4713, "conversationTokens": 9000}
        begin["toolDefinitionsTokens"] = 5698
        if self.era == "P2":
            begin = {"compactionAttemptId": attempt, "model": MODEL, **begin}
            begin.update(currentTokens=19411, tokenLimit=TOKEN_LIMIT, trigger=step.trigger)
        self.event("session.compaction_start", begin, agent)
        if step.during is not None:  # a background pass runs beside the turn
            self.event("user.message", {"content": step.during.text, "turnId": "1"}, agent)
            self.turn(step.during, "1", agent)
        if step.end == "lone":
            return
        summary = f"Summary: {words(self.rng, 12)}"
        if self.era == "P2":
            self._model_call(summary if step.end == "applied" else None, agent)
        complete = self._complete(step, summary, attempt, agent)
        self.event("session.compaction_complete", complete, agent)
        if step.end == "applied" and self.era == "P2":
            self.event("session.usage_checkpoint", {"totalPremiumRequests": 0}, agent)

    def _model_call(self, summary: str | None, agent: str | None) -> None:
        """P2: the summary call's own events (companions, CPL-4)."""
        self.event("model.turn_started", {"kind": "turn_started", "model": MODEL}, agent)
        self.event("model.model_call_started", {"kind": "model_call_started"}, agent)
        if summary is None:
            failure = {"kind": "model_call_failure", "statusCode": 500}
            self.event("model.model_call_failure", failure, agent)
        else:
            self.event("model.model_call_success", {"kind": "model_call_success"}, agent)
            message = {"content": summary, "role": "assistant"}
            self.event("model.message", {"kind": "message", "message": message}, agent)
        self.event("model.turn_ended", {"kind": "turn_ended", "model": MODEL}, agent)

    def _complete(
        self, step: Compact, summary: str, attempt: str, agent: str | None
    ) -> dict[str, Any]:
        data: dict[str, Any]
        if step.end in ("applied", "empty"):
            data = {"success": True}
            if self.era == "P2":
                data.update(outcome="applied", compactionAttemptId=attempt)
            data.update(preCompactionTokens=19411, postCompactionTokens=10494)
            data.update(messagesRemoved=6, summaryContent=summary if step.end == "applied" else "")
            if step.focus is not None:
                data["customInstructions"] = step.focus
            if self.era == "P2":
                data.update(tokenLimit=TOKEN_LIMIT, trigger=step.trigger)
            if agent is None and step.end == "applied":  # a sub-agent keeps no checkpoint
                self.checkpoints += 1
                name = f"{self.checkpoints:03d}-session-{self.session[:8]}.md"
                data["checkpointNumber"] = self.checkpoints
                data["checkpointPath"] = f"{HOME}/{self.session}/checkpoints/{name}"
            return data
        if step.end == "failed":
            data = {"success": False, "error": "Failed to get response from the AI model"}
            if self.era == "P2":
                data.update(outcome="failed", failureReason="provider_server_error")
                data.update(statusCode=500, compactionAttemptId=attempt, trigger=step.trigger)
            return data
        # cancelled: P2 writes the outcome; P1 an Escape during /compact
        if self.era == "P2":
            return {"success": False, "outcome": "cancelled", "compactionAttemptId": attempt}
        return {"success": False, "error": "Compaction Cancelled"}

    def resume(self) -> None:
        """CPL-7: the process exits; a second one appends to the same file."""
        self.event("session.shutdown", {"shutdownType": "routine"})
        self.clock.wait(60)
        data: dict[str, Any] = {"resumeTime": self.clock.stamp(), "eventCount": len(self.events)}
        if self.era != "P0":
            data["context"] = {"cwd": CWD}
        data["alreadyInUse"] = False
        self.event("session.resume", data)

    def sub_agent(self, step: SubAgent) -> None:
        """CPL-5: a task sub-agent's events, each with its `agentId`."""
        call = f"call_{self.rng.getrandbits(48):012x}"
        agent = uuid(self.rng, 4) if self.era == "P2" else call
        self.event("user.message", {"content": "run the tests in a sub-agent", "turnId": "0"})
        self.event("assistant.turn_start", {"turnId": str(self.turns)})
        self.event("tool.execution_start", {"toolCallId": call, "toolName": "task"})
        self.event("subagent.started", {"toolCallId": call, "agentName": "task"}, agent)
        self.event("user.message", {"content": "Run the tests.", "turnId": "0"}, agent)
        self.turn(Prompt("", tools=1), "0", agent)
        for compaction in step.compactions:
            self.compact(compaction, agent)
        self.event("subagent.completed", {"toolCallId": call, "agentName": "task"}, agent)
        self.event("tool.execution_complete", {"toolCallId": call, "success": True})
        self.event("assistant.turn_end", {"turnId": str(self.turns)})

    def rewind(self, step: Rewind) -> None:
        """CPL-8: a process resumes, rewinds to a prompt: the file is written again without
        the events from that prompt on; its own resume stays, then (P2) the rewind note."""
        self.resume()
        resume = self.events.pop()
        cut = self.prompts[step.to - 1]
        del self.events[cut:]
        self.prompts = self.prompts[: step.to - 1]
        self.glue = {i for i in self.glue if i < cut}
        self.garbage = {i: g for i, g in self.garbage.items() if i < cut}
        self.checkpoints = sum(
            1
            for e in self.events
            if e["type"] == "session.compaction_complete" and "checkpointNumber" in e["data"]
        )  # the CLI deletes the checkpoint files of the removed compactions
        self.events.append(resume)
        if self.era == "P2":
            note = {"infoType": "rewind", "message": "Rewound the conversation."}
            self.event("session.info", note)

    def play(self, steps: tuple[Any, ...]) -> None:
        pending_glue = False
        for step in steps:
            before = len(self.events)
            if isinstance(step, Garbage):
                if step.glued:
                    pending_glue = True
                else:
                    self.garbage[len(self.events)] = b'{"type": "session.info", "data": {\n'
                continue
            self._step(step)
            if pending_glue and len(self.events) > before:  # the step's events on one line
                self.glue.update(range(before, len(self.events)))
                pending_glue = False

    def _step(self, step: Any) -> None:
        if isinstance(step, Prompt):
            self.prompt(step)
        elif isinstance(step, Compact):
            self.compact(step)
        elif isinstance(step, Resume):
            self.resume()
        elif isinstance(step, SubAgent):
            self.sub_agent(step)
        elif isinstance(step, Truncate):
            data = {"tokenLimit": TOKEN_LIMIT, "messagesRemovedDuringTruncation": 4}
            self.event("session.truncation", {**data, "performedBy": "BasicTruncator"})
        elif isinstance(step, Cleared):
            self.event("session.context_cleared", {"messagesCleared": 6})
            self.event("session.handoff", {"sourceType": "local", "summary": "moved"})
        elif isinstance(step, ForkNote):
            note = "Forked this session into another session."
            self.event("session.info", {"infoType": "fork", "message": note})
        elif isinstance(step, Rewind):
            self.rewind(step)
        else:  # pragma: no cover - the plan's step types are all above
            raise TypeError(step)

    # -- a fork ---------------------------------------------------------------------------

    def copy_from(self, parent: Session, mark: bool) -> None:
        """CPL-6: the parent's events under their ids and times, the fork's start, the mark."""
        self.clock.now = max(self.clock.now, parent.clock.now)
        self.clock.wait(90)
        head = dict(parent.events[0])
        head["timestamp"] = self.clock.stamp()
        head["data"] = {**head["data"], "sessionId": self.session, "startTime": head["timestamp"]}
        self.events = [head]
        for value in parent.events[1:]:
            data = value["data"]
            path = data.get("checkpointPath") if isinstance(data, dict) else None
            if isinstance(path, str):  # the copied checkpoint lies in the fork's folder
                data = {**data, "checkpointPath": path.replace(parent.session, self.session)}
            self.events.append({**value, "data": data})
        self.checkpoints = parent.checkpoints
        if mark:
            note = f"Forked from another session as {self.session}."
            self.events.append(
                {
                    "type": "session.info",
                    "id": uuid(self.rng, 4),
                    "timestamp": head["timestamp"],
                    "parentId": self.events[-1]["id"],
                    "data": {"infoType": "fork", "message": note},
                }
            )

    # -- bytes ----------------------------------------------------------------------------

    def bytes(self) -> bytes:
        out = bytearray()
        for index, value in enumerate(self.events):
            if index in self.garbage:
                out += self.garbage[index]
            data = line(value)
            if index in self.glue and out.endswith(b"\n"):
                out[-1:] = data  # glued to the previous event on one line (JSV-1)
            else:
                out += data
        if self.plan.torn:
            out += b'{"type":"session.compaction_complete","data":{"success":tr'
        return bytes(out)


def _depth(plan: CopilotPlan) -> int:
    return 0 if plan.parent is None else 1 + _depth(plan.parent)


def play(plan: CopilotPlan) -> Session:
    """The plan's session file: its parent's copy first when it is a fork (CPL-6)."""
    if plan.parent is None:
        session = Session(plan)
        session.open()
    else:
        parent = play(plan.parent)
        session = Session(plan, Clock(parent.clock.now))
        session.copy_from(parent, plan.mark)
    session.play(plan.steps)
    return session
