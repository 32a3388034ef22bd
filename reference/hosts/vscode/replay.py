"""Replay of VS Code's chat-session mutation log into its final state (RPL-*, ERR-*, LEG-1).

This mirrors VS Code's own reader (`ObjectMutationLog.read`): the log is read line by line,
kind 0 replaces the state, kinds 1-3 change it in place. Where the spec deliberately differs
from that reader (the torn tail, JavaScript coercions, size bounds) the rule ID says so.

The file is streamed: memory is the state plus the longest line, never the whole file.
"""

from __future__ import annotations

import io
import os

from ...core import smalljson
from ...core.blankruns import EMPTY_LINES, skip_run
from ...core.errors import (
    E_EMPTY,
    E_ENTRY,
    E_LIMIT,
    E_NO_INITIAL,
    E_PATH,
    E_PUSH,
    E_STATE,
    W_TORN_TAIL,
    Notice,
    Rejection,
)
from ...core.files import open_log
from ...core.jsontext import (
    BOM,
    DEPTH_LIMIT,
    as_int,
    orjson_module,
    parse_json,
    parse_slowly,
    short_error,
)
from ...core.plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, BinaryIO

# ERR-8: at most this many holes (array slots padded by an index past the end) per file.
HOLE_LIMIT = 65_536

MISSING: Any = object()  # a field that is absent from an entry (distinct from JSON null)


class Replay(Plain):
    """The outcome of reading one session file: its final state and any warnings."""

    _fields = ("state", "notices", "lines")

    def __init__(
        self, state: dict[str, Any], notices: list[Notice] | None = None, lines: int = 0
    ) -> None:
        self.state = state
        self.notices: list[Notice] = [] if notices is None else notices
        self.lines = lines  # non-empty lines applied


class _Replayer:
    """Applies entries to a state; one instance per file (it keeps the hole budget)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.holes = 0
        self.lines = 0

    def apply(self, entry: Any, line: int) -> None:
        """Apply one parsed line (RPL-3..RPL-8)."""
        if not isinstance(entry, dict):
            raise Rejection(line, E_ENTRY, "the line is not a JSON object")
        kind = as_int(entry.get("kind", MISSING))
        if kind not in (0, 1, 2, 3):
            raise Rejection(line, E_ENTRY, f"unknown kind {_show(entry.get('kind'))}")
        self.lines += 1
        if kind == 0:  # RPL-4 Initial: the state becomes v, wherever the line stands.
            value = entry.get("v", MISSING)
            if not isinstance(value, dict):
                raise Rejection(line, E_STATE, "kind 0 line whose v is not an object")
            self.state = value
            return
        if self.state is None:  # ERR-2
            raise Rejection(line, E_NO_INITIAL, f"kind {kind} line before the first kind 0 line")
        keys = self._keys(entry, line)
        if kind == 2:
            self._push(keys, entry, line)
        elif keys:  # RPL-6 / RPL-8: an empty path does nothing.
            value = entry.get("v", MISSING) if kind == 1 else MISSING
            parent = self._walk(keys, line)
            self._assign(parent, keys[-1], value, line)

    def _keys(self, entry: dict[str, Any], line: int) -> list[str | int]:
        """RPL-5: `k` is an array of object keys (strings) and array indices (integers)."""
        raw = entry.get("k", MISSING)
        if type(raw) is not list:
            raise Rejection(line, E_ENTRY, "k is missing or not an array")
        for key in raw:  # fast path: the writer only ever writes strings and integers
            kind = type(key)
            if kind is not str and (kind is not int or key < 0):
                return _normalized_keys(raw, line)
        return raw

    def _walk(self, keys: list[str | int], line: int) -> dict[str, Any] | list[Any]:
        """RPL-5: follow every key but the last, creating nothing (ERR-6 when it can't)."""
        current: Any = self.state
        for depth in range(len(keys) - 1):
            current = _child(current, keys[depth])
            if type(current) is not dict and type(current) is not list:
                where = _path_text(keys[: depth + 1])
                raise Rejection(line, E_PATH, f"{where} is missing or not an object or array")
        return current  # type: ignore[no-any-return]

    def _assign(
        self, parent: dict[str, Any] | list[Any], key: str | int, value: Any, line: int
    ) -> None:
        """RPL-6 Set / RPL-8 Delete on the last key; MISSING removes (JavaScript's undefined)."""
        if isinstance(parent, dict):
            if not isinstance(key, str):
                raise Rejection(line, E_PATH, f"index {key} used on an object")
            if value is MISSING:
                parent.pop(key, None)
            else:
                parent[key] = value
            return
        if not isinstance(key, int):
            raise Rejection(line, E_PATH, f"key {key!r} used on an array")
        stored = None if value is MISSING else value  # undefined in an array is written as null
        if key < len(parent):
            parent[key] = stored
        else:
            self._pad(parent, key, line)  # RPL-9
            parent.append(stored)

    def _push(self, keys: list[str | int], entry: dict[str, Any], line: int) -> None:
        """RPL-7 Push: truncate or pad to `i` when present, then append the items of `v`."""
        if not keys:
            raise Rejection(line, E_PATH, "kind 2 line with an empty path")
        parent = self._walk(keys, line)
        existing = _child(parent, keys[-1])
        if existing is None:
            array: list[Any] = []
        elif isinstance(existing, list):
            array = existing
        else:
            raise Rejection(line, E_PUSH, f"{_path_text(keys)} is not an array")
        if "i" in entry:
            start = as_int(entry["i"])
            if start is None or start < 0:
                raise Rejection(
                    line, E_ENTRY, f"i is {_show(entry['i'])}, not a non-negative integer"
                )
            if start <= len(array):
                del array[start:]
            else:
                self._pad(array, start, line)
        items = entry.get("v")
        if items is not None:
            if not isinstance(items, list):
                raise Rejection(line, E_ENTRY, "v of a kind 2 line is not an array")
            array.extend(items)
        if existing is None:
            self._assign(parent, keys[-1], array, line)

    def _pad(self, array: list[Any], length: int, line: int) -> None:
        """RPL-9: grow an array with holes (null) up to `length`, within the ERR-8 budget."""
        missing = length - len(array)
        self.holes += missing
        if self.holes > HOLE_LIMIT:
            raise Rejection(line, E_LIMIT, f"more than {HOLE_LIMIT} holes padded into arrays")
        array.extend([None] * missing)


def _child(container: Any, key: str | int) -> Any:
    """The value at `key`, or None when absent (absent and null are alike on a walk)."""
    if type(container) is dict:
        return container.get(key) if type(key) is str else None
    if type(container) is list and type(key) is int:
        return container[key] if key < len(container) else None
    return None


def _normalized_keys(raw: list[Any], line: int) -> list[str | int]:
    """RPL-5 slow path: integral floats are indices; anything else is a bad path element."""
    keys: list[str | int] = []
    for key in raw:
        if isinstance(key, str):
            keys.append(key)
            continue
        index = as_int(key)
        if index is None or index < 0:
            raise Rejection(line, E_PATH, f"path element {_show(key)} is not a key or index")
        keys.append(index)
    return keys


def _path_text(keys: Iterable[str | int]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys) or "<root>"


def _show(value: Any) -> str:
    """A short, bounded description of a value for an error line (ERR-10).

    Containers are described, never serialised: a value nested 100,000 deep must give a one-line
    error, not a recursion in the error message itself.
    """
    import json  # only for a rejection's message
    import math

    if value is MISSING:
        return "(absent)"
    if isinstance(value, dict):
        return f"an object of {len(value)} members"
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    if isinstance(value, str):
        text = json.dumps(value[:40], ensure_ascii=False)
        return text if len(value) <= 37 else text[:37] + '..."'
    if isinstance(value, float) and not math.isfinite(value):
        return "a number beyond the double range"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def replay_stream(stream: BinaryIO) -> Replay:
    """Replay a `.jsonl` log from a binary stream (RPL-1..RPL-9, ERR-1..ERR-9)."""
    replayer = _Replayer()
    notices: list[Notice] = []
    line = 0
    smalljson.expect(stream)  # a big log: orjson from its first line (parse_json)
    for raw in stream:  # binary iteration splits on LF only (RPL-1)
        line += 1
        if raw == b"\n":
            line += skip_run(stream, EMPTY_LINES)  # a run of them: at scanning speed
            continue
        if line == 1 and raw.startswith(BOM):  # RPL-2
            raw = raw[len(BOM) :]
            if raw in (b"", b"\n"):
                continue
        try:
            # The LF stays on: it is JSON whitespace, and not copying the line saves time.
            entry = parse_json(raw, line)
        except Rejection as rejection:
            if raw.endswith(b"\n") or rejection.code == E_LIMIT:
                raise
            # ERR-9: an unterminated final line that does not parse is an append in flight.
            notices.append(
                Notice(
                    W_TORN_TAIL, "ignored an unterminated final line that does not parse", line=line
                )
            )
            break
        replayer.apply(entry, line)
    if replayer.state is None:
        raise Rejection(0, E_EMPTY, "the log has no entries")  # ERR-1
    return Replay(replayer.state, notices, replayer.lines)


def replay_bytes(data: bytes) -> Replay:
    """Replay a `.jsonl` log held in memory (tests and generators use this)."""

    return replay_stream(io.BytesIO(data))


def load_flat(data: bytes) -> Replay:
    """LEG-1: a legacy flat `.json` session is its own final state."""
    body = data[len(BOM) :] if data.startswith(BOM) else data
    if not body.strip(b" \t\r\n"):  # JSON whitespace only
        raise Rejection(0, E_EMPTY, "the file is empty")
    state = smalljson.loads(body)  # a small file: as orjson reads it, without importing it
    if state is smalljson.UNDECIDED:
        state = _parsed_flat(body)
    if not isinstance(state, dict):
        raise Rejection(1, E_STATE, "the session is not a JSON object")
    if not (is_flat_session(state) or is_export(state)):
        raise Rejection(
            1,
            E_STATE,
            "neither a session (sessionId, version) nor an export (requests, responderUsername)",
        )
    return Replay(state, [], 1)


def _parsed_flat(body: bytes) -> Any:
    """RPL-2, ERR-3, ERR-8 for a whole flat file: orjson, else JSON.parse's reading."""
    orjson = orjson_module()
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as first:
        if "depth limit" in str(first):
            # ERR-10: a flat file's bound is reported at line 1, whichever parser found it.
            raise Rejection(1, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels") from None
        return parse_slowly(body.decode("utf-8", "replace"), None, short_error(first))


def is_flat_session(state: dict[str, Any]) -> bool:
    """LEG-1: a legacy session file carries its string `sessionId` or its number `version`."""
    version = state.get("version")
    return isinstance(state.get("sessionId"), str) or (
        isinstance(version, int | float) and not isinstance(version, bool)
    )


def is_export(state: dict[str, Any]) -> bool:
    """LEG-3: an Export Chat file, as VS Code's Import Chat recognises one."""
    return isinstance(state.get("requests"), list) and isinstance(
        state.get("responderUsername"), str
    )


def load_path(path: str | os.PathLike[str]) -> Replay:
    """Read a session file; the extension chooses the container (LEG-1)."""
    with open_log(path) as stream:
        if os.path.splitext(os.fspath(path))[1] == ".json":
            return load_flat(stream.read())
        return replay_stream(stream)
