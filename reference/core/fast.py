"""The fast path of the record hosts (Codex, pi): decode only what their readers read.

The readable path (`jsonvalues.iter_values` + `codex.py` / `pi.py`) is the definition: it parses
every record whole with orjson. Most of a big rollout's or session's bytes are records' bodies
the readers never look at (a `compacted` record's replacement history, a message's content), so
the fast path decodes each line with msgspec against a small schema: msgspec checks the syntax
of the skipped members without building them (`codex_fast.py`, `pi_fast.py`).

Why the same records come out (JSV-1..JSV-4):

- One value per line: msgspec decodes a line as exactly one value (trailing bytes, a second
  glued value or a line that is not JSON are an error), so a line that decodes is one record on
  that line, as `iter_values` would give it.
- Every other line (glued records, bytes that are not UTF-8 in a member read, a record that is
  not an object, nesting msgspec refuses) is read by `iter_values`' own rules (`whole`: orjson,
  else `jsonvalues._split`, with its warnings), so its records and warnings are the readable
  path's; only a rejection (ERR-8's depth) makes the fast path give up.
- msgspec refuses everything both orjson and `json` refuse (control characters, NaN, trailing
  commas, bad escapes, escaped lone surrogates). It accepts invalid UTF-8 and huge numbers in
  skipped members; the readable path then reads the line with `json` and gets one value too. In
  a member the fast path decodes, they make msgspec fail (and the line is read whole).
- Duplicate members: msgspec keeps the last, as orjson does.
- ERR-8: msgspec stops at the interpreter's recursion limit (below orjson's 1024 when the limit
  is the default; probed before each file), so it never accepts nesting orjson refuses.
- The members read are typed `Any` (their exact JSON value, compared as the reader compares it)
  or `Raw` (decoded again only where the reader looks inside).

Giving up (`Fallback`, a rejection, or any error at all) means `reference.count_records_path`
reads the file again with the readable path, which then owns the answer, warning or rejection.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

import msgspec
import orjson

from .errors import E_LIMIT, E_READ, Notice, Rejection
from .jsontext import BOM, DEPTH_LIMIT

if TYPE_CHECKING:
    from .answer import RecordCount

_CHUNK = 1 << 20  # bytes read at a time; a longer line is read whole
_SPACE = b" \t\r\n"


Line = bytes | memoryview  # a line without its LF


class Fallback(Exception):
    """The fast path cannot answer with certainty; the readable path decides."""


Numbers = range | list[int]  # the line numbers of a block's lines


def blocks(stream: IO[bytes]) -> Iterator[tuple[Numbers, list[Line], bool]]:
    """The stream's lines, a block at a time: (the lines' numbers, the lines, whether the last
    line ended with LF).

    Lines are split on LF (and lose it) as `iter_values` splits them: a BOM is dropped from the
    first, a final line without LF is a line. Lines of whitespace only, which `iter_values`
    skips (JSV-1), are left out of a block whole runs at a time (`_filled`): a file of blank
    lines costs a scan of its bytes, not a step per line (issue 37). The bytes are read into
    one reused buffer: a fresh buffer per read, or Python's line iteration, costs page faults
    and copies that weigh more than the decoding. Short lines (pi's) are split out of a block
    in one call; long ones (Codex's compactions) are views of the buffer, never copied, so a
    block's lines are valid only until the next block is asked for.
    """
    buf = bytearray(_CHUNK)
    filled = 0
    first = 1
    short = True  # the previous block's lines were short
    while True:
        if filled == len(buf):  # a line longer than the buffer: a new, bigger one, by half
            bigger = bytearray(len(buf) * 3 // 2)  # (old and new are held while copying: JSV-4)
            bigger[:filled] = buf
            buf = bigger
        with memoryview(buf) as whole, whole[filled:] as room:
            got = stream.readinto(room)  # type: ignore[attr-defined]
        if not got:
            if filled:  # an unterminated final line
                yield range(first, first + 1), _first_line([bytes(buf[:filled])], first), False
            return
        filled += got
        end = buf.rfind(b"\n", 0, filled)
        if end < 0:
            continue
        lines = _split(buf, end) if short and end < _BIG else _views(buf, end)
        numbers: Numbers
        if _maybe_blank(lines, short):
            numbers, lines, count = _filled(buf, end, first, short)
        else:
            count = len(lines)
            numbers = range(first, first + count)
        short = end < _LONG * count
        if lines:
            yield numbers, _first_line(lines, numbers[0]), True
        first += count
        end += 1
        # Views of the buffer may still be held; moving bytes within it (same size) is allowed.
        buf[: filled - end] = buf[end:filled]
        filled -= end


_LONG = 2048  # bytes: lines longer than this on average are views, not copies
_BIG = 4 * _CHUNK  # a block this big (a long line came) is never copied whole: JSV-4's bound


def _split(buf: bytearray, end: int) -> list[Line]:
    with memoryview(buf) as whole, whole[:end] as block:
        return bytes(block).split(b"\n")  # type: ignore[return-value]


def _views(buf: bytearray, end: int) -> list[Line]:
    view = memoryview(buf)
    find = buf.find
    lines: list[Line] = []
    start = 0
    while start <= end:
        stop = find(b"\n", start, end + 1)
        lines.append(view[start:stop])
        start = stop + 1
    return lines


_WHITESPACE = re.compile(rb"[ \t\r\n]*")


def _maybe_blank(lines: list[Line], short: bool) -> bool:
    """Whether a line of the block may be whitespace only: one that is empty or starts with
    whitespace. Short lines: their least (`min`, compared in C) says it, since whitespace sorts
    below every byte a JSON text starts with; a line starting with a control byte can hide
    one, which `_read` then skips itself, as before. (A search for "\n " and the like in the
    block would cost a third of a second per 100 MB: two-byte searches are not memchr.)"""
    if short:
        least = min(lines)  # type: ignore[type-var]
        return not least or least[0] in _SPACE
    return any(not raw or raw[0] in _SPACE for raw in lines)


def _filled(buf: bytearray, end: int, first: int, short: bool) -> tuple[list[int], list[Line], int]:
    """The block's lines that are not whitespace only, with their numbers, and how many lines
    the block has. A run of whitespace (blank lines included) is skipped by one regex match,
    which runs through it in C."""
    view = memoryview(buf)
    numbers: list[int] = []
    lines: list[Line] = []
    find, count, skip = buf.find, buf.count, _WHITESPACE.match
    line, position, stop = first, 0, end + 1
    while position < stop:
        if buf[position] in _SPACE:  # a line that starts with whitespace, or is empty
            run = skip(buf, position, stop)  # always matches (a run of none or more)
            after = run.end() if run else position
            last = buf.rfind(b"\n", position, after)
            if last >= 0:  # whole lines of whitespace: skipped
                line += count(b"\n", position, last + 1)
                position = last + 1
                continue
        newline = find(b"\n", position, stop)
        numbers.append(line)
        lines.append(bytes(view[position:newline]) if short else view[position:newline])
        line += 1
        position = newline + 1
    return numbers, lines, line - first


def _first_line(lines: list[Line], first: int) -> list[Line]:
    if first == 1 and bytes(lines[0][: len(BOM)]) == BOM:
        lines[0] = lines[0][len(BOM) :]
    return lines


def blank(raw: Line) -> bool:
    """A line `iter_values` skips (JSV-1: whitespace only)."""
    return not bytes(raw).strip(_SPACE)


WHOLE: Any = object()  # `reduce` asks for the line's values whole


def records(
    stream: IO[bytes],
    decoder: list[msgspec.json.Decoder[Any]],
    notices: list[Notice],
    reduce: Callable[[Any], Any] | None = None,
    adopt: Callable[[Any], Any] | None = None,
) -> Iterator[tuple[int, Any]]:
    """`(line, record)` for every JSON value of the stream, as `iter_values` gives them, but
    most records decoded only as far as the reader reads them.

    The first record is whole (its host's header: the reader reads much of it). A line that
    `decoder[0]` (the reader may swap it as it goes) decodes is one value (msgspec refuses
    trailing bytes): its struct goes through `reduce` (none: the struct itself), which may ask
    for the line's values WHOLE. Every other line is read by `iter_values`' own rules (orjson,
    else the line is split into the values it holds, or skipped with a warning in `notices`, or
    rejected), and its values go through `adopt` (whole values, to what `reduce` gives).
    """
    seen = [False]
    for numbers, lines, terminated in blocks(stream):
        yield from _read(numbers, lines, terminated, decoder[0], notices, reduce, adopt, seen)


def record_blocks(
    stream: IO[bytes],
    decoder: list[msgspec.json.Decoder[Any]],
    notices: list[Notice],
    adopt: Callable[[Any], Any] | None = None,
) -> Iterator[tuple[Iterable[int], list[Any]]]:
    """`records` (without `reduce`) a block at a time: (the records' lines, the records).

    For many short lines (pi's): a block whose every line decodes is decoded in one list
    comprehension, the cheapest loop Python has; any other block is read as `records` reads it.
    """
    seen = [False]
    for numbers, lines, terminated in blocks(stream):
        if seen[0]:
            decode = decoder[0].decode
            try:
                values = [decode(raw) for raw in lines]
            except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
                pass
            else:
                yield numbers, values
                continue
        pairs = list(_read(numbers, lines, terminated, decoder[0], notices, None, adopt, seen))
        yield [line for line, _ in pairs], [value for _, value in pairs]


def _read(
    numbers: Numbers,
    lines: list[Line],
    terminated: bool,
    decoder: msgspec.json.Decoder[Any],
    notices: list[Notice],
    reduce: Callable[[Any], Any] | None,
    adopt: Callable[[Any], Any] | None,
    seen: list[bool],
) -> Iterator[tuple[int, Any]]:
    """The records of one block of lines (see `records`); `seen[0]`: the first was read."""
    last = numbers[-1]
    decode = decoder.decode
    for line, raw in zip(numbers, lines):  # noqa: B905 (as long: one number per line)
        try:
            value = decode(raw)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            if blank(raw):
                continue
            values = whole(raw, line, terminated or line < last, notices)
        else:
            if seen[0]:
                if reduce is None:
                    yield line, value
                    continue
                value = reduce(value)
                if value is not WHOLE:
                    yield line, value
                    continue
            values = whole(raw, line, terminated or line < last, notices)
        for value in values:
            if not seen[0]:
                seen[0] = True
                yield line, value
            else:
                yield line, value if adopt is None else adopt(value)


def whole(raw: Line, line: int, terminated: bool, notices: list[Notice]) -> list[Any]:
    """The values of one line, whole, exactly as `jsonvalues.iter_values` reads them."""
    from .jsontext import LONG_LINE
    from .jsonvalues import _split

    try:
        if len(raw) < LONG_LINE:  # a long one is split without orjson's costly error (JSV-4)
            return [orjson.loads(raw)]
    except orjson.JSONDecodeError as error:
        if "depth limit" in str(error):
            raise Rejection(
                line, E_LIMIT, f"JSON nested deeper than {DEPTH_LIMIT} levels"
            ) from None
    return [value for _, value in _split(raw, line, notices, terminated)]  # no copy: JSV-4


def depth_limit_holds(decode: Callable[[bytes], object]) -> bool:
    """ERR-8: `decode` must refuse nesting deeper than orjson's limit (msgspec stops at the
    interpreter's recursion limit; a raised limit, as under Hypothesis, may let it through)."""
    if sys.getrecursionlimit() > 10 * DEPTH_LIMIT:
        return False
    deep = b'{"x":' + b"[" * (DEPTH_LIMIT + 1) + b"]" * (DEPTH_LIMIT + 1) + b"}"
    try:
        decode(deep)
    except RecursionError:
        return True
    except msgspec.DecodeError:
        return True
    return False


# Why the last call gave up (None when it answered): for the tests and the benchmark.
last_fallback: str | None = None


def count_records_fast(
    path: str | os.PathLike[str],
    count_stream: Callable[[IO[bytes], list[Notice]], RecordCount],
) -> RecordCount | None:
    """The answer of a host's fast path (`count_stream` of codex_fast or pi_fast) for a file;
    None when the readable path must decide (any doubt at all). Raises OSError as the readable
    path would."""
    global last_fallback
    from .files import open_log

    last_fallback = None

    try:  # a `.jsonl.zst` is decompressed as a stream, with open_log's bounds (CDX-7, issue 37)
        with open_log(path) as stream:
            notices: list[Notice] = []
            result = count_stream(stream, notices)
        result.notices[:0] = notices
        return result
    except OSError:
        raise
    except Rejection as rejection:
        if rejection.line == 0 and rejection.code in (E_LIMIT, E_READ):
            # The file itself (a `.zst` past its bounds, or cut short, CDX-7): every line
            # before was read without doubt, so the readable path would stop at the same byte.
            raise
        last_fallback = f"rejection {rejection.code}"
    except Fallback as reason:
        last_fallback = str(reason) or "fallback"
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as error:
        last_fallback = f"decode: {error}"
    except RecursionError:
        last_fallback = "nesting"
    except Exception as error:  # never let a bug here change an answer: the readable path
        last_fallback = f"unexpected {type(error).__name__}: {error}"
    return None
