"""A model of Claude Code's transcript writer, per era (spec/hosts/claude-code.md, CLC-1..CLC-10).

Claude Code's source is not public; this model restates the shapes of public transcripts (the
real 2.1.39 file of the corpus, `fixtures/realworld-claude-code-spotter`, for CC2) and what the
project's changelog and issues say, and marks what it assumes. Each record is one compact JSON
object and a LF, in the member order the real file shows: the thread members (`parentUuid`,
`isSidechain`, `userType`, `cwd`, `sessionId`, `version`, `gitBranch`, CC2's `slug`), then
`type` and the record's own members, then `uuid` and `timestamp`.

One compaction (CLC-3) writes, once the summary exists: a `system` `compact_boundary` with
`parentUuid: null` (CC2+: `logicalParentUuid` naming the last record before it) and
`compactMetadata` (CC3 adds `postTokens`, `durationMs`), then the `user` summary record
(`isCompactSummary: true`, parent the boundary). A manual one is followed by the `/compact`
command's records, stamped earlier than the boundary; an automatic one follows a tool result
and the turn goes on. CC0 writes the summary record only. A failed or cancelled compaction
writes neither (a failed `/compact` leaves its command records, with an error as its output:
assumed shape). The summarizer's side file (`agent-acompact-*`) holds the summary request and
answer as sidechain records with an `agentId`. A `/branch` copy repeats the source's records
with their `uuid`s, each with `forkedFrom` added (assumed shape: the source session and the
record's uuid). `microcompact_boundary` and the `/branch` and re-append shapes are modelled on
issue reports, not on a real file.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from ..common import Clock, hex8, iso, line, start, uuid, words
from .plan import (
    ClaudeCompact,
    ClaudeGarbage,
    ClaudeOddType,
    ClaudePlan,
    ClaudeSystemNote,
    ClaudeTurn,
    Microcompact,
    Reappend,
    Sidechain,
    TitleRows,
)

__all__ = ["Transcript", "play"]

START = {
    "CC0": "2025-07-14T09:00:00",
    "CC1": "2025-11-03T09:00:00",
    "CC2": "2026-02-10T09:00:00",
    "CC3": "2026-07-20T09:00:00",
}
VERSION = {"CC0": "1.0.51", "CC1": "2.0.31", "CC2": "2.1.39", "CC3": "2.1.205"}
CWD = "/home/dev/project"
SUMMARY_OPENING = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The summary below covers the earlier portion of the conversation.\n\n"
)


class Transcript:
    """One transcript file being written."""

    def __init__(self, plan: ClaudePlan) -> None:
        self.plan = plan
        self.era = plan.era
        self.rng = random.Random(f"claude-code/{plan.era}/{plan.seed}/{plan.side_file}")
        self.clock = Clock(start(START[plan.era]))
        self.session = uuid(self.rng, 4)
        self.records: list[dict[str, Any]] = []
        self.glued: set[int] = set()  # indices of records written with no LF before them
        self.extra: list[tuple[int, bytes]] = []  # (before record index, raw bytes)
        self.leaf: str | None = None
        self.sidechain = plan.side_file
        self.agent = f"acompact-{hex8(self.rng)[:6]}" if plan.side_file else None
        self.boundaries: list[int] = []  # indices of the boundary records written
        self.inherited = 0

    @property
    def later(self) -> bool:
        """CC2 and later: `slug`, `logicalParentUuid`, file backup snapshots."""
        return self.era in ("CC2", "CC3")

    # -- records ---------------------------------------------------------------------------

    def thread(self, parent: str | None, sidechain: bool | None = None) -> dict[str, Any]:
        """The members every conversation record starts with (CLC-1)."""
        record: dict[str, Any] = {
            "parentUuid": parent,
            "isSidechain": self.sidechain if sidechain is None else sidechain,
            "userType": "external",
            "cwd": CWD,
            "sessionId": self.session,
            "version": VERSION[self.era],
            "gitBranch": "main",
        }
        if self.agent is not None:
            record["agentId"] = self.agent
        if self.later:
            record["slug"] = "quiet-river-lantern"
        return record

    def add(
        self,
        kind: str,
        members: dict[str, Any],
        *,
        parent: str | bool | None = True,
        sidechain: bool | None = None,
        at: str | None = None,
        glued: bool = False,
        move: bool = True,
    ) -> dict[str, Any]:
        """Append a conversation record; `parent=True` chains it to the current leaf."""
        chosen = self.leaf if parent is True else (parent if isinstance(parent, str) else None)
        record = self.thread(chosen, sidechain)
        record["type"] = kind
        record.update(members)
        record["uuid"] = uuid(self.rng, 4)
        record["timestamp"] = at or self.clock.tick(40)
        if glued:
            self.glued.add(len(self.records))
        self.records.append(record)
        if move:
            self.leaf = record["uuid"]
        return record

    def user(self, content: Any, **options: Any) -> dict[str, Any]:
        return self.add("user", {"message": {"role": "user", "content": content}}, **options)

    def assistant(self, content: list[dict[str, Any]], stop: str | None) -> dict[str, Any]:
        message = {
            "model": "claude-model",
            "id": "msg_" + hex8(self.rng) + hex8(self.rng),
            "type": "message",
            "role": "assistant",
            "content": content,
            "stop_reason": stop,
            "usage": {"input_tokens": 12, "output_tokens": 300, "cache_read_input_tokens": 90000},
        }
        return self.add("assistant", {"message": message, "requestId": "req_" + hex8(self.rng)})

    def snapshot(self) -> None:
        """A file backup snapshot (no `uuid`; CLC-1), written before each prompt from CC2."""
        if not self.later or self.sidechain:
            return
        message = uuid(self.rng, 4)
        snapshot = {"messageId": message, "trackedFileBackups": {}, "timestamp": self.clock.stamp()}
        self.records.append(
            {
                "type": "file-history-snapshot",
                "messageId": message,
                "snapshot": snapshot,
                "isSnapshotUpdate": False,
            }
        )

    # -- steps -----------------------------------------------------------------------------

    def turn(self, step: ClaudeTurn) -> None:
        self.clock.wait(20)
        self.snapshot()
        self.user(words(self.rng, 9))
        for _ in range(step.tools):
            self.tool_call()
        self.clock.wait(4)
        self.assistant([{"type": "text", "text": words(self.rng, 14)}], "end_turn")

    def tool_call(self) -> None:
        call = "toolu_" + hex8(self.rng) + hex8(self.rng)
        self.clock.wait(3)
        use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "make test"}}
        self.assistant([use], "tool_use")
        self.clock.wait(2)
        result = [
            {"tool_use_id": call, "type": "tool_result", "content": "ok " + words(self.rng, 6)}
        ]
        self.user(result, move=True)
        self.records[-1]["toolUseResult"] = {"stdout": "ok", "stderr": "", "interrupted": False}

    def compaction(self, step: ClaudeCompact) -> None:
        """CLC-3: the boundary and its summary once the summary exists; CLC-8: what surrounds
        a manual and an automatic one. CC0 writes the summary only (CLC-7)."""
        if step.trigger == "auto":
            self.tool_call()  # the context filled up during a tool call
        else:
            self.clock.wait(30)
        command_at = self.clock.tick(5)  # the /compact command starts before the summary
        self.clock.wait(25)  # the summary request runs
        if not step.done:
            if step.trigger == "manual":
                self.command_records(command_at, failed=True)
            return
        parent: str | None = None
        with_boundary = self.era != "CC0" and not step.legacy  # CLC-7: CC0 writes none
        if with_boundary:
            metadata: dict[str, Any] = {"trigger": step.trigger, "preTokens": 150_000}
            if self.era == "CC3":
                metadata.update(postTokens=9_000, durationMs=24_000)
            members: dict[str, Any] = {"subtype": "compact_boundary"}
            members.update(content="Conversation compacted", isMeta=False)
            boundary = self.boundary(members, metadata, step.glued)
            if step.uuid:
                parent = boundary["uuid"]
            else:  # CLC-3: a boundary without a uuid counts on its own
                del boundary["uuid"]
                self.leaf = None
        summary = SUMMARY_OPENING + "Summary:\n1. " + words(self.rng, 40)
        self.user(
            summary,
            parent=parent,
            at=self.clock.tick(2),
        )
        self.records[-1]["isVisibleInTranscriptOnly"] = True
        self.records[-1]["isCompactSummary"] = True
        if not with_boundary and not step.uuid:  # CLC-7: the CC0 primary without a uuid
            del self.records[-1]["uuid"]
            self.leaf = None
        if step.trigger == "manual":
            self.command_records(command_at, failed=False)
        else:
            self.clock.wait(3)
            self.assistant([{"type": "text", "text": "Continuing: " + words(self.rng, 8)}], None)
        if self.later:
            hook = {"type": "hook_progress", "hookEvent": "SessionStart"}
            hook.update(hookName="SessionStart:compact", command="echo resumed")
            self.add("progress", {"data": hook, "parentToolUseID": None}, move=False)

    def boundary(
        self, members: dict[str, Any], metadata: dict[str, Any], glued: bool
    ) -> dict[str, Any]:
        """The `compact_boundary` record in the member order of the real file."""
        record = self.thread(None)
        if self.later:
            record = {"parentUuid": None, "logicalParentUuid": self.leaf, **record}
        record["type"] = "system"
        record.update(members)
        record["timestamp"] = self.clock.tick(2)
        record["uuid"] = uuid(self.rng, 4)
        record["level"] = "info"
        record["compactMetadata"] = metadata
        if glued:
            self.glued.add(len(self.records))
        self.boundaries.append(len(self.records))
        self.records.append(record)
        self.leaf = record["uuid"]
        return record

    def command_records(self, at: str, failed: bool) -> None:
        """The `/compact` command's records after the summary: the caveat and the command
        stamped when it was typed (earlier than the boundary), its output when written (CLC-8)."""
        caveat = "<local-command-caveat>Caveat: local command output below.</local-command-caveat>"
        first = self.user(caveat, at=at)
        first["isMeta"] = True
        self.user("<command-name>/compact</command-name>\n<command-args></command-args>", at=at)
        if failed:
            text = "<local-command-stderr>Error: Error during compaction</local-command-stderr>"
        else:
            text = "<local-command-stdout>Compacted</local-command-stdout>"
        self.user(text)  # the command's output is stamped when it is written

    def microcompact(self) -> None:
        """CLC-4: tool results cleared, no summary (CC3; modelled on issue reports)."""
        self.clock.wait(5)
        members: dict[str, Any] = {"subtype": "microcompact_boundary"}
        members.update(content="Context microcompacted", isMeta=False)
        members["microcompactMetadata"] = {"trigger": "auto", "preTokens": 120_000}
        self.add("system", members)

    def title_rows(self) -> None:
        """CLC-4: resume-picker titles; one names this session's leaf, one another session's."""
        leaf = self.leaf or uuid(self.rng, 4)
        for title, target in (
            ("Parser refactor and compaction", leaf),
            ("Another session's title", uuid(self.rng, 4)),
        ):
            self.records.append({"type": "summary", "summary": title, "leafUuid": target})

    def sidechain_records(self) -> None:
        """CLC-5: a subagent's records inline, with a boundary and summary of its own."""
        self.clock.wait(5)
        task = "Search the code for " + words(self.rng, 4)
        root = self.user(task, parent=None, sidechain=True, move=False)
        self.add(
            "assistant",
            {"message": {"role": "assistant", "content": [{"type": "text", "text": "found"}]}},
            parent=root["uuid"],
            sidechain=True,
            move=False,
        )
        boundary = self.thread(None, sidechain=True)
        boundary.update(type="system", subtype="compact_boundary", content="Conversation compacted")
        boundary.update(isMeta=False, timestamp=self.clock.tick(), uuid=uuid(self.rng, 4))
        boundary.update(level="info", compactMetadata={"trigger": "auto", "preTokens": 160_000})
        self.records.append(boundary)
        summary = SUMMARY_OPENING + "Summary:\n1. " + words(self.rng, 12)
        self.user(summary, parent=boundary["uuid"], sidechain=True, move=False)
        self.records[-1]["isVisibleInTranscriptOnly"] = True
        self.records[-1]["isCompactSummary"] = True

    def reappend(self) -> None:
        """CLC-6 (#92089): the records from the first boundary up to the last one, again."""
        first, last = self.boundaries[0], self.boundaries[-1]
        self.records.extend(copy.deepcopy(self.records[first:last]))

    def system_note(self) -> None:
        """CLC-4: a `system` record of another subtype, a companion."""
        self.clock.wait(2)
        self.add("system", {"subtype": "turn_duration", "durationMs": 41_000, "isMeta": False})

    def odd_type(self) -> None:
        """CLC-10: a record whose `type` is an array and `subtype` an object names nothing."""
        record = self.thread(self.leaf)
        record.update(type=["system"], subtype={"name": "compact_boundary"})
        record.update(timestamp=self.clock.tick(3), uuid=uuid(self.rng, 4))
        self.records.append(record)

    def garbage(self) -> None:
        cut = line({"parentUuid": self.leaf, "type": "user", "timestamp": self.clock.tick()})
        self.extra.append((len(self.records), cut[: len(cut) // 2] + b"\n"))

    def side_file(self) -> None:
        """CLC-5: the summarizer's transcript: its request and its answer, all sidechain."""
        self.user("Summarize this conversation for a continuation. " + words(self.rng, 20))
        self.assistant([{"type": "text", "text": "Summary:\n1. " + words(self.rng, 40)}], None)

    # -- bytes -----------------------------------------------------------------------------

    def lines(self) -> list[bytes]:
        out: list[bytes] = []
        extras = dict(self.extra)
        for index, record in enumerate(self.records):
            if index in extras:
                out.append(extras[index])
            data = line(record)
            if index in self.glued and out:
                out[-1] = out[-1].rstrip(b"\n")
            out.append(data)
        if len(self.records) in extras:
            out.append(extras[len(self.records)])
        return out

    def bytes(self) -> bytes:
        data = b"".join(self.lines())
        if self.plan.torn:
            data += torn_tail(self)
        if self.plan.bom_long_first:
            data = b"\xef\xbb\xbf" + data
        return data


def play(plan: ClaudePlan) -> Transcript:
    """Write the plan's transcript: the copied records (CLC-6), its own steps, the damage."""
    transcript = Transcript(plan)
    if plan.copy is not None:
        source = play(plan.copy.parent)
        transcript.clock.now = source.clock.now
        transcript.clock.wait(600)
        for record in source.records:
            if "uuid" not in record:
                continue
            copied = dict(record)
            copied["sessionId"] = transcript.session
            copied["forkedFrom"] = {"sessionId": source.session, "messageUuid": record["uuid"]}
            transcript.records.append(copied)
            transcript.inherited += 1
        transcript.leaf = transcript.records[-1]["uuid"] if transcript.records else None
    if plan.bom_long_first:  # a first prompt with a pasted log of about 70 KB
        pasted = "".join(f"step {n}: ok\n" for n in range(6000))
        transcript.user("Why does this log stop? " + pasted)
    if plan.titles_first:
        transcript.title_rows()
    if plan.side_file:
        transcript.side_file()
    for step in plan.steps:
        if isinstance(step, ClaudeTurn):
            transcript.turn(step)
        elif isinstance(step, ClaudeCompact):
            transcript.compaction(step)
        elif isinstance(step, Microcompact):
            transcript.microcompact()
        elif isinstance(step, TitleRows):
            transcript.title_rows()
        elif isinstance(step, Sidechain):
            transcript.sidechain_records()
        elif isinstance(step, Reappend):
            transcript.reappend()
        elif isinstance(step, ClaudeGarbage):
            transcript.garbage()
        elif isinstance(step, ClaudeSystemNote):
            transcript.system_note()
        elif isinstance(step, ClaudeOddType):
            transcript.odd_type()
    return transcript


def torn_tail(transcript: Transcript) -> bytes:
    """A boundary cut short while it was written: no LF, does not parse (JSV-2)."""
    record = transcript.thread(None)
    record.update(type="system", subtype="compact_boundary", content="Conversation compacted")
    record.update(timestamp=iso(transcript.clock.now), uuid=uuid(transcript.rng, 4))
    record.update(level="info", compactMetadata={"trigger": "auto", "preTokens": 150_000})
    whole = line(record)
    return whole[: whole.index(b'"compactMetadata"') + 24]  # cut inside its metadata
