"""A deliberately wrong counter for the fuzzer's tests: it ignores `i` on kind-2 pushes.

It replays a log (kind 0 sets the state, kind 1 sets a path, kind 2 appends `v` to the array
at `k` whatever `i` says, kind 3 deletes), then counts like spec 2.0: per request the
summaries[] texts, the round summaries and provider ids, summary.text (each key once), a reboot
when the key changes; removal flags skip a request. So it is right on every log except where
`i` truncates or rewrites, e.g. after a compacted request is removed or retried. A `.json` file
is the state itself. The counting is tests/generators/v2_reading.py's, so only the replay is
wrong. Prints {"reboots": N}.

Usage: python fake_ignores_i.py PATH
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.generators import v2_reading  # after the path: it also runs as a script


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


def count(path: Path) -> int:
    """Replayed wrongly, then counted by the tests' own reading of spec 2.0 (v2_reading)."""
    data = path.read_bytes()
    state = json.loads(data) if path.suffix == ".json" else replay_ignoring_i(data)
    return v2_reading.count(state)


if __name__ == "__main__":
    print(json.dumps({"reboots": count(Path(sys.argv[1]))}))
