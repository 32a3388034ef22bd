"""Feature tags a written log shows, read off its lines.

Tags such as push-truncate or set-without-v describe the bytes, so they are detected from the
bytes rather than declared by hand (a scenario cannot claim a shape its file lacks). This never
touches the expected count.
"""

from __future__ import annotations

import orjson

# The rule each detected shape exercises.
SHAPE_RULES = {
    "later-initial": "RPL-4",
    "initial-only": "RPL-4",
    "set-without-v": "RPL-6",
    "push-index": "RPL-7",
    "push-truncate": "RPL-7",
    "delete": "RPL-8",
}


def log_shapes(data: bytes) -> set[str]:
    """The shape tags of a `.jsonl` log (lines that do not parse, a torn tail, are skipped)."""
    found: set[str] = set()
    lines = [line for line in data.split(b"\n") if line]
    for number, raw in enumerate(lines, start=1):
        try:
            entry = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        kind = entry.get("kind")
        if kind == 0 and number > 1:
            found.add("later-initial")
        elif kind == 1:
            found.add("set" if "v" in entry else "set-without-v")
        elif kind == 2:
            if "i" not in entry:
                found.add("push-append")
            else:
                found.add("push-index" if "v" in entry else "push-truncate")
        elif kind == 3:
            found.add("delete")
    if len(lines) == 1:
        found.add("initial-only")
    return found
