"""`rebootspec sessions` on fake homes: the rows a user sees, and nothing stops the scan."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_homes import (
    CODEX_CASE,
    FIXTURES,
    PI_REJECTED,
    VSCODE_CASE,
    FakeHome,
    expected,
    make_home,
    subprocess_env,
    use,
)

from rebootspec.conformance.commands import session_rows, sessions
from rebootspec.reference.sessions import finder
from rebootspec.reference.sessions.finder import Found

VS_ID = "634638ae-5f0e-4c1b-9a57-0d3e1c2b7a10"
CODEX_ID = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
PI_ID = "7eb0cddb-8209-448f-8553-6181b3013229"
DAY = 86400
NOW = 1_790_000_000  # 2026-09-21: the mtimes the tests give their files


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def listing(*argv: str, err: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), err if err is not None else io.StringIO()
    code = sessions.cli(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def rows(*argv: str) -> list[dict[str, Any]]:
    code, out, _ = listing("--json", *argv)
    assert code == 0
    return [orjson.loads(line) for line in out.splitlines()]


def age(path: Path, days: float) -> Path:
    os.utime(path, (NOW - days * DAY, NOW - days * DAY))
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHome:
    fake = make_home(tmp_path, "linux")
    use(fake, monkeypatch)
    return fake


@pytest.fixture
def three(home: FakeHome) -> FakeHome:
    """One session of each host: pi the newest, then Codex, then VS Code."""
    age(home.add_vscode(VS_ID), 30)
    age(home.add_codex(CODEX_ID), 2)
    age(home.add_pi(PI_ID), 1)
    return home


def test_json_rows_newest_first_with_counts_and_titles(three: FakeHome) -> None:
    found = rows()
    assert [(r["host"], r["id"], r["reboots"], r["warnings"]) for r in found] == [
        ("pi", PI_ID, 1, []),
        ("codex", CODEX_ID, 1, []),
        ("vscode", VS_ID, 1, []),
    ]
    assert found[1]["title"] == "please host summary value branch record host line tool"
    assert found[2]["title"] == "step 0"  # the first request's message
    assert found[0]["title"].startswith("value parser branch")  # pi's first user message
    assert found[0]["modified"].startswith("2026-09-")
    assert all(Path(r["file"]).is_file() for r in found)


def test_the_table_for_people(three: FakeHome) -> None:
    code, out, err = listing()
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split() == ["modified", "host", "reboots", "id", "title", "warnings"]
    assert [line.split()[2:5] for line in lines[1:]] == [
        ["pi", "1", "7eb0cddb"],
        ["codex", "1", "0199a1b2"],
        ["vscode", "1", "634638ae"],
    ]
    assert err.startswith("3 session(s), 0 row(s) with warnings; counted in ")


def test_ids_are_shown_by_their_shortest_unique_prefix() -> None:
    assert sessions.short_ids(["abcdef0123", "abcdef0199", "ffff00001111"]) == {
        "abcdef0123": "abcdef012",
        "abcdef0199": "abcdef019",
        "ffff00001111": "ffff0000",
    }


def test_a_bad_file_is_a_warning_row_and_the_scan_goes_on(home: FakeHome) -> None:
    age(home.add_codex(CODEX_ID), 1)
    age(home.add_pi(PI_ID, case=PI_REJECTED), 2)
    folder = home.appdata / "Code" / "User" / "workspaceStorage" / "w" / "chatSessions"
    folder.mkdir(parents=True)
    folder.joinpath("11111111-bad.jsonl").write_bytes(b'{"kind":0,"v":{"requests":[]}\n')
    folder.joinpath("22222222-other.jsonl").write_bytes(b'{"role":"user"}\n')
    found = {r["id"]: r for r in rows()}
    assert found[CODEX_ID]["reboots"] == 1
    rejected = found[PI_ID]
    assert rejected["reboots"] is None
    assert [w["code"] for w in rejected["warnings"]] == [expected(PI_REJECTED)["error"]]
    assert rejected["warnings"][0]["message"].startswith(f"line {expected(PI_REJECTED)['line']}: ")
    assert [w["code"] for w in found["22222222-other"]["warnings"]] == ["E-HOST"]
    assert found["11111111-bad"]["reboots"] is None and found["11111111-bad"]["warnings"]
    code, out, _ = listing()
    assert code == 0 and "Traceback" not in out
    assert any(line.split()[-1] == "E-HOST" for line in out.splitlines())


def test_an_unreadable_folder_is_a_warning_row(
    three: FakeHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = three.home / ".codex" / "sessions" / "2026"
    real = os.scandir

    def scandir(path: Any) -> Any:  # chmod 000 cannot stop root, so the listing is refused here
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(finder.os, "scandir", scandir)
    found = rows()
    assert {r["id"] for r in found if r["id"]} == {PI_ID, VS_ID}  # the others still listed
    assert [r for r in found if not r["id"]] == [
        {
            "host": "-",
            "id": None,
            "title": "",
            "modified": None,
            "reboots": None,
            "warnings": [{"code": "E-READ", "message": "cannot list: Permission denied"}],
            "file": str(locked),
            "size": None,
            "store": None,
        }
    ]


def test_a_symlink_loop_does_not_hang(three: FakeHome) -> None:
    day = three.home / ".codex" / "sessions" / "2026" / "03" / "01"
    (day / "back-to-sessions").symlink_to(three.home / ".codex" / "sessions")
    (day / "rollout-2026-03-01T11-00-00-selfloop.jsonl").symlink_to(
        day / "rollout-2026-03-01T11-00-00-selfloop.jsonl"
    )
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "sessions", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=subprocess_env(three),
    )
    assert done.returncode == 0, done.stderr
    found = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert sorted(r["id"] for r in found if r["id"]) == sorted([CODEX_ID, PI_ID, VS_ID, "selfloop"])
    loop = next(r for r in found if r["id"] == "selfloop")
    assert loop["warnings"][0]["code"] == "E-READ"
    assert [r["warnings"][0]["code"] for r in found if not r["id"]] == ["W-LOOP"]


def test_a_file_that_vanished_is_a_warning(tmp_path: Path) -> None:
    row = session_rows.count_row(Found("codex", "codex sessions", "x", str(tmp_path / "gone")))
    assert (row["reboots"], row["warnings"][0]["code"]) == (None, "E-READ")
    assert row["warnings"][0]["message"] == "the file vanished while the scan ran"


def test_a_file_that_grows_while_it_is_read_is_counted_with_a_warning(
    home: FakeHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = home.add_codex(CODEX_ID)
    read = session_rows._read

    def growing(name: str, size: int, *session: Any) -> Any:
        answer = read(name, size, *session)
        with open(name, "ab") as handle:  # a live session appends while we read it
            handle.write(b'{"type":"event_msg","payload":{"type":"token_count"}}\n')
        return answer

    monkeypatch.setattr(session_rows, "_read", growing)
    row = session_rows.count_row(Found("codex", "codex sessions", CODEX_ID, str(path)))
    assert row["reboots"] == 1
    assert [w["code"] for w in row["warnings"]] == ["W-CHANGED"]


def test_since_and_host_select(three: FakeHome) -> None:
    old = sessions.since_type("2026-09-15")
    assert sorted(r["id"] for r in rows("--since", "2026-09-15")) == sorted([PI_ID, CODEX_ID])
    assert old < NOW - 2 * DAY
    assert [r["id"] for r in rows("--host", "vscode")] == [VS_ID]
    assert [r["id"] for r in rows("--host", "pi", "--host", "codex")] == [PI_ID, CODEX_ID]


def test_since_ages() -> None:
    assert sessions.since_type("7d", now=NOW) == NOW - 7 * DAY
    assert sessions.since_type("12h", now=NOW) == NOW - 12 * 3600
    assert sessions.since_type("2w", now=NOW) == NOW - 14 * DAY


@pytest.mark.parametrize("argv", [["--since", "last week"], ["--jobs", "0"], ["--host", "claude"]])
def test_usage_errors_are_one_line(
    home: FakeHome, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = listing(*argv)
    err = capsys.readouterr().err  # argparse's errors go to the process's stderr
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("usage error: ")


def test_path_lists_other_folders_of_any_layout(home: FakeHome, tmp_path: Path) -> None:
    copies = tmp_path / "saved"
    copies.mkdir()
    shutil.copyfile(FIXTURES / CODEX_CASE / "session.jsonl", copies / "0a0a0a0a-codex.jsonl")
    shutil.copyfile(FIXTURES / VSCODE_CASE / "session.jsonl", copies / "0b0b0b0b-vscode.jsonl")
    (copies / "notes.txt").write_text("not a session")
    other = make_home(tmp_path / "other", "linux")
    other.add_pi(PI_ID)
    home.add_vscode(VS_ID)  # the default store: not listed when --path is given
    found = rows("--path", str(copies), "--path", str(other.home / ".pi" / "agent"))
    assert sorted((r["host"], r["id"], r["reboots"]) for r in found) == [
        ("codex", "0a0a0a0a-codex", 1),  # the host is the content's (HST-2)
        ("pi", PI_ID, 1),
        ("vscode", "0b0b0b0b-vscode", 1),
    ]


def test_nothing_found_says_where_it_looked(home: FakeHome) -> None:
    code, out, err = listing()
    assert code == 0
    assert out.splitlines()[1:] == []
    assert err.splitlines()[0] == "no sessions found; looked in:"
    assert f"{home.home / '.codex'}  (not there)" in err


def test_progress_only_on_a_terminal(three: FakeHome) -> None:
    _, out_pipe, err_pipe = listing()
    _, out_tty, err_tty = listing(err=Terminal())
    assert "counting" not in err_pipe
    assert "counting" in err_tty and "file" in err_tty  # tqdm's bar
    assert out_pipe == out_tty


def test_the_pool_gives_the_rows_one_process_gives(home: FakeHome) -> None:
    """Enough files for the process pool; every core's rows equal the serial rows."""
    for index in range(sessions.SERIAL_BELOW + 6):
        home.add_codex(f"{index:08x}-0000", day=f"2026/03/{1 + index % 9:02d}")
        home.add_pi(f"{index:08x}-1111", cwd=f"--p{index % 4}--")
    home.add_pi("ffffffff-2222", case=PI_REJECTED)
    found = finder.scan(sessions.roots()).found
    assert sessions.processes(len(found), 2) == 2
    pooled = sessions.count_all(found, jobs=2)
    serial = sessions.count_all(found, jobs=1)
    key = lambda r: r["file"]  # noqa: E731
    assert sorted(pooled, key=key) == sorted(serial, key=key)
    assert len(pooled) == 2 * (sessions.SERIAL_BELOW + 6) + 1
    assert sum(1 for r in pooled if r["warnings"]) == 1


def test_every_host_s_count_in_the_listing_is_the_case_s(home: FakeHome) -> None:
    """The listing counts with the reference's readers: each copied case keeps its answer."""
    cases = {"vscode": [], "codex": [], "pi": []}  # type: dict[str, list[str]]
    for toml in sorted(FIXTURES.glob("*/case.toml")):
        text = toml.read_text(encoding="utf-8")
        found = re.search(r'^host = "([^"]+)"', text, re.M)
        host = found[1] if found else "vscode"
        if host not in cases:  # Claude Code and Gemini CLI names carry ids of their own shape
            continue
        if (toml.parent / "session.jsonl").is_file() and len(cases[host]) < 6:
            cases[host].append(toml.parent.name)
    for host, names in cases.items():
        for index, case in enumerate(names):
            ident = f"{index:04d}{case.lower()}-{host}"
            {"vscode": home.add_vscode, "codex": home.add_codex, "pi": home.add_pi}[host](
                ident, case=case
            )
    for row in rows():
        case = row["id"][4:8].upper()
        want = expected(case)
        if want["outcome"] == "count":
            assert (row["reboots"], row["host"]) == (want["reboots"], row["id"].split("-")[1])
        else:
            assert row["reboots"] is None
            assert row["warnings"][0]["code"] == want["error"]
