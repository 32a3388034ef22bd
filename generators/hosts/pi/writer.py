"""A model of the pi coding agent's session writer, per format (spec/hosts/pi.md, PIA-1..PIA-9).

Restated from badlogic/pi-mono `packages/coding-agent/src/core/session-manager.ts` and
`agent-session.ts`: a header `{"type":"session", ...}` then one entry a line, each written with
`JSON.stringify` and a LF. Format 1 (pi 0.12-0.30) has no `version`, no entry ids and keeps
`firstKeptEntryIndex`; format 2 (0.31) adds `version`, 8-hex `id` / `parentId` (a tree in one
file) and `firstKeptEntryId`; format 3 (0.35) renamed the extension message role `hookMessage`
to `custom`. Manual `/compact` and automatic compaction both call `appendCompaction` with the
same fields once the summary exists; failures write nothing. Moving in the tree writes nothing
at the time: the next entry names an earlier parent. A fork or branch copy is a new file whose
header is stamped when the copy is made and names the source (`parentSession`; format 1
`branchedFrom`), followed by the source's entries verbatim (ids and time stamps included).
Migration (`migrateV1ToV2`, `migrateV2ToV3`) rewrites a whole file: ids and `parentId` are
added to each existing entry (after its other members), `firstKeptEntryIndex` becomes
`firstKeptEntryId`, the header gets `version`.

The writer keeps entries as Python dicts in the member order pi's object literals give them.
"""

from __future__ import annotations

import random
from typing import Any

from ..common import DEEP, Clock, Deep, deep_line, hex8, iso, line, start, uuid, words

__all__ = ["PiSession", "line", "migrate", "play", "torn_tail"]
from .plan import Exchange, Extras, Navigate, PiCompact, PiGarbage, PiPlan

START = {"v1": "2025-12-10T10:00:00", "v2": "2026-01-03T10:00:00", "v3": "2026-03-02T10:00:00"}
DEEP_TEXT = line(DEEP)[:-1]
SESSIONS = "/home/dev/.pi/agent/sessions/--home-dev-project--"


class PiSession:
    """One session file being written."""

    def __init__(self, plan: PiPlan, fmt: str | None = None) -> None:
        self.plan = plan
        self.fmt = fmt or ("v1" if plan.migrated else plan.era)
        self.rng = random.Random(f"pi/{plan.era}/{plan.seed}/{plan.migrated}")
        self.clock = Clock(start(START[plan.era if not plan.migrated else "v1"]))
        self.id = uuid(self.rng, 4)
        self.header: dict[str, Any] = {}
        self.entries: list[dict[str, Any]] = []
        self.glued: set[int] = set()  # indices of entries written with no LF before them
        self.extra: list[tuple[int, bytes]] = []  # (before entry index, raw bytes)
        self.leaf: str | None = None
        self.reject_entry: int | None = None
        self.inherited = 0
        self.deep_depth = 0

    @property
    def tree(self) -> bool:
        return self.fmt != "v1"

    @property
    def path(self) -> str:
        stamp = self.header.get("timestamp", "").replace(":", "-").replace(".", "-")
        return f"{SESSIONS}/{stamp}_{self.id}.jsonl"

    # -- header and entries ------------------------------------------------------------

    def make_header(self, source: PiSession | None) -> None:
        header: dict[str, Any] = {"type": "session"}
        if self.tree:
            header["version"] = 2 if self.fmt == "v2" else 3
        header["id"] = self.id
        header["timestamp"] = self.clock.stamp()
        header["cwd"] = "/home/dev/project"
        if not self.tree:
            header.update(provider="local", modelId="coder-1", thinkingLevel="off")
            if source is not None:
                header["branchedFrom"] = source.path
        elif source is not None:
            header["parentSession"] = source.path
        self.header = header

    def append(self, kind: str, members: dict[str, Any], glued: bool = False) -> dict[str, Any]:
        entry: dict[str, Any] = {"type": kind}
        if self.tree:
            entry["id"] = hex8(self.rng)
            entry["parentId"] = self.leaf
            self.leaf = entry["id"]
        entry["timestamp"] = self.clock.tick(40)
        entry.update(members)
        if glued:
            self.glued.add(len(self.entries))
        self.entries.append(entry)
        return entry

    def message(self, body: dict[str, Any]) -> dict[str, Any]:
        body["timestamp"] = self.clock.epoch_ms()
        return self.append("message", {"message": body})

    # -- steps -------------------------------------------------------------------------

    def exchange(self, step: Exchange) -> None:
        self.clock.wait(20)
        self.message({"role": "user", "content": [{"type": "text", "text": words(self.rng, 9)}]})
        if step.bash:
            self.message(
                {
                    "role": "bashExecution",
                    "command": "git status",
                    "output": "nothing to commit",
                    "exitCode": 0,
                    "cancelled": False,
                    "truncated": False,
                }
            )
        for _ in range(step.tools):
            call = "call_" + hex8(self.rng)
            self.clock.wait(3)
            arguments = {"command": "npm test"}
            content = [{"type": "toolCall", "id": call, "name": "bash", "arguments": arguments}]
            self.message(self._assistant(content, "toolUse"))
            self.clock.wait(2)
            self.message(
                {
                    "role": "toolResult",
                    "toolCallId": call,
                    "toolName": "bash",
                    "content": [{"type": "text", "text": "ok " + words(self.rng, 8)}],
                    "isError": False,
                }
            )
        self.clock.wait(4)
        self.message(self._assistant([{"type": "text", "text": words(self.rng, 14)}], "stop"))

    def _assistant(self, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        usage = {"input": 90_000, "output": 400, "cacheRead": 0, "cacheWrite": 0}
        return {
            "role": "assistant",
            "content": content,
            "api": "openai-completions",
            "provider": "local",
            "model": "coder-1",
            "usage": {**usage, "totalTokens": 90_400},
            "stopReason": stop,
        }

    def compaction(self, step: PiCompact) -> None:
        """`appendCompaction` once the summary exists (PIA-3); nothing when it did not finish."""
        self.clock.wait(15)
        if step.trigger == "auto":
            # an automatic compaction after an overflow follows the errored assistant turn
            self.message(self._assistant([], "error"))
        if not step.done:
            return
        summary = step.summary or "## Goal\n" + words(self.rng, 30)
        kept = self._kept()
        members: dict[str, Any] = {"summary": summary}
        if self.tree:
            members["firstKeptEntryId"] = kept
            members["tokensBefore"] = 180_000
            members["details"] = {"readFiles": ["src/a.ts"], "modifiedFiles": ["src/b.ts"]}
            if self.fmt == "v3" or step.from_hook:
                members["fromHook"] = step.from_hook
        else:
            members["firstKeptEntryIndex"] = kept
            members["tokensBefore"] = 180_000
        self.append("compaction", members, glued=step.glued)

    def _kept(self) -> Any:
        """The first entry kept verbatim: the last user message (by id, or format 1's index)."""
        for index in range(len(self.entries) - 1, -1, -1):
            entry = self.entries[index]
            if entry["type"] == "message" and entry["message"]["role"] == "user":
                return entry["id"] if self.tree else index + 1
        return self.entries[0]["id"] if self.tree else 1

    def extras(self) -> None:
        """Entries that are never compactions (PIA-4)."""
        self.clock.wait(5)
        self.append("thinking_level_change", {"thinkingLevel": "high"})
        self.append("model_change", {"provider": "local", "modelId": "coder-2"})
        if not self.tree:
            return
        self.append("custom", {"customType": "todo", "data": {"items": ["compaction: none"]}})
        role = "custom" if self.fmt == "v3" else "hookMessage"
        text = "note from an extension about compaction"
        self.message({"role": role, "customType": "note", "content": text, "display": True})
        self.append(
            "custom_message",
            {"customType": "reminder", "content": "keep going", "display": False},
        )
        if self.entries:
            target = self.entries[-2]["id"]
            self.append("label", {"targetId": target, "label": "checkpoint"})
        self.append("session_info", {"name": "refactor session"})

    def navigate(self, step: Navigate) -> None:
        """Move back in the tree; the branch left stays in the file (PIA-6)."""
        ids = [e["id"] for e in self.entries if "id" in e]
        left = self.leaf
        self.leaf = ids[-1 - step.back]
        if step.summary:
            self.clock.wait(10)
            summary = "The branch tried " + words(self.rng, 12)
            self.append("branch_summary", {"fromId": left, "summary": summary})

    def garbage(self) -> None:
        self.clock.wait(2)
        cut = line({"type": "message", "timestamp": self.clock.tick(), "message": {"role": "user"}})
        self.extra.append((len(self.entries), cut[: len(cut) // 2] + b"\n"))

    def deep(self, step: Deep) -> None:
        self.reject_entry = len(self.entries)
        self.deep_depth = step.depth
        self.message({"role": "user", "content": DEEP})

    # -- bytes ---------------------------------------------------------------------------

    def lines(self) -> list[bytes]:
        """The header and every entry, one line each, the raw extras where they were written."""
        out = [line(self.header)]
        extras = dict(self.extra)
        for index, entry in enumerate(self.entries):
            if index in extras:
                out.append(extras[index])
            data = self.encode(entry)
            if index in self.glued:
                out[-1] = out[-1].rstrip(b"\n")
            out.append(data)
        if len(self.entries) in extras:
            out.append(extras[len(self.entries)])
        return out

    def encode(self, entry: dict[str, Any]) -> bytes:
        data = line(entry)
        return deep_line(entry, self.deep_depth) if DEEP_TEXT in data else data

    def bytes(self) -> bytes:
        return b"".join(self.lines())

    def reject_line(self) -> int | None:
        """The 1-based line of the entry the plan made too deep (E-LIMIT), if any."""
        if self.reject_entry is None:
            return None
        wanted = self.encode(self.entries[self.reject_entry])
        text = self.bytes()
        return text[: text.index(wanted.rstrip(b"\n"))].count(b"\n") + 1


def play(plan: PiPlan) -> PiSession:
    """Write the plan's session: the copied entries (PIA-5), its own steps, the damage."""
    session = PiSession(plan)
    source: PiSession | None = None
    if plan.copy is not None:
        source = play(plan.copy.parent)
        session.clock.now = source.clock.now
        session.clock.wait(600)
        session.make_header(source)
        copied = [dict(entry) for entry in source.entries]
        session.entries.extend(copied)
        session.inherited = len(copied)
        session.leaf = copied[-1].get("id") if copied else None
    else:
        first_prompt = session.clock.now
        session.clock.wait(4)  # the header is made when the buffered entries are first written
        session.make_header(None)
        session.clock.now = first_prompt
    for step in plan.steps:
        if isinstance(step, Exchange):
            session.exchange(step)
        elif isinstance(step, PiCompact):
            session.compaction(step)
        elif isinstance(step, Extras):
            session.extras()
        elif isinstance(step, Navigate):
            session.navigate(step)
        elif isinstance(step, PiGarbage):
            session.garbage()
        elif isinstance(step, Deep):
            session.deep(step)
    if plan.migrated:
        migrate(session)
    return session


def migrate(session: PiSession) -> None:
    """Rewrite a format 1 session as format 3 (PIA-8): random ids added after each entry's
    members, `firstKeptEntryIndex` turned into the id of that entry, `version` appended to
    the header (which keeps `branchedFrom`)."""
    ids = [hex8(session.rng) for _ in session.entries]
    previous: str | None = None
    for index, entry in enumerate(session.entries):
        entry["id"] = ids[index]
        entry["parentId"] = previous
        previous = ids[index]
        if entry["type"] == "compaction" and "firstKeptEntryIndex" in entry:
            kept = int(entry.pop("firstKeptEntryIndex"))
            entry["firstKeptEntryId"] = ids[max(0, min(kept - 1, len(ids) - 1))]
    session.header["version"] = 3
    session.fmt = "v3"


def torn_tail(session: PiSession) -> bytes:
    """A compaction entry cut short while it was written: no LF, does not parse (JSV-2)."""
    entry = {
        "type": "compaction",
        "id": hex8(session.rng),
        "parentId": session.leaf,
        "timestamp": iso(session.clock.now),
        "summary": "## Goal\n" + words(session.rng, 30),
    }
    whole = line(entry)
    return whole[: len(whole) // 2]
