"""Text read from a report or a corpus reaches the terminal escaped (ERR-10, issue 43 defect 7).

`compare` prints case names, titles and answers it reads from two report.json files, `cases`
prints the names, hosts, tags and rules of whatever corpus `--corpus` names. A file with an
escape sequence and a line break in those strings must print as visible escapes on the lines
it always takes, never paint the terminal or forge a line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebootspec.conformance.cli import main as rebootspec

HOSTILE = "x\x1b[31mRED\x1b]0;pwned\x07\nFAIL: forged"


def _raw(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c != "\n") or ord(c) == 127]


def _report(path: Path, outcome: str) -> str:
    case = {"id": "ZZZ1", "name": HOSTILE, "title": HOSTILE, "host": "vscode"}
    case |= {"outcome": outcome, "gate": outcome, "expected": {"reboots": 1}}
    case |= {"actual": {"reboots": HOSTILE}}
    report = {"header": {}, "verdict": "PASS", "totals": {}, "matrix": {}, "cases": [case]}
    path.write_text(json.dumps(report))
    return str(path)


def test_compare_prints_a_reports_strings_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A case that newly broke, named and titled with an escape and a line break: its line is
    one line, the escapes visible, and no line of the output is the forged `FAIL: forged`."""
    old = _report(tmp_path / "old.json", "pass")
    new = _report(tmp_path / "new.json", "fail")
    code = rebootspec(["compare", old, new])
    out = capsys.readouterr().out
    assert code == 1, out
    assert not _raw(out), out
    assert "\\x1b[31mRED" in out
    assert not any(line.startswith("FAIL: forged") for line in out.splitlines()), out


def test_cases_lists_a_corpus_strings_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cases --corpus` over a copy of one case whose name holds an escape: listed escaped, or
    refused in one escaped line; never raw."""
    root = Path(__file__).resolve().parents[2] / "fixtures" / "446W"
    case = tmp_path / "corpus" / "446W"
    case.mkdir(parents=True)
    (case / "session.jsonl").write_bytes((root / "session.jsonl").read_bytes())
    text = (root / "case.toml").read_text("utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name = "))
    (case / "case.toml").write_text(text.replace(name, 'name = "x\\u001b[31mRED\\nforged"'))
    rebootspec(["cases", "--corpus", str(tmp_path / "corpus")])
    captured = capsys.readouterr()
    assert not _raw(captured.out + captured.err), captured
    assert "forged" not in "".join(line[:6] for line in captured.out.splitlines())


@pytest.mark.parametrize(
    "change",
    [{}, {"header": {"candidate": 5}}, {"totals": {"cases": "many"}}],
    ids=["members-missing", "candidate-a-number", "totals-of-text"],
)
def test_report_of_a_report_it_cannot_show_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object]
) -> None:
    """A report.json of the right shape whose members the pages cannot show (hand-made or
    damaged) is one line naming it, exit 2, and no page half written (it was a jinja2
    traceback after report.json had been written)."""
    path = tmp_path / "bad.json"
    _report(path, "fail")
    data = json.loads(path.read_text()) | change
    path.write_text(json.dumps(data))
    out = tmp_path / "pages"
    code = rebootspec(["report", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "bad.json" in err, err
    assert "Traceback" not in err and not _raw(err)
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    ("where", "member", "value"),
    [
        ("header", "candidate", 5),
        ("header", "candidate", [1]),
        ("header", "selection", "all"),
        ("case", "actual", "two"),
        ("case", "actual", [2]),
    ],
)
def test_compare_of_reports_with_members_of_other_types_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, member: str, value: object
) -> None:
    """Reports of the right shape with a member of another type (each was a traceback in one
    direction at least): a comparison when the member is not read (1: the reports differ),
    else one line naming both files, exit 2, nothing on stdout."""
    good = _report(tmp_path / "good.json", "fail")
    data = json.loads(Path(good).read_text())
    (data["header"] if where == "header" else data["cases"][0])[member] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    codes = []
    for old, new in ((good, str(bad)), (str(bad), good)):
        codes.append(rebootspec(["compare", old, new]))  # an exception fails the test here
        out = capsys.readouterr()
        if codes[-1] == 2:
            assert out.out == "" and len(out.err.splitlines()) == 1, out
            assert "bad.json" in out.err and not _raw(out.err)
        else:
            assert codes[-1] == 1 and out.err == "", out
    assert 2 in codes


@pytest.mark.parametrize("rematch", [[], ["--rematch"]])
def test_peers_from_a_peers_json_of_other_types_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rematch: list[str]
) -> None:
    """A peers.json whose peer is a number (it was an AttributeError traceback): one line
    naming it, exit 2, no page written."""
    path = tmp_path / "peers.json"
    path.write_text(json.dumps({"peers": [5]}))
    out = tmp_path / "pages"
    code = rebootspec(["peers", "--from-json", str(path), "--out", str(out), *rematch])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "peers.json" in err, err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "a.json", "b.json", "--allow-different", HOSTILE],
        ["anonymize", "a.jsonl", "b.jsonl", "--nope" + HOSTILE],
        ["cases", "--host", HOSTILE],
    ],
    ids=["a-bad-value", "an-unknown-option", "an-unknown-host"],
)
def test_a_usage_error_quoting_what_was_typed_is_escaped(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """argparse's messages quote the word typed; every subcommand's usage error is one line
    with it escaped (the parser's own error wrote it raw)."""
    try:
        code = rebootspec(args)
    except SystemExit as stop:  # argparse's way out, as the console script takes it
        code = int(stop.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and not _raw(err), err
    assert err.startswith("usage error: ")


def test_cases_with_a_corpus_name_too_long_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A --corpus name the system refuses (ENAMETOOLONG) was an OSError traceback."""
    assert rebootspec(["cases", "--corpus", "x" * 5000]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "too long" in err.lower(), err[:300]
