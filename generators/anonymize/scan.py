"""A token-level rewrite of JSON text: every byte of structure stays, string contents change.

The anonymizer does not parse and re-serialise: it scans the original bytes into tokens
(string literals, the six structural characters, whitespace, bare words) and rewrites only
the contents of string literals. Whitespace, key order, number spelling, escapes in kept
strings, CR before LF and the lack of a final newline therefore survive exactly, for valid
and malformed input alike:

- a string literal that is valid JSON is decoded (escapes resolved, undecodable bytes read as
  U+FFFD the way RPL-2 reads them), judged by the policy, and written back either verbatim or
  as its pseudonym; where the original had undecodable bytes the pseudonym has the byte 0xFF,
  one per U+FFFD they decode to, so the file stays invalid UTF-8 that decodes to the same
  places without keeping bytes that could be text in another encoding;
- a literal that is not valid JSON (a bad escape, a raw control character) or never closes (a
  torn tail) is masked: its content characters become capital letters, its backslashes of bad
  escapes and control characters stay, undecodable bytes become 0xFF, so it stays broken;
- a bare word that is a JSON number or literal stays; any other bare word (garbage) is masked.

A string is a key when the next token is `:`, which in valid JSON is exactly right.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from .policy import Policy
from .pseudonym import Pseudonyms

_TOKEN = re.compile(
    rb'"[^"\\]*(?:\\.[^"\\]*)*(?:(?P<close>")|\\?\Z)'  # a string literal, maybe unterminated
    rb"|[{}\[\]:,]"
    rb"|[ \t\r\n]+"
    rb'|[^"{}\[\]:, \t\r\n]+',
    re.S,
)
_VALID_BODY = re.compile(
    rb'[^"\\\x00-\x1f]*(?:(?:\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*'
)
_SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_COLON_AHEAD = re.compile(rb"[ \t\r\n]*:")
_VALID_ESCAPE = re.compile(r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})')
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_OPEN = {ord("{"): True, ord("["): False}
_CLOSE = frozenset(b"}]")
_BAD_BYTE = b"\xff"  # never valid in UTF-8: always exactly one U+FFFD
_BAD_CHAR = "\udcff"  # _BAD_BYTE under surrogateescape


# Garbage outside strings keeps its control characters and its bytes that are not UTF-8 (as
# 0xFF): `_mask_bare` splits it at runs of them.
_KEPT_RUNS = re.compile("([\x00-\x1f\udc80-\udcff]+)")
_TO_BAD_CHAR = {code: _BAD_CHAR for code in range(0xDC80, 0xDD00)}


def _undecodable(char: str) -> bool:
    """A byte that was not UTF-8 (decoded with surrogateescape)."""
    return "\udc80" <= char <= "\udcff"


def decode_literal(body: bytes) -> tuple[str, frozenset[int]]:
    """A valid string literal's value as RPL-2 reads it, and the positions of the value whose
    U+FFFD came from undecodable bytes (not from a U+FFFD that was in the text)."""
    if b"\\" not in body:
        try:
            return body.decode("utf-8"), frozenset()
        except UnicodeDecodeError:
            pass
    else:
        try:
            value = orjson.loads(b'"' + body + b'"')
            if isinstance(value, str):
                return value, frozenset()
        except orjson.JSONDecodeError:
            pass
    return _decode_slowly(body.decode("utf-8", "surrogateescape"))


def _decode_slowly(text: str) -> tuple[str, frozenset[int]]:
    """Escapes resolved by hand: lone surrogate escapes and undecodable bytes (json.loads-like)."""
    out: list[str] = []
    invalid: set[int] = set()
    index = 0
    while index < len(text):
        char = text[index]
        if _undecodable(char):
            end = index
            while end < len(text) and _undecodable(text[end]):
                end += 1
            raw = text[index:end].encode("utf-8", "surrogateescape")
            replaced = raw.decode("utf-8", "replace")  # one U+FFFD per maximal bad sequence
            invalid.update(range(len(out), len(out) + len(replaced)))
            out.extend(replaced)
            index = end
        elif char == "\\" and text[index + 1 : index + 2] in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[text[index + 1]])
            index += 2
        elif char == "\\" and _HEX4.fullmatch(text[index + 2 : index + 6]):
            code = int(text[index + 2 : index + 6], 16)
            low = text[index + 8 : index + 12]
            if (
                0xD800 <= code < 0xDC00
                and text[index + 6 : index + 8] == "\\u"
                and _HEX4.fullmatch(low)
                and 0xDC00 <= int(low, 16) < 0xE000
            ):
                code = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
                index += 12
            else:
                index += 6
            out.append(chr(code))
        else:
            out.append(char)
            index += 1
    return "".join(out), frozenset(invalid)


@dataclass
class _Frame:
    is_object: bool
    key: str | None = None


@dataclass
class Rewriter:
    """Rewrites JSON texts under one policy and one pseudonym table (one per run)."""

    policy: Policy
    names: Pseudonyms
    kept: int = 0
    masked: int = 0
    _stack: list[_Frame] = field(default_factory=list)
    _path_ends_in_key: bool = False

    def rewrite(self, data: bytes, log_line: bool = False) -> bytes:
        """Rewrite one JSON text: a `.jsonl` line body (log_line) or a whole flat `.json`.

        For a log line, strings under `v` are judged by their place in the session state:
        the line's `k` path is prefixed, so `{"kind":1,"k":["requests",0,"slashCommand"],
        "v":{"name":"compact"}}` keeps `compact` like a kind-0 line would.
        """
        base = _path_of(data) if log_line else None
        self._path_ends_in_key = log_line and _path_ends_in_key(data)
        self._stack = []
        out: list[bytes] = []
        for match in _TOKEN.finditer(data):
            token = match.group()
            lead = token[0]
            if lead == 0x22:  # '"'
                closed = match.group("close") is not None
                out.append(self._string(token, closed, data, match.end(), base, log_line))
            elif lead in _OPEN:
                self._stack.append(_Frame(_OPEN[lead]))
                out.append(token)
            elif lead in _CLOSE:
                if self._stack:
                    self._stack.pop()
                out.append(token)
            elif lead in b":, \t\r\n":
                out.append(token)
            elif _SCALAR.fullmatch(token):
                out.append(self._scalar(token))
            else:
                out.append(self._mask_bare(token))
        return b"".join(out)

    def _scalar(self, token: bytes) -> bytes:
        """A number, `true`, `false` or `null`: kept (VS Code's numbers are structure: `kind`,
        `i`, time stamps; a record host's rewriter judges numbers by their member)."""
        return token

    def _string(
        self, token: bytes, closed: bool, data: bytes, end: int, base: list[str] | None, log: bool
    ) -> bytes:
        body = token[1:-1] if closed else token[1:]
        is_key = closed and _COLON_AHEAD.match(data, end) is not None
        if not closed or not _VALID_BODY.fullmatch(body):
            if is_key and self._stack and self._stack[-1].is_object:
                self._stack[-1].key = None
            return b'"' + self._mask_literal(body) + (b'"' if closed else b"")
        value, invalid = decode_literal(body)
        if is_key:
            if self._stack and self._stack[-1].is_object:
                self._stack[-1].key = value
            return self._key(token, value, invalid)
        return self._value(token, value, invalid, base, log)

    def _value(
        self, token: bytes, value: str, invalid: frozenset[int], base: list[str] | None, log: bool
    ) -> bytes:
        """A string that is a value (not a member name): kept or replaced by the policy."""
        if log and self._in_path():
            return self._key(token, value, invalid)
        key, parent = self._context(base, log)
        direct = bool(self._stack) and self._stack[-1].is_object
        if log and len(self._stack) == 1 and self._stack[0].key == "v":
            direct = self._path_ends_in_key  # `v` of a Set is the value of the path's last member
        if self.policy.keeps_value(value, key, parent, direct):
            self.names.reserve(value)
            self.kept += 1
            return token
        split = self.policy.split(value)
        if split is not None:
            text = split.head + self.names.of(split.middle) + split.tail
            return orjson.dumps(text)
        return b'"' + self._pseudonym(value, invalid) + b'"'

    def _key(self, token: bytes, value: str, invalid: frozenset[int]) -> bytes:
        if not self.policy.is_data_key(value):
            self.names.reserve(value)
            return token
        return b'"' + self._pseudonym(value, invalid) + b'"'

    def _pseudonym(self, value: str, invalid: frozenset[int]) -> bytes:
        """The pseudonym's bytes; 0xFF (one undecodable byte, one U+FFFD) where bytes were bad."""
        fake = self.names.of(value)
        if not invalid:
            return fake.encode("utf-8")
        return b"".join(
            _BAD_BYTE if index in invalid else char.encode("utf-8")
            for index, char in enumerate(fake)
        )

    def _in_path(self) -> bool:
        """A string element of a log line's `k` array: it names a key, so it is judged as one."""
        stack = self._stack
        return len(stack) == 2 and stack[0].key == "k" and not stack[1].is_object

    def _context(self, base: list[str] | None, log: bool) -> tuple[str | None, str | None]:
        """The member name of the value and of its parent object; arrays are transparent."""
        names: list[str | None] = []
        for depth in range(len(self._stack) - 1, -1, -1):
            frame = self._stack[depth]
            if log and depth == 0:
                if frame.key == "v":
                    names.extend(reversed(base or []))
                elif frame.key is not None:
                    names.append(frame.key)
                break
            if frame.is_object and frame.key is not None:
                names.append(frame.key)
                if len(names) >= 2:
                    break
        names.extend([None, None])
        return names[0], names[1]

    def _mask_literal(self, body: bytes) -> bytes:
        """A broken literal: content becomes capitals, the breakage stays (module docstring)."""
        self.masked += 1
        text = body.decode("utf-8", "surrogateescape")
        slots: list[str | None] = []
        content: list[str] = []
        index = 0
        while index < len(text):
            char = text[index]
            escape = _VALID_ESCAPE.match(text, index) if char == "\\" else None
            if escape is not None:
                content.append(escape.group())
                slots.extend([None] * len(escape.group()))
                index = escape.end()
            elif char == "\\" or ord(char) < 0x20:
                slots.append(char)  # a bad escape's backslash, a control character
                index += 1
            elif _undecodable(char):
                slots.append(_BAD_CHAR)
                index += 1
            else:
                content.append(char)
                slots.append(None)
                index += 1
        letters = iter(self.names.mask("".join(content)))
        rebuilt = "".join(slot if slot is not None else next(letters) for slot in slots)
        return rebuilt.encode("utf-8", "surrogateescape")

    def _mask_bare(self, token: bytes) -> bytes:
        """Garbage outside strings: capitals; control characters stay (a file of only form
        feeds is as empty as before), bytes that are not UTF-8 become 0xFF."""
        self.masked += 1
        text = token.decode("utf-8", "surrogateescape")
        # By runs, not characters (regular expressions and translate run in C): a run of NULs
        # of a hundred megabytes costs a scan, not a Python step a character.
        pieces = _KEPT_RUNS.split(text)  # content, kept run, content, kept run, ..., content
        letters = self.names.mask("".join(pieces[0::2]))
        out: list[str] = []
        used = 0
        for index, piece in enumerate(pieces):
            if index % 2:
                out.append(piece.translate(_TO_BAD_CHAR))
            else:
                out.append(letters[used : used + len(piece)])
                used += len(piece)
        return "".join(out).encode("utf-8", "surrogateescape")


def _path_ends_in_key(line: bytes) -> bool:
    """Whether a log line's `k` ends in a member name (so a scalar `v` is that member's value)."""
    path = _raw_path(line)
    return path is not None and bool(path) and isinstance(path[-1], str)


def _raw_path(line: bytes) -> list[Any] | None:
    try:
        entry = orjson.loads(line)
    except orjson.JSONDecodeError:
        try:
            entry = json.loads(line.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            return None
    if not isinstance(entry, dict):
        return None
    path = entry.get("k")
    return path if isinstance(path, list) else None


def _path_of(line: bytes) -> list[str] | None:
    """The string elements of a log line's `k`, or None when the line does not parse."""
    path = _raw_path(line)
    return None if path is None else [key for key in path if isinstance(key, str)]
