"""The host layer of the reference: detection (HST-2), reading by value (JSV), Codex (CDX) and pi
(PIA). Each input is a handful of hand-written records whose count a person reads off the test.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.cli import main
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.jsonvalues import iter_values
from rebootspec.reference.core.registry import detect

PARENT = "01a21063-d04d-7e00-a463-0bf874c428a8"  # UUIDv7 ids: the first 48 bits are the ms
CHILD = "01a21063-d0e0-7e93-b95f-905668d942da"
BEFORE_CHILD = "01a21063-d07c-7de1-8879-a49be82ddbcf"  # a turn the parent minted before the fork
AFTER_CHILD = "01a21063-d0f2-7ff3-b03a-9c3ff2410f9f"  # a turn the child minted after its id


def write(tmp_path: Path, records: list[Any], tail: bytes = b"\n") -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(r) for r in records) + tail)
    return path


def count(path: Path) -> RecordCount:
    result = count_path(path)
    assert isinstance(result, RecordCount)
    return result


def rec(kind: str, payload: dict[str, Any], at: str = "2026-03-01T10:00:00.000Z") -> dict[str, Any]:
    return {"timestamp": at, "type": kind, "payload": payload}


def meta(**extra: Any) -> dict[str, Any]:
    return rec("session_meta", {"id": CHILD, "cli_version": "0.111.0", **extra})


def event(kind: str, **extra: Any) -> dict[str, Any]:
    return rec("event_msg", {"type": kind, **extra})


def compacted(message: str = "Another language model started... summary") -> dict[str, Any]:
    return rec("compacted", {"message": message})


def remote() -> dict[str, Any]:
    history = [{"type": "message"}, {"type": "compaction", "encrypted_content": "gAAA"}]
    return rec("compacted", {"message": "", "replacement_history": history})


# HST-2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "host"),
    [
        ({"kind": 0, "v": {}}, "vscode"),
        ({"timestamp": "t", "type": "session_meta", "payload": {}}, "codex"),
        ({"timestamp": "t", "type": "response_item", "payload": {}}, "codex"),
        ({"id": "x", "timestamp": "2025-08-01T00:00:00Z", "instructions": None}, "codex"),
        ({"type": "session", "version": 3, "id": "x", "timestamp": "t"}, "pi"),
        ([1, 2], "vscode"),  # not an object: VS Code's rules reject it (ERR-4)
    ],
)
def test_the_first_value_decides_the_host(tmp_path: Path, first: Any, host: str) -> None:
    assert detect(write(tmp_path, [first])).key == host


def test_an_object_of_no_known_host_is_e_host_naming_the_hosts(tmp_path: Path) -> None:
    path = write(tmp_path, [{"type": "user", "id": "u1", "content": "a record of no known host"}])
    err = io.StringIO()
    assert main(["count", str(path)], io.StringIO(), err) == 1
    assert err.getvalue() == (
        f"error: {path}:0: E-HOST: not a session of a known host "
        "(vscode, codex, pi, claude-code, gemini-cli, opencode, kilo, basic-agent-chat-loop, "
        "copilot-cli, qwen-code, cline, roo-code, kilo-code)\n"
    )


def test_a_line_that_is_not_json_keeps_its_vscode_rejection(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"not json\n")
    with pytest.raises(Rejection) as caught:
        count_path(path)
    assert (caught.value.code, caught.value.line) == ("E-JSON", 1)


def test_host_option_reads_a_file_as_the_named_host(tmp_path: Path) -> None:
    path = write(tmp_path, [meta(), compacted()])
    out = io.StringIO()
    assert main(["count", "--host", "codex", str(path)], out, io.StringIO()) == 0
    assert orjson.loads(out.getvalue())["reboots"] == 1
    with pytest.raises(Rejection):  # read as VS Code, the same bytes are no mutation log
        count_path(path, host="vscode")


# JSV -----------------------------------------------------------------------------------------


def test_glued_values_are_two_records() -> None:
    notices: list[Any] = []
    data = b'{"a":1}{"b":2}\n{"c":3}\n'
    assert list(iter_values(io.BytesIO(data), notices)) == [
        (1, {"a": 1}),
        (1, {"b": 2}),
        (2, {"c": 3}),
    ]
    assert notices == []


def test_a_bad_line_is_skipped_and_a_torn_tail_ignored_with_warnings() -> None:
    notices: list[Any] = []
    data = b'{"a":1}\nnot json\n{"b":2}{"c":'
    assert [v for _, v in iter_values(io.BytesIO(data), notices)] == [{"a": 1}, {"b": 2}]
    assert [(n.code, n.line) for n in notices] == [("W-SKIPPED", 2), ("W-TORN-TAIL", 3)]


def test_nesting_past_the_bound_is_e_limit(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(orjson.dumps(meta()) + b"\n" + b"[" * 1100 + b"]" * 1100 + b"\n")
    with pytest.raises(Rejection) as caught:
        count_path(path)
    assert (caught.value.code, caught.value.line) == ("E-LIMIT", 2)


# Codex ---------------------------------------------------------------------------------------


def test_codex_counts_compacted_records_never_their_companions(tmp_path: Path) -> None:
    records = [
        meta(),
        event("task_started"),
        event("user_message"),
        compacted(),
        event("context_compacted"),
        event("item_completed", item={"type": "ContextCompaction", "id": "c1"}),
        rec("response_item", {"type": "compaction", "encrypted_content": "x"}),
        remote(),
        event("context_compacted"),
        event("task_complete"),
    ]
    result = count(write(tmp_path, records))
    assert result.reboots == 2
    assert result.companions == 4
    assert [e["kind"] for e in result.events] == ["local", "remote"]


def test_codex_manual_and_automatic_come_from_the_turn(tmp_path: Path) -> None:
    records = [
        meta(),
        event("task_started"),
        compacted(),
        event("task_complete"),  # a turn of its own: manual
        event("task_started"),
        compacted(),
        event("user_message"),  # pre-turn: automatic
        event("task_complete"),
    ]
    assert [e["trigger"] for e in count(write(tmp_path, records)).events] == ["manual", "auto"]


def test_codex_compacted_without_an_object_payload_is_not_a_compaction(tmp_path: Path) -> None:
    records = [meta(), rec("compacted", {"message": "s"}), {"type": "compacted", "payload": "s"}]
    assert count(write(tmp_path, records)).reboots == 1


def test_codex_rolled_back_compactions_still_count(tmp_path: Path) -> None:
    records = [meta(), compacted(), event("thread_rolled_back", num_turns=1), compacted("other")]
    assert count(write(tmp_path, records)).reboots == 2


def parent_copy(turn_id: str) -> list[dict[str, Any]]:
    """A parent's rollout as a fork copies it: its header, a turn that compacted twice."""
    parent_meta = rec("session_meta", {"id": PARENT, "cli_version": "0.111.0"})
    return [
        parent_meta,
        event("task_started", turn_id=turn_id),
        event("user_message"),
        compacted("one"),
        compacted("two"),
        event("task_complete", turn_id=turn_id),
    ]


def test_codex_fork_copy_ends_at_the_first_turn_minted_after_the_thread(tmp_path: Path) -> None:
    # Every line stamped in the same millisecond: time cannot tell the copy, the ids do.
    own_turn = [event("task_started", turn_id=AFTER_CHILD), event("user_message"), compacted("3")]
    records = [meta(forked_from_id=PARENT), *parent_copy(BEFORE_CHILD), *own_turn]
    result = count(write(tmp_path, records))
    assert result.reboots == 1
    assert result.inherited == [5, 6]


def test_codex_subagent_copy_of_an_open_turn_is_inherited(tmp_path: Path) -> None:
    copy = parent_copy(BEFORE_CHILD)[:-1]  # the spawning turn is still open in the copy
    own_turn = [event("task_started", turn_id=AFTER_CHILD), compacted("mine")]
    records = [meta(forked_from_id=PARENT, thread_source="subagent"), *copy, *own_turn]
    assert count(write(tmp_path, records)).reboots == 1


def test_codex_copy_without_turn_ids_falls_back_to_write_times(tmp_path: Path) -> None:
    later = "2026-03-01T10:00:05.000Z"
    copy = [
        rec("session_meta", {"id": "b83d2145-e006-452f-a2ee-2c2bc352b446"}),
        event("task_started"),
        compacted("copied"),
        event("task_complete"),
    ]
    own = [
        rec("event_msg", {"type": "task_started"}, later),
        rec("compacted", {"message": "x"}, later),
    ]
    records = [rec("session_meta", {"id": "aaaa", "cli_version": "0.60.0"}), *copy, *own]
    assert count(write(tmp_path, records)).reboots == 1


def test_codex_c5_ordinals_mark_the_subagent_copy(tmp_path: Path) -> None:
    records = [
        {**meta(subagent_history_start_ordinal=3), "ordinal": 0},
        {**compacted("copied"), "ordinal": 1},
        {**event("task_complete"), "ordinal": 2},
        {**compacted("own"), "ordinal": 3},
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.inherited, result.era) == (1, [2], "C5")


def test_codex_c5_history_base_copies_nothing(tmp_path: Path) -> None:
    base = {"thread_id": PARENT, "end_ordinal_exclusive": 50, "end_byte_offset": 9000}
    records = [{**meta(forked_from_id=PARENT, history_base=base), "ordinal": 50}]
    records.append({**compacted(), "ordinal": 51})
    assert count(write(tmp_path, records)).reboots == 1


@pytest.mark.parametrize(
    "first",
    [
        {"id": "0208ad54-3e2b-49b4-9db0-f10c71d85d6b", "timestamp": "t", "instructions": None},
        rec("session_meta", {"id": "d367bfae", "cli_version": "0.34.0"}),
        rec("session_meta", {"id": "d367bfae"}),
    ],
    ids=["legacy-header", "old-cli-version", "no-cli-version"],
)
def test_codex_c0_is_unmeasurable_not_zero(tmp_path: Path, first: dict[str, Any]) -> None:
    path = write(tmp_path, [first, rec("response_item", {"type": "message", "role": "user"})])
    err = io.StringIO()
    assert main(["count", str(path)], io.StringIO(), err) == 1
    assert f"{path}:0: E-UNMEASURABLE:" in err.getvalue()


def test_codex_a_compacted_record_is_never_c0(tmp_path: Path) -> None:
    path = write(tmp_path, [rec("session_meta", {"id": "x", "cli_version": "0.34.0"}), compacted()])
    assert count(path).reboots == 1


def test_codex_a_build_from_source_is_measurable(tmp_path: Path) -> None:
    path = write(tmp_path, [rec("session_meta", {"id": "x", "cli_version": "0.0.0"})])
    assert count(path).reboots == 0


def test_codex_first_recording_release_with_no_compaction_is_zero(tmp_path: Path) -> None:
    path = write(tmp_path, [rec("session_meta", {"id": "x", "cli_version": "0.36.0"})])
    assert count(path).reboots == 0


# pi ------------------------------------------------------------------------------------------


def header(**extra: Any) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2026-03-01T10:00:00.000Z",
    } | extra


def entry(kind: str, entry_id: str, parent: str | None, at: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": at, **extra}


def test_pi_fork_copy_keeps_older_times_and_is_inherited(tmp_path: Path) -> None:
    records = [
        header(parentSession="/s/source.jsonl"),
        entry("message", "a1", None, "2026-03-01T09:00:00.000Z"),
        entry("compaction", "a2", "a1", "2026-03-01T09:10:00.000Z", summary="S"),
        entry("message", "b1", "a2", "2026-03-01T10:00:01.000Z"),
        entry("compaction", "b2", "b1", "2026-03-01T10:05:00.000Z", summary="S"),
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.inherited) == (1, [3])


def test_pi_without_a_source_older_times_are_not_a_copy(tmp_path: Path) -> None:
    records = [header(), entry("compaction", "a2", None, "2025-01-01T00:00:00Z", summary="S")]
    assert count(write(tmp_path, records)).reboots == 1


def test_pi_abandoned_branch_counts_and_on_path_does_not(tmp_path: Path) -> None:
    at = "2026-03-01T10:00:01.000Z"
    records = [
        header(),
        entry("message", "a", None, at),
        entry("compaction", "b", "a", at, summary="S"),  # on a branch left behind
        entry("branch_summary", "c", "a", at, summary="the left branch"),
        entry("message", "d", "c", at),
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.on_path, result.companions) == (1, 0, 1)


def test_pi_identical_summaries_are_two_compactions(tmp_path: Path) -> None:
    at = "2026-03-01T10:00:01.000Z"
    records = [
        header(),
        entry("compaction", "a", None, at, summary="same"),
        entry("compaction", "b", "a", at, summary="same"),
    ]
    assert count(write(tmp_path, records)).reboots == 2


def test_pi_a_compaction_glued_to_a_message_counts(tmp_path: Path) -> None:
    at = "2026-03-01T10:00:01.000Z"
    glued = orjson.dumps(entry("message", "a", None, at)) + orjson.dumps(
        entry("compaction", "b", "a", at, summary="S")
    )
    path = tmp_path / "session.jsonl"
    path.write_bytes(orjson.dumps(header()) + b"\n" + glued + b"\n")
    assert count(path).reboots == 1


def test_pi_v1_branch_copy_file_of_only_inherited_entries_is_zero(tmp_path: Path) -> None:
    records = [
        {
            "type": "session",
            "id": "s",
            "timestamp": "2025-12-09T00:53:00.000Z",
            "branchedFrom": "x",
        },
        {"type": "compaction", "timestamp": "2025-12-08T20:00:00.000Z", "summary": "S"},
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.era, result.inherited) == (0, "v1", [2])


# CDX-7: compressed rollouts ------------------------------------------------------------------


def test_a_zstd_compressed_rollout_is_read_as_the_jsonl_it_holds(tmp_path: Path) -> None:
    import zstandard

    plain = write(tmp_path, [meta(), compacted(), compacted("again")])
    packed = tmp_path / "rollout.jsonl.zst"
    packed.write_bytes(zstandard.ZstdCompressor().compress(plain.read_bytes()))
    out = io.StringIO()
    assert main(["count", str(packed)], out, io.StringIO()) == 0
    assert orjson.loads(out.getvalue())["reboots"] == 2


def test_a_zst_file_that_is_not_zstd_is_e_read(tmp_path: Path) -> None:
    broken = tmp_path / "rollout.jsonl.zst"
    broken.write_bytes(b'{"timestamp": "not compressed"}\n')
    err = io.StringIO()
    assert main(["count", str(broken)], io.StringIO(), err) == 1
    assert err.getvalue().startswith(f"error: {broken}:0: E-READ: not a zstd-compressed log")


@pytest.mark.parametrize("padding", [0, 100_000], ids=["short-line", "line-past-the-peek"])
def test_a_gemini_record_that_starts_with_kind_is_gemini_not_vscode(
    tmp_path: Path, padding: int
) -> None:
    # HST-2, RPL-3: VS Code's `kind` is a number and Gemini CLI's a string, so a `{"kind":"`
    # line is never VS Code's; one that runs past the bounded prefix is read to its end.
    record = b'{"kind":"main","x":"' + b"a" * padding + b'","sessionId":"s","projectHash":"p"}'
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n" + record + b"\n")
    assert detect(path).key == "gemini-cli"
    vscode = tmp_path / "vs.jsonl"
    vscode.write_bytes(b'{"kind":0,"v":{"x":"' + b"a" * padding + b'"}}\n')
    assert detect(vscode).key == "vscode"
