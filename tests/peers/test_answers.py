"""Each peer's answer is read from what the tool printed or wrote: recorded outputs, no installs.

The samples are what the pinned versions printed on corpus cases here (cut to the part the
reader looks at; the tools' own page templates are not copied). Each test states the number a
person reads in that output, so a reader that drifts from the tool's meaning fails.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

from rebootspec.conformance.presets.peers import answers

# codeburn 0.9.15 `context --json --provider codex` on a C5 rollout (trimmed to the top level).
CODEBURN = """{
  "session": {"filePath": "/x/session.jsonl", "sessionId": "session", "project": ""},
  "model": "gpt-5-codex",
  "compactions": 3,
  "reported": {"context": 60900, "window": null},
  "effective": {"messages": 3, "tokens": 104}
}"""

# ccstatusline 2.2.30, one Compaction Counter widget, format text-and-number, as printed.
STATUS = "\x1b[0m\x1b[38;5;178mCompactions:\u00a01\x1b[39m\n"


def test_codeburn_json_member() -> None:
    assert answers.json_member(CODEBURN, "compactions") == (3, None)


def test_codeburn_without_the_member_is_no_answer() -> None:
    count, reason = answers.json_member('{"model": "m"}', "compactions")
    assert count is None and "compactions" in str(reason)


def test_codeburn_prose_is_no_answer() -> None:
    assert answers.json_member("No session found", "compactions")[0] is None


def test_status_line_with_colours_and_a_no_break_space() -> None:
    assert answers.status_line(STATUS) == (1, None)


def test_status_line_two_counters_is_no_answer() -> None:
    assert answers.status_line("Compactions: 1 | Compactions: 2")[0] is None


def test_status_line_without_the_widget_is_no_answer() -> None:
    assert answers.status_line("\x1b[0mModel: Claude\x1b[39m")[0] is None


# claude-code-transcripts 0.6 / ai-code-sessions 0.3.1: each continuation summary as rendered.
CONTINUATION = (
    '<div class="message user"><details class="continuation"><summary>Session continuation '
    "summary</summary><p>This session is being continued ...</p></details></div>"
)


def test_continuation_blocks_over_every_page() -> None:
    pages = ["<html>" + CONTINUATION + CONTINUATION, "<html>" + CONTINUATION, "<html></html>"]
    assert answers.continuation_blocks(pages) == (3, None)


def test_no_page_is_no_answer() -> None:
    assert answers.continuation_blocks([])[0] is None


def test_claude_code_log_counts_compacted_messages_only() -> None:
    page = (
        "<!DOCTYPE html><html><body>"
        "<div class='message user compacted' id='m1'></div>"
        "<div class='message user' id='m2'></div>"
        "<div class='message user compacted sidechain' id='m3'></div>"
        "<style>.user.compacted .content {}</style></body></html>"
    )
    assert answers.compacted_messages(page) == (2, None)


def test_claude_code_log_non_html_is_no_answer() -> None:
    assert answers.compacted_messages("Error: no transcript")[0] is None


def _pi_page(entries: list[dict[str, object]]) -> str:
    data = base64.b64encode(json.dumps({"header": {}, "entries": entries}).encode()).decode()
    return (
        "<html><body><div id=app></div>"
        f'<script id="session-data" type="application/json">{data}</script></body></html>'
    )


def test_pi_export_counts_compaction_entries_as_its_header_does() -> None:
    page = _pi_page(
        [
            {"type": "message", "message": {"role": "user"}},
            {"type": "compaction", "summary": "s1"},
            {"type": "branch_summary", "summary": "b"},
            {"type": "compaction", "summary": "s2"},
        ]
    )
    assert answers.pi_export(page) == (2, None)


def test_pi_export_without_data_is_no_answer() -> None:
    assert answers.pi_export("<html></html>")[0] is None
    bad = '<script id="session-data" type="application/json">!!!</script>'
    assert answers.pi_export(bad)[0] is None


def test_harness_line_reads_the_last_line() -> None:
    assert answers.harness_line('warning: x\n{"compactions": 4}\n') == (4, None)
    assert answers.harness_line("")[0] is None
    assert answers.harness_line('{"compactions": -1}')[0] is None
    assert answers.harness_line('{"compactions": true}')[0] is None


def _store(path: Path, rows: list[tuple[object, ...]]) -> Path:
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE sessions (id TEXT, file_path TEXT, parent_session_id TEXT,"
            " compaction_count INTEGER, deleted_at TEXT)"
        )
        db.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?, NULL)", rows)
    return path


def test_agentsview_reads_the_laid_files_session(tmp_path: Path) -> None:
    laid = "/h/.codex/sessions/2026/01/01/rollout.jsonl"
    db = _store(
        tmp_path / "sessions.db",
        [("codex:1", laid, None, 2), ("codex:2", "/h/.codex/sessions/other.jsonl", None, 7)],
    )
    assert answers.agentsview_store(db, Path(laid), None) == (2, None)


def test_agentsview_prefers_the_parent_over_its_subagents(tmp_path: Path) -> None:
    laid = "/h/.claude/projects/p/s.jsonl"
    db = _store(tmp_path / "s.db", [("s", laid, None, 1), ("s:agent", laid, "s", 3)])
    assert answers.agentsview_store(db, Path(laid), None) == (1, None)


def test_agentsview_picks_an_opencode_session_by_id(tmp_path: Path) -> None:
    db = _store(
        tmp_path / "s.db",
        [("opencode:ses_a", "/d/opencode.db#ses_a", None, 0), ("opencode:ses_b", "x", None, 2)],
    )
    assert answers.agentsview_store(db, Path("/d"), "ses_b") == (2, None)


def test_agentsview_without_the_session_is_no_answer(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.db", [("codex:1", "/elsewhere", None, 2)])
    assert answers.agentsview_store(db, Path("/h/laid.jsonl"), None)[0] is None
    assert answers.agentsview_store(tmp_path / "missing.db", Path("/x"), None)[0] is None


def test_pi_export_of_a_deeply_nested_session_is_still_read() -> None:
    """A browser's JSON.parse reads a value nested 1,100 levels deep; so must the reader."""
    deep = '{"a":' * 1100 + '"x"' + "}" * 1100
    entries = f'[{{"type":"message","message":{deep}}},{{"type":"compaction"}}]'
    text = f'{{"header":{{}},"entries":{entries}}}'
    data = base64.b64encode(text.encode()).decode()
    page = f'<html><script id="session-data" type="application/json">{data}</script></html>'
    assert answers.pi_export(page) == (1, None)
