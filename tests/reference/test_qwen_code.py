"""Qwen Code's rows of HST-2 and the decisions of QWN-3..QWN-8 on small hand-made files.

The corpus cases (generators/hosts/qwen_code) carry the scenarios; these pin the edges a person
reads off the spec: which neighbour's file each mark keeps out, and which compression records
are no reboot. Every expected value is read from the spec chapter, never from the reference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.core.registry import detect

ACK = "Got it. Thanks for the additional context!"
SID = "22b6968b-bd96-4533-888e-2ebabbaeed6a"


def write(tmp_path: Path, records: list[Any], name: str = "session.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def record(n: int, kind: str, **extra: Any) -> dict[str, Any]:
    base = {
        "uuid": f"00000000-0000-4000-8000-{n:012d}",
        "parentUuid": None if n == 0 else f"00000000-0000-4000-8000-{n - 1:012d}",
        "sessionId": SID,
        "timestamp": "2026-07-14T09:00:00.000Z",
        "type": kind,
        "cwd": "/home/dev/p",
        "version": "0.24.4",
    }
    return {**base, **extra}


def prompt(n: int, text: str = "fix the parser") -> dict[str, Any]:
    return record(n, "user", message={"role": "user", "parts": [{"text": text}]})


def compression(
    n: int, first: str, second: str = ACK, status: Any = 1, **extra: Any
) -> dict[str, Any]:
    history = [
        {"role": "user", "parts": [{"text": first}]},
        {"role": "model", "parts": [{"text": second}]},
    ]
    payload = {"info": {"compressionStatus": status}, "compressedHistory": history}
    return record(n, "system", subtype="chat_compression", systemPayload=payload, **extra)


def reboots(path: Path) -> int:
    host = detect(path)
    assert host.key == "qwen-code"
    return host.count(str(path)).reboots


# HST-2, QWN-1 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "host"),
    [
        (
            {
                "uuid": "u",
                "sessionId": "s",
                "type": "user",
                "message": {"role": "user", "parts": []},
            },
            "qwen-code",
        ),
        ({"uuid": "u", "sessionId": "s", "type": "tool_result"}, "qwen-code"),
        ({"uuid": "u", "sessionId": "s", "type": "system", "systemPayload": {}}, "qwen-code"),
        ({"uuid": "u", "sessionId": "s", "type": "assistant", "usageMetadata": {}}, "qwen-code"),
        # Claude Code's records: `userType`, Anthropic `content`, no parts, no systemPayload
        (
            {
                "uuid": "u",
                "sessionId": "s",
                "type": "user",
                "userType": "external",
                "message": {"role": "user", "content": "hi"},
            },
            "claude-code",
        ),
        (
            {
                "uuid": "u",
                "sessionId": "s",
                "type": "system",
                "userType": "external",
                "subtype": "compact_boundary",
            },
            "claude-code",
        ),
    ],
)
def test_the_first_record_decides(tmp_path: Path, first: dict[str, Any], host: str) -> None:
    assert detect(write(tmp_path, [first])).key == host


def _chat(reply_type: str) -> dict[str, Any]:
    return {
        "sessionId": SID,
        "projectHash": "5c3f",
        "startTime": "2025-08-20T09:00:00.000Z",
        "lastUpdated": "2025-08-20T09:01:00.000Z",
        "messages": [
            {"id": "m1", "timestamp": "2025-08-20T09:00:00.000Z", "type": "user", "content": "hi"},
            {
                "id": "m2",
                "timestamp": "2025-08-20T09:00:30.000Z",
                "type": reply_type,
                "content": "ok",
            },
        ],
    }


def test_a_q0_chat_is_qwen_s_and_unmeasurable_a_j0_chat_gemini_s(tmp_path: Path) -> None:
    qwen = tmp_path / "session-2025-08-20T09-00-22b6968b.json"
    qwen.write_text(json.dumps(_chat("qwen"), indent=2))
    host = detect(qwen)
    assert host.key == "qwen-code"
    with pytest.raises(Rejection) as raised:
        host.count(str(qwen))
    assert (raised.value.code, raised.value.line) == ("E-UNMEASURABLE", 0)
    gemini = tmp_path / "session-2025-08-20T09-00-aaaaaaaa.json"
    gemini.write_text(json.dumps(_chat("gemini"), indent=2))
    assert detect(gemini).key == "gemini-cli"


# QWN-3, QWN-4 ---------------------------------------------------------------------------------


def test_only_status_1_counts(tmp_path: Path) -> None:
    records = [
        prompt(0),
        compression(1, "summary one", status=2),
        compression(2, "summary two", status=True),
        compression(3, "summary three", status="1"),
        compression(4, "summary four", status=1.0),
    ]
    assert reboots(write(tmp_path, records)) == 1


def test_compress_fast_before_and_after_a_summary_is_no_reboot(tmp_path: Path) -> None:
    records = [
        prompt(0),
        record(1, "assistant", message={"role": "model", "parts": [{"text": "done"}]}),
        compression(2, "fix the parser", second="done"),  # fast: the first prompt and answer
        compression(3, "<state_snapshot>A</state_snapshot>"),  # a summary
        compression(4, "<state_snapshot>A</state_snapshot>"),  # fast after it: the same head
        compression(5, "summary without the element"),  # a summary all the same
    ]
    assert reboots(write(tmp_path, records)) == 2


def test_a_record_without_a_history_or_with_a_short_one_is_no_reboot(tmp_path: Path) -> None:
    short = compression(1, "s")
    short["systemPayload"]["compressedHistory"] = short["systemPayload"]["compressedHistory"][:1]
    missing = compression(2, "t")
    del missing["systemPayload"]["compressedHistory"]
    assert reboots(write(tmp_path, [prompt(0), short, missing])) == 0


# QWN-6, QWN-7, QWN-8 --------------------------------------------------------------------------


def test_fork_copies_are_inherited_and_their_summary_is_seen(tmp_path: Path) -> None:
    fork = {"sessionId": "parent", "messageUuid": "x"}
    records = [
        {**prompt(0), "forkedFrom": fork},
        compression(1, "parent summary", forkedFrom=fork),
        compression(2, "parent summary"),  # the fork's /compress-fast keeps it at its head
        compression(3, "own summary"),
    ]
    assert reboots(write(tmp_path, records)) == 1


def test_sidechain_records_do_not_count_and_a_subagent_file_is_unmeasurable(tmp_path: Path) -> None:
    side = {"isSidechain": True, "agentId": "explore-1"}
    main = write(tmp_path, [prompt(0), compression(1, "sub summary", **side)], "main.jsonl")
    assert reboots(main) == 0
    sub = write(tmp_path, [{**prompt(0), **side}, record(1, "tool_result", **side)], "agent.jsonl")
    host = detect(sub)
    with pytest.raises(Rejection) as raised:
        host.count(str(sub))
    assert raised.value.code == "E-UNMEASURABLE"


def test_a_compression_off_the_live_chain_still_counts(tmp_path: Path) -> None:
    rewind = record(
        3, "system", subtype="rewind", parentUuid=None, systemPayload={"truncatedCount": 2}
    )
    records = [prompt(0), compression(1, "summary"), prompt(2), rewind, prompt(4, "again")]
    assert reboots(write(tmp_path, records)) == 1
