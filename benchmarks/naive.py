"""A naive counter in the style of the seed script: the json module, the whole file in memory,
a deep copy of every value it applies, every patch applied.

It is a baseline for speed and memory, not a counter to trust: it follows the spec's replay only
as far as the seed script's authors would have (it honours `i`, so it does the same work).
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any


def _apply(state: dict[str, Any], entry: dict[str, Any]) -> None:
    keys = entry.get("k", [])
    if not keys:
        return
    target: Any = state
    for key in keys[:-1]:
        target = target[key]
    last = keys[-1]
    if entry["kind"] == 1:
        if "v" in entry:
            if isinstance(target, list) and last >= len(target):
                target.append(copy.deepcopy(entry["v"]))
            else:
                target[last] = copy.deepcopy(entry["v"])
        elif isinstance(target, dict):
            target.pop(last, None)
    elif entry["kind"] == 2:
        array = target.get(last) if isinstance(target, dict) else target[last]
        array = array if isinstance(array, list) else []
        if "i" in entry:
            del array[entry["i"] :]
        array.extend(copy.deepcopy(entry.get("v") or []))
        target[last] = array
    elif entry["kind"] == 3 and isinstance(target, dict):
        target.pop(last, None)


def main(path: str) -> int:
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    state: dict[str, Any] = {}
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry["kind"] == 0:
            state = copy.deepcopy(entry["v"])
        else:
            _apply(state, entry)
    done = {"Compacted conversation", "Summarized conversation history"}
    reboots = 0
    previous = None
    for request in state.get("requests", []):
        parts = request.get("response") or []
        if any(
            isinstance(p, dict) and (p.get("content") or {}).get("value") in done for p in parts
        ):
            metadata = (request.get("result") or {}).get("metadata") or {}
            text = (metadata.get("summary") or {}).get("text")
            if text and text != previous:
                reboots += 1
                previous = text
    print(reboots)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
