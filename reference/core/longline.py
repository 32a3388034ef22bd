"""Splitting a long line into its JSON values on its bytes, not as text (JSV-1, JSV-4).

Why: a line orjson refuses as one value is split by the standard library's parser, which reads
text: the line decoded whole, at up to 4 bytes a character (one character outside the BMP is
enough), plus what the parser builds before it fails. On a line of hundreds of MB (a Codex
record cut short while it was written, JSV-2) that is 9-12 times the line. orjson is no help
either: its error builds the line as text too (12 times a line with one such character). Here
msgspec checks each value's syntax on views of the same bytes, failing cheaply, and says where
a value followed by more ends; orjson then builds only values known to parse. A line holding
an escaped surrogate or a number past the double range, which only the standard library reads
as JSON.parse does, is handed back to it. Memory: the line, orjson's copy of one value, and
what it builds.
"""

from __future__ import annotations

import re

import orjson

from .errors import E_LIMIT, Rejection
from .jsontext import DEPTH_LIMIT, SURROGATE

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import Any

_SPACE = re.compile(rb"[ \t\r\n]*")
_TRAILING = re.compile(r"trailing characters \(byte (\d+)\)")  # msgspec's, 1-based
_STEP = 1 << 20


def split_long(
    data: memoryview, line: int
) -> Generator[tuple[int, Any], None, bool | memoryview | bytearray]:
    """Yield `(line, value)` for each value of `data`; then True (all read), False (the rest
    does not parse: JSV-2, JSV-3) or the rest, which only the text parser reads."""
    import msgspec

    if re.search(SURROGATE, data):
        return data  # escaped surrogates: only the text parser reads them as JSON.parse does
    position = _SPACE.match(data).end()  # type: ignore[union-attr]  # `*`: always matches
    while position < len(data):
        try:  # msgspec checks the syntax without building anything, and fails cheaply
            msgspec.json.decode(data[position:], type=msgspec.Raw)
            end = len(data)
        except msgspec.DecodeError as error:
            why = str(error)
            trailing = _TRAILING.search(why)
            if trailing is None:  # not JSON (truncated, a bad character): the text parser
                return data[position:] if "number" in why else False  # agrees, but "01" is 0, 1
            end = position + int(trailing.group(1)) - 1  # where the next value starts
        except RecursionError:
            return data[position:]
        value = data[position:end]
        if not _is_utf8(value):
            value = memoryview(_replaced(value))  # as JSON.parse reads it: U+FFFD
        try:
            yield line, orjson.loads(value)
        except orjson.JSONDecodeError as error:
            if "depth limit" in str(error):
                deep = f"JSON nested deeper than {DEPTH_LIMIT} levels"
                raise Rejection(line, E_LIMIT, deep) from None
            return data[position:]  # a number past the double range: the text parser's
        position = end
    return True


def _is_utf8(data: memoryview) -> bool:
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), _STEP):
            decoder.decode(data[start : start + _STEP])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _replaced(data: memoryview) -> bytearray:
    """`data` with each byte that is not UTF-8 replaced by U+FFFD, as a text decoder would,
    decoded a step at a time (never the whole line as text)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    out = bytearray()
    for start in range(0, len(data), _STEP):
        out += decoder.decode(data[start : start + _STEP]).encode()
    out += decoder.decode(b"", final=True).encode()
    return out
