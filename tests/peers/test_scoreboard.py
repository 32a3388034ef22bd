"""The scoreboard: a peer's runs judged against the cases' own expectations, rendered as tables.

A stand-in peer (a Python one-liner that prints a number this test chooses) goes through the
same `Peer.run` and `board.judge` as the real ones, so the pipeline is checked without npm or
PyPI; the rendering is checked on records whose right/claimed a person can count.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

import orjson
import pytest

from rebootspec.conformance.commands import peers as command
from rebootspec.conformance.presets.peers.base import Invocation, Peer
from rebootspec.conformance.presets.peers.install import Package
from rebootspec.conformance.runner.candidates import CaseInput
from rebootspec.conformance.runner.corpus import Case
from rebootspec.conformance.runner.outcome import RunResult
from rebootspec.conformance.scoreboard import board, render
from rebootspec.conformance.scoreboard.board import CaseRecord, PeerRecord


class SaysTwo(Peer):
    """Prints `{"n": 2}` whatever the input, after checking the input was laid for it."""

    name: ClassVar[str] = "says-two"
    package: ClassVar[Package] = Package("pypi", "says-two", "1.0")
    hosts: ClassVar[tuple[str, ...]] = ("codex",)
    reads: ClassVar[str] = "n"

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        copy = work / "in.jsonl"
        copy.write_bytes(given.path.read_bytes())
        code = (
            "import json,sys,os; assert os.path.getsize(sys.argv[1]); print(json.dumps({'n': 2}))"
        )
        return Invocation([sys.executable, "-c", code, str(copy)])

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path):  # type: ignore[no-untyped-def]
        value = orjson.loads(result.stdout).get("n")
        return (value, None) if isinstance(value, int) else (None, "no n")


def _case(tmp_path: Path, case_id: str, expect: dict[str, object]) -> Case:
    session = tmp_path / case_id / "session.jsonl"
    session.parent.mkdir()
    session.write_text('{"type":"session_meta"}\n')
    return Case(
        id=case_id,
        title="t",
        rules=(),
        tags=("codex-companions",),
        era="C5",
        container="jsonl",
        expect=expect,
        input=session,
        host="codex",
    )


def test_a_peer_is_judged_by_the_case_s_own_expectation(tmp_path: Path) -> None:
    right = board.judge(SaysTwo(), _case(tmp_path, "AAAA", {"outcome": "count", "reboots": 2}))
    wrong = board.judge(SaysTwo(), _case(tmp_path, "BBBB", {"outcome": "count", "reboots": 1}))
    invalid = board.judge(
        SaysTwo(), _case(tmp_path, "CCCC", {"outcome": "reject", "error": "E-JSON"})
    )
    assert (right.outcome, right.actual) == ("pass", {"outcome": "count", "reboots": 2})
    assert (wrong.outcome, wrong.actual["reboots"]) == ("fail", 2)
    assert invalid.outcome == "missed-error" and invalid.expected["error"] == "E-JSON"


class SaysNothing(SaysTwo):
    name: ClassVar[str] = "says-nothing"

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path):  # type: ignore[no-untyped-def]
        return None, "the page had no counter"


def test_an_unreadable_answer_is_no_answer_never_a_count(tmp_path: Path) -> None:
    record = board.judge(
        SaysNothing(), _case(tmp_path, "DDDD", {"outcome": "reject", "error": "E-JSON"})
    )
    assert record.outcome == "bad-output"
    assert record.actual == {"outcome": "bad-output", "reason": "the page had no counter"}


def test_a_peer_not_installed_is_skipped_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REBOOTSPEC_PEERS_CACHE", str(tmp_path / "cache"))
    codex = _case(tmp_path, "EEEE", {"outcome": "count", "reboots": 2})
    record = board.run_peer(SaysTwo, [codex], install=False)
    assert record.skipped is not None and "not installed" in record.skipped
    assert record.records == []


def test_a_peer_runs_only_on_the_hosts_it_claims(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REBOOTSPEC_PEERS_CACHE", str(tmp_path / "cache"))
    installed = SaysTwo.package.folder(tmp_path / "cache")
    installed.mkdir(parents=True)
    (installed / ".rebootspec-installed").write_text("says-two==1.0\n")
    codex = _case(tmp_path, "EEEE", {"outcome": "count", "reboots": 2})
    pi = _case(tmp_path, "FFFF", {"outcome": "count", "reboots": 2})
    pi = Case(**{**pi.__dict__, "host": "pi"})
    record = board.run_peer(SaysTwo, [codex, pi], install=False)
    assert record.skipped is None
    assert [(r.case, r.outcome) for r in record.records] == [("EEEE", "pass")]


def _record(case: str, host: str, expected: int, said: int, rows: list[str]) -> CaseRecord:
    outcome = "pass" if expected == said else "fail"
    return CaseRecord(
        case=case,
        host=host,
        expected={"outcome": "count", "reboots": expected},
        outcome=outcome,
        actual={"outcome": "count", "reboots": said},
        seconds=0.5,
        rows=rows,
    )


def _board() -> dict[str, object]:
    counter = PeerRecord("counter-a", "1.2.3", "npm", "counter-a", ["codex", "pi"], "its number")
    counter.records = [
        _record("C001", "codex", 1, 1, []),
        _record("C002", "codex", 1, 2, ["counts-inherited", "greps-compact"]),
        _record("C003", "codex", 0, 0, []),
        _record("P001", "pi", 2, 1, []),
    ]
    broken = PeerRecord(
        "counter-b", "0.1", "pypi", "counter-b", ["claude-code"], "x", skipped="needs 3.12"
    )
    return {
        "date": "2026-11-27",
        "rebootspec": "9.9",
        "own": {"codex": 0.07},
        "gallery": True,
        "peers": board.as_dict([counter, broken]),
    }


def test_the_markdown_table_shows_right_over_claimed_per_host_and_each_miss_s_row() -> None:
    data = _board()
    shown = render.summary(
        command._records(data),
        {"codex": 0.07},
        date="2026-11-27",
        rebootspec_version="9.9",
        gallery=True,
    )
    table = render.markdown(shown)
    line = next(row for row in table.splitlines() if row.startswith("| counter-a "))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[2] == "2/3"  # codex: C001 and C003 right, C002 wrong
    assert cells[4] == "0/1"  # pi
    assert "counts-inherited 1" in cells[-1] and "unmatched 1" in cells[-1]
    assert "greps-compact" not in cells[-1]  # a miss is shown by its best row only
    skipped = next(row for row in table.splitlines() if row.startswith("| counter-b "))
    assert "skipped" in skipped and "needs 3.12" in skipped
    assert "2026-11-27" in table and "9.9" in table


def test_the_html_page_escapes_what_a_peer_said() -> None:
    data = _board()
    peers = command._records(data)
    peers[0].records[1].detail = "<script>alert(1)</script>"
    peers[0].records[3].detail = "<script>alert(1)</script>"
    shown = render.summary(peers, {}, date="d", rebootspec_version="v", gallery=True)
    page = render.html(shown)
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "counts-inherited" in page and "P001" in page


def test_the_readme_section_is_rewritten_between_its_markers_only(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# t\n\nbefore\n\n{render.BEGIN}\nold table\n{render.END}\n\nafter\n")
    assert render.rewrite_readme(readme, "| new | table |\n")
    text = readme.read_text()
    assert "old table" not in text and "| new | table |" in text
    assert text.startswith("# t\n\nbefore\n") and text.endswith("\nafter\n")
    assert render.rewrite_readme(readme, "| newer |\n")  # again: still one section
    assert readme.read_text().count(render.BEGIN) == 1


def test_a_readme_without_markers_is_left_alone(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# t\n")
    assert not render.rewrite_readme(readme, "| x |")
    assert readme.read_text() == "# t\n"


def test_from_json_renders_a_recorded_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = tmp_path / "in.json"
    recorded.write_bytes(orjson.dumps(_board()))
    out = tmp_path / "out"
    assert command.cli(["--from-json", str(recorded), "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"peers.json", "peers.md", "peers.html"}
    assert "| counter-a |" in capsys.readouterr().out


def test_an_unknown_peer_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.cli(["--peers", "nosuch", "--out", "/nonexistent/x"]) == 2
    assert "unknown peer 'nosuch'" in capsys.readouterr().err


def test_a_peer_that_always_says_one_number_is_shown_so() -> None:
    flat = PeerRecord("flat", "1", "pypi", "flat", ["claude-code"], "its page")
    flat.records = [
        _record("A001", "claude-code", 1, 0, ["claude-cc0-as-zero"]),
        _record("A002", "claude-code", 2, 0, []),
        _record("A003", "claude-code", 0, 0, []),
    ]
    shown = render.summary([flat], {}, date="d", rebootspec_version="v", gallery=True)
    assert shown["peers"][0]["reasons"] == [("always 0", 2)]


def test_rows_are_ranked_by_how_well_they_model_the_peer() -> None:
    from rebootspec.conformance.scoreboard.gallery import rank

    rows = ["greps-compact", "claude-counts-summaries", "claude-counts-sidechains"]
    agreement = {"claude-counts-summaries": 3, "claude-counts-sidechains": 19, "greps-compact": 20}
    ranked = rank(rows, frozenset({"claude-sidechain"}), agreement)
    assert ranked == ["claude-counts-sidechains", "claude-counts-summaries", "greps-compact"]


def test_no_answer_matches_a_row_that_rejects_only_on_a_valid_log() -> None:
    from rebootspec.conformance.scoreboard.gallery import _same, peer_answer

    nothing = peer_answer({"outcome": "bad-output", "reason": "no session"})
    assert nothing == ("reject", None)
    assert _same(("reject", "E-HOST"), nothing)
    assert not _same(("count", 0), nothing)
    assert _same(("count", 2), ("count", 2)) and not _same(("count", 1), ("count", 2))
    invalid = CaseRecord(
        case="X",
        host="pi",
        expected={"outcome": "reject", "error": "E-JSON"},
        outcome="bad-output",
        actual={"outcome": "bad-output", "reason": "none"},
        seconds=0.1,
    )
    assert command._said(invalid) is None  # every row rejects it too: stays "no answer"
