"""Cases whose input is several files (spec/FIXTURES.md, "Inputs of several files"; PRO-1).

An opencode database comes with its WAL and holds many sessions; basic-agent-chat-loop keeps a
chain of session files in one folder. The runner must give the candidate the whole folder,
read-only and under the host's own names, the path the case names in it, and the session id:
in `{session}`, or appended after the path. The candidate here is a small script that reports
what it was given, so each assertion is about what a real candidate would see.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.runner.candidates import (
    CaseInput,
    CommandCandidate,
    ReferenceCandidate,
)
from rebootspec.conformance.runner.integrity import digest_tree, input_digest, subtree_digest
from rebootspec.generators.corpus import casefile

# Reports its argv, the files it can see under its working directory, and whether they have a
# write bit (root may write anyway), as one JSON object; exit 0 with `reboots` so the answer
# reader takes it.
REPORTER = """
import json, os, sys
seen = {}
for folder, _, names in os.walk("."):
    for name in names:
        path = os.path.join(folder, name)
        seen[os.path.relpath(path)] = bool(os.stat(path).st_mode & 0o222)  # any write bit
print(json.dumps({"reboots": 0, "argv": sys.argv[1:], "files": seen, "cwd": os.getcwd()}))
"""


def reporter(tmp_path: Path) -> Path:
    script = tmp_path / "reporter.py"
    script.write_text(REPORTER, encoding="utf-8")
    return script


def store_case(tmp_path: Path) -> CaseInput:
    """A case folder with `input/opencode.db` and `input/opencode.db-wal`."""
    root = tmp_path / "case" / "input"
    root.mkdir(parents=True)
    (root / "opencode.db").write_bytes(b"SQLite format 3\x00" + bytes(84))
    (root / "opencode.db-wal").write_bytes(b"wal frames")
    return CaseInput(root / "opencode.db", root, "ses_0123")


def answer(result_stdout: str) -> dict[str, object]:
    value = json.loads(result_stdout)
    assert isinstance(value, dict)
    return value


def test_the_whole_input_folder_is_copied_read_only_and_the_session_appended(
    tmp_path: Path,
) -> None:
    given = store_case(tmp_path)
    candidate = CommandCandidate.parse(f"{sys.executable} {reporter(tmp_path)}")
    run = candidate.run(given, timeout=30)
    assert run.exit_code == 0, run.stderr
    seen = answer(run.stdout)
    assert seen["files"] == {"input/opencode.db": False, "input/opencode.db-wal": False}
    argv = seen["argv"]
    assert isinstance(argv, list)
    assert argv[-2:] == [f"{seen['cwd']}/input/opencode.db", "ses_0123"]
    assert (tmp_path / "case" / "input" / "opencode.db-wal").read_bytes() == b"wal frames"


def test_the_session_placeholder_is_replaced_where_the_command_puts_it(tmp_path: Path) -> None:
    given = store_case(tmp_path)
    command = f"{sys.executable} {reporter(tmp_path)} --session={{session}} --db {{path}}"
    run = CommandCandidate.parse(command).run(given, timeout=30)
    argv = answer(run.stdout)["argv"]
    assert isinstance(argv, list)
    assert argv[0] == "--session=ses_0123"
    assert argv[1] == "--db" and argv[2].endswith("/input/opencode.db")
    assert len(argv) == 3  # nothing appended when the command places both


def test_a_case_without_a_session_drops_the_words_that_hold_the_placeholder() -> None:
    candidate = CommandCandidate(("tool", "{path}", "--session={session}"))
    assert candidate.command_for(Path("/w/session.jsonl")) == ["tool", "/w/session.jsonl"]
    assert CommandCandidate(("tool",)).command_for(Path("/w/s.jsonl")) == ["tool", "/w/s.jsonl"]


def test_a_folder_input_path_names_a_folder_inside_the_copy(tmp_path: Path) -> None:
    root = tmp_path / "case" / "input"
    (root / "storage" / "session" / "global").mkdir(parents=True)
    (root / "storage" / "session" / "global" / "ses_1.json").write_text("{}", encoding="utf-8")
    given = CaseInput(root / "storage", root, "ses_1")
    run = CommandCandidate.parse(f"{sys.executable} {reporter(tmp_path)}").run(given, timeout=30)
    seen = answer(run.stdout)
    assert seen["files"] == {"input/storage/session/global/ses_1.json": False}
    argv = seen["argv"]
    assert isinstance(argv, list)
    assert argv[-2] == f"{seen['cwd']}/input/storage"


def test_one_file_cases_still_get_the_neutral_name(tmp_path: Path) -> None:
    log = tmp_path / "a-revealing-name.jsonl"
    log.write_bytes(b'{"kind":0,"v":{}}\n')
    run = CommandCandidate.parse(f"{sys.executable} {reporter(tmp_path)}").run(log, timeout=30)
    seen = answer(run.stdout)
    assert seen["files"] == {"session.jsonl": False}


def test_the_in_process_reference_is_given_the_session(tmp_path: Path) -> None:
    """The reference reads a store: with a session it is asked about that one (a database it
    cannot read is a rejection naming the copy, never a crash)."""
    run = ReferenceCandidate().run(store_case(tmp_path), timeout=30)
    assert run.start_error is None
    assert run.exit_code in (0, 1, 2), run.stderr
    assert "Traceback" not in run.stderr


def test_a_folder_inputs_digest_is_the_same_from_the_start_tree_and_from_disk(
    tmp_path: Path,
) -> None:
    given = store_case(tmp_path)
    corpus = tmp_path / "case"
    at_start = subtree_digest(digest_tree(corpus), "input")
    assert at_start is not None and at_start == input_digest(corpus / "input")
    (corpus / "input" / "opencode.db-wal").write_bytes(b"changed")
    assert input_digest(given.root or corpus) != at_start


CASE = """id = "ZZ33"
title = "a store case for the case-input tests"
host = "opencode"
rules = ["ERR-15"]
tags = ["aba"]
era = "none"
container = "{container}"
{extra}provenance = "author:test"

[expect]
outcome = "reject"
error = "E-SESSION"
line = 0
"""


def write_case(tmp_path: Path, container: str, extra: str) -> Path:
    folder = tmp_path / "ZZ33"
    (folder / "input").mkdir(parents=True)
    (folder / "input" / "opencode.db").write_bytes(b"SQLite format 3\x00")
    text = CASE.format(container=container, extra=extra)
    (folder / "case.toml").write_text(text, encoding="utf-8")
    return folder


def test_a_folder_case_loads_with_its_input_root_and_session(tmp_path: Path) -> None:
    folder = write_case(tmp_path, "sqlite", 'input = "opencode.db"\nsession = "ses_9"\n')
    case = casefile.load_case(folder)
    assert case.input == folder / "input" / "opencode.db"
    assert case.input_root == folder / "input"
    assert case.copied == folder / "input"
    assert case.session == "ses_9"


@pytest.mark.parametrize(
    ("container", "extra", "reason"),
    [
        ("sqlite", "", "names its input"),
        ("sqlite", 'input = "../ZZ33/case.toml"\n', "not a relative path"),
        ("sqlite", 'input = "/etc/passwd"\n', "not a relative path"),
        ("sqlite", 'input = "other.db"\n', "input/other.db is missing"),
        ("jsonl", 'input = "opencode.db"\n', "input is only for"),
        ("sqlite", 'input = "opencode.db"\nsession = 7\n', "is not a session id"),
    ],
)
def test_a_bad_folder_case_is_one_line_naming_its_file(
    tmp_path: Path, container: str, extra: str, reason: str
) -> None:
    folder = write_case(tmp_path, container, extra)
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.load_case(folder)
    text = str(caught.value)
    assert "\n" not in text and text.startswith(str(folder / "case.toml"))
    assert reason in text


def test_the_schema_requires_input_exactly_for_folder_containers() -> None:
    base = casefile.read_toml(Path(__file__).parents[2] / "fixtures" / "233D" / "case.toml")
    with_input = {**base, "input": "session.jsonl"}
    assert any("input" in p for p in casefile.schema_problems(with_input))
    folder = {**base, "container": "markdown"}
    assert any("input" in p for p in casefile.schema_problems(folder))
    assert casefile.schema_problems({**folder, "input": "a.md"}) == []
    assert casefile.schema_problems({**folder, "input": "../a.md"}) != []


def test_copied_files_lose_their_write_bits(tmp_path: Path) -> None:
    given = store_case(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    placed = given.place(work)
    assert placed == work / "input" / "opencode.db"
    assert not placed.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
