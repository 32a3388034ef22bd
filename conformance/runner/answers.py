"""Output adapters: how a count is read from a candidate's stdout (PRO-3 and its adapter settings).

A reader returns the count or a one-line reason why there is none; it never raises. Only a
non-negative integer below 2**63 is a count: a bool, a float, a string or a negative number
is not, and a larger integer is out of the range every JSON tool can carry (orjson included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

MAX_COUNT = 2**63 - 1


class AnswerReader(Protocol):
    """Reads the count from stdout: `(count, None)` or `(None, reason)`."""

    def describe(self) -> str: ...

    def read(self, stdout: str) -> tuple[int | None, str | None]: ...


def _as_count(value: Any, where: str) -> tuple[int | None, str | None]:
    if isinstance(value, bool) or not isinstance(value, int):
        shown = orjson.dumps(value).decode()[:40] if _dumpable(value) else type(value).__name__
        return None, f"{where} is not an integer: {shown}"
    if value < 0:
        return None, f"{where} is negative: {value}"
    if value > MAX_COUNT:
        return None, f"{where} is out of range (2**63 or more)"
    return value, None


def _dumpable(value: Any) -> bool:
    try:
        orjson.dumps(value)
    except TypeError:
        return False
    return True


def pointer_tokens(pointer: str) -> list[str]:
    """The reference tokens of an RFC 6901 JSON pointer ("" is the whole document)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


@dataclass(frozen=True)
class JsonPointerReader:
    """stdout is one JSON document; the count is at a JSON pointer (default `/reboots`)."""

    pointer: str = "/reboots"

    @classmethod
    def for_key(cls, key: str) -> JsonPointerReader:
        return cls("/" + key.replace("~", "~0").replace("/", "~1"))

    def describe(self) -> str:
        return f"JSON pointer {self.pointer}"

    def read(self, stdout: str) -> tuple[int | None, str | None]:
        if not stdout.strip():
            return None, "stdout is empty"
        try:
            document = orjson.loads(stdout)
        except orjson.JSONDecodeError as error:
            return None, f"stdout is not JSON: {str(error).splitlines()[0][:120]}"
        value: Any = document
        for token in pointer_tokens(self.pointer):
            if isinstance(value, dict) and token in value:
                value = value[token]
            elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
                value = value[int(token)]
            else:
                return None, f"stdout JSON has nothing at {self.pointer}"
        return _as_count(value, self.pointer)


# A minus sign counts only where it cannot be a separator ("2026-02-19" ends in 19, not -19).
_INTEGER = re.compile(r"(?<!\w)-?\d+")


@dataclass(frozen=True)
class LastIntegerReader:
    """The count is the last integer printed (for tools that print prose or a table)."""

    def describe(self) -> str:
        return "last integer printed"

    def read(self, stdout: str) -> tuple[int | None, str | None]:
        numbers = _INTEGER.findall(stdout)
        if not numbers:
            return None, "stdout has no integer"
        return _parse_digits(numbers[-1], "the last integer")


@dataclass(frozen=True)
class PatternReader:
    """The count is group 1 of the last match of a regular expression (used by presets)."""

    pattern: str

    def describe(self) -> str:
        return f"last match of /{self.pattern}/"

    def read(self, stdout: str) -> tuple[int | None, str | None]:
        matches = re.findall(self.pattern, stdout, flags=re.MULTILINE)
        if not matches:
            return None, f"stdout has no line matching /{self.pattern}/"
        return _parse_digits(str(matches[-1]), "the matched number")


def _parse_digits(text: str, where: str) -> tuple[int | None, str | None]:
    if text.startswith("-"):
        return None, f"{where} is negative: {text[:40]}"
    if len(text) > 19:  # beyond 2**63 whatever the digits are; int() would be slow or refuse
        return None, f"{where} is out of range (2**63 or more)"
    try:
        return _as_count(int(text), where)
    except ValueError:
        return None, f"{where} is not an integer: {text[:40]}"


# Informative members beside the count (the reference's OUT-1 and OUT-3): kept for the report,
# never read for a verdict. At most this many phantoms are kept per case.
PHANTOM_LIMIT = 200
REASON_LIMIT = 40


def read_informative(stdout: str, reader: AnswerReader) -> dict[str, Any]:
    """`reboots_possible` and the phantoms' reasons, from the object that holds the count.

    Only a JSON answer has them: with the default reader that is stdout's top-level object;
    with `--answer-pointer /result/reboots` it is `/result`. Anything malformed is left out
    silently (an informative member is never a reason for an outcome); `{}` when there is none.
    """
    if not isinstance(reader, JsonPointerReader) or not stdout.strip():
        return {}
    try:
        value: Any = orjson.loads(stdout)
    except orjson.JSONDecodeError:
        return {}
    for token in pointer_tokens(reader.pointer)[:-1]:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return {}
    if not isinstance(value, dict):
        return {}
    found: dict[str, Any] = {}
    possible = value.get("reboots_possible")
    if _as_count(possible, "reboots_possible")[0] is not None:
        found["reboots_possible"] = possible
    phantoms = value.get("phantoms")
    if isinstance(phantoms, list):
        kept = []
        for phantom in phantoms[:PHANTOM_LIMIT]:
            if not isinstance(phantom, dict):
                continue
            entry: dict[str, Any] = {}
            request = phantom.get("request")
            if _as_count(request, "request")[0] is not None:
                entry["request"] = request
            reason = phantom.get("reason")
            if isinstance(reason, str):
                entry["reason"] = reason[:REASON_LIMIT]
            kept.append(entry)
        found["phantoms"] = kept
        if len(phantoms) > PHANTOM_LIMIT:
            found["phantoms_total"] = len(phantoms)
    return found
