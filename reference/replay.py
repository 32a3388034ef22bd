"""Replay of VS Code's chat-session mutation log into its final state (RPL-*, ERR-*, LEG-1).

This mirrors VS Code's own reader (`ObjectMutationLog.read`): the log is read line by line,
kind 0 replaces the state, kinds 1-3 change it in place. Where the spec deliberately differs
from that reader (the torn tail, JavaScript coercions, size bounds) the rule ID says so.

The file is streamed: memory is the state plus the longest line, never the whole file.
"""

from __future__ import annotations

import io
import math
import os
import stat
import sys

import orjson

from .errors import (
    E_EMPTY,
    E_ENTRY,
    E_JSON,
    E_LIMIT,
    E_NO_INITIAL,
    E_PATH,
    E_PUSH,
    E_READ,
    E_STATE,
    W_TORN_TAIL,
    Notice,
    Rejection,
)
from .plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, BinaryIO

BOM = b"\xef\xbb\xbf"
# ERR-8: at most this many holes (array slots padded by an index past the end) per file.
HOLE_LIMIT = 65_536
# ERR-8: JSON nested deeper than this is rejected (orjson's own limit).
DEPTH_LIMIT = 1024

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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes, line: int) -> Any:
    """Parse one JSON text as JavaScript's JSON.parse would (RPL-2, ERR-3, ERR-8).

    orjson is the fast path. It refuses a few texts JSON.parse accepts (bytes that are not
    UTF-8, which VS Code decodes with replacement; escaped lone surrogates; numbers beyond the
    double range), so on failure the text is decoded with replacement and parsed again by the
    standard library, which accepts exactly those.
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as first:
        if "depth limit" in str(first):
            raise Rejection(
                line, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels"
            ) from None
        return _parse_slowly(raw.decode("utf-8", "replace"), line, _short(first))


def _parse_slowly(text: str, line: int | None, why: str) -> Any:
    """The standard library's parser with JSON.parse's number rules and ERR-8's depth bound.

    Integers too long for Python's str-to-int guard become doubles (infinite past the double
    range), as JSON.parse makes every number a double. The recursion limit is raised for the
    parse so that the bound is ERR-8's 1024 levels, the same as orjson's, not the interpreter's
    default (which would reject orjson-valid nesting of 988-1024 levels here).
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * DEPTH_LIMIT))
    deep = f"JSON nested deeper than {DEPTH_LIMIT} levels"
    import json  # the slow path only (bytes orjson refuses): not on every count's start-up

    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_int=_js_int)
    except RecursionError:
        raise Rejection(line or 1, E_LIMIT, deep) from None
    except json.JSONDecodeError as error:  # a flat file (line None) names the failing line
        raise Rejection(line or error.lineno, E_JSON, f"not valid JSON ({why})") from None
    except ValueError:
        raise Rejection(line or 1, E_JSON, f"not valid JSON ({why})") from None
    finally:
        sys.setrecursionlimit(limit)
    if _deeper_than(value, DEPTH_LIMIT):
        raise Rejection(line or 1, E_LIMIT, deep)
    return value


def _js_int(digits: str) -> int | float:
    return int(digits) if len(digits) <= 4000 else float(digits)


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether containers nest more than `limit` levels (iterative: no recursion)."""
    if not isinstance(value, dict | list):
        return False
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _short(error: Exception) -> str:
    return str(error).split(":", 1)[0]


def _as_int(value: Any) -> int | None:
    """A JSON number with an integral value (JSON.parse makes 1.0 and 1 the same number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


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
        kind = _as_int(entry.get("kind", MISSING))
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
            start = _as_int(entry["i"])
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
        index = _as_int(key)
        if index is None or index < 0:
            raise Rejection(line, E_PATH, f"path element {_show(key)} is not a key or index")
        keys.append(index)
    return keys


def _path_text(keys: Iterable[str | int]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys) or "<root>"


def _show(value: Any) -> str:
    import json  # only for a rejection's message

    """A short, bounded description of a value for an error line (ERR-10).

    Containers are described, never serialised: a value nested 100,000 deep must give a one-line
    error, not a recursion in the error message itself.
    """
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
    for raw in stream:  # binary iteration splits on LF only (RPL-1)
        line += 1
        if raw == b"\n":
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
    try:
        state = orjson.loads(body)
    except orjson.JSONDecodeError as first:
        if "depth limit" in str(first):
            # ERR-10: a flat file's bound is reported at line 1, whichever parser found it.
            raise Rejection(1, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels") from None
        state = _parse_slowly(body.decode("utf-8", "replace"), None, _short(first))
    if not isinstance(state, dict):
        raise Rejection(1, E_STATE, "the session is not a JSON object")
    if not (is_flat_session(state) or is_export(state)):
        raise Rejection(
            1,
            E_STATE,
            "neither a session (sessionId, version) nor an export (requests, responderUsername)",
        )
    return Replay(state, [], 1)


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


COMPRESSED = ".zst"  # CDX-7: a zstd-compressed log (Codex compresses idle rollouts)


def open_log(path: str | os.PathLike[str]) -> BinaryIO:
    """The bytes of a session file: a regular file (ERR-12), decompressed when it is `.zst`.

    A `.jsonl.zst` is read as the `.jsonl` it holds (CDX-7); zstandard is imported only then.
    Bytes that are not zstd data end the read with E-READ (the file cannot be read as a log).
    """
    stream = open_regular(path)
    if not os.fspath(path).endswith(COMPRESSED):
        return stream
    import zstandard

    reader = zstandard.ZstdDecompressor().stream_reader(stream, closefd=True)
    return io.BufferedReader(_ZstdRaw(reader, os.fspath(path)))


class _ZstdRaw(io.RawIOBase):
    """A raw stream over zstandard's reader that turns its errors into E-READ (ERR-12, CDX-7)."""

    def __init__(self, reader: Any, name: str) -> None:
        super().__init__()
        self._reader = reader
        self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zstandard

        try:
            return int(self._reader.readinto(buffer))
        except zstandard.ZstdError as error:
            raise Rejection(0, E_READ, f"not a zstd-compressed log ({error})") from None

    def close(self) -> None:
        if not self.closed:
            self._reader.close()
        super().close()


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a session file for reading, refusing anything but a regular file (ERR-12).

    The file is opened without blocking and checked on the open descriptor, so a FIFO, a
    device such as /dev/zero (also behind a symlink) or a directory is refused at once instead
    of hanging or reading forever.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise Rejection(0, E_READ, f"not a regular file ({_file_type(mode)})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _file_type(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"
