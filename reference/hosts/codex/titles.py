"""The title a person sees for a codex session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def first_message(value: dict[str, Any]) -> str | None:
    """The text of the first `user_message` event (the prompt the user typed)."""
    payload = value.get("payload")
    if value.get("type") != "event_msg" or not isinstance(payload, dict):
        return None
    message = payload.get("message")
    if payload.get("type") == "user_message" and isinstance(message, str):
        return message or None
    return None
