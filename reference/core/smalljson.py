"""JSON for a count that reads little: the standard library's C scanner, without orjson.

Why: `import orjson` costs more than counting a small log (it imports `dataclasses`,
`inspect`, `ast`, `uuid`, `re` and more: about 17 ms on the project's machine, against 12.7 ms
for all of bare Python's start-up). The standard library's `json` imports `re` too, so this
module uses its C scanner and string encoder (`_json`) directly, which cost nothing to import.

It never decides anything on its own. `loads` returns a value only where it is the value the
definition's parser (`jsontext.parse_json`: orjson, and the standard library's parser with
JSON.parse's number rules for what orjson refuses) gives for the same bytes, and `UNDECIDED`
everywhere else: bytes that are not UTF-8, anything either parser refuses, integers outside
orjson's 64-bit range (which it makes doubles), nesting near the depth bound (ERR-8). The
caller then takes the definition's own path, so a refused line is judged and worded exactly as
before. `dumps` likewise writes only what orjson would write byte for byte (strings, integers
in range, booleans, null, lists and string-keyed objects) and `None` for anything else.
`tests/reference/test_smalljson.py` proves both equal to orjson's with Hypothesis.

What reads through it is bounded by `BUDGET` bytes per process: past that, importing orjson
pays for itself (the measurement is in `benchmarks/README.md`), and the callers use orjson.
"""

from __future__ import annotations

# `_json`: CPython's accelerator of `json` (the project runs on CPython: orjson and msgspec do).
import _json
import os
import sys

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

# Bytes this process may parse here before orjson is worth importing. Measured on the project's
# 2-core machine (Python 3.11, orjson 3.13; benchmarks/README.md, "Start-up"): this module reads
# Codex and Claude Code records 5-9 ms per MB slower than orjson, and `import orjson` costs
# 17 ms of CPU at rest (29 ms at load 4.5), so a log of 2-6 MB is read sooner without it.
BUDGET = 4 * 2**20

UNDECIDED: Any = object()  # not decided here: the caller takes the definition's path

_WHITESPACE = " \t\n\r"  # JSON's whitespace (RFC 8259), what orjson skips around a value
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1  # orjson's integers; others become doubles there
# Below ERR-8's bound (1024 levels). The scanner nests no deeper than the interpreter's
# recursion limit (1000 unless raised); a text with more brackets than this, read where the
# limit was raised, may nest past the bound, so it is left to the definition.
NEAR_DEPTH = 1000

_left = BUDGET


class _Undecided(Exception):
    """Raised inside the scanner's callbacks: the text is left to the definition's parser."""


def _int(digits: str) -> int:
    if len(digits) > 20:  # past orjson's range whatever the digits (it makes doubles)
        raise _Undecided
    value = int(digits)
    if not _INT_MIN <= value <= _INT_MAX:
        raise _Undecided
    return value


def _constant(name: str) -> Any:
    raise _Undecided  # NaN, Infinity, -Infinity: JSON.parse refuses them (RPL-2)


class _Rules:
    """What `_json.make_scanner` reads of its context: `json.JSONDecoder`'s defaults, with
    strict strings (no raw control characters, as orjson) and the number rules above."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = staticmethod(_int)
    parse_constant = staticmethod(_constant)


_RULES: Any = _Rules()
_scan: Any = _json.make_scanner(_RULES)
_quoted: Any = _json.encode_basestring


def spend(size: int) -> bool:
    """Whether `size` more bytes may be parsed here (and, if so, count them)."""
    global _left
    if size > _left:
        _left = 0
        return False
    _left -= size
    return True


def expect(stream: Any) -> bool:
    """Before a reader parses a whole stream: whether this module may read it, its size known
    and within what is left. When not, nothing is left: orjson is imported for the rest of the
    process, rather than after the budget is spent halfway through a big file."""
    global _left
    size: int | None = None
    try:
        size = os.fstat(stream.fileno()).st_size
    except (AttributeError, OSError, ValueError):  # not a file: in memory, or decompressed
        getbuffer = getattr(stream, "getbuffer", None)
        if getbuffer is not None:
            with getbuffer() as view:
                size = view.nbytes
    if size is None or size > _left:
        _left = 0
    return _left > 0


def left() -> int:
    """Bytes still to be parsed here before the callers turn to orjson."""
    return _left


def loads(raw: bytes | bytearray | memoryview) -> Any:
    """The JSON value of `raw` as `jsontext.parse_json` reads it, or UNDECIDED.

    Counts against the budget; once it is spent, everything is UNDECIDED."""
    if not spend(len(raw)):
        return UNDECIDED
    return decide(raw)


def decide(raw: bytes | bytearray | memoryview) -> Any:
    """`loads` without the budget (the tests call this)."""
    try:
        text = str(raw, "utf-8")  # orjson's path decodes other bytes with replacement
    except UnicodeDecodeError:
        return UNDECIDED
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except (StopIteration, ValueError, RecursionError, _Undecided, SystemError):
        # Not JSON, too deep for this stack, or a number decided elsewhere. (The scanner
        # raises json.decoder's error, which Python 3.11's looks up in sys.modules only:
        # before `json` is imported, its error is a SystemError, "NULL without an exception".)
        return UNDECIDED
    if end != len(text) and text[end:].strip(_WHITESPACE):
        return UNDECIDED  # more than one value (JSV-1's glued records), or trailing bytes
    if sys.getrecursionlimit() > NEAR_DEPTH and text.count("[") + text.count("{") > NEAR_DEPTH:
        return UNDECIDED
    return value


def dumps(value: Any) -> str | None:
    """`orjson.dumps(value).decode()` for the values it writes the same way, else None."""
    parts: list[str] = []
    try:
        _encode(value, parts.append)
    except _Undecided:
        return None
    text = "".join(parts)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: orjson refuses it, and so do we
            return None
    return text


def _encode(value: Any, out: Any) -> None:
    kind = type(value)
    if kind is str:
        out(_quoted(value))
    elif value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif kind is int:
        if not _INT_MIN <= value <= _INT_MAX:
            raise _Undecided  # orjson refuses integers past 64 bits
        out(str(value))
    elif kind is list or kind is tuple:
        out("[")
        for index, item in enumerate(value):
            if index:
                out(",")
            _encode(item, out)
        out("]")
    elif kind is dict:
        out("{")
        for index, (key, item) in enumerate(value.items()):
            if type(key) is not str:
                raise _Undecided
            out("," if index else "")
            out(_quoted(key))
            out(":")
            _encode(item, out)
        out("}")
    else:  # floats (orjson's own shortest form), subclasses, anything else
        raise _Undecided
