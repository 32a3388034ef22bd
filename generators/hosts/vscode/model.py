"""VS Code's chat-session storage schema as data, and extraction driven by it.

The schema says, for every stored field, what kind of node it is (key, value with a comparator,
array, object) and so how the writer diffs it. Extraction builds the stored object the way
VS Code's ObjectMutationLog does: key fields first, then value fields, then arrays, then objects
(a stable sort, so schema order inside each group), and fields that are undefined (absent here)
are left out. Facts: the storage schema of VS Code's `chatSessionOperationLog.ts` (requests,
response parts and their comparator) and the extraction of `objectMutationLog.ts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

MISSING: Any = object()  # JavaScript's `undefined`: an absent member


@dataclass(frozen=True)
class Key:
    """A key field: when it differs, the whole item is replaced (`requestId`)."""


@dataclass(frozen=True)
class Value:
    """A value field, replaced whole by a Set when `compare` says it changed."""

    compare: str = "strict"


@dataclass(frozen=True)
class ArrayOf:
    """An array compared positionally with its item node."""

    item: Value | Obj


@dataclass(frozen=True)
class Obj:
    """An object diffed field by field; `sealed` objects are not diffed once finished."""

    fields: tuple[tuple[str, Node], ...]
    sealed: bool = False

    def __post_init__(self) -> None:
        # The order is asked for every diffed object of every save (millions of times in a
        # corpus build), so it is sorted once here rather than on each call.
        ranked = tuple(sorted(self.fields, key=lambda item: _RANK[type(item[1])]))
        object.__setattr__(self, "_ordered", ranked)
        keys = tuple((name, child) for name, child in ranked if isinstance(child, Key))
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_rest", ranked[len(keys) :])

    def key_fields(self) -> tuple[tuple[str, Key], ...]:
        """The key fields (first in extraction order): a differing one replaces the object."""
        keys: tuple[tuple[str, Key], ...] = self.__dict__["_keys"]
        return keys

    def other_fields(self) -> tuple[tuple[str, Node], ...]:
        """The fields after the keys, in extraction order: the ones diffed one by one."""
        rest: tuple[tuple[str, Node], ...] = self.__dict__["_rest"]
        return rest

    def ordered(self) -> tuple[tuple[str, Node], ...]:
        """Fields in extraction order: keys, values, arrays, objects (stable)."""
        ranked: tuple[tuple[str, Node], ...] = self.__dict__["_ordered"]
        return ranked


Node = Key | Value | ArrayOf | Obj
_RANK: dict[type, int] = {Key: 0, Value: 1, ArrayOf: 2, Obj: 3}

MESSAGE = Obj((("text", Value()), ("parts", Value("parts"))))
EDITED_FILE_EVENT = Obj((("uri", Value("deep")), ("eventKind", Value())))
VARIABLE_DATA = Obj((("variables", ArrayOf(Value("by-name"))),))

REQUEST = Obj(
    (
        ("requestId", Key()),
        ("timestamp", Value()),
        ("confirmation", Value()),
        ("message", MESSAGE),
        ("shouldBeRemovedOnSend", Value("deep")),
        ("agent", Value("by-id")),
        ("modelId", Value()),
        ("modeInfo", Value("deep")),
        ("editedFileEvents", ArrayOf(EDITED_FILE_EVENT)),
        ("variableData", VARIABLE_DATA),
        ("isHidden", Value()),
        ("isCanceled", Value()),
        ("response", ArrayOf(Value("response-part"))),
        ("responseId", Value()),
        ("result", Value("deep")),
        ("responseMarkdownInfo", Value("deep")),
        ("followups", Value("deep")),
        ("modelState", Value("deep")),
        ("vote", Value()),
        ("voteDownReason", Value()),
        ("slashCommand", Value("by-name")),
        ("usedContext", Value("deep")),
        ("contentReferences", Value("deep")),
        ("codeCitations", Value("deep")),
        ("timeSpentWaiting", Value()),
    ),
    sealed=True,
)

INPUT_STATE = Obj(
    (
        ("attachments", Value("deep")),
        ("mode", Value("by-id")),
        ("selectedModel", Value("by-identifier")),
        ("inputText", Value()),
        ("selections", Value("deep")),
        ("contrib", Value("deep")),
    )
)

PENDING_REQUEST = Obj(
    (("id", Key()), ("request", REQUEST), ("kind", Value()), ("sendOptions", Value("deep")))
)

SESSION = Obj(
    (
        ("version", Value()),
        ("creationDate", Value()),
        ("customTitle", Value()),
        ("initialLocation", Value()),
        ("inputState", INPUT_STATE),
        ("responderUsername", Value()),
        ("sessionId", Value()),
        ("requests", ArrayOf(REQUEST)),
        ("hasPendingEdits", Value()),
        ("repoData", Value("deep")),
        ("pendingRequests", ArrayOf(PENDING_REQUEST)),
    )
)

# Response-part kinds whose stored form can change after it was pushed: compared deeply.
DYNAMIC_PART_KINDS = frozenset(
    {
        "toolInvocationSerialized",
        "elicitationSerialized",
        "progressTaskSerialized",
        "textEditGroup",
        "multiDiffData",
        "mcpServersStarting",
    }
)


Memo = dict[int, tuple[Any, Any]]


def extract(node: Node, value: Any, memo: Memo | None = None) -> Any:
    """The stored form of `value` under `node`: a fresh copy in the writer's key order.

    `memo` may hold the stored form of sealed requests from earlier saves: the live model never
    changes a request once it is finished, so its stored form is reused (only for speed).
    """
    if value is MISSING:
        return MISSING
    if isinstance(node, Key):
        return value
    if isinstance(node, Value):
        # VS Code clones object values through JSON: no shared references, same key order.
        return orjson.loads(orjson.dumps(value)) if isinstance(value, dict | list) else value
    if value is None:
        return None if isinstance(node, Obj) else MISSING  # `null?.map()` is undefined
    if isinstance(node, ArrayOf):
        return [extract(node.item, item, memo) for item in value]
    reuse = memo is not None and node.sealed and is_sealed(value)
    if reuse and memo is not None and id(value) in memo:
        return memo[id(value)][1]
    out: dict[str, Any] = {}
    for name, child in node.ordered():
        stored = extract(child, value.get(name, MISSING), memo)
        if stored is not MISSING:
            out[name] = stored
    if reuse and memo is not None:
        memo[id(value)] = (value, out)  # keeps `value` alive, so its id is not reused
    return out


def member(value: Any, name: str) -> Any:
    """`value?.[name]` in JavaScript: MISSING when value is no object or lacks the member."""
    if isinstance(value, dict):
        return value.get(name, MISSING)
    return MISSING


def strict_equal(a: Any, b: Any) -> bool:
    """JavaScript `===` on extracted values: objects are fresh clones, so never identical."""
    if a is MISSING or b is MISSING:
        return a is b
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    return type(a) is type(b) and a == b


def deep_equal(a: Any, b: Any) -> bool:
    """VS Code's `objects.equals`: structural, member order ignored, types exact."""
    if a is MISSING or b is MISSING:
        return a is b
    if isinstance(a, dict) and isinstance(b, dict):
        return sorted(a) == sorted(b) and all(deep_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    return type(a) is type(b) and a == b


def is_markdown_string(part: Any) -> bool:
    """A bare IMarkdownString (a markdown response part is stored without `kind`)."""
    return isinstance(part, dict) and isinstance(part.get("value"), str) and "kind" not in part


def response_parts_equal(a: Any, b: Any) -> bool:
    """The response-part comparator: markdown by value, dynamic kinds deeply, others by kind."""
    if is_markdown_string(a) and is_markdown_string(b):
        return bool(a["value"] == b["value"])
    if isinstance(a, dict) and isinstance(b, dict) and "kind" in a and "kind" in b:
        if a["kind"] != b["kind"]:
            return False
        if a["kind"] in DYNAMIC_PART_KINDS:
            return deep_equal(a, b)
        return True
    return False


def _by(name: str) -> Any:
    def compare(a: Any, b: Any) -> bool:
        return strict_equal(member(a, name), member(b, name))

    return compare


def _parts_equal(a: Any, b: Any) -> bool:
    """Message parts: same length and the same `.text` at every position."""
    if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
        return False
    return all(
        strict_equal(member(x, "text"), member(y, "text")) for x, y in zip(a, b, strict=True)
    )


COMPARATORS: dict[str, Any] = {
    "strict": strict_equal,
    "deep": deep_equal,
    "by-id": _by("id"),
    "by-name": _by("name"),
    "by-identifier": _by("identifier"),
    "parts": _parts_equal,
    "response-part": response_parts_equal,
}


def values_equal(node: Key | Value, a: Any, b: Any) -> bool:
    """Compare two stored values with the node's comparator."""
    if isinstance(node, Key):
        return strict_equal(a, b)
    return bool(COMPARATORS[node.compare](a, b))


def is_sealed(request: Any) -> bool:
    """A request whose modelState is Complete, Cancelled or Failed never changes again."""
    state = request.get("modelState") if isinstance(request, dict) else None
    value = state.get("value") if isinstance(state, dict) else None
    return type(value) is int and value in (1, 2, 3)
