"""Text taken from files and file names, made safe for a terminal and exact for JSON (ERR-10).

Why one module: a path, an id or a title comes from the disk and may hold anything a file name
or a JSON string can hold. Printed raw, an escape sequence would drive the user's terminal and a
line break would forge a second error line; written to JSON, a name that is not UTF-8 (which
Python keeps as lone surrogates) cannot be encoded at all. Every place that prints or writes
such text goes through these three functions, so the rule is written once:

- `printable`: for people. Control characters (C0, DEL, C1), line and paragraph separators,
  bidirectional overrides and lone surrogates become visible escapes (`\\x1b`, `\\u2028`); a
  byte of a file name that is not UTF-8 is shown as `\\xNN` of that byte. Other text is kept.
- `json_text`: for JSON. Text is kept exactly, except that each lone surrogate (a byte that is
  not UTF-8, or an escaped lone surrogate read from a log) becomes U+FFFD.
- `path_members`: a path in JSON: the `json_text` of it under its name, and, only when that
  changed it, `<name>_bytes_hex` with the exact bytes of the name (hexadecimal).
"""

from __future__ import annotations

import os

from .smalljson import dumps as small_dumps

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
SEPARATORS = frozenset("\u2028\u2029")


def printable(text: str) -> str:
    """`text` with nothing a terminal would act on: one line, no escape sequence."""
    if text.isprintable():
        return text
    return "".join(_escape(character) for character in text)


def _escape(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python decodes file names
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    if character in BIDI or character in SEPARATORS or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return character  # not printable only as a space or a format mark: harmless


def json_text(text: str) -> str:
    """`text` as JSON can hold it: each lone surrogate replaced by U+FFFD, nothing else."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


def path_members(name: str, path: str) -> dict[str, str]:
    """`{name: path}`, plus `{name}_bytes_hex` when the path is not UTF-8 (its exact bytes)."""
    shown = json_text(path)
    if shown == path:
        return {name: path}
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "surrogatepass")
    return {name: shown, f"{name}_bytes_hex": raw.hex()}


def json_ready(value: Any) -> Any:
    """A JSON value with `json_text` applied to every string (keys too): for the rare answer
    orjson refuses; a `file` member keeps its exact bytes beside it (`path_members`)."""
    if isinstance(value, str):
        return json_text(value)
    if isinstance(value, list):
        return [json_ready(item) for item in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key == "file" and isinstance(item, str):
                out.update(path_members("file", item))
            else:
                out[json_text(key) if isinstance(key, str) else key] = json_ready(item)
        return out
    return value


def dumps(value: Any) -> str:
    """One JSON line of `value`, exact when orjson takes it, else `json_ready(value)`'s.

    `smalljson.dumps` writes first what it writes as orjson does (an answer is a few hundred
    bytes: a small log's count never imports orjson)."""
    text = small_dumps(value)
    if text is not None:
        return text
    import orjson

    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(json_ready(value)).decode()
