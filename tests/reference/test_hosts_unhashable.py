"""A record member the readers look up in a set of names may be any JSON value; an object or
an array there must not crash the reference (PRO-2: no input ever produces exit 70).

Found by the fast-path equality tests (issue 22 item 7): today the readable readers test
`kind in frozenset(...)` on such values and raise TypeError (unhashable), so `count` exits 70.
Both paths do the same (the fast path gives up and the readable path crashes), so the answer
is consistent, but wrong; the readers now read only string names.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rebootspec.reference.cli import main

META = (
    b'{"timestamp":"2026-03-01T10:00:00.000Z","type":"session_meta","payload":'
    b'{"id":"01a21063-d0e0-7e93-b95f-905668d942da","cli_version":"0.111.0"}}\n'
)
PI_HEAD = b'{"type":"session","version":3,"id":"s","timestamp":"2026-03-02T10:00:00.000Z"}\n'
CLAUDE_HEAD = (
    b'{"type":"user","userType":"external","uuid":"u1","sessionId":"s","message":{"role":"user"}}\n'
)
CASES = {
    "codex-event-type-object": META + b'{"type":"event_msg","payload":{"type":{}}}\n',
    "codex-response-item-type-array": META + b'{"type":"response_item","payload":{"type":[]}}\n',
    "codex-history-item-type-object": META
    + b'{"type":"compacted","payload":{"replacement_history":[{"type":{}}]}}\n',
    "pi-entry-type-object": PI_HEAD + b'{"type":{},"id":"a","parentId":null}\n',
    "pi-compaction-id-object": PI_HEAD + b'{"type":"compaction","id":{},"parentId":null}\n',
    "claude-type-array": CLAUDE_HEAD + b'{"type":[],"uuid":"u2","sessionId":"s"}\n',
    "claude-subtype-object": CLAUDE_HEAD
    + b'{"type":"system","subtype":{},"uuid":"u3","sessionId":"s"}\n',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_object_where_a_name_is_expected_is_counted_not_crashed(
    name: str, tmp_path: Path
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(CASES[name])
    out, err = io.StringIO(), io.StringIO()
    assert main(["count", "--readable", str(path)], out, err) == 0, err.getvalue()
