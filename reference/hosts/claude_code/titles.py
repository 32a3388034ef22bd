"""The title a person sees for a claude_code session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def given_name(value: dict[str, Any]) -> str | None:
    """A title row: the user's own (`custom-title`), else the generated one (`ai-title`, a
    resume-picker `summary`)."""
    for member in ("customTitle", "aiTitle", "summary"):
        text = value.get(member)
        if value.get("type") in ("custom-title", "ai-title", "summary") and isinstance(text, str):
            return text.strip() or None
    return None


def first_message(value: dict[str, Any]) -> str | None:
    """The first user message of the main thread that is text a person typed."""
    from ...core.titles import text_of

    message = value.get("message")
    if value.get("type") != "user" or value.get("isSidechain") or not isinstance(message, dict):
        return None
    if value.get("isMeta") or value.get("isCompactSummary"):
        return None
    return text_of(message.get("content"))
