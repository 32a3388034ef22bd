"""A deliberately wrong counter for the fuzzer's tests: it ignores `i` on kind-2 pushes.

It replays a log (kind 0 sets the state, kind 1 sets a path, kind 2 appends `v` to the array
at `k` whatever `i` says, kind 3 deletes), then counts like the spec: summaries[] if present
else summary.text, on requests with a completed marker, a reboot when the text changes. So it
is right on every log except where `i` truncates or rewrites, e.g. after a compacted request
is removed or retried. A `.json` file is the state itself. Prints {"reboots": N}.

Usage: python fake_ignores_i.py PATH
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

MARKER_KINDS = {"progressTaskSerialized", "progressTask"}
COMPLETED = {"Summarized conversation history", "Compacted conversation"}


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


def summaries(request: dict[str, Any]) -> list[str]:
    metadata = (request.get("result") or {}).get("metadata") or {}
    if isinstance(metadata.get("summaries"), list):
        return [s.get("text") for s in metadata["summaries"] if s.get("text")]
    text = (metadata.get("summary") or {}).get("text")
    return [text] if text else []


def is_compaction(request: dict[str, Any]) -> bool:
    for part in request.get("response") or []:
        value = (part.get("content") or {}).get("value") if isinstance(part, dict) else None
        if part.get("kind") in MARKER_KINDS and value in COMPLETED:
            return True
        if "kind" not in part and part.get("value") == "Compacted conversation.":
            return True
    return False


def count(path: Path) -> int:
    data = path.read_bytes()
    state = json.loads(data) if path.suffix == ".json" else replay_ignoring_i(data)
    reboots, previous = 0, None
    for request in state.get("requests") or []:
        if not isinstance(request, dict) or not is_compaction(request):
            continue
        for text in summaries(request):
            if text != previous:
                reboots += 1
            previous = text
    return reboots


if __name__ == "__main__":
    print(json.dumps({"reboots": count(Path(sys.argv[1]))}))
