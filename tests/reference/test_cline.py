"""The Cline family's reader (spec/hosts/cline.md, CLN-*): Cline, Roo Code, the Kilo extension.

Each input is a handful of hand-written rows whose count a person reads off the test; the shapes
are those of the hosts' source (cline/cline v3.89.2, Roo-Code cb83656718), cut down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.core.registry import detect, get

SUMMARY = (
    "[summarize_task] Result:\n\nThis session is being continued from a previous conversation "
    "that ran out of context. The conversation is summarized below:\nwork so far."
)
ACCEPTED = "[condense] Result:\nThe user has accepted the condensed conversation summary you made."
FEEDBACK = "[condense] Result:\nThe user provided feedback on the condensed conversation summary"


def user(*texts: str, native: bool = False) -> dict[str, Any]:
    if native:
        blocks = [{"type": "tool_result", "tool_use_id": "t1", "content": t} for t in texts]
    else:
        blocks = [{"type": "text", "text": t} for t in texts]
    return {"role": "user", "content": blocks}


def assistant(text: str = "ok") -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def row(kind: str, value: str, text: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"ts": 1764200000000 + len(json.dumps(extra)), "type": kind, kind: value}
    if text is not None:
        out["text"] = text
    out.update(extra)
    return out


def folder(
    tmp: Path, ui: list[dict[str, Any]], api: list[dict[str, Any]] | None, **files: Any
) -> Path:
    task = tmp / "1764200000000"
    task.mkdir()
    (task / "ui_messages.json").write_text(json.dumps(ui, separators=(",", ":")))
    if api is not None:
        (task / "api_conversation_history.json").write_text(json.dumps(api))
    for name, value in files.items():
        (task / name).write_text(json.dumps(value))
    return task


START = [row("say", "text", "fix the parser"), row("say", "api_req_started", "{}")]


def test_auto_compact_results_count_and_the_ui_rows_are_companions(tmp_path: Path) -> None:
    """CLN-4, CLN-5: two answered summaries (one XML, one native) are two reboots; the ui's
    summarizeTask rows and an error result of summarize_task are not."""
    ui = [*START, row("say", "tool", json.dumps({"tool": "summarizeTask", "content": "s"}))]
    api = [
        user("<task>fix</task>"),
        assistant(),
        user(SUMMARY),
        assistant(),
        user("[summarize_task] Result:\nMissing value for required parameter 'context'."),
        assistant(),
        user(SUMMARY, native=True),
    ]
    task = folder(tmp_path, ui, api)
    answer = count_path(task)
    assert (answer.host, answer.reboots) == ("cline", 2)
    assert answer.companions == 1
    assert count_path(task / "ui_messages.json").reboots == 2  # the file names its folder


def test_smol_counts_only_when_accepted(tmp_path: Path) -> None:
    """CLN-6: an accepted /smol is a reboot; one answered with feedback is not."""
    ui = [*START, row("ask", "condense", "summary"), row("say", "user_feedback", "more")]
    api = [user("<task>x</task>"), assistant(), user(FEEDBACK), assistant(), user(ACCEPTED)]
    assert count_path(folder(tmp_path, ui, api)).reboots == 1


def test_the_deleted_range_is_no_evidence(tmp_path: Path) -> None:
    """CLN-7: rows carrying ever-new deleted ranges (legacy truncation) count nothing."""
    ui = [
        *START,
        *(row("say", "api_req_started", "{}", conversationHistoryDeletedRange=[2, 2 * n + 3])
          for n in range(4)),
    ]  # fmt: skip
    api = [user("<task>x</task>"), assistant(), user("go on"), assistant()]
    answer = count_path(folder(tmp_path, ui, api))
    assert (answer.host, answer.reboots) == ("cline", 0)


def test_a_restore_warns_that_the_count_is_a_lower_bound(tmp_path: Path) -> None:
    """CLN-8: a deleted_api_reqs row: W-REWOUND, the count of what remains."""
    ui = [*START, row("say", "deleted_api_reqs", '{"cost":0.1}')]
    api = [user("<task>x</task>"), assistant(), user(SUMMARY)]
    answer = count_path(folder(tmp_path, ui, api))
    assert answer.reboots == 1
    assert [n.code for n in answer.notices] == ["W-REWOUND"]


def test_roo_counts_completed_condense_rows_only(tmp_path: Path) -> None:
    """CLN-2, CLN-10: Roo's rows name the host; a partial row, an error and a truncation do
    not count; two completed rows are two reboots whatever the api history keeps."""
    condense = {"cost": 0.1, "prevContextTokens": 9, "newContextTokens": 1, "summary": "s"}
    ui = [
        *START,
        row("say", "condense_context", partial=True),
        row("say", "condense_context", partial=False, contextCondense=condense),
        row("say", "condense_context_error", "failed"),
        row("say", "sliding_window_truncation", contextTruncation={"truncationId": "t"}),
        row("say", "condense_context", contextCondense=condense),
    ]
    api = [user("<task>x</task>"), {**assistant("summary"), "isSummary": True}, user("go")]
    task = folder(tmp_path, ui, api)
    assert detect(task).key == "roo-code"
    answer = count_path(task)
    assert (answer.host, answer.reboots, answer.era) == ("roo-code", 2, "R3")


def test_a_summary_without_a_row_is_unmeasurable(tmp_path: Path) -> None:
    """CLN-10: an isSummary message and no condense_context row (Roo 3.17)."""
    api = [user("<task>x</task>"), {**assistant("summary"), "isSummary": True}, user("go")]
    with pytest.raises(Rejection) as caught:
        count_path(folder(tmp_path, list(START), api))
    assert caught.value.code == "E-UNMEASURABLE"


def test_kilo_smol_counts_once(tmp_path: Path) -> None:
    """CLN-2, CLN-11: Cline's /smol in Roo's line is Kilo's; its accepted result and Roo's row
    are one condense."""
    condense = {"cost": 0.1, "prevContextTokens": 9, "newContextTokens": 1, "summary": "s"}
    ui = [
        *START,
        row("ask", "condense", "summary"),
        row("say", "condense_context", contextCondense=condense),
    ]
    api = [user("<task>x</task>"), assistant(), user(ACCEPTED)]
    answer = count_path(folder(tmp_path, ui, api))
    assert (answer.host, answer.reboots) == ("kilo-code", 1)


def test_kilo_is_told_by_its_checkpoint_metadata(tmp_path: Path) -> None:
    """CLN-2: `metadata.kiloCode` names the Kilo extension."""
    meta = {"kiloCode": {"commitRange": {"from": "a", "to": "b"}}}
    ui = [*START, row("say", "checkpoint_saved", "b", metadata=meta)]
    assert detect(folder(tmp_path, ui, [user("x")])).key == "kilo-code"


def test_a_named_member_reads_the_folder_under_its_own_key(tmp_path: Path) -> None:
    """HST-3: `--host roo-code` on a folder the content gives to Cline: Roo's rules, Roo's name."""
    task = folder(tmp_path, list(START), [user("<task>x</task>"), assistant(), user(SUMMARY)])
    answer = get("roo-code").count(str(task))
    assert (answer.host, answer.reboots) == ("roo-code", 0)
    assert get("cline").count(str(task)).reboots == 1


def test_a_folder_without_its_api_history_is_rejected(tmp_path: Path) -> None:
    """CLN-1, CLN-13: E-READ naming the missing file."""
    with pytest.raises(Rejection) as caught:
        count_path(folder(tmp_path, list(START), None))
    assert caught.value.code == "E-READ" and "api_conversation_history.json" in caught.value.reason


def test_the_era_and_version_come_from_task_metadata(tmp_path: Path) -> None:
    """CLN-3: the last cline_version of environment_history."""
    meta = {"environment_history": [{"cline_version": "3.12.0"}, {"cline_version": "3.52.0"}]}
    task = folder(tmp_path, list(START), [user("x")], **{"task_metadata.json": meta})
    answer = count_path(task)
    assert (answer.era, answer.host_version) == ("L2", "3.52.0")


def test_the_title_is_the_task(tmp_path: Path) -> None:
    task = folder(tmp_path, list(START), [user("x")])
    assert get("cline").count(str(task), with_title=True).title == "fix the parser"


def sdk(tmp: Path, compacted: bool) -> Path:
    sid = "01KB2Q7XG3N5V8ZP4R6T9W1Y3C"
    session = tmp / sid
    session.mkdir()
    document = {"version": 1, "updated_at": 1, "sessionId": sid, "messages": [user("hi")]}
    (session / f"{sid}.messages.json").write_text(json.dumps(document))
    if compacted:
        (session / f"{sid}.compaction.json").write_text('{"version":1,"messages":[]}')
    return session


def test_an_sdk_session_counts_0_without_a_compaction_file(tmp_path: Path) -> None:
    """CLN-12: the folder, or its messages file."""
    session = sdk(tmp_path, compacted=False)
    assert (count_path(session).host, count_path(session).reboots) == ("cline", 0)
    assert count_path(next(session.glob("*.messages.json"))).era == "S1"


def test_an_sdk_session_that_compacted_is_unmeasurable(tmp_path: Path) -> None:
    """CLN-12: the compaction file keeps the latest compaction only."""
    with pytest.raises(Rejection) as caught:
        count_path(sdk(tmp_path, compacted=True))
    assert caught.value.code == "E-UNMEASURABLE"


@pytest.mark.parametrize(
    "document",
    [
        [],  # an empty array: no first ui message
        [{"ts": 1, "type": "say"}],  # no `say` member
        ["fix the parser"],  # a first element that is no object
        [{"type": "say", "say": "x"}],  # no `ts`
        [{"ts": True, "type": "say", "say": "x"}],  # a `ts` that is a boolean
        [{"ts": 1, "type": "user", "user": "x"}],  # a `type` that is neither say nor ask
        [{"role": "user", "content": "x"}],  # an api history alone is not the input
        {"sessionId": "x", "messages": [], "version": 1, "requests": []},  # VS Code's shape
        {"sessionId": "x", "messages": [], "version": 1, "projectHash": "h"},  # Gemini CLI's
        {"sessionId": "x", "messages": [], "version": True},  # a boolean version
        {"sessionId": "x", "messages": {}, "version": 1},  # messages not an array
        {"sessionId": 7, "messages": [], "version": 1},  # a sessionId that is no string
        ["x"],  # no object at all
    ],
)
def test_near_misses_are_not_the_familys(tmp_path: Path, document: Any) -> None:
    """CLN-1: only a ui array or an SDK messages document is claimed (a document no row fits
    is E-HOST, HST-4)."""
    path = tmp_path / "x.messages.json"
    path.write_text(json.dumps(document))
    try:
        host = detect(path).key
    except Rejection as rejected:
        assert rejected.code == "E-HOST"
    else:
        assert host not in ("cline", "roo-code", "kilo-code")


def test_a_broken_api_history_names_its_file(tmp_path: Path) -> None:
    """CLN-13, ERR-10: a companion that does not parse is E-JSON naming that file."""
    task = folder(tmp_path, list(START), [])
    (task / "api_conversation_history.json").write_text('[{"role":')
    with pytest.raises(Rejection) as caught:
        count_path(task)
    assert caught.value.code == "E-JSON"
    assert caught.value.reason.startswith("api_conversation_history.json: ")


def test_an_api_history_that_cannot_be_opened_is_e_read(tmp_path: Path) -> None:
    """CLN-13, ERR-12: a history that is there (a link) but cannot be opened is E-READ at line 0,
    naming the file; the corpus cannot hold such a file (its fixtures are plain files)."""
    task = folder(tmp_path, list(START), None)
    (task / "api_conversation_history.json").symlink_to(task / "moved-away.json")
    with pytest.raises(Rejection) as caught:
        count_path(task)
    assert (caught.value.code, caught.value.line) == ("E-READ", 0)
    assert caught.value.reason.startswith("api_conversation_history.json: ")
