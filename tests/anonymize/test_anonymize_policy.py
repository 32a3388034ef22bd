"""The host policies' promises, one by one, and `anonymize`'s refusals for the other hosts.

Each test writes a small input by hand (the shapes named in the host chapters), anonymizes it,
and reads the output itself: what must stay (ids' time order, links, duplicates, types) and what
must go (texts, paths, data keys, names). A refusal leaves nothing behind and says one line.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any
from unittest import mock

from rebootspec.conformance.commands.contribute import HostsView, anonymize
from rebootspec.generators.anonymize.command import cli
from rebootspec.generators.anonymize.hostpolicy import Replacer

THREAD = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"  # UUIDv7 of 2026-02-23T11:54:34.333Z
EARLIER = "019c8a59-e000-7aaa-8bbb-cccccccccccc"  # minted before the thread (a copied turn)
LATER = "019c8a5a-0000-7aaa-8bbb-dddddddddddd"  # minted after it (the thread's own turn)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = anonymize(argv)
    return code, out.getvalue(), err.getvalue()


def lines(path: Path) -> list[Any]:
    return [json.loads(row) for row in path.read_text().splitlines()]


def write_lines(path: Path, values: list[Any]) -> Path:
    path.write_text("".join(json.dumps(v) + "\n" for v in values))
    return path


def uuid7_millis(value: str) -> int:
    return int(value[:8] + value[9:13], 16)


def codex_fork(tmp_path: Path) -> Path:
    """A fork's rollout (CDX-5): its own header, the parent's copied header, a copied turn and
    compaction, then its own turn and compaction; the copy ends at the first own turn id."""
    meta = {"id": THREAD, "cwd": "/home/alice/secret-project", "cli_version": "0.104.0"}
    stamp = "2026-02-23T11:54:35.000Z"

    def record(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": stamp, "type": kind, "payload": payload}

    return write_lines(
        tmp_path / "rollout.jsonl",
        [
            record("session_meta", {**meta, "forked_from_id": EARLIER}),
            record("session_meta", {**meta, "id": EARLIER}),
            record("event_msg", {"type": "task_started", "turn_id": EARLIER}),
            record("compacted", {"message": "alice's private summary"}),
            record("event_msg", {"type": "task_started", "turn_id": LATER}),
            record("event_msg", {"type": "user_message", "message": "my password is hunter22"}),
            record("compacted", {"message": "another private summary"}),
        ],
    )


def test_codex_turn_ids_keep_their_time_against_the_thread_id(tmp_path: Path) -> None:
    source = codex_fork(tmp_path)
    target = tmp_path / "out.jsonl"
    code, _, stderr = run([str(source), str(target)])
    assert code == 0, stderr
    records = lines(target)
    thread = records[0]["payload"]["id"]
    copied, own = records[2]["payload"]["turn_id"], records[4]["payload"]["turn_id"]
    assert thread != THREAD and own != LATER  # replaced ...
    assert uuid7_millis(copied) < uuid7_millis(thread) <= uuid7_millis(own)  # ... time kept
    assert records[1]["payload"]["id"] == copied  # the copied header names the copied turn
    assert [r["type"] for r in records] == [r["type"] for r in lines(source)]
    text = target.read_bytes()
    for secret in (b"alice", b"secret-project", b"hunter22", b"private summary"):
        assert secret not in text


def test_claude_code_links_and_a_uuid_written_twice_stay(tmp_path: Path) -> None:
    first, second = "6f1c2d3e-4a5b-4c6d-8e7f-001122334455", "7a8b9c0d-1e2f-4a3b-9c4d-5e6f70819203"
    common = {
        "sessionId": "0b7e9a4c-1234-4abc-9def-0123456789ab",
        "cwd": "/Users/bob/acme",
        "userType": "external",
    }
    boundary = {
        **common,
        "type": "system",
        "subtype": "compact_boundary",
        "uuid": second,
        "parentUuid": first,
        "compactMetadata": {"trigger": "manual", "preTokens": 1000},
    }
    source = write_lines(
        tmp_path / "t.jsonl",
        [
            {
                **common,
                "type": "user",
                "uuid": first,
                "parentUuid": None,
                "message": {"role": "user", "content": "deploy to acme-prod-7 please"},
            },
            boundary,
            boundary,  # written twice (#92089): one compaction
            {
                "type": "file-history-snapshot",
                "messageId": first,
                "snapshot": {"trackedFileBackups": {"/Users/bob/acme/keys.env": {"version": 1}}},
            },
        ],
    )
    target = tmp_path / "out.jsonl"
    code, _, stderr = run([str(source), str(target)])
    assert code == 0, stderr
    user, one, two, snapshot = lines(target)
    assert one["uuid"] == two["uuid"] != second
    assert one["parentUuid"] == user["uuid"] == snapshot["messageId"]
    assert one["compactMetadata"] == {"trigger": "manual", "preTokens": 1000}
    (key,) = snapshot["snapshot"]["trackedFileBackups"]
    assert key.count("/") == 4 and key.endswith(".env") is False
    text = target.read_bytes()
    for secret in (b"bob", b"acme", b"keys", b"deploy"):
        assert secret not in text


def test_pi_tree_links_and_parent_session_stay(tmp_path: Path) -> None:
    parent = "/home/carol/.pi/agent/sessions/--home-carol-work--/2026_x.jsonl"
    source = write_lines(
        tmp_path / "p.jsonl",
        [
            {
                "type": "session",
                "version": 3,
                "id": "5e0c9a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
                "timestamp": "2026-03-01T10:00:00.000Z",
                "cwd": "/home/carol/work",
                "parentSession": parent,
            },
            {
                "type": "message",
                "id": "a1b2c3d4",
                "parentId": None,
                "timestamp": "2026-03-01T10:00:01.000Z",
                "message": {"role": "user", "content": "carol's plan for the merger"},
            },
            {
                "type": "compaction",
                "id": "b2c3d4e5",
                "parentId": "a1b2c3d4",
                "timestamp": "2026-03-01T10:00:02.000Z",
                "summary": "merger notes",
            },
        ],
    )
    target = tmp_path / "out.jsonl"
    code, _, stderr = run([str(source), str(target)])
    assert code == 0, stderr
    header, message, compaction = lines(target)
    assert compaction["parentId"] == message["id"] != "a1b2c3d4"
    assert header["parentSession"].endswith(".jsonl") and header["parentSession"] != parent
    assert header["timestamp"] == "2026-03-01T10:00:00.000Z"
    text = target.read_bytes()
    for secret in (b"carol", b"home-carol-work", b"merger"):
        assert secret not in text


def chain(folder: Path) -> Path:
    """Two chat-loop files: the second restored from the first (BCL-3)."""
    head = "# Atlas Conversation\n\n**Session ID:** {id}\n\n**Date:** 2026-05-01T10:00:00\n\n"
    head += "**Agent:** Atlas\n\n**Agent Path:** /home/dave/agents/atlas.py\n\n"
    first = folder / "Atlas_20260501_100000.md"
    first.write_text(
        head.format(id="Atlas_20260501_100000")
        + "---\n\n## Query 1 (10:00:01)\n**You:** dave's bank pin is 4321\n"
    )
    second = folder / "Atlas_20260501_110000.md"
    second.write_text(
        head.format(id="Atlas_20260501_110000")
        + "**Resumed From:** Atlas_20260501_100000\n\n---\n\n## Session Restored (11:00:00)\n"
        "**Context:** Resumed from Atlas_20260501_100000 (1 queries, 10)\n"
        "**Previous Session:** /home/dave/.chat-sessions/Atlas_20260501_100000.md\n"
    )
    return second


def test_a_chat_loop_chain_keeps_its_links_and_times(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "out").mkdir()
    source = chain(tmp_path / "in")
    code, _, stderr = run([str(source), str(tmp_path / "out" / "asked.md")])
    assert code == 0, stderr
    # Named by their new session ids, the time of the name kept (BCL-1): OUT's name is not.
    (target,) = (tmp_path / "out").glob(f"*_{source.stem.split('_', 1)[1]}.md")
    (earlier,) = [p for p in (tmp_path / "out").iterdir() if p != target]
    assert earlier.name.endswith("_20260501_100000.md") and "Atlas" not in earlier.name
    text = target.read_text()
    assert f"**Resumed From:** {earlier.stem}\n" in text
    assert f"/{earlier.name}\n" in text
    assert text.splitlines()[0] == f"# {earlier.stem.split('_')[0]} Conversation"
    for path in (target, earlier):
        for secret in ("Atlas", "dave", "4321", "atlas.py"):
            assert secret not in path.read_text()


def test_gemini_snapshot_elements_stay_and_their_text_goes(tmp_path: Path) -> None:
    meta = {
        "sessionId": "1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5",
        "projectHash": "ab" * 32,
        "startTime": "2026-06-10T09:00:00.030Z",
        "kind": "main",
    }
    context = {
        "type": "user",
        "content": [{"text": "\n<session_context>\nEve's laptop\n</session_context>"}],
    }
    snapshot = {
        "id": "snap-1",
        "type": "user",
        "content": [{"text": "<state_snapshot>\nEve's merger plan\n</state_snapshot>"}],
    }
    source = write_lines(tmp_path / "g.jsonl", [meta, {"$set": {"messages": [context, snapshot]}}])
    target = tmp_path / "out.jsonl"
    code, _, stderr = run([str(source), str(target)])
    assert code == 0, stderr
    history = lines(target)[1]["$set"]["messages"]
    assert history[0]["content"][0]["text"].startswith("\n<session_context>\n")
    assert history[1]["content"][0]["text"].startswith("<state_snapshot>\n")
    assert b"Eve" not in target.read_bytes() and b"merger" not in target.read_bytes()


class Liar(HostsView):
    """The real hosts, but the anonymized copy counts one more reboot."""

    def count(self, path: Path, session: str | None) -> dict[str, Any]:
        answer = super().count(path, session)
        if "out" in path.name or ".partial" in str(path):
            answer = {**answer, "reboots": answer["reboots"] + 1}
        return answer


def claude_transcript(tmp_path: Path) -> Path:
    return write_lines(
        tmp_path / "t.jsonl",
        [
            {
                "type": "user",
                "userType": "external",
                "uuid": "6f1c2d3e-4a5b-4c6d-8e7f-001122334455",
                "sessionId": "0b7e9a4c-1234-4abc-9def-0123456789ab",
                "message": {"role": "user", "content": "my secret launch code 7781"},
            }
        ],
    )


def refused(tmp_path: Path, view: HostsView) -> tuple[int, str]:
    source = claude_transcript(tmp_path)
    (tmp_path / "out").mkdir()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli([str(source), str(tmp_path / "out" / "t.jsonl")], lambda p: ({}, ""), view)
    assert "wrote" not in out.getvalue()
    assert list((tmp_path / "out").iterdir()) == []  # nothing left behind, no partial file
    return code, err.getvalue()


def test_a_string_the_rewriter_left_is_found_and_nothing_is_written(tmp_path: Path) -> None:
    """A rewriter bug: `content` is judged replaced but written back as it was."""
    real = Replacer.value

    def forgetful(self: Replacer, text: str, member: str | None) -> str:
        out = real(self, text, member)
        return text if member == "content" else out

    with mock.patch.object(Replacer, "value", forgetful):
        code, stderr = refused(tmp_path, HostsView())
    assert code == 1
    assert len(stderr.splitlines()) == 1 and "still there" in stderr
    assert "launch" not in stderr  # the secret itself is never shown


def test_a_copy_that_counts_differently_is_refused(tmp_path: Path) -> None:
    code, stderr = refused(tmp_path, Liar())
    assert code == 1
    assert len(stderr.splitlines()) == 1 and "counts differently" in stderr


def test_an_existing_output_is_never_replaced(tmp_path: Path) -> None:
    source = claude_transcript(tmp_path)
    target = tmp_path / "taken.jsonl"
    target.write_bytes(b"mine")
    code, _, stderr = run([str(source), str(target)])
    assert code == 2 and "exists" in stderr
    assert target.read_bytes() == b"mine"


def test_an_opencode_store_of_several_sessions_asks_which(tmp_path: Path) -> None:
    folder = tmp_path / "storage"
    for ident in ("ses_0123456789abAAAAAAAAAAAAAA", "ses_0123456789abBBBBBBBBBBBBBB"):
        (folder / "session" / "global").mkdir(parents=True, exist_ok=True)
        (folder / "session" / "global" / f"{ident}.json").write_text(json.dumps({"id": ident}))
    (folder / "message").mkdir()
    code, _, stderr = run([str(folder), str(tmp_path / "out")])
    assert code == 2 and "--session" in stderr
    assert not (tmp_path / "out").exists()
