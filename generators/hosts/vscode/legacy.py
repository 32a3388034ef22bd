"""The legacy flat `.json` shape (VS Code <= 1.108): ChatModel.toJSON(), member order included.

The flat file is the whole model on every save, so it has no history: requests carry
`isCanceled` (a boolean) instead of `modelState`, and the top level has the requester fields
and `lastMessageDate`. Facts: LEG-1; VS Code's `chatModel.ts` (`toJSON`) and the flat
writer of `chatSessionStore.ts`, as of 1.108.
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
    "isHidden",
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


# ChatModel.toExport() request members (ISerializableChatRequestData without the session ones).
EXPORT_REQUEST_ORDER = (
    "requestId",
    "message",
    "variableData",
    "response",
    "shouldBeRemovedOnSend",
    "agent",
    "timestamp",
    "modelId",
    "responseId",
    "result",
    "followups",
    "modelState",
    "vote",
    "voteDownReason",
    "slashCommand",
    "usedContext",
    "contentReferences",
    "codeCitations",
    "timeSpentWaiting",
)


def to_export(state: dict[str, Any], old: bool = False) -> dict[str, Any]:
    """LEG-3 (VS Code's `chatImportExport.ts` and `ChatModel.toExport` of `chatModel.ts`):
    `JSON.stringify(model.toExport(), undefined, 2)`: `responderUsername`, `initialLocation`,
    `requests` (older copies also the requester and avatar fields); no version, sessionId,
    creationDate or customTitle. Requests keep the whole response, the result and
    `shouldBeRemovedOnSend`."""
    requests = [
        {name: r[name] for name in EXPORT_REQUEST_ORDER if name in r}
        for r in state.get("requests", [])
    ]
    if old:
        return {
            "requesterUsername": "dev",
            "requesterAvatarIconUri": AVATAR,
            "responderUsername": state["responderUsername"],
            "responderAvatarIconUri": {"id": "copilot"},
            "initialLocation": state["initialLocation"],
            "requests": requests,
        }
    return {
        "responderUsername": state["responderUsername"],
        "initialLocation": state["initialLocation"],
        "requests": requests,
    }
