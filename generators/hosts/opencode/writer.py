"""A model of opencode's session writer, per era (spec/hosts/opencode.md, OPC-1..OPC-12).

Restated from opencode's own code (`packages/opencode/src/session/`: `compaction.ts`,
`message-v2.ts`, `index.ts`'s `fork`, `prompt.ts`; the storage layer) as the released
programs 1.0.0, 1.0.98, 1.1.65, 1.2.1, 1.14.41 and 1.18.33 ship it, and checked against files
those programs wrote (generators/harvest):

- ids: `ses_`, `msg_`, `prt_`, then 12 hex digits of the millisecond clock times 4096 plus a
  counter (inverted for sessions, which sort newest first), then 14 random base-62 digits;
- O0 (1.0.0, JSON storage): a compaction writes one assistant message with `summary: true`
  from its start, on the last user message, and never sets `finish`; an automatic one runs
  before the next prompt and adds a synthetic "resume" user message;
- O1 (1.0.98 - 1.1, JSON storage), O2 (1.2 - 1.3, SQLite), O3 (1.14+, SQLite): a user message
  with a `compaction` part (`auto` from 1.1; `overflow`, `tail_start_id` from 1.14), then the
  summary, an assistant child with `summary: true` that gets `finish` when its stream ends;
  a failed or stopped one keeps its `error`;
- a fork copies every message and part under new ids, keeping each message's `time.created`
  (1.0.x keeps the `parentID`s, which then point into the source);
- the `task` tool runs a child session whose `parent_id` is the session.

A store is then written as a database (`opencode_schema.database`) or as a storage folder of
`JSON.stringify(value, null, 2)` files.

Kilo's CLI, a member of opencode's family (spec/hosts/kilo.md), is this writer with Kilo's
differences, measured on its released binaries (7.0.33, 7.7.x): its eras write the database of
an opencode era (`plan.FAMILY_BASE`), each session's `version` is Kilo's release and its default
agent is `code` (opencode's is `build`); from K1 the store has Kilo's own tables (`schema.py`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from ..common import Clock, start, words
from .plan import (
    OcCompact,
    OcOdd,
    OcPrompt,
    OcPrune,
    OcRevert,
    OcSession,
    OcStep,
    OcStore,
    OcTask,
    base_era,
    completes,
)

VERSIONS = {"O0": "1.0.0", "O1": "1.0.98", "O2": "1.2.1", "O3": "1.18.33"}
VERSIONS.update(K0="7.0.33", K1="7.7.9")  # Kilo's releases (KLO-2)
START = {"O0": "2025-11-03T09:00:00", "O1": "2025-11-20T09:00:00", "O2": "2026-02-16T09:00:00"}
START.update(O3="2026-06-25T09:00:00", K0="2026-03-02T09:00:00", K1="2026-07-06T09:00:00")
AGENT = {"K0": "code", "K1": "code"}  # the default agent of a prompt (opencode's: "build")
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PROJECT = "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750"
CWD = "/home/dev/project"
MODEL = {"providerID": "local", "modelID": "coder-1"}
API_ERROR = {
    "name": "APIError",
    "data": {"message": "Internal Server Error", "statusCode": 500, "isRetryable": False},
}
ABORTED = {"name": "MessageAbortedError", "data": {"message": "The operation was aborted."}}
TOO_LARGE = {
    "name": "ContextOverflowError",
    "data": {"message": "Session too large to compact - context exceeds model limit"},
}


@dataclass
class Row:
    """One message or part as opencode stores it: the row's columns and its JSON data."""

    table: str
    id: str
    session: str
    created: int
    data: Any  # a JSON object, except in the hostile rows of OcOdd
    message: str | None = None  # a part's message


@dataclass
class Written:
    """One session as written: its info and, in order, every write of its rows."""

    id: str
    info: dict[str, Any]
    writes: list[Row] = field(default_factory=list)
    parent: str | None = None

    def latest(self) -> dict[str, Row]:
        """Each row's last written state (a later write of a row replaces it)."""
        rows: dict[str, Row] = {}
        for row in self.writes:
            rows[row.id] = row
        return rows


class Writer:
    """Writes the sessions of one store in time order."""

    def __init__(self, store: OcStore) -> None:
        self.store = store
        self.era = base_era(store.era)  # a family member's era writes an opencode era's files
        self.release = VERSIONS[store.era]
        self.agent = AGENT.get(store.era, "build")
        self.rng = random.Random(f"opencode/{store.era}/{store.seed}")
        self.clock = Clock(start(START[store.era]))
        self.counter: dict[int, int] = {}
        self.sessions: list[Written] = []
        self.by_plan: dict[int, Written] = {}
        self.children: dict[str, list[Written]] = {}  # a session's task sessions, in order

    # -- ids and stamps ------------------------------------------------------------------

    def now(self) -> int:
        return self.clock.epoch_ms()

    def new_id(self, prefix: str, descending: bool = False) -> str:
        stamp = self.now()
        self.counter[stamp] = self.counter.get(stamp, 0) + 1
        value = stamp * 4096 + self.counter[stamp]
        if descending:
            value = ~value & 0xFFFFFFFFFFFF
        tail = "".join(self.rng.choice(BASE62) for _ in range(14))
        return f"{prefix}_{value:012x}{tail}"

    def tick(self, ms: int = 7) -> int:
        self.clock.now += _ms(ms)
        return self.now()

    # -- sessions ------------------------------------------------------------------------

    def session(self, plan: OcSession, parent: Written | None = None) -> Written:
        self.clock.wait(60)
        created = self.now()
        session_id = self.new_id("ses", descending=True)
        title = plan.title
        if plan.fork_of is not None:
            title = f"{self.by_plan[id(plan.fork_of)].info['title']} (fork #1)"
        info: dict[str, Any] = {
            "id": session_id,
            "slug": "-".join(self.rng.choice(["quiet", "brave", "amber", "swift"]) for _ in "ab"),
            "version": plan.version or self.release,
            "projectID": PROJECT,
            "directory": CWD,
            "title": title,
            "time": {"created": created, "updated": created},
        }
        if parent is not None:
            info["parentID"] = parent.id
        written = Written(session_id, info, parent=parent.id if parent else None)
        self.sessions.append(written)
        self.by_plan[id(plan)] = written
        if plan.fork_of is not None:
            self.copy(self.by_plan[id(plan.fork_of)], written)
        Steps(self, written).run(plan.steps)
        info["time"]["updated"] = self.now()
        return written

    def copy(self, source: Written, target: Written) -> None:
        """OPC-9: every message and part of the source, new ids, the same `time.created`."""
        self.tick(20)
        ids: dict[str, str] = {}
        for row in source.latest().values():
            if row.table != "message":
                continue
            new = self.new_id("msg")
            ids[row.id] = new
            data = json.loads(json.dumps(row.data))
            parent = data.get("parentID")
            if self.era in ("O2", "O3") and isinstance(parent, str) and parent in ids:
                data["parentID"] = ids[parent]  # 1.1 and later point into the copy
            target.writes.append(Row("message", new, target.id, row.created, data))
            for part in source.latest().values():
                if part.table == "part" and part.message == row.id:
                    copied = json.loads(json.dumps(part.data))
                    target.writes.append(
                        Row("part", self.new_id("prt"), target.id, self.tick(1), copied, new)
                    )


class Steps:
    """The steps of one session, written as opencode writes them."""

    def __init__(self, writer: Writer, session: Written) -> None:
        self.w = writer
        self.s = session
        self.era = writer.era
        self.last_user: str | None = None
        self.prompts: list[str] = []  # the ids of the user's own prompts, in order
        self.rerun = False
        self.tool_parts: list[Row] = []

    def run(self, steps: tuple[OcStep, ...]) -> None:
        for step in steps:
            if isinstance(step, OcPrompt):
                self.prompt(step)
            elif isinstance(step, OcCompact):
                self.compact(step)
            elif isinstance(step, OcPrune):
                self.prune()
            elif isinstance(step, OcTask):
                self.task(step)
            elif isinstance(step, OcOdd):
                self.odd()
            elif isinstance(step, OcRevert):
                self.revert(step)

    # -- rows --------------------------------------------------------------------------

    def message(self, data: dict[str, Any]) -> Row:
        row = Row("message", self.w.new_id("msg"), self.s.id, self.w.now(), data)
        self.update(row)
        return row

    def update(self, row: Row) -> None:
        """A write of the row: its data as it is now (later changes are later writes)."""
        data = json.loads(json.dumps(row.data))
        self.s.writes.append(Row(row.table, row.id, row.session, row.created, data, row.message))

    def part(self, message: Row, data: dict[str, Any]) -> Row:
        row = Row("part", self.w.new_id("prt"), self.s.id, self.w.tick(2), data, message.id)
        self.update(row)
        return row

    def user(self, text: str, synthetic: bool = False) -> Row:
        """A user message; opencode adds its turn's `summary` object (a title and the diffs of
        the turn: never a compaction, OPC-8)."""
        self.w.tick(30)
        data: dict[str, Any] = {"role": "user", "time": {"created": self.w.now()}}
        if self.era != "O0":
            data.update(agent=self.w.agent, model=dict(MODEL))
        data["summary"] = {"title": words(self.w.rng, 4), "diffs": []}
        row = self.message(data)
        body: dict[str, Any] = {"type": "text", "text": text}
        if synthetic:
            body["synthetic"] = True
            if self.era == "O3":
                body["metadata"] = {"compaction_continue": True}
        self.part(row, body)
        self.last_user = row.id
        return row

    def assistant(self, parent: str | None, mode: str = "", summary: bool = False) -> Row:
        self.w.tick(40)
        data: dict[str, Any] = {"role": "assistant", "time": {"created": self.w.now()}}
        if parent is not None:
            data["parentID"] = parent
        data["modelID"] = MODEL["modelID"]
        data["providerID"] = MODEL["providerID"]
        data["mode"] = mode or self.w.agent
        if self.era in ("O2", "O3"):
            data["agent"] = mode or self.w.agent
        data["path"] = {"cwd": CWD, "root": CWD}
        if summary:
            data["summary"] = True
        data["cost"] = 0
        data["tokens"] = {"input": 0, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}}
        return self.message(data)

    def finish(self, row: Row, reason: str | None = "stop", error: Any = None) -> None:
        """The message's last write: tokens, `time.completed`, and `finish` or `error`."""
        self.w.tick(25)
        tokens: dict[str, Any] = {"total": 90_400} if self.era == "O3" else {}
        tokens.update(input=90_000, output=400, reasoning=0, cache={"read": 0, "write": 0})
        row.data["tokens"] = tokens
        row.data["time"]["completed"] = self.w.now()
        if error is not None:
            row.data["error"] = error
        if reason is not None:
            row.data["finish"] = reason
        self.update(row)

    # -- steps -------------------------------------------------------------------------

    def prompt(self, step: OcPrompt) -> None:
        self.w.clock.wait(20)
        user = self.user(words(self.w.rng, 9))
        self.prompts.append(user.id)
        if self.rerun:  # OPC-6: the failed compaction runs again, parented on this prompt
            self.rerun = False
            self.summary(user.id, "done")
        self.answer(user.id, step.tools)

    def answer(self, parent: str, tools: int) -> None:
        reply = self.assistant(parent)
        self.part(reply, {"type": "step-start"})
        for _ in range(tools):
            call = "call_" + "".join(self.w.rng.choice(BASE62) for _ in range(24))
            start_ms = self.w.tick(5)
            state = {
                "status": "completed",
                "input": {"command": "npm test", "description": "Run the tests"},
                "output": "ok " + words(self.w.rng, 12),
                "title": "npm test",
                "metadata": {"exit": 0},
                "time": {"start": start_ms, "end": self.w.tick(300)},
            }
            tool = {"type": "tool", "callID": call, "tool": "bash", "state": state}
            self.tool_parts.append(self.part(reply, tool))
        self.part(reply, {"type": "text", "text": words(self.w.rng, 14)})
        self.part(reply, {"type": "step-finish", "reason": "stop", "cost": 0})
        self.finish(reply, None if self.era == "O0" else "stop")  # 1.0.0 set no `finish`

    def compact(self, step: OcCompact) -> None:
        self.w.clock.wait(15)
        if self.era == "O0":
            self.compact_o0(step)
            return
        user = self.message(
            {
                "role": "user",
                "time": {"created": self.w.tick(30)},
                "agent": self.w.agent,
                "model": MODEL,
            }
        )
        part: dict[str, Any] = {"type": "compaction"}
        if self.era in ("O2", "O3"):
            part["auto"] = step.trigger == "auto"
        if self.era == "O3" and step.trigger == "auto":
            part["overflow"] = step.overflow
            if self.last_user is not None:
                part["tail_start_id"] = self.last_user
        self.part(user, part)
        self.summary(user.id, step.outcome)
        if step.outcome == "failed" and step.rerun:
            self.rerun = True
        if completes(self.era, step.outcome) and step.trigger == "auto":
            text = "Continue if you have next steps, or stop and ask for clarification if you are"
            self.user(text + " unsure how to proceed.", synthetic=True)

    def summary(self, parent: str, outcome: str) -> None:
        """The assistant child that holds the summary (OPC-4, OPC-6, OPC-7)."""
        mode = "compaction" if self.era in ("O2", "O3") else self.w.agent
        row = self.assistant(parent, mode=mode, summary=True)
        self.part(row, {"type": "step-start"})
        if outcome in ("done", "cut-short", "aborted"):
            text = "## Goal\n" + words(self.w.rng, 30)
            if outcome != "done":
                text = text[: len(text) // 2]
            self.part(row, {"type": "text", "text": text})
        if outcome == "done":
            self.part(row, {"type": "step-finish", "reason": "stop", "cost": 0})
            self.finish(row, "stop")
        elif outcome == "cut-short":
            self.finish(row, "unknown")
        elif outcome == "failed" and self.era == "O3":
            self.finish(row, "error", TOO_LARGE)  # 1.14+: finish "error" beside the error
        elif outcome == "failed":
            self.finish(row, None, API_ERROR)
        else:
            self.finish(row, None, ABORTED)

    def compact_o0(self, step: OcCompact) -> None:
        """OPC-5: 1.0.0's `SessionCompaction.run`: one `summary: true` assistant message on
        the last user message, `summary` set from the start, no `finish`."""
        if step.trigger == "auto":  # it runs when the next prompt arrives
            self.user(words(self.w.rng, 9))
        row = self.assistant(self.last_user, summary=True)
        row.data["system"] = ["You are a helpful AI assistant tasked with summarizing."]
        text = "" if step.outcome in ("failed", "aborted-empty") else words(self.w.rng, 30)
        if step.outcome == "aborted":
            text = text[: len(text) // 2]
        self.part(row, {"type": "text", "text": text, "time": {"start": self.w.now()}})
        error = {"failed": API_ERROR, "aborted": ABORTED, "aborted-empty": ABORTED}
        self.finish(row, None, error.get(step.outcome))
        if step.trigger == "auto" and completes("O0", step.outcome):
            resume = "Use the above summary generated from your last session to resume from"
            self.user(resume + " where you left off.", synthetic=True)
            self.answer(self.last_user or "", 0)

    def revert(self, step: OcRevert) -> None:
        """OPC-13: the session records where it was reverted to; no message is removed yet."""
        self.w.tick(50)
        self.s.info["revert"] = {"messageID": self.prompts[-1 - step.back]}

    def prune(self) -> None:
        """OPC-8: the older tool outputs are marked compacted; nothing else changes."""
        self.w.tick(50)
        for row in self.tool_parts[:-1]:
            row.data["state"]["time"]["compacted"] = self.w.now()
            self.update(row)

    def task(self, step: OcTask) -> None:
        """OPC-10: a `task` tool call whose child session holds its own messages."""
        user = self.user("use a subagent to " + words(self.w.rng, 6))
        reply = self.assistant(user.id)
        version = self.s.info["version"]  # the program that runs the task writes its row
        plan = OcSession(step.steps, title="subagent task", version=version)
        child = self.w.session(plan, parent=self.s)
        self.w.children.setdefault(self.s.id, []).append(child)
        state = {
            "status": "completed",
            "input": {"description": "explore", "prompt": words(self.w.rng, 8)},
            "output": words(self.w.rng, 10),
            "title": "explore",
            "metadata": {"sessionId": child.id},
            "time": {"start": child.info["time"]["created"], "end": self.w.tick(10)},
        }
        self.part(reply, {"type": "tool", "callID": "call_task", "tool": "task", "state": state})
        self.finish(reply, "stop")

    def odd(self) -> None:
        """OPC-12: rows opencode never writes. One of them is a compaction by the rules (a
        truthy string `summary`); none of the others are."""
        odd: list[Any] = [[], "a string", 7, None, {"role": 5, "summary": True}]
        for value in odd:
            self.update(Row("message", self.w.new_id("msg"), self.s.id, self.w.tick(), value))
        real = self.message({"role": "user", "time": {"created": self.w.tick(30)}})
        self.part(real, {"type": "compaction", "auto": "yes"})
        fake = self.message({"role": "user", "time": {"created": self.w.tick(30)}})
        self.part(fake, {"type": ["compaction"]})
        for parent, extra in (
            ({"id": real.id}, {}),  # a parentID that is no string: no pair
            (fake.id, {}),  # a parent without a compaction part: no pair
            (real.id, {"error": {}}),  # an empty error object is an error
            (real.id, {"summary": "yes"}),  # counted: JavaScript finds "yes" true
        ):
            child = self.assistant(None, summary=True)
            child.data["parentID"] = parent
            child.data.update(extra)
            self.finish(child, "stop")


def _ms(ms: int) -> Any:
    from datetime import timedelta

    return timedelta(milliseconds=ms)


def play(store: OcStore) -> Writer:
    """Write every session of the store, in order (a fork after its source)."""
    writer = Writer(store)
    for plan in store.sessions:
        if id(plan) not in writer.by_plan:
            writer.session(plan)
    return writer


def selected(writer: Writer) -> str:
    """The id of the case's session (a made-up one when the plan asks for a missing one)."""
    if writer.store.ask_missing:
        return "ses_" + "0" * 12 + "NoSuchSession1"
    index = writer.store.selected or 0
    chosen = writer.by_plan[id(writer.store.sessions[index])]
    return writer.children[chosen.id][0].id if writer.store.child else chosen.id
