"""The reference's quick reading of its command line (no argparse on the hot path) takes only
what argparse would take the same way, and a mistyped option is named with the nearest one."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from rebootspec.reference.cli import build_parser, main, quick_args

WORDS = [
    "count", "explain", "s.jsonl", "t.json", "--readable", "--retry", "3", "0", "100", "101",
    "-1", "+3", "x", "--host", "pi", "codex", "vscode", "nope", "--", "-h", "--help",
    "--retry=2", "--read", "--readabel", "", "-", "٣",
]  # fmt: skip


def argparse_reading(argv: list[str]) -> tuple[object, ...] | None:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        return None
    return (args.command, args.path, args.in_store, args.retry, args.readable, args.host)


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5])
def test_quick_reading_agrees_with_argparse(
    length: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command line of up to five of these words (a sample of the longer ones): where
    the quick reading answers, argparse answers the same."""
    lines = itertools.product(WORDS, repeat=length)
    for index, argv in enumerate(lines):
        if length >= 4 and index % 97:
            continue
        quick = quick_args(list(argv))
        if quick is None:
            continue
        reading = (quick.command, quick.path, quick.in_store, quick.retry, quick.readable)
        assert (*reading, quick.host) == (argparse_reading(list(argv))), argv
    capsys.readouterr()


def test_plain_command_lines_are_read_quickly() -> None:
    for argv in (
        ["count", "s.jsonl"],
        ["explain", "--readable", "s.jsonl", "--retry", "3", "--host", "pi"],
    ):
        assert quick_args(argv) is not None


@pytest.mark.parametrize(
    ("typo", "message"),
    [
        ("--readabel", "unknown option --readabel; did you mean --readable?"),
        ("--hots", "unknown option --hots; did you mean --host?"),
        ("--retyr=3", "unknown option --retyr; did you mean --retry?"),
        ("--zzzzzz", "unknown option --zzzzzz"),
    ],
)
def test_a_mistyped_option_names_the_nearest(
    typo: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["count", "s.jsonl", typo], out, err) == 2
    assert capsys.readouterr().err == f"usage error: {message} (try --help)\n"
    assert out.getvalue() == ""


def test_the_era_literal_is_the_era_table() -> None:
    """reference/eras_table.py (start-up: no TOML parsing) holds spec/eras.toml exactly; after
    an edit of the TOML run `python -m rebootspec.reference.eras` to write it again."""
    import tomllib

    from rebootspec.reference.hosts.vscode import eras, eras_table

    with open(eras.ERAS_FILE, "rb") as handle:
        data = handle.read()
    assert data == eras_table.SOURCE, "run: python -m rebootspec.reference.hosts.vscode.eras"
    assert tomllib.loads(data.decode()) == eras_table.TABLE
    assert eras.load_table() is eras_table.TABLE


def test_an_edited_era_table_is_parsed(tmp_path: Path) -> None:
    import tomllib

    from rebootspec.reference.hosts.vscode import eras

    path = Path(str(tmp_path)) / "eras.toml"
    path.write_bytes(Path(eras.ERAS_FILE).read_bytes().replace(b"Compacted", b"Kompaktiert"))
    assert eras.load_table(str(path)) == tomllib.loads(path.read_text())


def run_count(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_path_and_a_session_ask_about_that_session_in_the_path(tmp_path: Path) -> None:
    """`count PATH SESSION` and `count PATH --session ID` are one question (PRO-1's appended
    id); naming two different sessions is a usage error, never a guess."""
    log = tmp_path / "s.jsonl"
    log.write_bytes(b'{"kind":0,"v":{"requests":[]}}\n')
    assert quick_args(["count", str(log), "ses_1"]) is not None
    plain = run_count(["count", str(log)])
    # one session's log (issue #35): its own id is accepted, another id is never ignored
    assert run_count(["count", str(log), "s"]) == plain
    assert run_count(["count", str(log), "--session", "s"]) == plain
    for other in (["ses_1"], ["--session", "ses_1"]):
        code, out, err = run_count(["count", str(log), *other])
        assert (code, out) == (2, "") and err.startswith("usage error: ") and "ses_1" in err
    code, out, err = run_count(["count", str(log), "ses_1", "--session", "ses_2"])
    assert (code, out) == (2, "") and err.startswith("usage error: two different sessions")


@pytest.mark.parametrize(
    ("name", "data", "usable"),
    [
        ("notes.txt", b"hello", False),
        ("opencode.db", b"not a database", True),  # by name: the reader judges its content
        ("store", b"SQLite format 3\x00" + bytes(84), True),  # by its header, whatever its name
        ("chat.md", b"# Agent Session", True),
    ],
)
def test_what_a_path_may_be(tmp_path: Path, name: str, data: bytes, usable: bool) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    code, _, err = run_count(["count", str(path)])
    if usable:
        assert code != 2, err
    else:
        assert (
            code == 2
            and err
            == f"error: {path}: not a .json, .jsonl, .jsonl.zst or .md "
            "file, a database or a storage folder\n"
        )
