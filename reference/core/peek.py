"""What the first bytes of a `.json` file show of its one document (HST-2, LEG-1).

Why: a `.json` file is one JSON document, and its host is told by the members its writer puts
there (VS Code's `requests`, Gemini CLI's `projectHash` and `messages`). HST-2 decides within
the first `PEEK` bytes (a VS Code session can be hundreds of megabytes), so the rows of the
`.json` hosts judge a *prefix view*: the document as far as the prefix shows it. A value that
ends inside the prefix is there whole; a container that runs past it is there with the members
or items that end inside it (two levels down: a top member's array and that array's objects);
a scalar that runs past it is left out.

The view is computed once per head and shared by every row that asks (`prefix_view`).
A document that the prefix already shows to be no JSON (a syntax error, `NaN`, nesting past
ERR-8's bound, nothing at all) is `broken`: HST-2 gives such a file to VS Code's rules, which
reject it with the code and line they always gave (`ERR-1`, `ERR-3`, `ERR-8`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

# How much of a file detection reads (HST-2): a VS Code log's first line can be hundreds of
# megabytes, and its first member is `kind`; every other host's first record is far shorter.
PEEK = 1 << 16
WHITESPACE = " \t\r\n"
DEPTH = 2  # how far down a container that runs past the prefix is opened (see the docstring)


class PrefixView:
    """A `.json` document as its first bytes show it.

    `state` is `whole` (the document ends inside the prefix: `value` is the parsed document),
    `partial` (it runs past: `value` is the prefix view), `broken` (no JSON, as far as the
    prefix shows; `value` is None) or `empty` (no value at all)."""

    __slots__ = ("state", "value")

    def __init__(self, state: str, value: Any = None) -> None:
        self.state = state
        self.value = value

    @property
    def document(self) -> bool:
        """Whether the prefix shows a JSON document (whole or running past the prefix)."""
        return self.state in ("whole", "partial")


_last: tuple[bytes, PrefixView] | None = None


def prefix_view(head: bytes, whole: bool | None = None) -> PrefixView:
    """The view of the document whose first bytes are `head`; `whole` when `head` is the whole
    file (by default: when it is shorter than HST-2's `PEEK`). The last answer is kept: every
    `.json` row of HST-2 asks about the same head."""
    global _last
    if _last is not None and _last[0] is head:
        return _last[1]
    if whole is None:
        whole = len(head) < PEEK
    view = _view(head, whole)
    _last = (head, view)
    return view


def _view(head: bytes, whole: bool) -> PrefixView:
    from .errors import Rejection
    from .jsontext import BOM, parse_json

    body = head[len(BOM) :] if head.startswith(BOM) else head
    if not body.strip(b" \t\r\n"):
        return PrefixView("empty" if whole else "broken")
    if whole:
        try:
            return PrefixView("whole", parse_json(body, 1))
        except Rejection:
            return PrefixView("broken")
    text = body.decode("utf-8", "replace")
    start = _skip(text, 0)
    try:
        value, end = _container(text, start, DEPTH)
    except _Broken:
        return PrefixView("broken")
    if end >= 0:  # it ended inside a longer file: only whitespace may follow (in the prefix)
        return (
            PrefixView("whole", value) if not text[end:].strip(WHITESPACE) else PrefixView("broken")
        )
    return PrefixView("partial", value)


class _Broken(Exception):
    """The prefix already shows that the document is no JSON."""


_DECODER: Any = None


def _decoder() -> Any:
    """The standard library's decoder, strict as the hosts' loaders are (HST-2: no `NaN`)."""
    global _DECODER
    if _DECODER is None:
        import json

        from .jsontext import js_int, reject_constant

        _DECODER = json.JSONDecoder(parse_constant=reject_constant, parse_int=js_int)
    return _DECODER


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in WHITESPACE:
        at += 1
    return at


def _container(text: str, at: int, depth: int) -> tuple[Any, int]:
    """The value that starts at `at`, and where it ends inside `text` (-1: it runs past). A
    container that runs past the prefix is returned with what of it ends inside (`depth` levels
    further down); a scalar that runs past is None."""
    decoder = _decoder()
    try:
        value, end = decoder.raw_decode(text, at)
        return value, int(end)
    except RecursionError:
        raise _Broken from None  # deeper than any parser here follows (ERR-8)
    except ValueError:
        pass
    opener = text[at : at + 1]
    if opener in ("{", "["):
        return (_open(text, at, depth) if depth >= 0 else None), -1
    if _runs_out(text, at):
        return None, -1
    raise _Broken


def _open(text: str, at: int, depth: int) -> Any:
    """The members or items of the container opened at `at` that end inside `text` (which
    ends inside it: `raw_decode` could not read it whole)."""
    is_object = text[at] == "{"
    found: Any = {} if is_object else []
    at = _skip(text, at + 1)
    while at < len(text):
        key = None
        if is_object:
            if text[at] != '"':
                raise _Broken
            try:
                key, at = _string(text, at)
            except _RunsOut:
                return found
            at = _skip(text, at)
            if at >= len(text):
                return found
            if text[at] != ":":
                raise _Broken
            at = _skip(text, at + 1)
            if at >= len(text):
                return found
        value, end = _container(text, at, depth - 1)
        if value is not None or end >= 0:
            _put(found, key, value)
        if end < 0:
            return found
        at = _skip(text, end)
        if at < len(text) and text[at] != ",":
            raise _Broken  # its closing bracket would have let raw_decode read it whole
        at = _skip(text, at + 1)
    return found


def _put(found: Any, key: str | None, value: Any) -> None:
    if key is None:
        found.append(value)
    else:
        found[key] = value


class _RunsOut(Exception):
    """A string runs past the prefix."""


def _string(text: str, at: int) -> tuple[str, int]:
    """The member name that starts at `at` (a `"`), and where it ends."""
    import json

    try:
        value, end = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
    except ValueError:
        if _runs_out(text, at):
            raise _RunsOut from None
        raise _Broken from None
    return str(value), int(end)


def _runs_out(text: str, at: int) -> bool:
    """Whether a value that starts at `at` and does not parse may just be cut by the prefix:
    a string with no closing quote, or a number or literal at the very end."""
    if text[at : at + 1] == '"':
        closing = at + 1
        while True:
            closing = text.find('"', closing)
            if closing < 0:
                return True
            backslashes = 0
            while text[closing - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return False
            closing += 1
    tail = text[at:]
    return all(char in "-+.eE0123456789truefalsn" for char in tail)
