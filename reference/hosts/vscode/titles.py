"""The title a person sees for a vscode session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def title_of(state: dict[str, Any]) -> str:
    """The title VS Code shows (`customTitle`), else the first request's message."""
    title = state.get("customTitle")
    if isinstance(title, str) and title.strip():
        return title
    requests = state.get("requests")
    if isinstance(requests, list) and requests and isinstance(requests[0], dict):
        message = requests[0].get("message")
        if isinstance(message, dict) and isinstance(message.get("text"), str):
            return str(message["text"])
    return ""
