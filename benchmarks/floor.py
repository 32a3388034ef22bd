"""The floor: read every line and parse it with orjson, nothing else (no counter can do less).

Several paths: every line of each (a Cline task's two message documents, one line each)."""

from __future__ import annotations

import sys

import orjson


def main(*paths: str) -> int:
    for path in paths:
        with open(path, "rb") as stream:
            for raw in stream:
                if raw != b"\n":
                    orjson.loads(raw)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
