"""The title a person sees for a qwen_code session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def given_name(value: dict[str, Any]) -> str | None:
    """A `custom_title` record (`/rename`, or generated): the last one wins."""
    payload = value.get("systemPayload")
    if value.get("subtype") != "custom_title" or not isinstance(payload, dict):
        return None
    text = payload.get("customTitle")
    return text.strip() or None if isinstance(text, str) else None


def first_message(value: dict[str, Any]) -> str | None:
    """The first prompt a person typed: a main-thread `user` record with no subtype, its
    `displayText` (0.24) or the text of its `message.parts`."""
    from ...core.titles import text_of

    if value.get("type") != "user" or value.get("subtype") is not None:
        return None
    if value.get("isSidechain") is True:
        return None
    payload = value.get("systemPayload")
    if isinstance(payload, dict) and isinstance(payload.get("displayText"), str):
        return payload["displayText"].strip() or None
    message = value.get("message")
    return text_of(message.get("parts")) if isinstance(message, dict) else None
