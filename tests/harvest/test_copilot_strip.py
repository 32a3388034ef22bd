"""GitHub's prompt text out of a harvested Copilot CLI file (generators/harvest/copilot_strip.py).

The stripped file must hold no long string in `system.message` or `model.*` events, and every
other line must be the CLI's own bytes, so the count (CPL-3) cannot depend on the stripping.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebootspec.generators.harvest.copilot_strip import KEEP, PLACEHOLDER, strip

HARVESTED = Path(__file__).resolve().parents[2] / "generators" / "harvest" / "harvested"
PROMPT = "You are a terminal assistant. " * 20  # stands for the CLI's own system prompt


def line(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def test_prompt_text_is_replaced_and_other_lines_are_kept_byte_for_byte() -> None:
    start = (
        b'{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.102"}, "id":"a"}'
    )
    system = line({"type": "system.message", "data": {"role": "system", "content": PROMPT}})
    call = {"kind": "model_call_success", "requestMessages": json.dumps([{"content": PROMPT}])}
    model = line({"type": "model.model_call_success", "data": call, "id": "c"})
    complete = line(
        {"type": "session.compaction_complete", "data": {"success": True, "summaryContent": PROMPT}}
    )
    data = b"\n".join([start, system, model, complete, b"{torn"])
    out, count = strip(data)
    lines = out.split(b"\n")
    assert count == 2
    assert lines[0] == start and lines[3] == complete and lines[4] == b"{torn"
    assert json.loads(lines[1])["data"] == {"role": "system", "content": PLACEHOLDER}
    assert json.loads(lines[2])["data"]["requestMessages"] == PLACEHOLDER
    assert json.loads(lines[2])["data"]["kind"] == "model_call_success"  # short strings stay


@pytest.mark.skipif(not HARVESTED.is_dir(), reason="no harvested files in this checkout")
def test_no_committed_copilot_file_holds_long_prompt_strings() -> None:
    files = sorted(HARVESTED.glob("copilot-cli-*/*.jsonl"))
    assert files
    for path in files:
        for raw in path.read_bytes().splitlines():
            value = json.loads(raw)
            if value["type"] == "system.message" or value["type"].startswith("model."):
                text = json.dumps(value["data"])
                strings = [s for s in _strings(value["data"]) if len(s) > KEEP]
                assert strings == [], (path.name, text[:80])
        assert b"GitHub Copilot CLI, a terminal assistant" not in path.read_bytes()


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    return []
