"""Reading a log of appended JSON records by value, not by line (JSV-1..JSV-4).

Codex and pi append one JSON record per line, but real files hold lines with two records glued
together (pi) and lines of hundreds of megabytes (Codex). This module turns the bytes into
`(line, value)` pairs: a line is normally one value (parsed by orjson, the fast case); a line that
does not parse as one value is split into the values it holds. What cannot be parsed is skipped
with a warning (JSV-3), or ignored as a torn tail when it is the unterminated end of the file
(JSV-2), as the hosts' own loaders do. The stream is read a line at a time: memory is the longest
line and what the caller keeps, never the whole file.
"""

from __future__ import annotations

from . import smalljson
from .blankruns import BLANK_LINES, skip_run
from .errors import E_LIMIT, W_TORN_TAIL, Notice, Rejection
from .jsontext import (
    BOM,
    DEPTH_LIMIT,
    LONG_LINE,
    deeper_than,
    js_int,
    orjson_module,
    reject_constant,
)

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    import json
    from collections.abc import Iterator
    from typing import Any, BinaryIO

    Buffer = bytes | bytearray | memoryview

W_SKIPPED = "W-SKIPPED"  # JSV-3: a line (or its rest) that does not parse was skipped

_WHITESPACE = " \t\r\n"


_DECODER: list[json.JSONDecoder] = []  # made once, on first use (no functools on start-up)


def _decoder() -> json.JSONDecoder:
    """JSON.parse's rules (RPL-2): no NaN or Infinity, integers too long for int() become
    doubles. Made on first use: only a line orjson refuses needs it."""
    if not _DECODER:
        import json

        _DECODER.append(json.JSONDecoder(parse_constant=reject_constant, parse_int=js_int))
    return _DECODER[0]


def iter_values(stream: BinaryIO, notices: list[Notice]) -> Iterator[tuple[int, Any]]:
    """Every JSON value of the stream with the 1-based line it starts on (JSV-1).

    Warnings (W-SKIPPED, W-TORN-TAIL) are appended to `notices` as they are found. A value
    nested deeper than ERR-8 allows raises Rejection(E-LIMIT) (JSV-4).
    """
    line = 0
    small = smalljson.expect(stream)  # a small log: orjson is never imported (smalljson.py)
    orjson: Any = None
    for raw in stream:  # binary iteration splits on LF only
        line += 1
        if line == 1 and raw.startswith(BOM):
            raw = raw[len(BOM) :]
        if not raw.strip(b" \t\r\n"):
            line += skip_run(stream, BLANK_LINES)  # a run of them: at scanning speed
            continue
        if len(raw) >= LONG_LINE:  # never orjson's error on it: that builds it as text
            yield from _split(raw, line, notices)
            continue
        if small:
            value = smalljson.loads(raw)
            if value is not smalljson.UNDECIDED:
                yield line, value
                continue
            small = smalljson.left() > 0
        if orjson is None:
            orjson = orjson_module()
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            if "depth limit" in str(error):
                deep = f"JSON nested deeper than {DEPTH_LIMIT} levels"
                raise Rejection(line, E_LIMIT, deep) from None
            yield from _split(raw, line, notices)
            continue
        yield line, value


def _split(
    raw: Buffer, line: int, notices: list[Notice], terminated: bool | None = None
) -> Iterator[tuple[int, Any]]:
    """JSV-1: the values of a line orjson refused: glued records, or one value with bytes that
    are not UTF-8, a lone surrogate or a huge number (decoded as JavaScript's JSON.parse would),
    or something that is not JSON at all. `terminated`: the line ended with LF (by default,
    whether `raw` ends with it)."""
    if terminated is None:
        terminated = bytes(raw[-1:]) == b"\n"
    if len(raw) >= LONG_LINE:
        from .longline import split_long

        rest = yield from split_long(memoryview(raw), line)
        if rest is True:
            return
        if rest is False:  # what is left does not parse: JSV-2, JSV-3
            _bad(line, terminated, notices)
            return
        raw = rest  # what only the text parser reads (escaped surrogates, infinite numbers)
    text = str(raw, "utf-8", "replace")
    position = _skip_space(text, 0)
    while position < len(text):
        try:
            value, position = _decode_one(text, position, line)
        except ValueError:
            _bad(line, terminated, notices)
            return
        yield line, value
        position = _skip_space(text, position)


def _decode_one(text: str, position: int, line: int) -> tuple[Any, int]:
    """One value starting at `position` (JSON.parse's rules: no NaN, doubles for huge ints)."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * DEPTH_LIMIT))
    try:
        value, end = _decoder().raw_decode(text, position)
    except RecursionError:
        raise Rejection(line, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels") from None
    finally:
        sys.setrecursionlimit(limit)
    if deeper_than(value, DEPTH_LIMIT):
        raise Rejection(line, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels")
    return value, end


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in _WHITESPACE:
        position += 1
    return position


def _bad(line: int, terminated: bool, notices: list[Notice]) -> None:
    """JSV-2 / JSV-3: an unterminated last line is a torn tail; any other is skipped."""
    if terminated:
        notices.append(Notice(W_SKIPPED, "skipped a line (or its rest) that does not parse", line))
    else:
        notices.append(
            Notice(W_TORN_TAIL, "ignored an unterminated final line that does not parse", line)
        )
