"""JSON text as the hosts' JavaScript and Rust loaders read it: strict, bounded, JS numbers.

Why in the core: every host's reader parses JSON text and judges values the way its host's own
program does (a JavaScript `JSON.parse` and truthiness, integral numbers that may be doubles),
and VS Code's rules (RPL-2, ERR-3, ERR-8) are the oldest statement of that. One module, so no
host imports another host's private helpers.
"""

from __future__ import annotations

import sys

from .errors import E_JSON, E_LIMIT, Rejection
from .smalljson import UNDECIDED
from .smalljson import loads as small_loads

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

BOM = b"\xef\xbb\xbf"
# ERR-8: JSON nested deeper than this is rejected (orjson's own limit).
DEPTH_LIMIT = 1024


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes, line: int) -> Any:
    """Parse one JSON text as JavaScript's JSON.parse would (RPL-2, ERR-3, ERR-8).

    orjson is the fast path. It refuses a few texts JSON.parse accepts (bytes that are not
    UTF-8, which VS Code decodes with replacement; escaped lone surrogates; numbers beyond the
    double range), so on failure the text is decoded with replacement and parsed again by the
    standard library, which accepts exactly those. Until a process has parsed a few megabytes,
    `smalljson` reads what it reads exactly as this does, so a small log never imports orjson.
    """
    if len(raw) >= LONG_TEXT:
        _check_long(raw, line)
    value = small_loads(raw)
    if value is not UNDECIDED:
        return value
    return parse_defined(raw, line)


def parse_defined(raw: bytes, line: int) -> Any:
    """`parse_json`'s definition: orjson, and the standard library's parser where orjson
    refuses (what `smalljson` is proven equal to)."""
    orjson = orjson_module()
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as first:
        if "depth limit" in str(first):
            raise Rejection(
                line, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels"
            ) from None
        return parse_slowly(raw.decode("utf-8", "replace"), line, short_error(first))


_ORJSON: Any = None


def orjson_module() -> Any:
    """orjson, imported on first need (its import costs more than a small log's count)."""
    global _ORJSON
    if _ORJSON is None:
        import orjson

        _ORJSON = orjson
    return _ORJSON


# JSV-4: a refused line this long is split value by value on its bytes (core/longline.py), not
# decoded whole as text, which costs up to 4 bytes a character plus what the parser builds.
LONG_LINE = 1 << 20

# JSV-4: a text this long is checked by msgspec before orjson reads it: orjson's error on it
# builds the whole text as a string (up to 12 times the line), msgspec's costs nothing.
LONG_TEXT = 1 << 20
SURROGATE = rb"\\u[dD][89abcdefABCDEF]"  # an escaped surrogate: only `json` reads it (a regex)


def _check_long(raw: bytes, line: int) -> None:
    """E-JSON for a long text that is not JSON, found without building it (ERR-3, JSV-4).

    Only what every parser here refuses is decided: texts with an escaped surrogate or a
    number msgspec refuses, and nesting, are left to the parsers that decide them now."""
    import re  # here: `re` costs start-up, and only a long text needs it

    import msgspec

    if re.search(SURROGATE, raw):
        return
    try:
        msgspec.json.decode(raw, type=msgspec.Raw)
    except msgspec.DecodeError as error:
        why = str(error).removeprefix("JSON is malformed: ").split(" (byte ")[0]
        if "number" not in why:
            raise Rejection(line, E_JSON, f"not valid JSON ({why})") from None
    except RecursionError:
        return


def parse_slowly(text: str, line: int | None, why: str) -> Any:
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
        value = json.loads(text, parse_constant=reject_constant, parse_int=js_int)
    except RecursionError:
        raise Rejection(line or 1, E_LIMIT, deep) from None
    except json.JSONDecodeError as error:  # a flat file (line None) names the failing line
        raise Rejection(line or error.lineno, E_JSON, f"not valid JSON ({why})") from None
    except ValueError:
        raise Rejection(line or 1, E_JSON, f"not valid JSON ({why})") from None
    finally:
        sys.setrecursionlimit(limit)
    if deeper_than(value, DEPTH_LIMIT):
        raise Rejection(line or 1, E_LIMIT, deep)
    return value


def js_int(digits: str) -> int | float:
    return int(digits) if len(digits) <= 4000 else float(digits)


def deeper_than(value: Any, limit: int) -> bool:
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


def short_error(error: Exception) -> str:
    return str(error).split(":", 1)[0]


def as_int(value: Any) -> int | None:
    """A JSON number with an integral value (JSON.parse makes 1.0 and 1 the same number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness, as VS Code's send loop tests the removal flag (CNT-5) and opencode
    tests its message flags (OPC-6)."""
    if value is None or value is False:
        return False
    if isinstance(value, int | float):
        return value == value and value != 0  # NaN is falsy (and unequal to itself)
    if isinstance(value, str):
        return value != ""
    return True  # true, objects and arrays (even empty ones)
