"""The legacy flat `.json` shape (VS Code <= 1.108): ChatModel.toJSON(), member order included.

The flat file is the whole model on every save, so it has no history: requests carry
`isCanceled` (a boolean) instead of `modelState`, and the top level has the requester fields
and `lastMessageDate`. Facts: research/vscode-format.md section 3.
"""

from __future__ import annotations

from typing import Any

AVATAR = {
    "$mid": 1,
    "path": "/u/583231",
    "scheme": "https",
    "authority": "avatars.githubusercontent.com",
    "query": "v=4",
}
REQUEST_ORDER = (
    "requestId",
    "message",
    "variableData",
    "response",
    "responseId",
    "shouldBeRemovedOnSend",
    "result",
    "followups",
    "isCanceled",
    "vote",
    "voteDownReason",
    "agent",
    "slashCommand",
    "usedContext",
    "contentReferences",
    "codeCitations",
    "timestamp",
    "modelId",
)


def _legacy_request(request: dict[str, Any]) -> dict[str, Any]:
    source = dict(request)
    state = source.get("modelState", {})
    source["isCanceled"] = isinstance(state, dict) and state.get("value") == 2
    return {name: source[name] for name in REQUEST_ORDER if name in source}


def to_legacy(state: dict[str, Any]) -> dict[str, Any]:
    """The flat session a pre-1.109 VS Code would have written for this live state."""
    requests = [_legacy_request(r) for r in state.get("requests", [])]
    last = max((r["timestamp"] for r in requests), default=state["creationDate"])
    out: dict[str, Any] = {
        "version": 3,
        "requesterUsername": "dev",
        "requesterAvatarIconUri": {
            "$mid": 1,
            "path": "/u/583231",
            "scheme": "https",
            "authority": "avatars.githubusercontent.com",
            "query": "v=4",
        },
        "responderUsername": state["responderUsername"],
        "responderAvatarIconUri": {"id": "copilot"},
        "initialLocation": state["initialLocation"],
        "requests": requests,
        "sessionId": state["sessionId"],
        "creationDate": state["creationDate"],
        "isImported": False,
        "lastMessageDate": last,
    }
    if "customTitle" in state:
        out["customTitle"] = state["customTitle"]
    return out
