"""The Gemini CLI reader on hand-built chats (spec/hosts/gemini-cli.md, GEM-1..GEM-8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.registry import detect, first_row

GEMINI = "gemini-cli"
VSCODE = "vscode"

META = {"sessionId": "5b0f8a52-aaaa", "projectHash": "ab" * 32, "startTime": "t", "kind": "main"}
CONTEXT = {"id": "ctx", "type": "user", "content": [{"text": "<session_context>\nenv\n"}]}


def snap(ident: str, text: str = "work so far") -> dict[str, Any]:
    return {
        "id": ident,
        "type": "user",
        "content": [{"text": f"<state_snapshot>\n{text}\n</state_snapshot>"}],
    }


def history(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"$set": {"messages": [CONTEXT, *messages], "lastUpdated": "t"}}


def user(ident: str, text: str = "fix the parser") -> dict[str, Any]:
    return {"id": ident, "type": "user", "content": [{"text": text}]}


def write(tmp_path: Path, *records: Any, name: str = "chat.jsonl", tail: bytes = b"") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records) + tail)
    return path


def count(path: Path) -> RecordCount:
    result = count_path(path)
    assert isinstance(result, RecordCount)
    return result


def test_metadata_record_is_gemini_even_with_kind() -> None:
    assert first_row(META).key == GEMINI  # GEM-1: checked before VS Code's `kind` row
    assert first_row({"kind": 0, "v": {"sessionId": "x", "projectHash": "y"}}).key == VSCODE


def test_new_snapshots_count_and_start_sync_does_not(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META,
        history(),
        user("u1"),
        history(user("u1")),
        history(snap("s1"), user("u2")),
        user("u3"),
        history(snap("s2", "later"), user("u3")),
    )
    result = count(path)
    assert result.reboots == 2 and result.host == "gemini-cli" and result.era == "G1"
    assert [e["line"] for e in result.events] == [5, 7]
    assert [n.code for n in result.notices] == ["W-INDIRECT"]  # GEM-6


def test_resume_and_rewind_repeat_the_same_id(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META,
        history(),
        history(snap("s1"), user("u2")),
        META,  # the resume's fresh start
        history(),
        {"$set": {"sessionId": "5b0f8a52-aaaa"}},
        history(snap("s1"), user("u2")),
        history(snap("s2"), user("u3")),
        {"$rewindTo": "u3"},
        history(snap("s1"), user("u2")),  # an older snapshot shown again: seen before
    )
    assert count(path).reboots == 2


def test_equal_text_under_new_ids_counts_each(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META,
        history(snap("a1", "A")),
        history(snap("b1", "B")),
        history(snap("a2", "A")),
    )
    assert count(path).reboots == 3  # GEM-4: A, B, A'


def test_masking_and_user_text_are_not_snapshots(tmp_path: Path) -> None:
    masked = {"id": "r1", "type": "user", "content": [{"functionResponse": {"name": "x"}}]}
    quoting = user("u1", "please explain <state_snapshot> to me")
    path = write(
        tmp_path,
        META,
        history(user("u0", "hello"), quoting),  # the snapshot must be the first user message
        history(user("u0", "hello"), masked),
        {"id": "i1", "type": "info", "content": ""},  # /compress's empty info: a companion
        snap("s9"),  # a message record holding a snapshot: a companion
    )
    result = count(path)
    assert result.reboots == 0 and result.companions == 2


def test_without_snapshot_ids_the_text_decides(tmp_path: Path) -> None:
    a = {"type": "user", "content": "<state_snapshot>A</state_snapshot>"}
    path = write(
        tmp_path, META, history(a), history(a), history({**a, "content": "<state_snapshot>B"})
    )
    assert count(path).reboots == 2


def test_no_history_sync_is_unmeasurable(tmp_path: Path) -> None:
    info = {"id": "i1", "type": "info", "content": "Context compressed from 60% to 9%."}
    path = write(tmp_path, META, user("u1"), {"$set": {"lastUpdated": "t"}}, info)
    with pytest.raises(Rejection) as caught:
        count_path(path)
    assert caught.value.code == "E-UNMEASURABLE" and caught.value.line == 0  # GEM-7, G0


def answer(ident: str, kind: str = "gemini") -> dict[str, Any]:
    return {"id": ident, "type": kind, "content": "done", "model": "gemini-2.5-pro"}


def test_json_chat_is_told_from_vscode_and_unmeasurable(tmp_path: Path) -> None:
    chat = {**META, "messages": [user("u1"), answer("g1")]}
    path = tmp_path / "session-x.json"
    path.write_text(json.dumps(chat, indent=2))
    assert detect(path).key == GEMINI
    with pytest.raises(Rejection) as caught:
        count_path(path)
    assert caught.value.code == "E-UNMEASURABLE"  # GEM-7, J0
    # A VS Code flat session that happens to name projectHash stays VS Code's (LEG-1).
    flat = {"version": 3, "sessionId": "s", "projectHash": "p", "messages": [], "requests": []}
    other = tmp_path / "flat.json"
    other.write_text(json.dumps(flat))
    assert detect(other).key == VSCODE


@pytest.mark.parametrize(
    ("messages", "missing"),
    [
        pytest.param([user("u1")], "no message of `type` `gemini`", id="no-answer-yet"),
    ],
)
def test_a_json_chat_without_geminis_model_type_is_nobodys(
    tmp_path: Path, messages: list[Any], missing: str
) -> None:
    """HST-2, GEM-1, HST-4: Qwen Code 0.1 writes Gemini CLI's whole-file document with `qwen`
    where Gemini CLI writes `gemini`; a chat that shows neither is no known host's."""
    path = tmp_path / "session-x.json"
    path.write_text(json.dumps({**META, "messages": messages}, indent=2))
    with pytest.raises(Rejection) as caught:
        detect(path)
    assert caught.value.code == "E-HOST"
    assert f"gemini-cli ({missing}" in caught.value.reason


def test_torn_tail_and_bad_line(tmp_path: Path) -> None:
    whole = json.dumps(history(snap("s2"))).encode()
    path = write(tmp_path, META, history(snap("s1")), tail=b"{not json\n" + whole[:40])
    result = count(path)
    assert result.reboots == 1
    assert {n.code for n in result.notices} == {"W-SKIPPED", "W-TORN-TAIL", "W-INDIRECT"}


def test_named_host(tmp_path: Path) -> None:
    path = write(tmp_path, META, history(snap("s1")))
    assert count_path(path, host="gemini-cli").reboots == 1
