"""GitHub's prompt text out of a harvested Copilot CLI file, in a way no count depends on.

The Copilot CLI writes its own system prompt into the session file: whole in each
`system.message` event, and again inside the `model.*` events of a summary call (the request's
messages, a snapshot of the message list). That text is GitHub's and is not redistributed, so
before a harvested file is committed every string value longer than `KEEP` characters inside
the `data` of those events is replaced by `PLACEHOLDER`. Those events are never counted and no
rule reads them (CPL-4), and every other line is kept byte for byte, so the count of the file is
the count of the file the CLI wrote. A changed line is written again as compact JSON with its
members in their order.

    python -m rebootspec.generators.harvest.copilot_strip IN OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

KEEP = 150  # a longer string in those events is prompt text (the scripted texts are shorter)
PLACEHOLDER = "[removed by the rebootspec harvest: GitHub's prompt text]"


def _prompt_event(value: Any) -> bool:
    kind = value.get("type") if isinstance(value, dict) else None
    return isinstance(kind, str) and (kind == "system.message" or kind.startswith("model."))


def _replace(value: Any) -> tuple[Any, int]:
    """`value` with every long string replaced, and how many were."""
    if isinstance(value, str):
        return (PLACEHOLDER, 1) if len(value) > KEEP else (value, 0)
    if isinstance(value, list):
        pairs = [_replace(item) for item in value]
        return [item for item, _ in pairs], sum(n for _, n in pairs)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        total = 0
        for key, item in value.items():
            out[key], count = _replace(item)
            total += count
        return out, total
    return value, 0


def strip(data: bytes) -> tuple[bytes, int]:
    """The file with the prompt text replaced, and how many strings were replaced."""
    lines = data.split(b"\n")
    total = 0
    for index, raw in enumerate(lines):
        if b'"type":"system.message"' not in raw and b'"type":"model.' not in raw:
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            continue  # not one event (damage is kept as it is)
        if not _prompt_event(value):
            continue
        data_member, count = _replace(value.get("data"))
        if count:
            value["data"] = data_member
            lines[index] = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
            total += count
    return b"\n".join(lines), total


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python -m rebootspec.generators.harvest.copilot_strip IN OUT\n")
        return 2
    stripped, count = strip(Path(argv[0]).read_bytes())
    Path(argv[1]).write_bytes(stripped)
    print(f"{count} strings of prompt text replaced")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
