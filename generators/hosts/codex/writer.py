"""A model of the Codex CLI rollout writer, per era (spec/hosts/codex.md, CDX-1..CDX-10).

Restated from openai/codex `codex-rs` (read at zed-industries/codex, whose history is
upstream's): the recorder stamps every line with the UTC time it writes it and wraps the item in
`{"timestamp", "type", "payload"}` (`rollout/src/recorder.rs`, `RolloutLine`); the item tags and
`CompactedItem` are `RolloutItem` of `protocol/src/protocol.rs`; a compaction writes its
`compacted` line only after the new history exists (`compact.rs` `run_compact_task_inner`,
`compact_remote.rs`, later through `Session::replace_compacted_history`), and its companions
differ by build (research other-hosts.md §1.3, measured in real-writers.md):

- C1 (0.36.0): `compacted{message}`, the bare summary.
- C2 (0.59.0): local as C1 with the summary prefix; remote `{message:"", replacement_history}`.
- C3 (0.63.0): local `turn_context`, `compacted`, `context_compacted`; remote without the
  `turn_context`.
- C4 (0.104.0): `compacted{message, replacement_history}`, `context_compacted`, `turn_context`.
- C4 (0.111.0): mid-turn `compacted`, `turn_context`, `context_compacted`; else no
  `turn_context`.
- C5 (0.169.0): an outer `ordinal`, window ids in `compacted`, an `item_completed` event
  (ContextCompaction) instead of `context_compacted`.

A fork or a subagent of C1-C4 (`Session::record_initial_history`, `InitialHistory::Forked`:
"persist all rollout items as-is") writes its own `session_meta`, then re-writes the parent's
whole rollout (its `session_meta` first) and its own initial context in one burst, all stamped
with the copy time; its own turns follow. C5 marks a subagent's copied lines with ordinals below
`subagent_history_start_ordinal` and a fork copies nothing (`history_base`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..common import DEEP, Clock, Deep, deep_line, hex8, line, start, uuid, uuid7, words
from .plan import (
    CodexPlan,
    Compact,
    Copy,
    Freeform,
    Garbage,
    Manual,
    OddCompacted,
    Resume,
    Rollback,
    ThirdParty,
    Turn,
)

SUMMARY_PREFIX = (
    "Another language model started to solve this problem and produced a summary of its "
    "thinking process. You also have access to the state of the tools that were used by that "
    "language model. Use this to build on the work that has already been done and avoid "
    "duplicating work. Here is the summary produced by the other language model, use the "
    "information in this summary to assist with your own analysis:"
)


@dataclass(frozen=True)
class Build:
    """What one CLI build writes: the version, when it ran, and its shapes."""

    version: str
    start: str
    prefix: bool = True  # local `message` carries the fixed summary prefix
    history: bool = False  # local compaction writes `replacement_history`
    companion: bool = False  # `event_msg` `context_compacted`
    order: str = "c3"  # where `turn_context` goes around a compaction
    turn_ids: bool = False
    ordinal: bool = False  # C5: outer ordinal, window ids, item_completed companion
    turn_context: bool = True  # a `turn_context` record each turn: 0.36.0 on (CDX-8, a mark)


BUILDS = {
    "0.30.0": Build("0.30.0", "2025-08-20T09:00:00", turn_context=False),
    "0.36.0": Build("0.36.0", "2025-09-20T09:00:00", prefix=False),
    "0.59.0": Build("0.59.0", "2025-11-20T09:00:00"),
    "0.63.0": Build("0.63.0", "2025-12-05T09:00:00", companion=True, order="c3"),
    "0.104.0": Build(
        "0.104.0", "2026-02-23T09:00:00", history=True, companion=True, order="c4a", turn_ids=True
    ),
    "0.111.0": Build(
        "0.111.0", "2026-03-10T09:00:00", history=True, companion=True, order="c4b", turn_ids=True
    ),
    "0.169.0": Build(
        "0.169.0", "2026-07-14T09:00:00", history=True, order="c4b", turn_ids=True, ordinal=True
    ),
}
ERA_BUILD = {"C0": "0.30.0", "C1": "0.36.0", "C2": "0.59.0", "C3": "0.63.0", "C4": "0.104.0"}
ERA_BUILD["C5"] = "0.169.0"


def build_of(plan: CodexPlan) -> Build:
    """The build a plan names; a version of no modelled build (a fork's or a checkout's own
    stamp, a pre-release: CDX-8) writes its era's shapes under that `cli_version`."""
    key = plan.version or ERA_BUILD[plan.era]
    if key in BUILDS:
        return BUILDS[key]
    return replace(BUILDS[ERA_BUILD[plan.era]], version=key)


class Rollout:
    """One rollout file being written: records, their stamps and (C5) ordinals."""

    def __init__(self, plan: CodexPlan, clock: Clock | None = None) -> None:
        self.plan = plan
        self.build = build_of(plan)
        self.rng = random.Random(f"codex/{plan.era}/{plan.seed}")
        self.clock = clock or Clock(start(self.build.start))
        self.records: list[dict[str, Any]] = []  # {"type", "payload"} as written, in order
        self.chunks: list[bytes] = []
        self.ordinal = 0
        self.thread_id = uuid7(self.rng, self.clock)
        self.turn_id = ""
        self.window = 0
        self.window_ids: list[str] = [uuid(self.rng)]
        self.reject_line: int | None = None
        self.gap = 30.0  # seconds before the next turn starts

    # -- writing -----------------------------------------------------------------------

    def write(self, kind: str, payload: Any, stamp: str | None = None, glued: bool = False) -> None:
        """Append one envelope (CDX-1): the writer's time, C5's ordinal, the tag, the item."""
        envelope: dict[str, Any] = {"timestamp": stamp or self.clock.tick()}
        if self.build.ordinal:
            envelope["ordinal"] = self.ordinal
            self.ordinal += 1
        envelope["type"] = kind
        envelope["payload"] = payload
        self.records.append({"type": kind, "payload": payload})
        data = line(envelope)
        if glued and self.chunks:
            self.chunks[-1] = self.chunks[-1].rstrip(b"\n")
        self.chunks.append(data)

    def lines_so_far(self) -> int:
        return b"".join(self.chunks).count(b"\n")

    def event(self, payload: dict[str, Any], glued: bool = False) -> None:
        self.write("event_msg", payload, glued=glued)

    def item(self, payload: dict[str, Any]) -> None:
        self.write("response_item", payload)

    # -- the thread's start ------------------------------------------------------------

    def session_meta(self, copy: Copy | None = None, parent: Rollout | None = None) -> None:
        """The thread's first line; a fork names its parent (C4+), C5 marks what it copied."""
        payload: dict[str, Any] = {"id": self.thread_id}
        if copy is not None and parent is not None and self.build.turn_ids:
            payload["forked_from_id"] = parent.thread_id
        payload["timestamp"] = self.clock.stamp()
        payload["cwd"] = "/home/dev/project"
        payload["originator"] = "codex_cli_rs"
        if self.plan.version is not None or self.plan.era != "C0":
            payload["cli_version"] = self.build.version
        payload["instructions"] = None
        if self.build.turn_ids:
            payload["source"] = "cli"
            payload["model_provider"] = "openai"
        if copy is not None and copy.how == "subagent" and parent is not None:
            payload["parent_thread_id"] = parent.thread_id
            payload["thread_source"] = "subagent"
        payload["git"] = {"commit_hash": hex8(self.rng) * 5, "branch": "main"}
        if self.build.ordinal and copy is not None and parent is not None:
            if copy.how == "subagent":
                payload["subagent_history_start_ordinal"] = 0  # set once the copy is known
            else:
                payload["forked_from_ordinal_exclusive"] = parent.ordinal
                payload["history_base"] = {
                    "thread_id": parent.thread_id,
                    "end_ordinal_exclusive": parent.ordinal,
                    "end_byte_offset": len(parent.bytes()),
                }
        self.write("session_meta", payload, stamp=self.clock.tick(0))

    def initial_context(self, stamp: str | None = None) -> None:
        """The developer permissions and the `<environment_context>` user message."""
        if self.build.turn_ids:
            self.write(
                "response_item",
                _message("developer", "<permissions instructions>sandbox: workspace-write"),
                stamp=stamp,
            )
        context = "<environment_context>\n  <cwd>/home/dev/project</cwd>\n</environment_context>"
        self.write("response_item", _message("user", context), stamp=stamp)

    # -- turns -------------------------------------------------------------------------

    def task_started(self) -> None:
        self.turn_id = uuid7(self.rng, self.clock)
        payload: dict[str, Any] = {"type": "task_started"}
        if self.build.turn_ids:
            payload["turn_id"] = self.turn_id
        payload["model_context_window"] = 258400
        self.event(payload)

    def task_complete(self, text: str | None) -> None:
        payload: dict[str, Any] = {"type": "task_complete"}
        if self.build.turn_ids:
            payload["turn_id"] = self.turn_id
        payload["last_agent_message"] = text
        self.event(payload)

    def turn_context(self) -> None:
        payload: dict[str, Any] = {}
        if self.build.turn_ids:
            payload["turn_id"] = self.turn_id
        payload.update(
            cwd="/home/dev/project",
            approval_policy="on-request",
            sandbox_policy={"type": "workspace-write", "network_access": False},
            model="gpt-5-codex",
            summary="auto",
        )
        self.write("turn_context", payload)

    def token_count(self, tokens: int) -> None:
        usage = {"input_tokens": tokens, "cached_input_tokens": tokens // 2, "output_tokens": 900}
        info = {"total_token_usage": usage, "last_token_usage": usage}
        self.event({"type": "token_count", "info": info, "rate_limits": None})

    def user_message(self) -> None:
        text = "please " + words(self.rng, 8)
        self.item(_message("user", text))
        self.event({"type": "user_message", "message": text, "images": []})

    def tool_call(self) -> None:
        call = "call_" + hex8(self.rng) + hex8(self.rng)
        arguments = '{"command":["bash","-lc","cargo test"]}'
        self.item(_call(call, arguments))
        self.clock.wait(2)
        output = {"output": "test result: ok. " + words(self.rng, 12), "metadata": {"exit_code": 0}}
        self.item({"type": "function_call_output", "call_id": call, "output": output})

    def answer(self) -> str:
        text = "Done: " + words(self.rng, 10)
        self.event({"type": "agent_message", "message": text})
        self.item(_message("assistant", text, "output_text"))
        return text

    def turn(self, step: Turn) -> None:
        self.clock.wait(self.gap)
        self.gap = 30.0
        self.task_started()
        for compaction in (c for c in step.compactions if c.when == "pre"):
            self.compaction(compaction, mid=False)
        if self.build.turn_context:
            self.turn_context()
        self.user_message()
        mids = [c for c in step.compactions if c.when == "mid"]
        for index in range(max(step.tools, len(mids))):
            self.tool_call()
            self.token_count(180_000 + 1000 * index)
            if index < len(mids):
                self.compaction(mids[index], mid=True)
        if step.aborted:
            self.event({"type": "turn_aborted", "reason": "interrupted"})
            return
        text = self.answer()
        self.token_count(60_000)
        self.task_complete(text)

    def freeform(self, step: Freeform) -> None:
        """A turn that edits with the free-form `apply_patch` tool (`ResponseItem::CustomToolCall`,
        GPT-5's custom tools); with `ghost`, the `ResponseItem::GhostSnapshot` that the `/undo`
        machinery (`codex-rs/core/src/tasks/ghost_snapshot.rs`) writes before the turn's tools."""
        self.clock.wait(self.gap)
        self.gap = 30.0
        self.task_started()
        if self.build.turn_context:
            self.turn_context()
        self.user_message()
        if step.ghost:
            commit = {
                "id": hex8(self.rng) * 5,
                "parent": hex8(self.rng) * 5,
                "preexisting_untracked_files": [],
                "preexisting_untracked_dirs": [],
            }
            self.item({"type": "ghost_snapshot", "ghost_commit": commit})
        call = "call_" + hex8(self.rng) + hex8(self.rng)
        patch = "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-old\n+new\n*** End Patch\n"
        self.item(
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": call,
                "name": "apply_patch",
                "input": patch,
            }
        )
        self.clock.wait(2)
        output = '{"output":"Success. Updated the following files:\\nM src/lib.rs\\n"}'
        self.item({"type": "custom_tool_call_output", "call_id": call, "output": output})
        self.token_count(120_000)
        text = self.answer()
        self.token_count(60_000)
        self.task_complete(text)

    def manual(self, step: Manual) -> None:
        """A `/compact` turn: no user message, the compaction, the end of the task (CDX-9)."""
        self.clock.wait(40)
        self.task_started()
        if not step.done:
            self.clock.wait(3)
            payload: dict[str, Any] = {"type": "turn_aborted"}
            if self.build.turn_ids:
                payload["turn_id"] = self.turn_id
            payload["reason"] = "interrupted"
            self.event(payload)
            return
        self.compaction(Compact(kind=step.kind, when="pre"), mid=False)
        self.task_complete(None)

    # -- the compaction ----------------------------------------------------------------

    def compaction(self, step: Compact, mid: bool) -> None:
        """The lines of one compaction in this build's order; nothing when it failed (CDX-3)."""
        self.clock.wait(8)
        if not step.done:
            return  # the summary turn errs: Codex returns before writing anything
        order = self.build.order
        if order == "c3" and step.kind == "local":
            self.turn_context()
        self.write("compacted", self.compacted_payload(step), glued=step.glued)
        if self.build.ordinal:
            item = {"type": "ContextCompaction", "id": uuid(self.rng)}
            if mid:
                self.turn_context()
            self.event({"type": "item_completed", "thread_id": self.thread_id, "item": item})
        elif order == "c4a":
            self.event({"type": "context_compacted"})
            self.turn_context()
        elif order == "c4b":
            if mid:
                self.turn_context()
            self.event({"type": "context_compacted"})
        elif self.build.companion:
            self.event({"type": "context_compacted"})

    def compacted_payload(self, step: Compact) -> dict[str, Any]:
        summary = "## Progress\n" + words(self.rng, 40)
        kept = [_message("user", "please " + words(self.rng, 6))]
        if step.huge:
            kept += [_message("user", words(self.rng, 4) + " " + "x" * 1000) for _ in range(150)]
        payload: dict[str, Any]
        if step.kind == "remote":
            blob = "gAAAAA" + "".join(self.rng.choice("ABCDEFabcdef0123456789") for _ in range(96))
            history = [*kept, {"type": "compaction", "encrypted_content": blob}]
            payload = {"message": "", "replacement_history": history}
        else:
            message = f"{SUMMARY_PREFIX}\n{summary}" if self.build.prefix else summary
            payload = {"message": message}
            if self.build.history:
                payload["replacement_history"] = [*kept, _message("user", message)]
        if self.build.ordinal:
            self.window += 1
            self.window_ids.append(uuid(self.rng))
            payload.update(
                window_number=self.window,
                first_window_id=self.window_ids[0],
                previous_window_id=self.window_ids[-2],
                window_id=self.window_ids[-1],
                compaction_response_id=None,
                latest_token_usage_record=None,
                retained_context=None,
            )
        return payload

    # -- other steps -------------------------------------------------------------------

    def rollback(self, step: Rollback) -> None:
        self.clock.wait(20)
        self.event({"type": "thread_rolled_back", "num_turns": step.turns})

    def resume(self, step: Resume) -> None:
        """A resumed thread appends; nothing is copied (CDX-7)."""
        self.clock.wait(step.hours * 3600)

    def garbage(self) -> None:
        self.clock.wait(1)
        cut = line(
            {
                "timestamp": self.clock.tick(),
                "type": "response_item",
                "payload": {"type": "function_call_output", "output": words(self.rng, 9)},
            }
        )
        self.chunks.append(cut[: len(cut) // 2] + b"\n")

    def odd(self) -> None:
        self.write("compacted", "compacted")
        self.write("compacted", [{"message": "not an object payload"}])

    def third_party(self) -> None:
        blob = "gAAAAA" + hex8(self.rng) * 8
        item = {"type": "ContextCompaction", "id": uuid(self.rng)}
        self.event({"type": "item_completed", "thread_id": self.thread_id, "item": item})
        self.item({"type": "compaction", "encrypted_content": blob})
        self.item({"type": "compaction_summary", "encrypted_content": blob})

    def deep(self, step: Deep) -> None:
        self.reject_line = self.lines_so_far() + 1
        payload = {"type": "message", "role": "user", "content": DEEP}
        envelope = {"timestamp": self.clock.tick(), "type": "response_item", "payload": payload}
        self.chunks.append(deep_line(envelope, step.depth))

    def bytes(self) -> bytes:
        return b"".join(self.chunks)


def _call(call: str, arguments: str) -> dict[str, Any]:
    return {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call}


def _message(role: str, text: str, part: str = "input_text") -> dict[str, Any]:
    return {"type": "message", "role": role, "content": [{"type": part, "text": text}]}


def play(plan: CodexPlan, clock: Clock | None = None) -> Rollout:
    """Write the plan's rollout: the copy (CDX-5), the initial context, the steps, the damage."""
    if plan.legacy:
        return _legacy(plan)
    rollout = Rollout(plan, clock)
    parent: Rollout | None = None
    if plan.copy is not None:
        parent = play(plan.copy.parent)
        rollout.clock.now = parent.clock.now.replace(microsecond=100_000)
        rollout.clock.wait(90)  # the burst below stays inside one second (CDX-5 2)
        # Codex mints the new thread's id when the fork is made, after every parent turn.
        rollout.thread_id = uuid7(rollout.rng, rollout.clock)
    rollout.session_meta(plan.copy, parent)
    if plan.copy is not None and parent is not None:
        _copy(rollout, parent, plan.copy)
    else:
        rollout.initial_context()
    for step in plan.steps:
        if isinstance(step, Turn):
            rollout.turn(step)
        elif isinstance(step, Manual):
            rollout.manual(step)
        elif isinstance(step, Rollback):
            rollout.rollback(step)
        elif isinstance(step, Resume):
            rollout.resume(step)
        elif isinstance(step, Garbage):
            rollout.garbage()
        elif isinstance(step, OddCompacted):
            rollout.odd()
        elif isinstance(step, ThirdParty):
            rollout.third_party()
        elif isinstance(step, Deep):
            rollout.deep(step)
        elif isinstance(step, Freeform):
            rollout.freeform(step)
    if plan.torn:
        rollout.clock.wait(12)
        whole = line(
            {
                "timestamp": rollout.clock.tick(),
                "type": "compacted",
                "payload": {"message": SUMMARY_PREFIX + "\n" + words(rollout.rng, 30)},
            }
        )
        rollout.chunks.append(whole[: len(whole) * 2 // 3])
    return rollout


def _copy(rollout: Rollout, parent: Rollout, copy: Copy) -> None:
    """Start-up burst of a fork or subagent (CDX-5).

    C1-C4: every record of the parent, its `session_meta` first, re-written with the copy's
    stamp (within a few ms), then the thread's own initial context in the same burst; the first
    own turn waits at least a second (`thread/fork`) or, for a subagent, may start in the same
    second. C5 subagent: the copied lines (the parent's latest window) take ordinals below
    `subagent_history_start_ordinal`; C5 fork: nothing is copied (`history_base`).
    """
    meta = rollout.records[0]["payload"]
    if rollout.build.ordinal and copy.how == "fork":
        rollout.ordinal = parent.ordinal + 1  # ordinals continue the parent's
        rollout.chunks[0] = _reordinal(rollout, 0)
        rollout.clock.wait(2)
        return
    records = parent.records
    if rollout.build.ordinal:
        last = max(i for i, r in enumerate(records) if r["type"] == "compacted")
        records = [records[0], *records[last:]]
    for index, record in enumerate(records):
        stamp = rollout.clock.tick(1) if index and index % 7 == 0 else rollout.clock.stamp()
        rollout.write(record["type"], record["payload"], stamp=stamp)
    if rollout.build.ordinal:
        meta["subagent_history_start_ordinal"] = rollout.ordinal
        rollout.chunks[0] = _reordinal(rollout, 0)
    rollout.initial_context(stamp=rollout.clock.tick(1))
    # The first own turn: `thread/fork` waits for the user (seconds at least); a subagent is
    # sent its task at once and may start within the copy's second.
    rollout.gap = 0.3 if copy.same_second else 4.0


def _reordinal(rollout: Rollout, index: int) -> bytes:
    """Re-render the first line once the session_meta payload knows the copy's extent."""
    record = rollout.records[index]
    stamp = rollout.chunks[index].split(b'"timestamp":"', 1)[1].split(b'"', 1)[0].decode()
    envelope: dict[str, Any] = {"timestamp": stamp}
    if rollout.build.ordinal:
        envelope["ordinal"] = rollout.ordinal - 1 if index else _first_ordinal(rollout)
    envelope["type"] = record["type"]
    envelope["payload"] = record["payload"]
    return line(envelope)


def _first_ordinal(rollout: Rollout) -> int:
    meta = rollout.records[0]["payload"]
    base = meta.get("history_base")
    return int(base["end_ordinal_exclusive"]) if isinstance(base, dict) else 0


def _legacy(plan: CodexPlan) -> Rollout:
    """C0 before the envelope (CDX-1): a bare header, bare response items, state lines."""
    rollout = Rollout(plan)
    header = {
        "id": rollout.thread_id,
        "timestamp": rollout.clock.stamp(),
        "instructions": None,
        "git": {"commit_hash": hex8(rollout.rng) * 5, "branch": "main"},
    }
    rollout.chunks.append(line(header))
    rollout.chunks.append(line({"record_type": "state"}))
    for step in plan.steps:
        if not isinstance(step, Turn):
            continue
        text = "please " + words(rollout.rng, 8)
        rollout.chunks.append(line(_message("user", text)))
        for _ in range(step.tools):
            call = "call_" + hex8(rollout.rng)
            arguments = '{"command":["bash","-lc","ls"]}'
            output = {"type": "function_call_output", "call_id": call}
            output["output"] = words(rollout.rng, 6)
            rollout.chunks += [line(_call(call, arguments)), line(output)]
        rollout.chunks.append(line(_message("assistant", words(rollout.rng, 9), "output_text")))
        rollout.chunks.append(line({"record_type": "state"}))
    return rollout
