"""The title a person sees for a pi session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def given_name(value: dict[str, Any]) -> str | None:
    """A name the user gave the session (`session_info`); the last one is the one shown."""
    name = value.get("name")
    if value.get("type") == "session_info" and isinstance(name, str) and name.strip():
        return name
    return None


def first_message(value: dict[str, Any]) -> str | None:
    from ...core.titles import text_of

    message = value.get("message")
    if value.get("type") != "message" or not isinstance(message, dict):
        return None
    if message.get("role") != "user":
        return None
    return text_of(message.get("content"))
