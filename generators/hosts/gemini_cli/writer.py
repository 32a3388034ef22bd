"""A model of Gemini CLI's chat recorder, per era (spec/hosts/gemini-cli.md, GEM-1..GEM-8).

Restated from google-gemini/gemini-cli `packages/core/src/services/chatRecordingService.ts`
(`initialize`, `appendRecord`, `recordMessage`, `recordToolCalls`, `updateMetadata`,
`updateMessagesFromHistory`, `rewindTo`) and the compression of
`packages/core/src/context/chatCompressionService.ts` with `tryCompressChat` and
`GeminiChat.setHistory`, and checked against files the released programs wrote (harvest).

- `J0` (up to 0.38): one JSON document `{sessionId, projectHash, startTime, lastUpdated,
  messages, kind}` written with two-space indentation, rewritten whole on every change; a
  compression replaces the history in memory only, the document keeps every message.
- `G0` (0.39-0.43): the `.jsonl` chat: a metadata record, then each message as a record
  (`JSON.stringify` and a LF), `{"$set": {"lastUpdated": ...}}` after each; a compression
  writes nothing.
- `G1` (0.44 and later): as G0, plus `{"$set": {"messages": [...]}}` whenever the in-memory
  history changes: at start (the `<session_context>` message alone), after a compression (the
  context, the snapshot as a user message with a fresh id, the model's acknowledgement, the
  kept turns), on resume (first the context alone, then the full history, same ids), for
  tool-output masking and for the roll-back after a failed request.

Interactive sessions add `info` records (automatic: a text; `/compress`: empty) and an `error`
record for a failed compression. Time and ids come from a seeded RNG and the plan's clock.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..common import Clock, line, start, uuid, words
from .plan import Compress, GemGarbage, GemPlan, GemResume, Mask, Prompt, Rewind

__all__ = ["GeminiChat", "play"]

START = {"J0": "2026-03-20T09:00:00", "G0": "2026-04-20T09:00:00", "G1": "2026-06-10T09:00:00"}
PROJECT_HASH = "1afbf223bb0b58ba08766ec87173ebd68e0507d66983531a95b52ff9b529c7db"
CONTEXT_ID = "d04923d38bb0f6017037e74183378ef4"  # a stable id derived from "environment-context"
CONTEXT_TEXT = (
    "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
    "My operating system is: linux\n</session_context>"
)
ACK = "Got it. Thanks for the additional context!"


class GeminiChat:
    """One chat file being written."""

    def __init__(self, plan: GemPlan) -> None:
        self.plan = plan
        self.rng = random.Random(f"gemini/{plan.era}/{plan.seed}")
        self.clock = Clock(start(START[plan.era]))
        self.session = uuid(self.rng, 4)
        self.out: list[bytes] = []
        self.messages: list[dict[str, Any]] = []  # the chat's recorded messages
        self.history: list[dict[str, Any]] = []  # the model's history, as `$set` writes it
        self.started = ""
        self.kept_from = 0  # index in `history` of the last prompt (kept by a compression)

    @property
    def synced(self) -> bool:
        return self.plan.era == "G1"

    # -- records ---------------------------------------------------------------------------

    def record(self, value: Any) -> None:
        if self.plan.era != "J0":
            self.out.append(line(value))

    def metadata(self) -> None:
        stamp = self.clock.tick(30)
        self.started = self.started or stamp
        record = {
            "sessionId": self.session,
            "projectHash": PROJECT_HASH,
            "startTime": stamp,
            "lastUpdated": stamp,
            "kind": "main",
        }
        if self.plan.kind_first:  # HST-2: the `kind` member first, the record still Gemini's
            record = {"kind": record.pop("kind"), **record}
        self.record(record)

    def set_messages(self, history: list[dict[str, Any]]) -> None:
        """`updateMessagesFromHistory`: the whole list replaced (G1 only)."""
        if self.synced:
            listed: list[Any] = [None, *history] if self.plan.odd else history  # GEM-3
            self.record({"$set": {"messages": listed, "lastUpdated": self.clock.tick()}})

    def message(self, kind: str, content: Any, **extra: Any) -> dict[str, Any]:
        msg = {"id": uuid(self.rng, 4), "timestamp": self.clock.tick(), "type": kind}
        msg["content"] = content
        msg.update(extra)
        self.messages.append(msg)
        self.record(msg)
        self.record({"$set": {"lastUpdated": msg["timestamp"]}})
        if kind in ("user", "gemini"):
            self.history.append(msg)
        return msg

    # -- steps -----------------------------------------------------------------------------

    def begin(self) -> None:
        self.metadata()
        if self.plan.odd:
            self.out.append(b'["a value", "that is not an object"]\n')  # JSV-1: skipped
        self.history = [self._context()]
        self.set_messages([self._context()])

    def _context(self) -> dict[str, Any]:
        text = "\n" + CONTEXT_TEXT if self.plan.odd else CONTEXT_TEXT  # GEM-3: white space
        return {
            "id": CONTEXT_ID,
            "timestamp": self.started,
            "type": "user",
            "content": [{"text": text}],
        }

    def prompt(self, step: Prompt) -> None:
        self.clock.wait(30)
        self.kept_from = len(self.history)
        text = words(self.rng, 8)
        if step.pasted:
            line = "PASS test_reader.py::test_case " + "." * 40 + "\n"
            text += "\n" + line * (step.pasted // len(line))
        self.message("user", [{"text": text}])
        tokens = {"input": 12000, "output": 40, "cached": 0, "thoughts": 0, "tool": 0}
        for number in range(step.tools):
            self.clock.wait(2)
            call_id = f"run_shell_command__fc_{uuid(self.rng, 4)[:12]}"
            call = {"name": "run_shell_command", "args": {"command": "npm test"}, "id": call_id}
            model = self.message("gemini", "", thoughts=[], tokens=tokens, model="gemini-2.5-pro")
            model["toolCalls"] = [
                {
                    "id": call_id,
                    "name": "run_shell_command",
                    "args": call["args"],
                    "status": "success",
                }
            ]
            model["content"] = [{"functionCall": call}]
            self.record(model)  # written again once its tool calls are known
            output = {"output": f"Output: step {number + 1} passed"}
            response = {"id": call_id, "name": "run_shell_command", "response": output}
            self.message("user", [{"functionResponse": response}])
        self.clock.wait(3)
        self.message(
            "gemini", words(self.rng, 10), thoughts=[], tokens=tokens, model="gemini-2.5-pro"
        )

    def compress(self, step: Compress) -> None:
        self.clock.wait(5)
        if step.done:
            text = step.text or f"<state_snapshot>\n{words(self.rng, 14)}\n</state_snapshot>"
            kept = self.history[self.kept_from :]
            snapshot = {
                "id": uuid(self.rng, 4).replace("-", ""),
                "timestamp": self.clock.tick(),
                "type": "user",
                "content": [{"text": text}],
            }
            if self.plan.odd:  # GEM-4: keyed by its text; GEM-3: the parts' texts joined
                del snapshot["id"]
                if not any("id" not in m for m in self.history if isinstance(m, dict)):
                    cut = text.index("snapshot>")
                    snapshot["content"] = [{"text": text[:cut]}, {"text": text[cut:]}]
            ack = {
                "id": uuid(self.rng, 4).replace("-", ""),
                "timestamp": self.clock.tick(),
                "type": "gemini",
                "content": [{"text": ACK}],
            }
            self.history = [self._context(), snapshot, ack, *kept]
            self.kept_from = 3
            if step.recorded:  # GEM-5: the new messages as records of their own, then the $set
                self.record(snapshot)
                self.record(ack)
            self.set_messages(self.history)
            if step.interactive:
                note = "" if step.trigger == "manual" else "Context compressed from 61% to 9%."
                self.message("info", note)
        else:
            self.set_messages(self.history)  # the roll-back after the failed request
            if step.interactive:
                self.message("error", "Failed to compress chat history: empty summary.")

    def resume(self) -> None:
        self.clock.wait(3600)
        self.metadata()
        self.set_messages([self._context()])
        self.record({"$set": {"sessionId": self.session}})
        self.set_messages(self.history)

    def mask(self) -> None:
        masked = []
        for msg in self.history:
            parts = msg.get("content")
            if isinstance(parts, list) and any("functionResponse" in p for p in parts):
                response = dict(parts[0]["functionResponse"])
                response["response"] = {"output": "<tool_output_masked>"}
                msg = {**msg, "content": [{"functionResponse": response}]}
            masked.append(msg)
        self.history = masked
        self.set_messages(self.history)

    def rewind(self) -> None:
        target = self.history[self.kept_from] if self.kept_from < len(self.history) else None
        if target is None:
            return
        self.record({"$rewindTo": target["id"]})
        self.history = self.history[: self.kept_from]
        self.set_messages(self.history)

    def garbage(self) -> None:
        self.out.append(b'{"id": "cut short by an editor", "type": \n')

    # -- bytes -----------------------------------------------------------------------------

    def bytes(self) -> bytes:
        if self.plan.era == "J0":
            document = {
                "sessionId": self.session,
                "projectHash": PROJECT_HASH,
                "startTime": self.started,
                "lastUpdated": self.clock.stamp(),
                "messages": self.messages,
                "kind": "main",
            }
            text = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")
            return b"\xef\xbb\xbf" + text if self.plan.bom else text
        data = b"".join(self.out)
        if self.plan.torn:
            whole = line({"$set": {"messages": self.history, "lastUpdated": self.clock.tick()}})
            data += whole[: len(whole) // 2]
        return data


def play(plan: GemPlan) -> GeminiChat:
    """Write the plan's chat, step by step."""
    chat = GeminiChat(plan)
    chat.begin()
    for step in plan.steps:
        if isinstance(step, Prompt):
            chat.prompt(step)
        elif isinstance(step, Compress):
            chat.compress(step)
        elif isinstance(step, GemResume):
            chat.resume()
        elif isinstance(step, Mask):
            chat.mask()
        elif isinstance(step, Rewind):
            chat.rewind()
        elif isinstance(step, GemGarbage):
            chat.garbage()
    return chat
