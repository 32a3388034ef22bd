"""Hostile stores and names (issue #32): whatever the disk holds, one line or an answer.

Each test builds its input on the fly (a tiny opencode database or storage folder, a FIFO, a
link to /dev/zero) and runs `rebootspec.reference count` in a child process with a private
temporary folder, a time bound and a bound on the size of any file it writes, so a regression
fails the test instead of filling the disk or hanging it. Expected outcomes are the spec's
(OPC-12, ERR-12), written here by hand.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILE_LIMIT = 8 << 20  # no file this suite makes or copies comes near it
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero")

SUMMARY = {"role": "assistant", "parentID": "msg_1", "summary": True, "finish": "stop"}


def _bounded() -> None:
    """In the child: a write past FILE_LIMIT fails (SIGXFSZ) instead of filling the disk."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


def run(
    *args: str, tmp: Path, env: dict[str, str] | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """`python -m rebootspec.reference ARGS` with its own TMPDIR (to see what it leaves)."""
    tmp.mkdir(exist_ok=True)
    environment = {**os.environ, "TMPDIR": str(tmp), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.reference", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=environment,
        preexec_fn=_bounded,
    )


def one_line(done: subprocess.CompletedProcess[str], code: str, exit_code: int = 1) -> str:
    """The run ended with exactly one stderr line carrying `code`, and nothing on stdout."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == exit_code, (done.returncode, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f": {code}: " in lines[0], lines[0]
    return lines[0]


def database(path: Path) -> Path:
    """An opencode database of one session `ses_a` with one completed compaction pair."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE session (id text, time_created integer, version text);"
        "CREATE TABLE message (id text, session_id text, time_created integer, data text);"
        "CREATE TABLE part (id text, message_id text, session_id text, data text);"
        "INSERT INTO session VALUES ('ses_a', 1000, '1.2.1');"
        "INSERT INTO message VALUES ('msg_1', 'ses_a', 2000, '{\"role\":\"user\"}');"
        "INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', '{\"type\":\"compaction\"}');"
    )
    connection.execute("INSERT INTO message VALUES ('msg_2', 'ses_a', 3000, ?)", (
        json.dumps(SUMMARY),
    ))  # fmt: skip
    connection.commit()
    connection.close()
    return path


def storage(folder: Path) -> Path:
    """An opencode storage folder (before 1.2) of one session `ses_a`: one compaction pair."""
    files = {
        "session/prj/ses_a.json": {"id": "ses_a", "version": "1.0.50", "time": {"created": 1}},
        "message/ses_a/msg_1.json": {"id": "msg_1", "role": "user", "time": {"created": 2}},
        "message/ses_a/msg_2.json": {"id": "msg_2", **SUMMARY, "time": {"created": 3}},
        "part/msg_1/prt_1.json": {"id": "prt_1", "type": "compaction"},
    }
    for name, value in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value))
    return folder


def test_the_generated_stores_count_one_reboot(tmp_path: Path) -> None:
    """The inputs below differ from these by one hostile entry: the plain ones count 1."""
    for store in (database(tmp_path / "db" / "opencode.db"), storage(tmp_path / "storage")):
        done = run("count", str(store), "ses_a", tmp=tmp_path / "tmp")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["reboots"] == 1


# -- 1. special files are never copied or read (OPC-12, ERR-12) ---------------------------


@posix_only
def test_a_database_linked_to_dev_zero_is_refused_without_a_copy(tmp_path: Path) -> None:
    store = tmp_path / "data" / "opencode.db"
    store.parent.mkdir()
    store.symlink_to("/dev/zero")
    for args in (["--host", "opencode", str(store), "ses_a"], [str(store), "ses_a"]):
        line = one_line(run("count", *args, tmp=tmp_path / "tmp"), "E-READ")
        assert "character device" in line
    assert list((tmp_path / "tmp").iterdir()) == []  # nothing copied, nothing left


@posix_only
def test_a_fifo_named_as_a_database_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "opencode.db"
    os.mkfifo(fifo)
    line = one_line(run("count", "--host", "opencode", str(fifo), timeout=20, tmp=tmp_path / "t"),
                    "E-READ")  # fmt: skip
    assert "FIFO" in line and "(None)" not in line


def test_a_file_without_the_sqlite_header_is_not_copied_as_a_database(tmp_path: Path) -> None:
    store = tmp_path / "opencode.db"
    store.write_bytes(b"not a database at all\n" * 10)
    line = one_line(run("count", "--host", "opencode", str(store), "ses_a", tmp=tmp_path / "t"),
                    "E-READ")  # fmt: skip
    assert "SQLite header" in line


@posix_only
@pytest.mark.parametrize("suffix", ["-wal", "-journal"])
def test_a_side_file_linked_to_dev_zero_is_refused(tmp_path: Path, suffix: str) -> None:
    store = database(tmp_path / "opencode.db")
    Path(f"{store}{suffix}").symlink_to("/dev/zero")
    line = one_line(run("count", str(store), "ses_a", tmp=tmp_path / "tmp"), "E-READ")
    assert f"opencode.db{suffix}" in line
    assert list((tmp_path / "tmp").iterdir()) == []


@posix_only
def test_the_session_finder_does_not_wait_on_a_fifo_store(tmp_path: Path) -> None:
    """`count --session` walks the data folder; a FIFO `opencode.db` there is a problem listed
    beside the sessions, never a hang; the storage folder beside it is still found."""
    data = tmp_path / "share" / "opencode"
    storage(data / "storage")
    os.mkfifo(data / "opencode.db")
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share")}
    done = run("count", "--session", "ses_a", tmp=tmp_path / "tmp", env=env, timeout=20)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reboots"] == 1
    missing = run("count", "--session", "ses_zz", tmp=tmp_path / "tmp", env=env, timeout=20)
    assert missing.returncode == 2
    assert "E-READ" in missing.stderr and "FIFO" in missing.stderr


@posix_only
def test_is_store_does_not_open_a_fifo(tmp_path: Path) -> None:
    from rebootspec.reference.core.registry import get

    fifo = tmp_path / "opencode.db"
    os.mkfifo(fifo)
    assert get("opencode").is_store(str(fifo)) is False  # a hang here would block the test


@posix_only
@pytest.mark.parametrize(
    "entry", ["session/prj/ses_b.json", "message/ses_a/msg_3.json", "part/msg_1/prt_2.json"]
)
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "loop"])
def test_a_special_file_among_the_records_is_unreadable(
    tmp_path: Path, entry: str, kind: str
) -> None:
    """OPC-12: a record that cannot be read makes the session unreadable; never skipped."""
    store = storage(tmp_path / "storage")
    target = store / entry
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    else:
        target.symlink_to(target.name)  # a link to itself: ELOOP on open
    session = "ses_b" if entry.startswith("session/") else "ses_a"
    line = one_line(run("count", str(store), session, tmp=tmp_path / "tmp", timeout=20), "E-READ")
    assert target.name in line


# -- 2. ids stay inside the store (OPC-12) -------------------------------------------------


OUTSIDE = "OUTSIDE"  # replaced by the absolute path of a folder beside the store


@pytest.mark.parametrize(
    "ident", [OUTSIDE, "../../outside", "..", ".", "a/b", "a\\b", "msg\u0000x", ""]
)
def test_a_message_id_that_is_not_a_plain_name_is_unreadable(tmp_path: Path, ident: str) -> None:
    """A message's `id` names its parts' folder; an id that leaves `part/` is E-READ, and the
    compaction part planted outside the store (which would make 2 reboots) is never read."""
    store = storage(tmp_path / "storage")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "prt_x.json").write_text(json.dumps({"type": "compaction"}))
    ident = str(outside) if ident == OUTSIDE else ident
    message = {"id": ident, "role": "user", "time": {"created": 4}}
    (store / "message" / "ses_a" / "msg_3.json").write_text(json.dumps(message))
    line = one_line(run("count", str(store), "ses_a", tmp=tmp_path / "tmp"), "E-READ")
    assert "msg_3.json" in line and "not a plain name" in line


def test_a_session_file_named_dot_dot_json_does_not_walk_the_store(tmp_path: Path) -> None:
    """`session/prj/...json` names the session `..`: its messages would be `message/..`."""
    store = storage(tmp_path / "storage")
    (store / "session" / "prj" / "...json").write_text(json.dumps({"id": ".."}))
    one_line(run("count", str(store), "..", tmp=tmp_path / "tmp"), "E-READ")
    done = run("count", str(store), "ses_a", tmp=tmp_path / "tmp")  # the others still count
    assert done.returncode == 0 and json.loads(done.stdout)["reboots"] == 1, done.stderr


# -- 3. the private copy is removed however the run ends (OPC-12) ---------------------------


def big_database(path: Path, messages: int = 100_000) -> Path:
    """A database whose count takes a second or more: time to stop the run while it reads."""
    database(path)
    connection = sqlite3.connect(path)
    connection.executemany(
        "INSERT INTO message VALUES (?, 'ses_a', ?, '{\"role\":\"user\"}')",
        ((f"msg_x{i}", 10_000 + i) for i in range(messages)),
    )
    connection.commit()
    connection.close()
    return path


ENTRIES = {
    "reference": [sys.executable, "-m", "rebootspec.reference", "count"],
    "rebootspec": [sys.executable, "-m", "rebootspec.conformance.cli", "count"],
}


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize(
    ("entry", "name", "exit_code", "said"),
    [
        ("reference", "SIGTERM", 143, "error: stopped by SIGTERM"),
        ("reference", "SIGHUP", 129, "error: stopped by SIGHUP"),
        ("reference", "SIGINT", 130, "error: interrupted"),
        ("rebootspec", "SIGTERM", 143, "error: stopped by SIGTERM"),
        ("rebootspec", "SIGINT", 130, "error: interrupted"),
    ],
)
def test_a_stopped_run_removes_its_copy_and_says_one_line(
    tmp_path: Path, entry: str, name: str, exit_code: int, said: str
) -> None:
    import signal
    import time

    store = big_database(tmp_path / "opencode.db")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    child = subprocess.Popen(
        [*ENTRIES[entry], str(store), "ses_a"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp)},
        preexec_fn=_bounded,
    )
    deadline = time.monotonic() + 30
    while not any((copy / "opencode.db").exists() for copy in tmp.iterdir()):
        assert child.poll() is None, "the count ended before a copy was seen"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    [copy] = list(tmp.iterdir())
    assert copy.name.startswith(f"rebootspec-opencode-{child.pid}-")
    child.send_signal(getattr(signal, name))
    out, err = child.communicate(timeout=30)
    assert (child.returncode, out, err) == (exit_code, "", said + "\n")
    assert list(tmp.iterdir()) == []


@pytest.mark.skipif(os.name != "posix", reason="whether a process lives is asked by signal 0")
def test_a_copy_left_by_a_dead_run_is_removed_by_the_next(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead, live = int(gone.stdout), os.getpid()
    left = {
        f"rebootspec-opencode-{dead}-abc": False,  # its process is gone: removed
        f"rebootspec-opencode-{live}-abc": True,  # a live run's copy: kept
        f"rebootspec-other-{dead}-abc": True,  # not our prefix: kept
        "rebootspec-opencode-x-abc": True,  # no process id: kept
    }
    for folder in left:
        (tmp / folder).mkdir()
        (tmp / folder / "opencode.db").write_bytes(b"x")
    done = run("count", str(database(tmp_path / "opencode.db")), "ses_a", tmp=tmp)
    assert done.returncode == 0, done.stderr
    assert {p.name: True for p in tmp.iterdir()} == {k: True for k, v in left.items() if v}


# -- 4. nothing raw reaches the terminal; JSON stays exact (ERR-10) ------------------------

VSCODE_EMPTY_SESSION = b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}\n'
SESSIONS = [sys.executable, "-m", "rebootspec.conformance.cli", "sessions"]


def test_a_path_with_terminal_escapes_is_printed_escaped(tmp_path: Path) -> None:
    """`count $'a\\e]0;PWNED\\a\\e[2J.jsonl'` must not set the title nor clear the screen."""
    log = tmp_path / "a\x1b]0;PWNED\x07\x1b[2J.jsonl"
    log.write_bytes(b"")
    line = one_line(run("count", str(log), tmp=tmp_path / "tmp"), "E-EMPTY")
    assert "\x1b" not in line and "\x07" not in line
    assert "a\\x1b]0;PWNED\\x07\\x1b[2J.jsonl" in line


def test_a_path_with_line_breaks_cannot_forge_an_error_line(tmp_path: Path) -> None:
    log = tmp_path / "x\nerror: fake:1: E-FAKE: injected\ny.jsonl"
    log.write_bytes(b"")
    line = one_line(run("count", str(log), tmp=tmp_path / "tmp"), "E-EMPTY")
    assert "x\\x0aerror: fake:1: E-FAKE: injected\\x0ay.jsonl" in line


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="file names must be UTF-8 there")
def test_a_file_name_that_is_not_utf8_has_one_json_form_and_an_escaped_line(
    tmp_path: Path,
) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"d\xff")
    os.mkdir(folder)
    raw = os.path.join(folder, b"s.jsonl")
    Path(os.fsdecode(raw)).write_bytes(VSCODE_EMPTY_SESSION)
    listed = subprocess.run(
        [*SESSIONS, "--json", "--path", os.fsdecode(folder)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    [row] = [json.loads(line) for line in listed.stdout.splitlines()]
    assert row["reboots"] == 0
    assert row["file"] == os.path.join(str(tmp_path), "d\ufffd", "s.jsonl")
    assert bytes.fromhex(row["file_bytes_hex"]) == raw
    broken = Path(os.fsdecode(os.path.join(folder, b"t\xfe.jsonl")))
    broken.write_bytes(b"")
    line = one_line(run("count", os.fsdecode(broken), tmp=tmp_path / "tmp"), "E-EMPTY")
    assert "d\\xff" in line and "t\\xfe.jsonl" in line


def test_the_sessions_table_escapes_what_it_shows(tmp_path: Path) -> None:
    (tmp_path / "s\x1b[2J\u202e.jsonl").write_bytes(VSCODE_EMPTY_SESSION)
    (tmp_path / "e\x1b]0;x\x07.jsonl").write_bytes(b"")  # a row that shows its warning
    listed = subprocess.run([*SESSIONS, "--path", str(tmp_path)], capture_output=True,
                            text=True, timeout=60, cwd=ROOT)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert "\x1b" not in listed.stdout + listed.stderr
    assert "\u202e" not in listed.stdout + listed.stderr
    assert len(listed.stdout.splitlines()) == 3  # the header and one line a session


def test_an_ambiguous_lookup_lists_escaped_ids_and_paths() -> None:
    from rebootspec.reference.sessions.finder import Found
    from rebootspec.reference.sessions.lookup import _row

    row = _row(Found("vscode", "store", "id\x1b[2J", "/p/\nerror: forged\x07.jsonl"))
    assert row == "  vscode  id\\x1b[2J  /p/\\x0aerror: forged\\x07.jsonl\n"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain/ü/日本.jsonl", "plain/ü/日本.jsonl"),
        ("a\tb\rc\nd\x7f\x85", "a\\x09b\\x0dc\\x0ad\\x7f\\x85"),
        ("line\u2028sep\u202eevil", "line\\u2028sep\\u202eevil"),
        ("byte\udcff and \ud800", "byte\\xff and \\ud800"),
    ],
)
def test_printable_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    from rebootspec.reference.core.printable import printable

    assert printable(text) == shown


# -- 5. strict JSON, as the hosts write it (HST-2, JSV-3) ----------------------------------

FIRST_RECORDS = {
    "codex": '{"timestamp":"t","type":"session_meta","payload":{"id":"x","cli_version":"0.111.0"'
    ',"n":%s}}',
    "pi": '{"type":"session","version":3,"id":"x","timestamp":"t","n":%s}',
    "claude-code": '{"type":"user","userType":"external","uuid":"u1","sessionId":"s","n":%s}',
}
PLAIN_NUMBER = "1"


def count_in_process(path: Path) -> tuple[int, str, str]:
    import io

    from rebootspec.reference import cli

    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["count", str(path)], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("host", sorted(FIRST_RECORDS))
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_first_record_holding_nan_is_not_json(tmp_path: Path, host: str, constant: str) -> None:
    """HST-2's last row: a first value that does not parse (Rust and JavaScript refuse NaN)
    goes to VS Code's rules: E-JSON at line 1, never a count. Glued after it, the same."""
    for glued in ("", '{"type":"x"}'):
        path = tmp_path / f"{host}.jsonl"
        path.write_text(FIRST_RECORDS[host] % constant + glued + "\n")
        code, out, err = count_in_process(path)
        assert (code, out) == (1, ""), err
        assert err.startswith(f"error: {path}:1: E-JSON: ") and err.count("\n") == 1


@pytest.mark.parametrize("host", sorted(FIRST_RECORDS))
def test_the_first_records_with_a_number_are_counted(tmp_path: Path, host: str) -> None:
    """The control: the same first records with a plain number are each host's, 0 reboots."""
    path = tmp_path / f"{host}.jsonl"
    path.write_text(FIRST_RECORDS[host] % PLAIN_NUMBER + "\n")
    code, out, err = count_in_process(path)
    assert code == 0, err
    assert json.loads(out)["host"] == host


def test_a_later_record_holding_nan_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """JSV-3: a line the host's own loader skips; here it is the only compaction, so 0."""
    path = tmp_path / "rollout.jsonl"
    compacted = '{"timestamp":"t","type":"compacted","payload":{"message":"s","n":NaN}}'
    path.write_text(FIRST_RECORDS["codex"] % PLAIN_NUMBER + "\n" + compacted + "\n")
    code, out, err = count_in_process(path)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["reboots"] == 0
    assert [(w["code"], w["line"]) for w in answer["warnings"]] == [("W-SKIPPED", 2)]


# -- small ones ------------------------------------------------------------------------------


def test_retry_with_thousands_of_leading_zeros_is_that_small_number(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    log.write_bytes(VSCODE_EMPTY_SESSION)
    done = run("count", "--retry", "0" * 4999 + "1", str(log), tmp=tmp_path / "tmp")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reboots"] == 0


@pytest.mark.parametrize("value", ["9" * 5000, "+" + "1" * 4400, "-" + "0" * 4400 + "1000"])
def test_retry_with_thousands_of_digits_is_a_usage_error(tmp_path: Path, value: str) -> None:
    """Python's int() refuses 4,300 digits and more; the bound (0-100) is said instead."""
    log = tmp_path / "s.jsonl"
    log.write_bytes(VSCODE_EMPTY_SESSION)
    for args in (["--retry", value, str(log)], [f"--retry={value}", str(log)]):
        done = run("count", *args, tmp=tmp_path / "tmp")
        assert "Traceback" not in done.stderr
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("usage error:")
        assert "between 0 and 100" in done.stderr


CODEX_LINE = (FIRST_RECORDS["codex"] % PLAIN_NUMBER + "\n").encode()
CODEX_LOG = CODEX_LINE * 500


@pytest.mark.parametrize("keep", ["half", "all-but-one", "header-only"])
def test_a_truncated_compressed_rollout_is_unreadable_not_empty(tmp_path: Path, keep: str) -> None:
    """CDX-7: a `.jsonl.zst` cut short is E-READ (it cannot be read as a log), never E-EMPTY
    nor a count of what survived the cut."""
    import zstandard

    whole = zstandard.ZstdCompressor(write_checksum=True).compress(CODEX_LOG)
    size = {"half": len(whole) // 2, "all-but-one": len(whole) - 1, "header-only": 6}[keep]
    path = tmp_path / "rollout.jsonl.zst"
    path.write_bytes(whole[:size])
    line = one_line(run("count", str(path), tmp=tmp_path / "tmp"), "E-READ")
    assert "cut short" in line


def test_whole_compressed_rollouts_of_one_or_two_frames_are_read(tmp_path: Path) -> None:
    import zstandard

    one = zstandard.ZstdCompressor().compress(CODEX_LOG)
    half = 250 * len(CODEX_LINE)  # the second frame starts with the 251st line
    two = zstandard.ZstdCompressor().compress(CODEX_LOG[:half])
    two += zstandard.ZstdCompressor().compress(CODEX_LOG[half:])
    for data in (one, two):
        path = tmp_path / "rollout.jsonl.zst"
        path.write_bytes(data)
        done = run("count", str(path), tmp=tmp_path / "tmp")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["records"] == 500
