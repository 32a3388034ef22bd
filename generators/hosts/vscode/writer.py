"""Turns successive saves of a session into bytes the way VS Code writes them.

`LogWriter` is ObjectMutationLog's writer: the first save (and the first save after more than
1024 entries) replaces the file with one Initial line; every other save appends the diff of the
previous stored state against the new one, driven by the schema of `model.py`. `flat_json` is
the legacy writer (JSON.stringify(x, undefined, 2)). Facts: REW and RPL-6 to RPL-8 (VS Code's
`objectMutationLog.ts`, threshold from `chatSessionOperationLog.ts`), LEG-1 for the flat file
(`chatSessionStore.ts` up to 1.108).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson

from .model import (
    MISSING,
    SESSION,
    ArrayOf,
    Key,
    Memo,
    Node,
    Obj,
    Value,
    extract,
    is_sealed,
    member,
    values_equal,
)

REWRITE_AFTER = 1024  # ChatSessionOperationLog passes 1024 to ObjectMutationLog
Path = list[str | int]
Entry = dict[str, Any]


def set_entry(path: Path, value: Any) -> Entry:
    """kind 1: the whole value; without `v` when it became undefined."""
    entry: Entry = {"kind": 1, "k": list(path)}
    if value is not MISSING:
        entry["v"] = value
    return entry


def push_entry(path: Path, items: list[Any] | None, start: int | None) -> Entry:
    """kind 2 with members in VS Code's order: k, v (omitted when empty), i."""
    entry: Entry = {"kind": 2, "k": list(path)}
    if items:
        entry["v"] = items
    if start is not None:
        entry["i"] = start
    return entry


def diff(node: Node, path: Path, prev: Any, curr: Any, out: list[Entry]) -> None:
    """Append the entries that turn `prev` into `curr` (OML `_diff`)."""
    if isinstance(node, Key | Value):
        if not values_equal(node, prev, curr):
            out.append(set_entry(path, curr))
        return
    if prev in (None, MISSING) or curr in (None, MISSING):
        if prev is not curr:
            if curr is MISSING:
                out.append({"kind": 3, "k": list(path)})
            else:
                out.append(set_entry(path, curr))
        return
    if isinstance(node, ArrayOf):
        _diff_array(node, path, prev, curr, out)
    else:
        _diff_object(node, path, prev, curr, out)


def _key_mismatch(node: Obj, prev: Any, curr: Any) -> bool:
    for name, child in node.key_fields():
        if not values_equal(child, member(prev, name), member(curr, name)):
            return True
    return False


def _diff_object(node: Obj, path: Path, prev: Any, curr: Any, out: list[Entry]) -> None:
    if _key_mismatch(node, prev, curr):
        out.append(set_entry(path, curr))
        return
    if node.sealed and is_sealed(prev) and is_sealed(curr):
        return  # finished requests are never diffed again
    before = prev if isinstance(prev, dict) else {}
    after = curr if isinstance(curr, dict) else {}
    for name, child in node.other_fields():
        path.append(name)
        diff(child, path, before.get(name, MISSING), after.get(name, MISSING), out)
        path.pop()


def _diff_array(
    node: ArrayOf, path: Path, prev: list[Any], curr: list[Any], out: list[Entry]
) -> None:
    common = min(len(prev), len(curr))
    item = node.item
    if isinstance(item, Obj):
        for index in range(common):
            if _key_mismatch(item, prev[index], curr[index]):
                out.append(push_entry(path, curr[index:], index))
                return
            path.append(index)
            _diff_object(item, path, prev[index], curr[index], out)
            path.pop()
    else:
        for index in range(common):
            if not values_equal(item, prev[index], curr[index]):
                out.append(push_entry(path, curr[index:], index))
                return
    if len(curr) > len(prev):
        out.append(push_entry(path, curr[len(prev) :], None))
    elif len(curr) < len(prev):
        out.append(push_entry(path, None, len(curr)))


def dump_line(entry: Entry) -> bytes:
    """One log line: compact JSON like JSON.stringify, then LF."""
    return orjson.dumps(entry) + b"\n"


PartTest = Callable[[Any], bool]
TRUNCATED = "[VS Code: value truncated for persistence; original {n} chars]"


def truncate(value: Any, limit: int) -> Any:
    """UNC-8 (`makeTruncatingReplacer` in VS Code's `objectMutationLog.ts`): every string
    longer than the limit becomes `[VS Code: value truncated for persistence; original N chars]`.
    VS Code does this with a 1,048,576-unit limit, only for an entry whose JSON.stringify threw;
    the generator scales the limit down and applies it to every save of the file. ASCII texts
    only, so len() is the UTF-16 length."""
    if isinstance(value, str):
        return TRUNCATED.format(n=len(value)) if len(value) > limit else value
    if isinstance(value, list):
        return [truncate(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: truncate(item, limit) for key, item in value.items()}
    return value


class LogWriter:
    """ObjectMutationLog's writer for one session file, held in memory.

    With `watch`, it also counts how many lines of the current file carry each response part
    the test accepts, by (requestId, part index): the duplicate artifact, measured.
    """

    def __init__(self, rewrite_after: int = REWRITE_AFTER, watch: PartTest | None = None) -> None:
        self.watch = watch
        self.copies: Counter[tuple[str, int]] = Counter()
        self.rewrite_after = rewrite_after
        self.previous: Any = MISSING
        self.entries = 0  # the entry counter (lines since the last Initial)
        self.data = bytearray()
        self.rewrites = 0  # Initial lines written because the counter passed the threshold
        self.saves = 0
        self.append_initial = False  # the next save appends an Initial line (see plan.Reinit)
        self.memo: Memo = {}
        self.truncate_over: int | None = None  # see `truncate`

    def restart(self) -> None:
        """A new session file (a /fork child): nothing written yet, counters reset."""
        self.previous = MISSING
        self.entries = 0
        self.data = bytearray()
        self.copies.clear()
        self.memo = {}

    def save(self, session: dict[str, Any]) -> list[Entry]:
        """One save of the live session; returns the entries written."""
        current = extract(SESSION, session, self.memo)
        if self.truncate_over is not None:
            current = truncate(current, self.truncate_over)
        self.saves += 1
        if self.append_initial:
            self.append_initial = False
            appended: Entry = {"kind": 0, "v": current}
            self.data += dump_line(appended)
            self._count_parts(current.get("requests", []))
            self.entries = 1
            self.previous = current
            return [appended]
        if self.previous is MISSING or self.entries > self.rewrite_after:
            if self.previous is not MISSING:
                self.rewrites += 1
            initial: Entry = {"kind": 0, "v": current}
            self.data = bytearray(dump_line(initial))
            self.copies.clear()
            self._count_parts(current.get("requests", []))
            self.entries = 1
            self.previous = current
            return [initial]
        entries: list[Entry] = []
        diff(SESSION, [], self.previous, current, entries)
        for entry in entries:
            self.data += dump_line(entry)
            self._count_entry(entry, current)
        self.entries += len(entries)
        self.previous = current
        return entries

    def _count_entry(self, entry: Entry, current: dict[str, Any]) -> None:
        if self.watch is None or entry["kind"] != 2 or "v" not in entry:
            return
        path = entry["k"]
        if path == ["requests"]:
            self._count_parts(entry["v"])
        elif len(path) == 3 and path[0] == "requests" and path[2] == "response":
            request = current["requests"][path[1]]
            old = member(self.previous, "requests")[path[1]]
            start = entry.get("i", len(member(old, "response") or []))
            for offset, part in enumerate(entry["v"]):
                if self.watch(part):
                    self.copies[(request["requestId"], start + offset)] += 1

    def _count_parts(self, requests: list[Any]) -> None:
        if self.watch is None:
            return
        for request in requests:
            for index, part in enumerate(member(request, "response") or []):
                if self.watch(part):
                    self.copies[(request["requestId"], index)] += 1

    def duplicated(self) -> bool:
        """Some watched part appears in more than one line of the file."""
        return any(count > 1 for count in self.copies.values())

    def bytes(self) -> bytes:
        return bytes(self.data)


def flat_json(state: dict[str, Any]) -> bytes:
    """JSON.stringify(state, undefined, 2): 2-space indent, no final newline."""
    return json.dumps(state, indent=2, ensure_ascii=False).encode("utf-8")
