"""Real-log fixtures: the one deterministic reduction of a large "Export Chat..." file.

Only VS Code exports are reduced. The real logs of the other hosts (a Codex rollout, a pi
session; spec 3.0) are kept byte-exact (`reduction = "none: byte-exact"`): no reduction is
defined for them, so a log too big to keep whole is not taken.

`python -m rebootspec.generators.corpus.realworld reduce SRC OUT [--threshold N]`

Real exports of long agent sessions are megabytes, almost all of it tool results, thinking
text and terminal output that no counter reads. `reduce_export` shortens exactly those parts
and nothing else, so that the fixture stays small while every member a counter reads stays
byte-identical (spec/FIXTURES.md, "Real logs"):

* The document is walked from the top. The containers a counter walks through are kept as
  containers: the root object, `requests`, each request, its `result`, `result.metadata`,
  `metadata.toolCallRounds`, each round, `response` and each response part.
* Kept whole, whatever their size ("read members"): every top-level member other than
  `requests`; per request `message`, `slashCommand`, `modelState`, `isCanceled`,
  `shouldBeRemovedOnSend`, `isHidden`, `requestId`, `responseId`, `result.errorDetails`,
  `result.metadata.summary`, `result.metadata.summaries`; per round `id`, `summary`,
  `compaction`; per response part `kind` and `content` (the progress-task text).
* Every other value (a string, number, array or object) is "unread". An unread value whose
  text is longer than the threshold (default 1,000 characters; for a string the string
  itself, for an array or object its compact JSON) is replaced, outermost first, by a string:
  the first 200 characters of that text plus ` [rebootspec: reduced, N chars]` (N = the length
  of the text). Shorter unread values are kept as they are.
* The result is written as VS Code writes an export (`JSON.stringify(x, undefined, 2)`): two-space
  indent, key order kept, non-ASCII as is, numbers as their original literals, and whatever
  precedes or follows the JSON value in the input (a trailing newline an author added) kept.

With an infinite threshold the output equals the input byte for byte (tested).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

THRESHOLD = 1000
PREFIX = 200
SUFFIX = " [rebootspec: reduced, {n} chars]"

# Members kept whole, by the container they belong to.
KEEP_REQUEST = frozenset(
    {
        "message",
        "slashCommand",
        "modelState",
        "isCanceled",
        "shouldBeRemovedOnSend",
        "isHidden",
        "requestId",
        "responseId",
    }
)
KEEP_RESULT = frozenset({"errorDetails"})
KEEP_METADATA = frozenset({"summary", "summaries"})
KEEP_ROUND = frozenset({"id", "summary", "compaction"})
KEEP_PART = frozenset({"kind", "content"})

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class Literal:
    """A number (or NaN/Infinity) as written in the input, so that it is written back unchanged."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Literal) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Literal({self.text!r})"


def parse(text: str) -> tuple[str, Any, str]:
    """(text before the value, the value, text after it); numbers stay `Literal`s."""
    decoder = json.JSONDecoder(parse_float=Literal, parse_int=Literal, parse_constant=Literal)
    start = len(text) - len(text.lstrip())
    value, end = decoder.raw_decode(text, start)
    return text[:start], value, text[end:]


def _string(text: str) -> str:
    """A JSON string as JSON.stringify writes it (lone surrogates as lowercase \\u escapes)."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def dumps(value: Any, indent: int | None = 2) -> str:
    """`JSON.stringify(value, undefined, indent)`; `indent=None` is the compact form."""
    out: list[str] = []
    _write(value, indent, 0, out)
    return "".join(out)


def _write(value: Any, indent: int | None, depth: int, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, Literal):
        out.append(value.text)
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, dict | list):
        items = list(value.items()) if isinstance(value, dict) else list(value)
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if not items:
            out.append(opening + closing)
            return
        inner = "" if indent is None else "\n" + " " * (indent * (depth + 1))
        outer = "" if indent is None else "\n" + " " * (indent * depth)
        colon = ":" if indent is None else ": "
        out.append(opening)
        for position, item in enumerate(items):
            out.append(("," if position else "") + inner)
            if isinstance(value, dict):
                key, member = item
                out.append(_string(key) + colon)
                _write(member, indent, depth + 1, out)
            else:
                _write(item, indent, depth + 1, out)
        out.append(outer + closing)
    else:  # pragma: no cover - parse() produces nothing else
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def _unread(value: Any, threshold: float) -> Any:
    text = value if isinstance(value, str) else dumps(value, indent=None)
    if len(text) <= threshold:
        return value
    return text[:PREFIX] + SUFFIX.format(n=len(text))


def _object(
    value: Any, keep: frozenset[str], threshold: float, walk: dict[str, Any] | None = None
) -> Any:
    """An object a counter walks: `keep` members whole, `walk` members by their function."""
    if not isinstance(value, dict):
        return _unread(value, threshold)
    result: dict[str, Any] = {}
    for key, member in value.items():
        if key in keep:
            result[key] = member
        elif walk and key in walk:
            result[key] = walk[key](member, threshold)
        else:
            result[key] = _unread(member, threshold)
    return result


def _array(value: Any, threshold: float, element: Any) -> Any:
    if not isinstance(value, list):
        return _unread(value, threshold)
    return [element(item, threshold) for item in value]


def _round(value: Any, threshold: float) -> Any:
    return _object(value, KEEP_ROUND, threshold)


def _metadata(value: Any, threshold: float) -> Any:
    rounds = {"toolCallRounds": lambda v, t: _array(v, t, _round)}
    return _object(value, KEEP_METADATA, threshold, rounds)


def _result(value: Any, threshold: float) -> Any:
    return _object(value, KEEP_RESULT, threshold, {"metadata": _metadata})


def _part(value: Any, threshold: float) -> Any:
    return _object(value, KEEP_PART, threshold)


def _request(value: Any, threshold: float) -> Any:
    walk = {"result": _result, "response": lambda v, t: _array(v, t, _part)}
    return _object(value, KEEP_REQUEST, threshold, walk)


def reduce_value(value: Any, threshold: float = THRESHOLD) -> Any:
    """The parsed export with every long unread value shortened (see the module text)."""
    if not isinstance(value, dict):
        return value
    result = dict(value)
    if "requests" in value:
        result["requests"] = _array(value["requests"], threshold, _request)
    return result


def reduce_export(data: bytes, threshold: float = THRESHOLD) -> bytes:
    """Reduce an Export Chat (or flat session) `.json` file; `math.inf` gives it back unchanged."""
    head, value, tail = parse(data.decode("utf-8"))
    return (head + dumps(reduce_value(value, threshold)) + tail).encode("utf-8")


def cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rebootspec.generators.corpus.realworld",
        description="Real Copilot Chat exports as fixtures (spec/FIXTURES.md, 'Real logs').",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    reduce = commands.add_parser("reduce", help="shorten the members no counter reads")
    reduce.add_argument("src", type=Path, help="the original export (.json)")
    reduce.add_argument("out", type=Path, help="where to write the reduced export")
    reduce.add_argument(
        "--threshold",
        type=float,
        default=THRESHOLD,
        help=f"longest unread value kept, in characters (default {THRESHOLD}; inf: none)",
    )
    args = parser.parse_args(argv)
    threshold = math.inf if math.isinf(args.threshold) else args.threshold
    args.out.write_bytes(reduce_export(args.src.read_bytes(), threshold))
    return 0


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
