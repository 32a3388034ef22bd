"""The title a person sees for a gemini_cli session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def full_id(path: str) -> str | None:
    """The `sessionId` of the chat's first record (a small metadata record), or None."""
    from ...core.files import open_log
    from ...core.jsontext import BOM

    try:
        with open_log(path) as stream:
            head = stream.read(1 << 16)
    except Exception:
        return None
    body = head[len(BOM) :] if head.startswith(BOM) else head
    try:
        import orjson

        value = orjson.loads(body.lstrip().split(b"\n", 1)[0])
    except (orjson.JSONDecodeError, ValueError):
        return None
    ident = value.get("sessionId") if isinstance(value, dict) else None
    return ident if isinstance(ident, str) and ident else None


def first_message(value: dict[str, Any]) -> str | None:
    """The first user message (not a history snapshot, GEM-3)."""
    from ...core.titles import text_of

    if value.get("type") != "user":
        return None
    return text_of(value.get("content"))
