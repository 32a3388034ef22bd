"""A deliberately wrong counter for the fuzzer's tests: it ignores `i` on kind-2 pushes.

It replays a log (kind 0 sets the state, kind 1 sets a path, kind 2 appends `v` to the array
at `k` whatever `i` says, kind 3 deletes), then counts like spec 2.0: per request the
summaries[] texts, the round summaries and provider ids, summary.text (each key once), a reboot
when the key changes; removal flags skip a request. So it is right on every log except where
`i` truncates or rewrites, e.g. after a compacted request is removed or retried. A `.json` file
is the state itself. Prints {"reboots": N}.

Usage: python fake_ignores_i.py PATH
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def replay_ignoring_i(data: bytes) -> Any:
    state: Any = None
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except ValueError:
            continue  # a torn last line
        kind, path = entry.get("kind"), entry.get("k", [])
        if kind == 0:
            state = entry["v"]
            continue
        parent = state
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1] if path else None
        if kind == 1 and last is not None:
            if "v" in entry:
                parent[last] = entry["v"]
            elif isinstance(parent, dict):
                parent.pop(last, None)
        elif kind == 2:
            target = parent[last] if last is not None else parent
            if target is None:
                target = parent[last] = []
            target.extend(entry.get("v", []))  # `i` ignored: the bug
        elif kind == 3 and last is not None and isinstance(parent, dict):
            parent.pop(last, None)
    return state


def events(request: dict[str, Any]) -> list[tuple[str, str]]:
    metadata = (request.get("result") or {}).get("metadata") or {}
    keys: list[tuple[str, str]] = []
    for entry in metadata.get("summaries") or []:
        if entry.get("text"):
            keys.append(("text", entry["text"]))
    for item in metadata.get("toolCallRounds") or []:
        if item.get("summary"):
            keys.append(("text", item["summary"]))
        if (item.get("compaction") or {}).get("id"):
            keys.append(("provider", item["compaction"]["id"]))
    text = (metadata.get("summary") or {}).get("text")
    if text:
        keys.append(("text", text))
    return list(dict.fromkeys(keys))


def removed(request: dict[str, Any]) -> bool:
    flag = request.get("shouldBeRemovedOnSend")
    if request.get("isHidden"):
        return True
    return bool(flag) and not (isinstance(flag, dict) and flag.get("afterUndoStop"))


def count(path: Path) -> int:
    data = path.read_bytes()
    state = json.loads(data) if path.suffix == ".json" else replay_ignoring_i(data)
    reboots: int = 0
    previous: tuple[str, str] | None = None
    for request in state.get("requests") or []:
        if not isinstance(request, dict) or removed(request):
            continue
        for key in events(request):
            if key != previous:
                reboots += 1
            previous = key
    return reboots


if __name__ == "__main__":
    print(json.dumps({"reboots": count(Path(sys.argv[1]))}))
