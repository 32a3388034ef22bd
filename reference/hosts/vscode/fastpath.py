"""The fast path: decode only what spec 2.0 reads, and fall back to the readable path otherwise.

The readable path (reference.replay + reference.count) is the definition. This module gives the
same answer faster by never building the parts of a session that the count does not read: tool
outputs, rendered messages, variables, edits, most of every response part. They are the bulk of
a big log's bytes.

How it works. Every line is decoded by msgspec with a typed schema (`_Root`, `_Request`, ...)
that declares only the members the count reads (`count.py`) and the member a VS Code
log walks into (`inputState`); msgspec skips every other member while it checks the JSON syntax.
Each declared member is typed as a union of its expected shape and every other JSON type, so a
member of an unexpected type is kept exactly as JSON.parse would give it (the count reads such
values with JavaScript-like semantics, so they must not be coerced or refused).
`msgspec.to_builtins` turns the decoded structs into plain dicts and lists: a *reduced state*
that holds, for every member the count reads, exactly the value of the full state. The patches
(kinds 1-3) are applied to the reduced state by the same rules as `reference.replay`, and the
final reduced state goes to the one `count_state`, so counting code exists once.

Why skipping is safe (the rules that make it so):

- RPL-10, CNT-*, SUM-*, MRK-*, OUT-*: the answer is a function of the final state's members that
  count.py reads; a member it never reads cannot change the count, the details or a warning.
- RPL-6 / RPL-8 (Set, Delete): setting or deleting an undeclared member of an object whose path
  was walked and checked changes nothing the count reads, and cannot be rejected once the walk
  succeeded (a string key on an object always works), so such a patch is applied to nothing.
- RPL-5, ERR-6, ERR-7 (the walk, E-PATH, E-PUSH): a walk *through* an undeclared member, or a
  Push *into* one, would need its value to decide between success and rejection. The fast path
  does not know it, so it gives up (see below). VS Code only walks into `requests`, a request's
  `response`, `result` and `modelState`, and `inputState`, all declared.
- RPL-9, ERR-8 (holes, limits): arrays reached by a patch are always fully known (their elements
  are declared or decoded whole), so padding and the hole budget are counted exactly. Nesting
  deeper than orjson's limit is refused by msgspec too (it stops at the interpreter's recursion
  limit, probed once per call below), and then the readable path rejects it.
- RPL-2, ERR-3 (what JSON.parse accepts): msgspec refuses everything orjson and `json` refuse
  (control characters, NaN, trailing commas...). It accepts invalid UTF-8 and numbers beyond the
  double range in members it skips, exactly where the readable path accepts them too (by
  decoding with replacement, or with `json`); in a decoded member they make msgspec fail.

Giving up: any decode or validation error, any rejection (every ERR-*, including ERR-9's torn
tail, which only exists when a line does not parse), any walk the fast path cannot check, and a
depth limit it cannot trust raise `Fallback`; `reference.count_path` then reads the whole file
again with the readable path, so both paths give the same count, details and error line.
"""

import mmap
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Generic, TypeVar

import msgspec
from msgspec import UNSET, Raw, Struct, UnsetType, to_builtins

from ...core.errors import Rejection
from ...core.jsontext import BOM, DEPTH_LIMIT, as_int
from .count import Count, count_state
from .replay import HOLE_LIMIT, _child, _normalized_keys

_V = TypeVar("_V")


class Fallback(Exception):
    """The fast path cannot answer with certainty; the readable path decides."""


# The schema: the members count.py reads, each typed "its expected shape or any other JSON" ---
# (`Any` members keep their exact JSON value; an absent member stays absent: count.py may ask
# whether a member is there at all, as for a part's `kind` or a metadata's `summary`.)

_Other = list[Any] | str | int | float | bool | None  # every JSON type but an object
_NotArray = dict[str, Any] | str | int | float | bool | None  # every JSON type but an array


class _Content(Struct):
    value: Any = UNSET  # MRK-1, MRK-2: content.value of a progress part


_ContentT = _Content | _Other


class _Part(Struct):
    kind: Any = UNSET  # MRK-4 reads whether `kind` is present at all
    content: _ContentT | UnsetType = UNSET
    value: Any = UNSET  # MRK-4: the markdown of a /compact request


_PartT = _Part | _Other
_ResponseT = list[_PartT] | _NotArray


class _Named(Struct):
    name: Any = UNSET  # MRK-4: slashCommand.name


class _Message(Struct):
    text: Any = UNSET  # MRK-4: message.text (LEG-2: or the message itself, a string)


class _SummaryEntry(Struct):
    text: Any = UNSET  # SUM-1, SUM-3
    outcome: Any = UNSET  # OUT-3: failed


_SummaryEntryT = _SummaryEntry | _Other


class _Compaction(Struct):
    id: Any = UNSET  # SUM-7


class _Round(Struct):
    summary: Any = UNSET  # SUM-6
    compaction: _Compaction | _Other | UnsetType = UNSET  # SUM-7


_RoundT = _Round | _Other


class _Summary(Struct):
    text: Any = UNSET  # SUM-2


class _Metadata(Struct):
    summaries: list[_SummaryEntryT] | _NotArray | UnsetType = UNSET
    toolCallRounds: list[_RoundT] | _NotArray | UnsetType = UNSET
    summary: _Summary | _Other | UnsetType = UNSET


_MetadataT = _Metadata | _Other


class _Result(Struct):
    errorDetails: Any = UNSET  # OUT-3: lost-after-error (is it an object)
    metadata: _MetadataT | UnsetType = UNSET


_ResultT = _Result | _Other


class _Request(Struct):
    requestId: Any = UNSET
    timestamp: Any = UNSET
    message: _Message | _Other | UnsetType = UNSET
    slashCommand: _Named | _Other | UnsetType = UNSET
    response: _ResponseT | UnsetType = UNSET
    result: _ResultT | UnsetType = UNSET
    modelState: Any = UNSET  # OUT-3: cancelled
    isCanceled: Any = UNSET
    isHidden: Any = UNSET  # CNT-5
    shouldBeRemovedOnSend: Any = UNSET  # CNT-5, CNT-6 (small: a flag or {afterUndoStop})


_RequestT = _Request | _Other
_RequestsT = list[_RequestT] | _NotArray


class _Root(Struct):
    requests: _RequestsT | UnsetType = UNSET  # CNT-1
    inputState: Any = UNSET  # not counted: VS Code walks into it (`inputState.inputText`)
    # LEG-1, LEG-3: what tells a .json session or export (read for .json files only)
    sessionId: Any = UNSET
    version: Any = UNSET
    responderUsername: Any = UNSET


class _Entry(Struct):
    """One line of the log (RPL-3) when its path is not known first: `v` is decoded later."""

    kind: Any = UNSET
    k: Any = UNSET
    v: Raw | UnsetType = UNSET
    i: Any = UNSET


class _Patch(Struct, Generic[_V]):
    """A kind 1 or 2 line whose path was read first: `v` is decoded by the schema of its place."""

    kind: Any = UNSET
    k: Any = UNSET
    v: _V | UnsetType = UNSET
    i: Any = UNSET


class _Head(Struct):
    """The start of a line, `{"kind":N,"k":[...]`, closed with `}`: the path before the value."""

    kind: Any = UNSET
    k: Any = UNSET


class _Initial(Struct):
    """A line that starts `{"kind":0,"v":`: the state is decoded in the same pass."""

    kind: Any = UNSET
    v: _Root | UnsetType = UNSET


# The same schema as a tree to walk patch paths on ------------------------------------------


@dataclass
class _Node:
    """Where a value sits in the schema: an object with declared members, an array, or any."""

    shape: str  # "object", "array" or "any"
    type: Any  # the msgspec type of a value stored here
    members: "dict[str, _Node]" = field(default_factory=dict)
    element: "_Node | None" = None


_ANY = _Node("any", Any)


def _object(type_: Any, **members: _Node) -> _Node:
    return _Node("object", type_, {name: members.get(name, _ANY) for name in _fields(type_)})


def _fields(type_: Any) -> tuple[str, ...]:
    struct = next(t for t in type_.__args__ if isinstance(t, type) and issubclass(t, Struct))
    return struct.__struct_fields__


def _array(type_: Any, element: _Node) -> _Node:
    return _Node("array", type_, element=element)


_PART = _object(_PartT, content=_object(_ContentT))
_ROUND = _object(_RoundT, compaction=_object(_Compaction | _Other))
_METADATA = _object(
    _MetadataT,
    summaries=_array(list[_SummaryEntryT] | _NotArray, _object(_SummaryEntryT)),
    toolCallRounds=_array(list[_RoundT] | _NotArray, _ROUND),
    summary=_object(_Summary | _Other),
)
_REQUEST = _object(
    _RequestT,
    message=_object(_Message | _Other),
    slashCommand=_object(_Named | _Other),
    response=_array(_ResponseT, _PART),
    result=_object(_ResultT, metadata=_METADATA),
)
_ROOT = _Node(
    "object",
    _Root,
    {name: _ANY for name in _Root.__struct_fields__} | {"requests": _array(_RequestsT, _REQUEST)},
)


def _mode(node: _Node, value: Any) -> _Node:
    """The node a value is read with: a value of another shape than declared is known whole."""
    if node.shape == "object" and type(value) is dict:
        return node
    if node.shape == "array" and type(value) is list:
        return node
    return _ANY


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _decoder(type_: Any) -> msgspec.json.Decoder[Any]:
    decoder = _DECODERS.get(type_)
    if decoder is None:
        decoder = _DECODERS[type_] = msgspec.json.Decoder(type_)
    return decoder


def _decode(data: Raw | memoryview | bytes, type_: Any) -> Any:
    """Decode to plain dicts and lists (structs become dicts without their absent members)."""
    return msgspec.to_builtins(_decoder(type_).decode(data))


_ENTRY = msgspec.json.Decoder(_Entry)
_HEAD = msgspec.json.Decoder(_Head)
_INITIAL = msgspec.json.Decoder(_Initial)
_INITIAL_PREFIX = b'{"kind":0,"v":'
_HEAD_PREFIXES = (b'{"kind":1,"k":[', b'{"kind":2,"k":[')
_HEAD_MAX = 512  # a path longer than this is read the general way
_HEADS_KEPT = 4096  # distinct line starts remembered (then forgotten all at once)
_DEEP = b'{"kind":1,"k":[],"v":' + b"[" * DEPTH_LIMIT + b"]" * DEPTH_LIMIT + b"}"


def _depth_limit_holds() -> bool:
    """ERR-8: msgspec must refuse what orjson refuses (nesting deeper than DEPTH_LIMIT).

    msgspec stops at the interpreter's recursion limit, which depends on the stack in use; the
    probe runs at the same stack depth as the real decoding, so a pass here is a pass there.
    """
    try:
        _ENTRY.decode(_DEEP)
    except RecursionError:
        return True
    return False


# The replay on the reduced state ------------------------------------------------------------


class _FastReplayer:
    """reference.replay._Replayer on the reduced state; gives up where it cannot be exact.

    Each line is decoded once: the path is read from the line's start, the place it leads to
    gives the schema of `v`, and the whole line is then decoded with that schema (the path is
    compared with the one read first, in case the line repeats a member). Lines of another
    layout are decoded with `v` kept raw and decoded again once the path is known.
    """

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.holes = 0
        self._heads: dict[bytes, tuple[int, list[str | int]] | tuple[()]] = {}

    def line(self, raw: memoryview) -> None:
        start = bytes(raw[:_HEAD_MAX])
        if start.startswith(_INITIAL_PREFIX):
            initial = _INITIAL.decode(raw)
            if as_int(initial.kind) == 0:
                if initial.v is UNSET:
                    raise Fallback("kind 0 without v")
                self.state = msgspec.to_builtins(initial.v)
                return
        end = start.find(b"]")  # inside a string, the cut leaves it unterminated: an error
        head = None
        if end >= 0:
            cut = start[: end + 1]
            head = self._heads.get(cut)
            if head is None:
                if len(self._heads) > _HEADS_KEPT:
                    self._heads.clear()
                head = self._heads[cut] = self._head(cut)
        if head:
            kind, keys = head
            if len(keys) == 3 and keys[0] == "requests":
                done = self._request_patch(raw, kind, keys)
                if done is not None:
                    if not done:
                        self._entry(_ENTRY.decode(raw))
                    return
            if self._patch(raw, kind, keys):
                return
        self._entry(_ENTRY.decode(raw))

    @staticmethod
    def _head(cut: bytes) -> tuple[int, list[str | int]] | tuple[()]:
        """The kind and path at the start of a line (`cut` ends at the path's first `]`); ()
        when the line starts otherwise. Remembered per distinct start: an appended log repeats
        the same few (`["requests",N,"response"]` for every streamed part of request N)."""
        if cut[: len(_HEAD_PREFIXES[0])] not in _HEAD_PREFIXES:
            return ()
        try:
            head = _HEAD.decode(cut + b"}")
        except msgspec.DecodeError:
            return ()
        return head.kind, _FastReplayer._keys(head.k)

    def _patch(self, raw: memoryview, kind: int, keys: list[str | int]) -> bool:
        """A kind 1 or 2 line in one pass; False when the line must be read the general way."""
        if not keys:
            return False
        parent, node = self._walk(keys)
        key = keys[-1]
        type_ = self._value_type(parent, node, key) if kind == 1 else None
        if kind == 2:
            type_ = self._items_type(parent, node, key)
        entry = _patch_decoder(type_).decode(raw)
        if not (_same(entry.kind, kind) and _same_keys(entry.k, keys)):
            return False  # a repeated member changed the line: read it the general way
        if kind == 2:
            self._push(parent, key, entry.i, _builtins(entry.v))
        elif type_ is not None:
            self._assign(parent, key, _builtins(entry.v))
        return True

    def _request_patch(self, raw: memoryview, kind: int, keys: list[str | int]) -> bool | None:
        """`_patch` on a member of one request, `["requests", N, name]`: nearly every line of
        an appended log (issue 37). The same steps as `_walk`, `_value_type` / `_items_type`
        and `_same_keys` on that path, written out once: on a 69,000-line log their calls
        cost more than the decoding. None: not this case, the general way decides."""
        index, name = keys[1], keys[2]
        decoders = _REQUEST_DECODERS.get(name) if type(name) is str else None
        if decoders is None and type(name) is str and name in _REQUEST.members:
            decoders = _request_decoders(name)
        state = self.state
        if decoders is None or type(index) is not int or state is None:
            return None
        requests = state.get("requests")
        if type(requests) is not list or index >= len(requests):
            return None
        request = requests[index]
        if type(request) is not dict:
            return None
        if kind == 2:
            existing = request.get(name)
            if existing is not None and type(existing) is not list:
                raise Fallback("E-PUSH")
            entry = decoders[1].decode(raw)
        else:
            entry = decoders[0].decode(raw)
        found = entry.k
        if not (
            type(entry.kind) is int
            and entry.kind == kind
            and type(found) is list
            and found == keys
            and type(found[1]) is int  # 1.0 or true equal 1 but are other keys
        ):
            return False  # a repeated member changed the line: read it the general way
        value = entry.v
        if kind == 2:
            self._push(request, name, entry.i, value if value is UNSET else to_builtins(value))
        elif value is UNSET:
            request.pop(name, None)
        else:
            request[name] = to_builtins(value)
        return True

    def _entry(self, entry: _Entry) -> None:
        """Any line, `v` decoded once the path says how (RPL-3..RPL-8)."""
        kind = as_int(entry.kind)
        if kind == 0:
            if entry.v is UNSET:
                raise Fallback("kind 0 without v")
            self.state = _decode(entry.v, _Root)  # not an object: ValidationError (E-STATE)
            return
        if kind not in (1, 2, 3) or self.state is None:
            raise Fallback("E-ENTRY or E-NO-INITIAL")
        keys = self._keys(entry.k)
        if kind == 2:
            if not keys:
                raise Fallback("E-PATH: push with an empty path")
            parent, node = self._walk(keys)
            items_type = self._items_type(parent, node, keys[-1])
            items = UNSET if entry.v is UNSET else _decode(entry.v, items_type)
            self._push(parent, keys[-1], entry.i, items)
        elif keys:  # RPL-6 / RPL-8: an empty path does nothing
            parent, node = self._walk(keys)
            type_ = self._value_type(parent, node, keys[-1])
            if type_ is not None:
                value = UNSET if kind == 3 or entry.v is UNSET else _decode(entry.v, type_)
                self._assign(parent, keys[-1], value)

    @staticmethod
    def _keys(raw: Any) -> list[str | int]:
        """RPL-5: strings and indices (integral numbers); anything else: Fallback."""
        if type(raw) is not list:
            raise Fallback("k is not an array")
        for key in raw:
            kind = type(key)
            if kind is not str and (kind is not int or key < 0):
                return _normalized_keys(raw, 0)  # Rejection -> Fallback
        return raw

    def _walk(self, keys: list[str | int]) -> tuple[Any, _Node]:
        """RPL-5: follow every key but the last; the container reached and its schema node."""
        if self.state is None:
            raise Fallback("E-NO-INITIAL")
        current: Any = self.state
        node = _ROOT
        for key in keys[:-1]:
            node = _member(node, key)
            current = _child(current, key)
            if type(current) is not dict and type(current) is not list:
                raise Fallback("E-PATH")
            node = _mode(node, current)
        return current, node

    @staticmethod
    def _value_type(parent: Any, node: _Node, key: str | int) -> Any:
        """The schema of a value Set at `key`; None for an undeclared member (applied to
        nothing, see the docstring); Fallback where the readable path rejects (ERR-6)."""
        if type(parent) is dict:
            if type(key) is not str:
                raise Fallback("E-PATH: index on an object")
            if node.shape == "object" and key not in node.members:
                return None
        elif type(key) is not int:
            raise Fallback("E-PATH: key on an array")
        return _member(node, key).type

    @staticmethod
    def _items_type(parent: Any, node: _Node, key: str | int) -> Any:
        """The schema of the items Pushed at `key` (RPL-7); Fallback for ERR-6, ERR-7 and an
        undeclared member (its value decides E-PUSH, and the fast path does not know it)."""
        if type(parent) is dict:
            if type(key) is not str:
                raise Fallback("E-PATH: index on an object")
            if node.shape == "object" and key not in node.members:
                raise Fallback(f"push into the undeclared member {key!r}")
        elif type(key) is not int:
            raise Fallback("E-PATH: key on an array")
        existing = _child(parent, key)
        if existing is not None and type(existing) is not list:
            raise Fallback("E-PUSH")
        member = _member(node, key)
        element = member.element if member.shape == "array" else _ANY
        assert element is not None
        return _push_type(element.type)

    def _assign(self, parent: Any, key: str | int, value: Any) -> None:
        """RPL-6 Set / RPL-8 Delete; UNSET (no `v`, or kind 3) removes. Key types checked."""
        if type(parent) is dict:
            if value is UNSET:
                parent.pop(key, None)
            else:
                parent[key] = value
            return
        stored = None if value is UNSET else value  # undefined in an array is written as null
        if key < len(parent):  # type: ignore[operator]
            parent[key] = stored
        else:
            self._pad(parent, key)  # type: ignore[arg-type]
            parent.append(stored)

    def _push(self, parent: Any, key: str | int, start: Any, items: Any) -> None:
        """RPL-7 Push: truncate or pad to `i`, then append the items of `v` (types checked)."""
        existing = _child(parent, key)
        array: list[Any] = [] if existing is None else existing
        if start is not UNSET:
            index = as_int(start)
            if index is None or index < 0:
                raise Fallback("E-ENTRY: i")
            if index <= len(array):
                del array[index:]
            else:
                self._pad(array, index)
        if items is not UNSET and items is not None:
            array.extend(items)
        if existing is None:
            self._assign(parent, key, array)

    def _pad(self, array: list[Any], length: int) -> None:
        """RPL-9 within the ERR-8 hole budget."""
        missing = length - len(array)
        self.holes += missing
        if self.holes > HOLE_LIMIT:
            raise Fallback("E-LIMIT: holes")
        array.extend([None] * missing)


def _member(node: _Node, key: str | int) -> _Node:
    """The node of `key` inside a container read with `node`."""
    if node.shape == "object":
        if type(key) is str:
            member = node.members.get(key)
            if member is None:
                raise Fallback(f"the path goes through the undeclared member {key!r}")
            return member
        return _ANY  # an index on an object: the walk or the assignment rejects it
    if node.shape == "array":
        assert node.element is not None
        return node.element
    return _ANY


_PATCH_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _patch_decoder(value_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder of whole kind 1/2 lines whose `v` has this schema (None: kept raw)."""
    decoder = _PATCH_DECODERS.get(value_type)
    if decoder is None:
        line_type = _Patch[Raw] if value_type is None else _Patch[value_type]
        decoder = _PATCH_DECODERS[value_type] = msgspec.json.Decoder(line_type)
    return decoder


_PUSH_TYPES: dict[Any, Any] = {}


def _push_type(element: Any) -> Any:
    type_ = _PUSH_TYPES.get(element)
    if type_ is None:
        type_ = _PUSH_TYPES[element] = list[element] | None  # not an array: E-ENTRY
    return type_


_Decoders = tuple[msgspec.json.Decoder[Any], msgspec.json.Decoder[Any]]
_REQUEST_DECODERS: dict[str, _Decoders] = {}


def _request_decoders(name: str) -> _Decoders:
    """For a declared member of a request: the decoders of a line that Sets it (kind 1) and of
    one that Pushes into it (kind 2), as `_value_type` and `_items_type` choose them. Built on
    first use: each costs a msgspec type analysis, which the start-up of every big count would
    otherwise pay for members its file never patches."""
    member = _REQUEST.members[name]
    element = member.element if member.shape == "array" else _ANY
    assert element is not None
    decoders = (_patch_decoder(member.type), _patch_decoder(_push_type(element.type)))
    _REQUEST_DECODERS[name] = decoders
    return decoders


def _builtins(value: Any) -> Any:
    return value if value is UNSET else msgspec.to_builtins(value)


def _same(value: Any, kind: int) -> bool:
    return type(value) is int and value == kind


def _same_keys(raw: Any, keys: list[str | int]) -> bool:
    return (
        type(raw) is list
        and len(raw) == len(keys)
        and all(type(a) is type(b) and a == b for a, b in zip(raw, keys, strict=True))
    )


_CHUNK = 1 << 22  # bytes read at a time
_NOT_LF = re.compile(rb"[^\n]")


def _lines(stream: IO[bytes]) -> Iterator[memoryview]:
    """The file's lines split on LF (RPL-1), as views into one reused buffer.

    Python's line iteration of a binary file is slow on long lines (it grows each line chunk by
    chunk into a new object), and a real log's state is one line of tens of MB. Here the bytes
    are read straight into one buffer and each line is a view of it: no copy. The buffer is
    anonymous memory as large as the file, so a line always fits, but only the pages written
    become resident: the unfinished line moves to the front before each read, so memory is the
    longest line plus a chunk. A view is valid until the next line is asked for.
    """
    size = os.fstat(stream.fileno()).st_size + _CHUNK
    buf = mmap.mmap(-1, size)
    start = scanned = filled = 0
    while True:
        end = buf.find(b"\n", scanned, filled)
        if end == start and start:  # a run of empty pieces, skipped whole (issue 32)
            more = _NOT_LF.search(buf, start, filled)
            start = scanned = more.start() if more else filled
            continue
        if end >= 0:
            yield memoryview(buf)[start : end + 1]
            start = scanned = end + 1
            continue
        if start:  # move the unfinished line to the front
            buf.move(0, start, filled - start)
            start, filled = 0, filled - start
        scanned = filled
        if len(buf) - filled < _CHUNK:  # the file grew while it was read
            buf = _grown(buf, filled, 2 * len(buf))
        with memoryview(buf) as whole, whole[filled : filled + _CHUNK] as room:
            got = stream.readinto(room)  # type: ignore[attr-defined]
        if not got:
            if filled:
                yield memoryview(buf)[:filled]  # an unterminated final line
            return
        filled += got


def _grown(buf: mmap.mmap, filled: int, size: int) -> mmap.mmap:
    new = mmap.mmap(-1, size)
    with memoryview(buf) as old:
        new[:filled] = old[:filled]
    return new


def _reduced_log(stream: IO[bytes]) -> dict[str, Any]:
    """The reduced final state of a `.jsonl` log (RPL-1..RPL-9), or Fallback."""
    replayer = _FastReplayer()
    first = True
    for raw in _lines(stream):
        if first and raw[:3] == BOM:  # RPL-2
            raw = raw[3:]
        first = False
        if len(raw) == 0 or (len(raw) == 1 and raw[0] == 0x0A):
            continue
        replayer.line(raw)
    if replayer.state is None:
        raise Fallback("E-EMPTY")
    return replayer.state


def _reduced_flat(data: bytes) -> dict[str, Any]:
    """LEG-1, LEG-3: the reduced state of a `.json` session or export, or Fallback."""
    from .replay import is_export, is_flat_session

    body = data[len(BOM) :] if data.startswith(BOM) else data
    state: dict[str, Any] = _decode(body, _Root)  # whitespace only or not an object: an error
    if not (is_flat_session(state) or is_export(state)):
        raise Fallback("E-STATE")
    return state


def reduced_state(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The reduced final state of a session file, or Fallback when only the readable path can
    answer. Raises OSError as the readable path would."""
    if sys.getrecursionlimit() > 10 * DEPTH_LIMIT or not _depth_limit_holds():
        raise Fallback("msgspec would accept nesting that orjson refuses")
    with open(path, "rb", buffering=0) as stream:
        try:
            if os.path.splitext(os.fspath(path))[1] == ".json":
                return _reduced_flat(stream.read())
            return _reduced_log(stream)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
            raise Fallback(f"decode: {error}") from None
        except RecursionError:
            raise Fallback("nesting") from None
        except Rejection as rejection:
            raise Fallback(f"{rejection.code}") from None


# Why the last call gave up (None when it answered): for tests and the benchmark's fallback rate.
last_fallback: str | None = None


def count_fast(path: str | os.PathLike[str]) -> Count | None:
    """The count of a session file by the fast path; None when the readable path must decide.

    Every rejection (ERR-*) is left to the readable path, so the error line is its own.
    """
    global last_fallback
    last_fallback = None
    try:
        return count_state(reduced_state(path))
    except Fallback as reason:
        last_fallback = str(reason)
    except Rejection as rejection:  # e.g. ERR-5 on a final `requests` that is not an array
        last_fallback = rejection.code
    except RecursionError:
        last_fallback = "nesting"
    except OSError:
        raise  # the readable path would meet the same (and reports it as a usage error)
    except Exception as error:  # a bug here must never change an answer: the readable path
        last_fallback = f"unexpected {type(error).__name__}: {error}"
    return None
