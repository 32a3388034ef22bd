"""The Claude Code reader of the reference (spec/hosts/claude-code.md, CLC-*) and its detection.

Each input is a handful of hand-written records whose count a person reads off the test.
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
from rebootspec.reference.core.registry import detect

SESSION = "5b0f8a52-3f0e-4c55-9a43-2f3f4e1c9d10"


def write(tmp_path: Path, records: list[Any], tail: bytes = b"\n") -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(r) for r in records) + tail)
    return path


def count(path: Path) -> RecordCount:
    result = count_path(path)
    assert isinstance(result, RecordCount)
    return result


def rec(kind: str, uuid: str, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/project",
        "sessionId": SESSION,
        "version": "2.1.39",
        "type": kind,
        "uuid": uuid,
        "timestamp": "2026-02-10T09:00:00.000Z",
    }
    record.update(extra)
    return record


def prompt(uuid: str = "u1", text: str = "fix the parser", **extra: Any) -> dict[str, Any]:
    return rec("user", uuid, message={"role": "user", "content": text}, **extra)


def boundary(uuid: str, trigger: str = "auto", **extra: Any) -> dict[str, Any]:
    metadata = {"trigger": trigger, "preTokens": 150_000}
    return rec("system", uuid, subtype="compact_boundary", compactMetadata=metadata, **extra)


def summary(uuid: str, parent: str | None, **extra: Any) -> dict[str, Any]:
    text = "This session is being continued from a previous conversation ..."
    message = {"role": "user", "content": text}
    return rec("user", uuid, parentUuid=parent, message=message, isCompactSummary=True, **extra)


# HST-2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first",
    [
        prompt(),
        boundary("b1"),
        {"type": "summary", "summary": "Parser work", "leafUuid": "u9"},
        {"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}},
        {"type": "queue-operation", "operation": "dequeue", "sessionId": SESSION},
        {"type": "custom-title", "customTitle": "parser", "sessionId": SESSION},
    ],
)
def test_the_first_record_of_a_transcript_is_claude_code(tmp_path: Path, first: Any) -> None:
    assert detect(write(tmp_path, [first])).key == "claude-code"


@pytest.mark.parametrize(
    ("first", "host"),
    [
        ({"kind": 0, "v": {"uuid": "u", "sessionId": "s", "userType": "external"}}, "vscode"),
        (
            {"type": "session", "version": 3, "id": "x", "timestamp": "t", "cwd": "/", "uuid": "u"},
            "pi",
        ),
    ],
)
def test_the_other_hosts_keep_their_files(tmp_path: Path, first: Any, host: str) -> None:
    """HST-2: a Claude-looking member does not move another host's file."""
    assert detect(write(tmp_path, [first])).key == host


def test_an_envelope_with_claude_members_is_nobodys(tmp_path: Path) -> None:
    """HST-2, HST-4: a Codex envelope carries nothing but `timestamp`, `type` and `payload`,
    and a Claude Code record carries `userType`: a mix of both is no host's file."""
    first = {"timestamp": "t", "type": "user", "payload": {}, "uuid": "u", "sessionId": "s"}
    with pytest.raises(Rejection) as caught:
        detect(write(tmp_path, [first]))
    assert caught.value.code == "E-HOST"


@pytest.mark.parametrize(
    "first",
    [
        {"type": "user", "uuid": "u1"},  # no sessionId
        {"type": "summary", "summary": "a title"},  # no leafUuid
        {"type": "file-history-snapshot"},  # no messageId
        {"type": "ai-title", "aiTitle": "a title"},  # no sessionId
        {"uuid": "u1", "sessionId": "s"},  # no type
        {"type": "user", "uuid": "u1", "sessionId": "s"},  # no userType (Qwen Code's records)
    ],
)
def test_a_partial_shape_is_of_no_known_host(tmp_path: Path, first: Any) -> None:
    with pytest.raises(Rejection) as caught:
        count_path(write(tmp_path, [first]))
    assert (caught.value.code, caught.value.line) == ("E-HOST", 0)


# CLC-3, CLC-4 --------------------------------------------------------------------------------


def test_one_boundary_is_one_reboot_and_its_summary_a_companion(tmp_path: Path) -> None:
    path = write(tmp_path, [prompt(), boundary("b1", "manual"), summary("s1", "b1")])
    result = count(path)
    assert (result.reboots, result.companions, result.era) == (1, 1, "CC1")
    assert result.host == "claude-code" and result.host_version == "2.1.39"
    assert result.events == [{"line": 2, "trigger": "manual", "preTokens": 150_000}]


def test_companions_never_count(tmp_path: Path) -> None:
    records = [
        {"type": "summary", "summary": "Parser work", "leafUuid": "u1"},
        prompt(),
        rec("system", "m1", subtype="microcompact_boundary", content="Context microcompacted"),
        rec("system", "t1", subtype="turn_duration", durationMs=5),
        rec("progress", "p1", data={"type": "hook_progress", "hookName": "PreCompact"}),
        prompt("u2", "<command-name>/compact</command-name>"),
        {"type": "ai-title", "aiTitle": "Compaction", "sessionId": SESSION},
    ]
    result = count(write(tmp_path, records))
    assert result.reboots == 0
    assert result.era == "CC3"  # the microcompact_boundary
    assert result.companions == 2  # the title row and the microcompact_boundary


def test_the_boundary_must_be_a_system_record_with_that_subtype(tmp_path: Path) -> None:
    records = [
        prompt(),
        rec("user", "x1", subtype="compact_boundary"),
        rec("system", "x2", content="compact_boundary"),
        rec("assistant", "x3", message={"content": [{"type": "compact_boundary"}]}),
    ]
    assert count(write(tmp_path, records)).reboots == 0


def test_two_compactions_are_two_whatever_the_chain_says(tmp_path: Path) -> None:
    """CLC-9: each boundary starts a new chain (parentUuid null); the file's records count."""
    records = [
        prompt(),
        boundary("b1", logicalParentUuid="u1"),
        summary("s1", "b1"),
        prompt("u2", parentUuid="s1"),
        boundary("b2", "manual", logicalParentUuid="u2"),
        summary("s2", "b2"),
        prompt("u3", parentUuid="s2"),
    ]
    result = count(write(tmp_path, records))
    assert result.reboots == 2 and result.era == "CC2"
    assert [e["trigger"] for e in result.events] == ["auto", "manual"]


# CLC-5 ---------------------------------------------------------------------------------------


def test_sidechain_records_are_not_the_main_threads(tmp_path: Path) -> None:
    records = [
        prompt(),
        boundary("b0", isSidechain=True),
        summary("s0", "b0", isSidechain=True),
        boundary("b1"),
        summary("s1", "b1"),
    ]
    assert count(write(tmp_path, records)).reboots == 1


def test_the_summarizers_side_file_counts_zero(tmp_path: Path) -> None:
    side = {"isSidechain": True, "agentId": "acompact-70d8e7"}
    records = [
        prompt("a1", **side),
        rec("assistant", "a2", parentUuid="a1", message={"content": "Summary: ..."}, **side),
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.era, result.events) == (0, "CC2", [])


# CLC-6 ---------------------------------------------------------------------------------------


def test_a_boundary_written_twice_is_one_compaction(tmp_path: Path) -> None:
    """#92089: the same records re-appended with their uuids."""
    first = [boundary("b1"), summary("s1", "b1"), prompt("u2", parentUuid="s1")]
    records = [prompt(), *first, boundary("b2"), summary("s2", "b2"), *first]
    result = count(write(tmp_path, records))
    assert result.reboots == 2
    assert result.events[0]["line"] == 2 and result.events[0]["copies"] == [7]


def test_branch_copies_carry_forked_from_and_are_inherited(tmp_path: Path) -> None:
    forked = {"forkedFrom": {"sessionId": "source", "messageUuid": "x"}}
    records = [
        prompt(**forked),
        boundary("b1", **forked),
        summary("s1", "b1", **forked),
        prompt("u2", parentUuid="s1"),
        boundary("b2"),
        summary("s2", "b2"),
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.inherited) == (1, [2])


def test_a_uuid_once_copied_by_forked_from_is_inherited_everywhere(tmp_path: Path) -> None:
    forked = {"forkedFrom": {"sessionId": "source", "messageUuid": "b1"}}
    records = [prompt(), boundary("b1", **forked), boundary("b1")]
    assert count(write(tmp_path, records)).reboots == 0


def test_boundaries_without_a_uuid_count_each(tmp_path: Path) -> None:
    bare = {"type": "system", "subtype": "compact_boundary", "isSidechain": False}
    assert count(write(tmp_path, [prompt(), bare, bare])).reboots == 2


# CLC-7 ---------------------------------------------------------------------------------------


def test_cc0_counts_distinct_summaries_with_a_warning(tmp_path: Path) -> None:
    records = [
        prompt(version="1.0.51"),
        summary("s1", None),
        prompt("u2", parentUuid="s1"),
        summary("s2", None),
        summary("s2", None),  # written twice: one compaction
        summary("s3", None, isSidechain=True),  # a subagent's: not the main thread's
    ]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.era, result.host_version) == (2, "CC0", "1.0.51")
    assert [n.code for n in result.notices] == ["W-LOW-CONFIDENCE"]
    assert result.companions == 0


def test_with_one_boundary_the_summaries_are_companions(tmp_path: Path) -> None:
    records = [prompt(), summary("s0", None), boundary("b1"), summary("s1", "b1")]
    result = count(write(tmp_path, records))
    assert (result.reboots, result.companions, result.notices) == (1, 2, [])


def test_a_sidechain_boundary_makes_the_file_cc1_or_later(tmp_path: Path) -> None:
    records = [prompt(), boundary("b0", isSidechain=True), summary("s1", None)]
    assert count(write(tmp_path, records)).reboots == 0


def test_neither_boundary_nor_summary_is_zero_without_a_warning(tmp_path: Path) -> None:
    result = count(write(tmp_path, [prompt(), prompt("u2")]))
    assert (result.reboots, result.notices, result.era) == (0, [], None)


# CLC-10, the command line --------------------------------------------------------------------


def test_a_torn_boundary_is_ignored_and_a_glued_one_counts(tmp_path: Path) -> None:
    glued = orjson.dumps(prompt()) + orjson.dumps(boundary("b1")) + b"\n"
    torn = orjson.dumps(boundary("b2"))[:40]
    path = tmp_path / "session.jsonl"
    path.write_bytes(glued + torn)
    result = count(path)
    assert result.reboots == 1
    assert [(n.code, n.line) for n in result.notices] == [("W-TORN-TAIL", 2)]


def test_host_option_and_explain(tmp_path: Path) -> None:
    path = write(tmp_path, [prompt(), boundary("b1", "manual"), summary("s1", "b1")])
    out = io.StringIO()
    assert main(["count", "--host", "claude-code", str(path)], out, io.StringIO()) == 0
    answer = orjson.loads(out.getvalue())
    assert (answer["reboots"], answer["host"], answer["era"]) == (1, "claude-code", "CC1")
    out = io.StringIO()
    assert main(["explain", str(path)], out, io.StringIO()) == 0
    assert "line       2  REBOOT  (trigger manual, preTokens 150000)" in out.getvalue()
