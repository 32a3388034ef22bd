"""A model of Qwen Code's chat recorder, per era (spec/hosts/qwen-code.md, QWN-1..QWN-10).

Restated from QwenLM/qwen-code `packages/core/src/services/chatRecordingService.ts`
(`createBaseRecord`, `recordUserMessage`, `recordAssistantTurn`, `recordToolResult`,
`recordSlashCommand`, `recordChatCompression`, `rewindRecording`, `recordCustomTitle`), the
compression of `services/chatCompressionService.ts` (the summary, then the model's
acknowledgement, then what is kept), `LlmChat.compressFast` (0.24: tool results cleared, no
summary), `SessionService.forkSession` (`--fork-session`: the live chain copied, each record
stamped `forkedFrom`) and the packed 0.1.4, 0.8.2, 0.15.10 and 0.24.4 `cli.js`.

- `Q0` (0.1.x): one JSON document `{sessionId, projectHash, startTime, lastUpdated,
  messages}` written with two-space indentation and rewritten whole; reply messages are typed
  `qwen`; a compression replaces the history in memory only.
- `Q1` (0.5 and later): one record a line, each `{uuid, parentUuid, sessionId, timestamp,
  type, cwd, version, gitBranch, ...}` (0.24 adds `provenance`); a completed compression
  appends one `system`/`chat_compression` record whose `compressedHistory` is the new history.

Time and ids come from a seeded RNG and the plan's clock.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..common import Clock, line, start, uuid, words
from .plan import (
    QwenAgentTurn,
    QwenCompress,
    QwenGarbage,
    QwenNearMiss,
    QwenPlan,
    QwenResume,
    QwenRewind,
    QwenStray,
    QwenTitle,
    QwenTurn,
)

__all__ = ["QwenSession", "play"]

START = {"Q0": "2025-08-20T09:00:00", "Q1": "2026-07-14T09:00:00"}
CWD = "/home/dev/projects/parser"
PROJECT_HASH = "5c3f0e9a7d1b2c4e6f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
ACK = "Got it. Thanks for the additional context!"
TRAILER = (  # 0.21 and later append it to the summary (postProcessSummary)
    "Resume the prior task using the summary above. Continue from the last in-flight step; "
    "do not acknowledge the summary, do not re-introduce, do not greet the user again."
)
CLEARED = "[Old tool result content cleared]"
MODEL = "qwen3-coder-plus"


def _minor(version: str) -> int:
    return int(version.split(".")[1])


class QwenSession:
    """One session file being written."""

    def __init__(self, plan: QwenPlan, session: str | None = None) -> None:
        self.plan = plan
        self.rng = random.Random(f"qwen/{plan.era}/{plan.seed}/{plan.subagent}")
        self.clock = Clock(start(START[plan.era]))
        self.session = session or uuid(self.rng, 4)
        self.out: list[bytes] = []
        self.records: list[dict[str, Any]] = []  # everything written, in order
        self.last: str | None = None  # the active tail (`lastRecordUuid`)
        self.turn_parents: list[str | None] = []  # the tail before each user turn (rewind)
        self.history: list[dict[str, Any]] = []  # the model's history (`compressedHistory`)
        self.compressed = False
        self.turns = 0
        self.messages: list[dict[str, Any]] = []  # Q0's document
        self.agent = False  # writing a sub-agent's turn into this file (QwenAgentTurn)

    def sidechain(self) -> bool:
        """Whether the records being written are a sub-agent's (`isSidechain`, QWN-7)."""
        return self.plan.subagent or self.agent

    # -- records ---------------------------------------------------------------------------

    def base(self, kind: str) -> dict[str, Any]:
        record: dict[str, Any] = {
            "uuid": uuid(self.rng, 4),
            "parentUuid": self.last,
            "sessionId": self.session,
            "timestamp": self.clock.tick(40),
            "type": kind,
        }
        if _minor(self.plan.version) >= 24:
            record["provenance"] = {
                "user": "real_user",
                "assistant": "assistant_output",
                "tool_result": "tool_result",
            }.get(kind, "system")
        record.update(cwd=CWD, version=self.plan.version, gitBranch="main")
        if self.sidechain():
            record.update(agentId="explore-7f3c", agentName="Explore", isSidechain=True)
        return record

    def append(self, record: dict[str, Any], tail: bool = True) -> None:
        self.records.append(record)
        self.out.append(line(record))
        if tail:
            self.last = record["uuid"]

    def system(self, subtype: str, payload: dict[str, Any]) -> dict[str, Any]:
        record = self.base("system")
        record.update(subtype=subtype, systemPayload=payload)
        self.append(record)
        return record

    # -- steps -----------------------------------------------------------------------------

    def turn(self, step: QwenTurn) -> None:
        self.turns += 1
        prompt = f"step {self.turns}: {words(self.rng, 6)}"
        if self.plan.era == "Q0":
            self.q0_turn(prompt, step)
            return
        self.turn_parents.append(self.last)
        start_uuid = self.last
        user = {"role": "user", "parts": [{"text": prompt}]}
        record = self.base("user")
        record["message"] = user
        self.append(record)
        self.history.append(user)
        for _ in range(step.tools):
            self.clock.wait(4)
            ident = f"call_{self.rng.randrange(16**12):012x}"
            command = f"echo {words(self.rng, 2).replace(' ', '-')}"
            asked = {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {
                            "id": ident,
                            "name": "run_shell_command",
                            "args": {"command": command},
                        }
                    }
                ],
            }
            self.answer(asked)
            output = f"{command[5:]}\n"
            result = {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": ident,
                            "name": "run_shell_command",
                            "response": {"output": output},
                        }
                    }
                ],
            }
            record = self.base("tool_result")
            record["message"] = result
            record["toolCallResult"] = {
                "callId": ident,
                "status": "success",
                "resultDisplay": output,
                "responseParts": result["parts"],
            }
            self.append(record)
            self.history.append(result)
        self.clock.wait(5)
        answer = self.answer({"role": "model", "parts": [{"text": words(self.rng, 10)}]})
        if _minor(self.plan.version) >= 24 and not self.sidechain():
            self.system(
                "branch_checkpoint",
                {"v": 1, "startExclusiveRecordUuid": start_uuid, "assistantRecordUuid": answer},
            )

    def answer(self, content: dict[str, Any]) -> str:
        record = self.base("assistant")
        record["model"] = MODEL
        record["message"] = content
        tokens = 1200 + 150 * len(self.history)
        record["usageMetadata"] = {
            "promptTokenCount": tokens,
            "candidatesTokenCount": 40,
            "totalTokenCount": tokens + 40,
        }
        self.append(record)
        self.history.append(content)
        uid = str(record["uuid"])
        if not self.sidechain():  # QWN-5: the UI's telemetry, a companion
            self.system(
                "ui_telemetry",
                {"uiEvent": {"event.name": "qwen-code.api_response", "duration_ms": 812}},
            )
        return uid

    def compress(self, step: QwenCompress) -> None:
        if self.plan.era == "Q0" or self.plan.subagent:
            return  # QWN-9, QWN-7: the compression reaches no file
        manual = step.trigger == "manual" or step.fast
        command = "/compress-fast" if step.fast else "/compress"
        if manual and _minor(self.plan.version) >= 8:
            self.system("slash_command", {"phase": "invocation", "rawCommand": command})
        if step.done:
            self.clock.wait(6)
            before = 1200 + 150 * len(self.history)
            if step.fast:
                self.fast()
                info: dict[str, Any] = {
                    "originalTokenCount": before,
                    "newTokenCount": before - 300,
                    "originalTokenCountIsEstimated": False,
                    "newTokenCountIsEstimated": True,
                    "compressionStatus": 1,
                    "triggerReason": "manual",
                }
            else:
                self.summarize()
                info = {"originalTokenCount": before, "newTokenCount": 900, "compressionStatus": 1}
                if _minor(self.plan.version) >= 21:
                    info["triggerReason"] = "manual" if manual else "token_limit"
                if _minor(self.plan.version) >= 24:
                    info["newTokenCountIsEstimated"] = True
            self.system(
                "chat_compression",
                {"info": info, "compressedHistory": [dict(c) for c in self.history]},
            )
            self.compressed = self.compressed or not step.fast
        if manual and _minor(self.plan.version) >= 8:
            self.system(
                "slash_command",
                {
                    "phase": "result",
                    "rawCommand": command,
                    "outputHistoryItems": [
                        {"type": "info" if step.done else "error", "text": "compression"}
                    ],
                },
            )

    def summarize(self) -> None:
        """The new history: the summary, the acknowledgement, the last turn kept (0.5-0.15) or
        nothing more (0.21 and 0.24 restore file contents and reminders instead, none here)."""
        text = f"<state_snapshot>\n{words(self.rng, 12)}\n</state_snapshot>"
        if _minor(self.plan.version) >= 21:
            text = f"{text}\n\n{TRAILER}"
        kept: list[dict[str, Any]] = []
        if _minor(self.plan.version) < 21:
            for index in range(len(self.history) - 1, -1, -1):
                content = self.history[index]
                if content["role"] == "user" and "text" in content["parts"][0]:
                    kept = self.history[index:]
                    break
        self.history = [
            {"role": "user", "parts": [{"text": text}]},
            {"role": "model", "parts": [{"text": ACK}]},
            *kept,
        ]

    def fast(self) -> None:
        """`/compress-fast`: old tool results cleared, thoughts stripped; no summary."""
        cleared: list[dict[str, Any]] = []
        for content in self.history:
            parts = []
            for part in content["parts"]:
                response = part.get("functionResponse")
                if response is not None:
                    part = {"functionResponse": {**response, "response": {"output": CLEARED}}}
                parts.append(part)
            cleared.append({"role": content["role"], "parts": parts})
        self.history = cleared

    def resume(self) -> None:
        """A new process appends to the same file; loading it writes nothing (QWN-9)."""
        self.clock.wait(3600)

    def rewind(self, step: QwenRewind) -> None:
        if self.plan.era == "Q0":
            return
        target = self.turn_parents[step.turn]
        truncated = 2 * (len(self.turn_parents) - step.turn)
        self.turn_parents = self.turn_parents[: step.turn]
        self.last = target
        self.system("rewind", {"truncatedCount": truncated})
        # ACP's API history is cut right after a summary (QWN-8), else before the turn.
        self.history = self.history[:2] if self.compressed else []

    def title(self, step: QwenTitle) -> None:
        if self.plan.era == "Q1":
            self.system("custom_title", {"customTitle": step.text, "titleSource": "auto"})

    def garbage(self) -> None:
        self.out.append(b'{"uuid":"' + uuid(self.rng, 4).encode() + b'","type":"user","message":\n')

    def stray(self) -> None:
        """A JSON value that is no object, on a line of its own (QWN-1, JSV-3)."""
        self.out.append(b"null\n")

    def agent_turn(self, step: QwenAgentTurn) -> None:
        """A sub-agent's turn, its records marked `isSidechain`; the main thread's chain,
        history and turns are left as they were (QWN-7)."""
        kept = (self.last, self.history, self.turn_parents[:], self.turns)
        self.agent = True
        self.history, self.last = [], None  # the sub-agent's chain has its own root
        self.turn(QwenTurn(step.tools))
        self.agent = False
        self.last, self.history, self.turn_parents, self.turns = kept

    def near_miss(self, step: QwenNearMiss) -> None:
        """A `chat_compression` record that differs from a completed one in `step.kind`."""
        summary = f"<state_snapshot>\n{words(self.rng, 12)}\n</state_snapshot>"
        head: Any = {"role": "user", "parts": [{"text": summary}]}
        ack: dict[str, Any] = {"role": "model", "parts": [{"text": ACK}]}
        info: Any = {"originalTokenCount": 5000, "newTokenCount": 900, "compressionStatus": 1}
        if step.kind == "status-2":
            info["compressionStatus"] = 2
        elif step.kind == "status-true":
            info["compressionStatus"] = True
        elif step.kind == "info-text":
            info = "compressed"
        elif step.kind == "empty-ack":
            ack["parts"] = []
        elif step.kind == "ack-by-user":
            ack["role"] = "user"
        elif step.kind == "summary-text":
            head = summary
        payload: dict[str, Any] = {"info": info, "compressedHistory": [head, ack]}
        if step.kind == "no-history":
            del payload["compressedHistory"]
        record = self.base("user" if step.kind == "not-system" else "system")
        record["subtype"] = "chat_compression"
        if step.kind != "no-payload":
            record["systemPayload"] = payload
        self.append(record)

    # -- Q0 --------------------------------------------------------------------------------

    def q0_turn(self, prompt: str, step: QwenTurn) -> None:
        self.messages.append(self.q0_message("user", prompt))
        for _ in range(step.tools):
            self.clock.wait(4)
            reply = self.q0_message("qwen", "")
            reply.update(
                thoughts=[], tokens={"input": 1200, "output": 40, "total": 1240}, model=MODEL
            )
            self.messages.append(reply)
        self.clock.wait(5)
        reply = self.q0_message("qwen", words(self.rng, 10))
        reply.update(thoughts=[], tokens={"input": 1300, "output": 60, "total": 1360}, model=MODEL)
        self.messages.append(reply)

    def q0_message(self, kind: str, content: str) -> dict[str, Any]:
        return {
            "id": uuid(self.rng, 4),
            "timestamp": self.clock.tick(40),
            "type": kind,
            "content": content,
        }

    # -- the file --------------------------------------------------------------------------

    def live_chain(self) -> list[dict[str, Any]]:
        """The records on the active tail's `parentUuid` chain, oldest first."""
        by_uuid = {record["uuid"]: record for record in self.records}
        chain: list[dict[str, Any]] = []
        at = self.last
        while at is not None and at in by_uuid:
            chain.append(by_uuid[at])
            at = by_uuid[at]["parentUuid"]
        return chain[::-1]

    def copy_from(self, parent: QwenSession) -> None:
        """`--fork-session`: the parent's live chain, relinked, each copy stamped `forkedFrom`."""
        for record in parent.live_chain():
            copied = {
                **record,
                "sessionId": self.session,
                "parentUuid": self.last,
                "forkedFrom": {"sessionId": parent.session, "messageUuid": record["uuid"]},
            }
            self.append(copied)
        self.history = [dict(c) for c in parent.history]
        self.compressed = parent.compressed
        self.clock.now = max(self.clock.now, parent.clock.now)
        self.clock.wait(60)

    def bytes(self) -> bytes:
        if self.plan.era == "Q0":
            document = {
                "sessionId": self.session,
                "projectHash": PROJECT_HASH,
                "startTime": self.messages[0]["timestamp"] if self.messages else self.clock.stamp(),
                "lastUpdated": self.clock.stamp(),
                "messages": self.messages,
            }
            return json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")
        data = b"".join(self.out)
        if self.plan.torn:
            data += torn_tail(self)
        return data


def torn_tail(session: QwenSession) -> bytes:
    """Half of a compression record, as a crash mid-append leaves it (JSV-2)."""
    record = session.base("system")
    record.update(
        subtype="chat_compression",
        systemPayload={"info": {"compressionStatus": 1}, "compressedHistory": session.history},
    )
    whole = line(record)
    return whole[: len(whole) // 2]


def play(plan: QwenPlan) -> QwenSession:
    """The plan written the way Qwen Code's recorder writes it."""
    session = QwenSession(plan)
    if plan.copy is not None:
        parent = play(plan.copy.parent)
        session.copy_from(parent)
    for step in plan.steps:
        if isinstance(step, QwenTurn):
            session.turn(step)
        elif isinstance(step, QwenCompress):
            session.compress(step)
        elif isinstance(step, QwenResume):
            session.resume()
        elif isinstance(step, QwenRewind):
            session.rewind(step)
        elif isinstance(step, QwenTitle):
            session.title(step)
        elif isinstance(step, QwenGarbage):
            session.garbage()
        elif isinstance(step, QwenStray):
            session.stray()
        elif isinstance(step, QwenAgentTurn):
            session.agent_turn(step)
        elif isinstance(step, QwenNearMiss):
            session.near_miss(step)
    return session
