"""The basic-agent-chat-loop reader on hand-written session folders
(spec/hosts/basic-agent-chat-loop.md, BCL-1..BCL-7).

Every file here is written by hand in the shape the chat loop's writer gives it (1.6.0-1.10.0:
a header with a blank line after each line, `---`, then the conversation); each expected count
is the number of restorations the test itself put on the chain.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.registry import detect
from rebootspec.reference.hosts.chat_loop import reader

CHAT_LOOP = "basic-agent-chat-loop"

QUERY = (
    "\n## Query 1 (10:00:20)\n**You:** fix the parser\n\n**Helper:** done\n\n"
    "*Time: 1.0s | Tokens: 1,200 (in: 1,100, out: 100)*\n\n---\n"
)
SUMMARY = "\n<!-- SESSION_SUMMARY_START -->\nwe fixed the parser\n<!-- SESSION_SUMMARY_END -->\n"


def session(
    ident: str, parent: str | None = None, body: str = QUERY, *, context: str | None = None
) -> str:
    """One M1 session file's text; `parent` makes it restored (header line and section)."""
    header = (
        f"# Helper Conversation\n\n**Session ID:** {ident}\n\n**Date:** 2026-03-02T10:00:00\n\n"
        "**Agent:** Helper\n\n**Agent Path:** /home/dev/project/agent.py\n\n"
        "**Total Queries:** 1\n\n"
    )
    if parent is None:
        return header + "---\n" + body + SUMMARY
    named = parent if context is None else context
    section = (
        f"\n## Session Restored (10:05:00)\n**Context:** Resumed from {named} (1 queries, 1.2K)\n"
        f"**Previous Session:** /home/dev/project/.chat-sessions/{parent}.md\n\n"
        "**Helper:** ready to continue\n\n*Time: 0.4s | Tokens: 90 (in: 80, out: 10)*\n\n---\n"
    )
    return header + f"**Resumed From:** {parent}\n\n---\n" + section + body + SUMMARY


def folder(tmp_path: Path, files: dict[str, str], crlf: bool = False) -> Path:
    for name, text in files.items():
        data = text.replace("\n", "\r\n") if crlf else text
        (tmp_path / name).write_bytes(data.encode("utf-8"))
    return tmp_path


def count(path: Path) -> RecordCount:
    result = count_path(path)
    assert isinstance(result, RecordCount)
    return result


def reject(path: Path) -> Rejection:
    with pytest.raises(Rejection) as caught:
        count_path(path)
    return caught.value


CHAIN = {  # a -> b -> c -> d: three restorations on d's chain
    "h_a.md": session("h_a"),
    "h_b.md": session("h_b", "h_a"),
    "h_c.md": session("h_c", "h_b"),
    "h_d.md": session("h_d", "h_c"),
}


def test_md_files_with_the_writers_heading_are_the_chat_loops(tmp_path: Path) -> None:
    """HST-2, BCL-1: a `.md` is the chat loop's when its first line is `# <agent> Conversation`;
    notes of no host are E-HOST at detection, before any reader runs."""
    assert detect(folder(tmp_path, {"h_a.md": session("h_a")}) / "h_a.md").key == CHAT_LOOP
    notes = tmp_path / "notes.md"
    notes.write_bytes(b"# Notes\n\nsome text about a Conversation\n")
    with pytest.raises(Rejection) as caught:
        detect(notes)
    assert (caught.value.code, caught.value.line) == ("E-HOST", 0)


def test_a_fresh_session_counts_zero(tmp_path: Path) -> None:
    result = count(folder(tmp_path, {"h_a.md": session("h_a")}) / "h_a.md")
    assert (result.reboots, result.host, result.era) == (0, CHAT_LOOP, "M1")


def test_the_chain_is_walked_in_the_folder(tmp_path: Path) -> None:
    base = folder(tmp_path, CHAIN)
    result = count(base / "h_d.md")
    assert result.reboots == 3
    assert [e["file"] for e in result.events] == ["h_b.md", "h_c.md", "h_d.md"]  # oldest first
    assert result.events[-1]["line"] == 17  # the `## Session Restored` heading of h_d.md
    assert count(base / "h_b.md").reboots == 1  # a middle file: its children are not read


def test_windows_files_count_the_same(tmp_path: Path) -> None:
    files = {
        name: text.replace(
            "/home/dev/project/.chat-sessions/", "C:\\Users\\dev\\p\\.chat-sessions\\"
        )
        for name, text in CHAIN.items()
    }
    assert count(folder(tmp_path, files, crlf=True) / "h_d.md").reboots == 3


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    (tmp_path / "h_a.md").write_bytes(b"\xef\xbb\xbf" + session("h_a", None).encode())
    assert count(tmp_path / "h_a.md").reboots == 0


def test_quoted_lines_in_the_conversation_are_not_read(tmp_path: Path) -> None:
    pasted = (
        "\n## Query 1 (10:00:20)\n**You:** look:\n**Resumed From:** h_zz\n"
        "## Session Restored (09:00:00)\n**Context:** Resumed from h_zz (2 queries, 900)\n"
        "**Previous Session:** /x/h_zz.md\n<!-- SESSION_SUMMARY_START -->\nold\n"
        "<!-- SESSION_SUMMARY_END -->\n\n**Helper:** I see\n\n---\n"
    )
    files = {"h_a.md": session("h_a", body=pasted), "h_b.md": session("h_b", "h_a", pasted)}
    base = folder(tmp_path, files)
    assert count(base / "h_a.md").reboots == 0
    assert count(base / "h_b.md").reboots == 1


def test_a_restored_file_without_summary_markers_still_counts(tmp_path: Path) -> None:
    files = {"h_a.md": session("h_a").replace(SUMMARY, ""), "h_b.md": session("h_b", "h_a")}
    assert count(folder(tmp_path, files) / "h_b.md").reboots == 1  # BCL-5: markers unread


def test_pre_1_6_files_count_zero(tmp_path: Path) -> None:
    m0 = (
        "# Helper Conversation\n**Session ID:** h_a\n**Date:** 2025-12-20T09:00:00\n"
        "**Agent:** Helper\n**Description:** an agent\n**Total Queries:** 1\n---\n" + QUERY
    )
    oldest = m0.replace("**Session ID:** h_a\n", "")  # 1.0.0 wrote no session id
    base = folder(tmp_path, {"h_a.md": m0, "old.md": oldest})
    assert (count(base / "h_a.md").reboots, count(base / "h_a.md").era) == (0, "M0")
    assert count(base / "old.md").reboots == 0


@pytest.mark.parametrize(
    ("files", "why"),
    [
        ({"h_b.md": session("h_b", "h_a")}, "not in the folder"),
        ({"h_b.md": session("h_b", "h_b")}, "names itself"),
        ({"h_a.md": session("h_a", "h_b"), "h_b.md": session("h_b", "h_a")}, "cycle"),
        ({"h_b.md": session("h_b", "../x/h_a")}, "no file of its folder"),
        ({"h_a.md": session("h_zz"), "h_b.md": session("h_b", "h_a")}, "another session"),
        ({"h_a.md": "notes\n", "h_b.md": session("h_b", "h_a")}, "is not a session"),
        ({"h_a.md": "", "h_b.md": session("h_b", "h_a")}, "is not a session"),
        ({"h_a.md": session("h_a"), "h_b.md": session("h_b", "h_a", context="h_q")}, "context"),
        (
            {
                "h_a.md": session("h_a"),
                "h_b.md": session("h_b", "h_a").replace("sessions/h_a.md", "sessions/h_q.md"),
            },
            "path does not end",
        ),
    ],
)
def test_chains_that_cannot_be_walked(tmp_path: Path, files: dict[str, str], why: str) -> None:
    rejection = reject(folder(tmp_path, files) / "h_b.md")
    assert (rejection.code, rejection.line) == ("E-CHAIN", 13)  # h_b's Resumed From line
    assert why in rejection.reason


def test_header_and_section_must_agree(tmp_path: Path) -> None:
    restored = session("h_b", "h_a")
    no_header_line = restored.replace("**Resumed From:** h_a\n\n", "")
    no_section = session("h_b").replace(
        "**Total Queries:** 1\n\n", "**Total Queries:** 1\n\n**Resumed From:** h_a\n\n"
    )
    files = {"h_a.md": session("h_a"), "one.md": no_header_line, "two.md": no_section}
    base = folder(tmp_path, files)
    one, two = reject(base / "one.md"), reject(base / "two.md")
    assert (one.code, one.line) == ("E-CHAIN", 15)  # no header line: the section's heading
    assert (two.code, two.line) == ("E-CHAIN", 13)


def test_a_link_to_itself_through_a_symbolic_link_is_a_cycle(tmp_path: Path) -> None:
    """h_a.md is a link to h_b.md, a file that says it is h_a restored from h_a: one file."""
    folder(tmp_path, {"h_b.md": session("h_a", "h_a")})
    os.symlink(tmp_path / "h_b.md", tmp_path / "h_a.md")
    rejection = reject(tmp_path / "h_b.md")
    assert (rejection.code, "cycle" in rejection.reason) == ("E-CHAIN", True)


def test_a_folder_in_place_of_the_parent(tmp_path: Path) -> None:
    folder(tmp_path, {"h_b.md": session("h_b", "h_a")})
    (tmp_path / "h_a.md").mkdir()
    assert reject(tmp_path / "h_b.md").code == "E-CHAIN"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "E-EMPTY"),
        ("# Notes\n\nsome text\n", "E-HOST"),
        ("# Helper Conversation\n\n**Date:** x\n\n**Agent:** Helper\n", "E-HOST"),  # no ---
        ("# Helper Conversation\n\n---\n", "E-HOST"),  # no Date or Agent line
        ("# Helper Conversation\n" + "\n" * 80 + "**Date:** x\n**Agent:** y\n---\n", "E-HOST"),
    ],
)
def test_markdown_that_is_no_session(tmp_path: Path, text: str, code: str) -> None:
    rejection = reject(folder(tmp_path, {"x.md": text}) / "x.md")
    assert (rejection.code, rejection.line) == (code, 0)


def test_the_chain_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_CHAIN", 2)
    assert reject(folder(tmp_path, CHAIN) / "h_d.md").code == "E-LIMIT"
    assert count(tmp_path / "h_c.md").reboots == 2


def test_the_read_is_bounded(tmp_path: Path) -> None:
    """BCL-7: a conversation of megabytes is never read; the count needs its first lines."""
    big = session("h_b", "h_a", QUERY * 40_000)
    base = folder(tmp_path, {"h_a.md": session("h_a"), "h_b.md": big})
    assert len(big) > 10 * reader.READ_BYTES
    assert count(base / "h_b.md").reboots == 1


@settings(  # the profile decides how many examples (tests/conftest.py)
    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_damaged_files_get_an_answer_or_a_rejection(tmp_path: Path, data: st.DataObject) -> None:
    """Any change of bytes in a chain's files: a count or a Rejection, never another error."""
    for name, text in CHAIN.items():
        raw = bytearray(text.encode())
        for _ in range(data.draw(st.integers(0, 3))):
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.sampled_from(b"\n\r-#*:/\\ \x00ab\xff"))
        (tmp_path / name).write_bytes(bytes(raw))
    try:
        result = count(tmp_path / "h_d.md")
    except Rejection as rejection:
        assert rejection.code in ("E-CHAIN", "E-HOST", "E-EMPTY")
    else:
        assert 0 <= result.reboots <= 3


def test_a_fifo_is_never_read(tmp_path: Path) -> None:
    """ERR-12: a FIFO asked about is E-READ; a FIFO in place of a parent cannot be walked. Both
    answer at once: neither is opened for a blocking read."""
    folder(tmp_path, {"h_b.md": session("h_b", "h_a")})
    os.mkfifo(tmp_path / "h_a.md")
    os.mkfifo(tmp_path / "pipe.md")
    assert reject(tmp_path / "h_b.md").code == "E-CHAIN"
    assert reject(tmp_path / "pipe.md").code == "E-READ"
