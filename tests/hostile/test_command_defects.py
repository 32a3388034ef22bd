"""The defects of issue 43 that are the commands' own, each as a user meets it (a test per item).

Every expectation is written here by hand from the issue and the documented behaviour
(reference/core/userio.py, conformance/cli.py): the exit code, the one line, what is left on
disk. Special files are made in a temporary folder (a FIFO, a null device node when running as
root); /dev/null itself is never a target. Most tests call the command in process; the ones
about the process's own streams (a closed stdin or stdout, a reader that left) start it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from rebootspec.conformance.cli import main as rebootspec
from rebootspec.conformance.commands.sessions import table
from rebootspec.conformance.commands.whoami import hook, whoami
from rebootspec.conformance.reports.report import render

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CLAUDE = FIXTURES / "446W" / "session.jsonl"  # claude-code/sidechain/cc1: one reboot
CLAUDE_ID = "e4ceaef2-cbc3-49f2-823c-ab4de1ddd58a"
PI = FIXTURES / "3X6F" / "session.jsonl"  # pi/torn-tail/v3: one reboot
CODEX = FIXTURES / "6T7Y" / "session.jsonl"  # a real Codex 0.166.0 rollout: one reboot
OPENCODE = FIXTURES / "A9RM" / "input" / "opencode.db"  # an opencode database
CHAT_LOOP = FIXTURES / "545X" / "input" / "helper_20260302_090423.md"  # its chain's 2nd file
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
ESC = "\x1b"


def cli(*args: str) -> tuple[int, str, str]:
    """`rebootspec ARGS` in process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = rebootspec(list(args))
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def one_error_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(("error: ", "usage error: ")), lines[0]
    assert ESC not in lines[0]
    return lines[0]


def run_hook(payload: bytes, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = hook(list(args), out, err, env or {"HOME": "/nonexistent"}, io.BytesIO(payload))
    return code, out.getvalue(), err.getvalue()


def hook_json(transcript: Path | str, sid: str | None = CLAUDE_ID) -> bytes:
    """A hook's JSON; a name that is not UTF-8 is written as JSON escapes of lone surrogates,
    which the hook reads back as the same bytes (Python's file-name convention)."""
    payload: dict[str, str] = {"transcript_path": os.fsdecode(transcript)}
    if sid is not None:
        payload["session_id"] = sid
    return json.dumps(payload).encode()


def claude_copy(folder: Path, name: str = f"{CLAUDE_ID}.jsonl") -> Path:
    target = folder / name
    shutil.copyfile(CLAUDE, target)
    return target


# --- 2: hook --out never replaces a special file, and keeps a file's mode -----------------------


@posix_only
def test_hook_out_leaves_a_fifo_as_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "patch"
    os.mkfifo(fifo)
    code, _, err = run_hook(hook_json(claude_copy(tmp_path)), "--out", str(fifo))
    assert code == 2
    assert "FIFO" in one_error_line(err)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["patch", f"{CLAUDE_ID}.jsonl"])


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="mknod needs root")
def test_hook_out_leaves_a_device_node_as_it_is(tmp_path: Path) -> None:
    node = tmp_path / "null"  # a null device of our own, never /dev/null itself
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    before = os.lstat(node)
    code, _, err = run_hook(hook_json(claude_copy(tmp_path)), "--out", str(node))
    assert code == 2
    assert "character device" in one_error_line(err)
    info = os.lstat(node)
    assert stat.S_ISCHR(info.st_mode) and info.st_mode == before.st_mode
    assert info.st_ino == before.st_ino


def test_hook_out_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    patch = tmp_path / "patch"
    patch.write_text("0\n")
    os.chmod(patch, 0o644)
    code, _, err = run_hook(
        hook_json(claude_copy(tmp_path)), "--out", str(patch), "--field", "reboots"
    )
    assert (code, err) == (0, "")
    assert patch.read_text() == "1\n"
    assert stat.S_IMODE(os.stat(patch).st_mode) == 0o644


def test_hook_out_makes_a_new_file_as_a_shell_would(tmp_path: Path) -> None:
    patch = tmp_path / "patch"
    mask = os.umask(0o022)
    try:
        code, _, err = run_hook(hook_json(claude_copy(tmp_path)), "--out", str(patch))
    finally:
        os.umask(mask)
    assert (code, err) == (0, "")
    assert stat.S_IMODE(os.stat(patch).st_mode) == 0o644
    assert orjson.loads(patch.read_bytes())["reboots"] == 1


# --- 3: reports, profiles and known divergences are read with a bound, never from a FIFO ------


@pytest.mark.parametrize(
    "args",
    [
        ("compare", "{bad}", "{good}"),
        ("compare", "{good}", "{bad}"),
        ("report", "{bad}", "--out", "{tmp}/pages"),
        ("baseline", "{bad}"),
    ],
    ids=["compare-old", "compare-new", "report", "baseline"],
)
@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "sparse-1GiB"])
@posix_only
def test_a_report_that_is_not_a_file_of_reports_is_one_line(
    args: tuple[str, ...], kind: str, tmp_path: Path
) -> None:
    good = tmp_path / "report.json"
    good.write_text('{"header": {}, "verdict": "PASS", "totals": {}, "matrix": {}, "cases": []}')
    bad = _hostile(kind, tmp_path)
    words = [a.format(bad=bad, good=good, tmp=tmp_path) for a in args]
    code, out, err = cli(*words)
    assert code == 2
    assert out == ""
    line = one_error_line(err)
    assert str(bad) in line
    assert not (tmp_path / "pages").exists()


def _hostile(kind: str, folder: Path) -> Path:
    if kind == "dev-zero":
        return Path("/dev/zero")
    path = folder / kind
    if kind == "fifo":
        os.mkfifo(path)
    else:
        with path.open("wb") as handle:
            handle.truncate(1 << 30)  # sparse: no disk used
    return path


@pytest.mark.parametrize("option", ["--profile", "--known-divergences"])
@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "sparse-1GiB"])
@posix_only
def test_run_refuses_a_hostile_profile_or_divergences_file(
    option: str, kind: str, tmp_path: Path
) -> None:
    bad = _hostile(kind, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "run", option, str(bad), "-k", "446W"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 4 or done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "INTERNALERROR" not in done.stdout + done.stderr
    assert str(bad) in done.stderr, done.stderr


# --- 6: no traceback from the process's own streams, nor from a name that is not UTF-8 --------


def start(
    args: list[str],
    redirect: str = "",
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """`rebootspec ARGS` started by sh with `redirect` applied (`<&-`, `>&-`)."""
    command = ["sh", "-c", f'exec "$@" {redirect}', "sh", sys.executable, "-m"]
    command += ["rebootspec.conformance", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, timeout=120, env={**os.environ, **(env or {})}
    )


def start_with_reader_gone(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """`rebootspec ARGS | true`, made deterministic: the pipe's reader is closed before the
    command starts, so its first write to stdout meets a broken pipe."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "rebootspec.conformance", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
            cwd=cwd,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "args",
    [
        ["version"],
        ["--help"],
        ["count", str(CLAUDE)],
        ["explain", str(CLAUDE)],
        ["cases"],
        ["cases", "--json"],
        ["sessions", "--no-cache", "--path", str(FIXTURES / "545X" / "input")],
    ],
    ids=["version", "help", "count", "explain", "cases", "cases-json", "sessions"],
)
def test_a_reader_that_left_ends_the_run_quietly_with_141(args: list[str], tmp_path: Path) -> None:
    done = start_with_reader_gone(args, tmp_path)
    assert done.returncode == 141, done.stderr.decode()
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr
    assert b"BrokenPipe" not in done.stderr


def test_hook_with_stdin_closed_is_one_line() -> None:
    done = start(["hook"], "<&-")
    assert done.returncode == 2
    assert one_error_line(done.stderr.decode()) == "error: hook: stdin: closed: nothing can be read"


def test_whoami_with_stdout_closed_is_one_line() -> None:
    done = start(["whoami"], ">&-", env={"PI_SESSION_FILE": str(PI)})
    assert done.returncode == 2
    assert one_error_line(done.stderr.decode()) == "error: stdout is closed: nothing can be printed"


NOT_UTF8 = os.fsdecode(b"sess-\xff\xfe.jsonl")


@pytest.mark.parametrize("out", [False, True], ids=["stdout", "out-file"])
def test_whoami_counts_a_pi_file_whose_name_is_not_utf8(tmp_path: Path, out: bool) -> None:
    target = tmp_path / NOT_UTF8
    shutil.copyfile(PI, target)
    stream, err = io.StringIO(), io.StringIO()
    args = ["--out", str(tmp_path / "answer.json")] if out else []
    code = whoami([], stream, err, {"PI_SESSION_FILE": str(target)})
    assert (code, err.getvalue()) == (0, ""), err.getvalue()
    answer = orjson.loads(stream.getvalue())
    assert answer["reboots"] == 1
    assert bytes.fromhex(answer["file_bytes_hex"]) == os.fsencode(str(target))
    if out:
        payload = hook_json(claude_copy(tmp_path, NOT_UTF8), sid=None)
        code, _, err_text = run_hook(payload, *args)
        assert (code, err_text) == (0, "")
        written = orjson.loads((tmp_path / "answer.json").read_bytes())
        assert written["reboots"] == 1


def test_hook_counts_a_transcript_whose_name_is_not_utf8(tmp_path: Path) -> None:
    transcript = claude_copy(tmp_path, f"{CLAUDE_ID}-\udcff.jsonl")
    code, out, err = run_hook(hook_json(transcript))
    assert (code, err) == (0, "")
    assert orjson.loads(out)["reboots"] == 1


# --- 7: no raw escape from whoami, hook, or a report page ----------------------------------


PAINTED = "x\x1b[31mRED\x1b]0;pwned\x07_20260302_090533.md"


def test_whoami_escapes_a_rejection_that_quotes_a_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = tmp_path / ".chat-sessions"
    sessions.mkdir()
    shutil.copyfile(CHAT_LOOP, sessions / PAINTED)  # its chain's first file is missing: E-CHAIN
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = whoami(["--guess"], out, err, {"HOME": str(tmp_path)})
    assert code == 1
    line = one_error_line(err.getvalue())
    assert "E-CHAIN" in line and "\\x1b[31mRED" in line


def test_a_case_title_with_escapes_reaches_report_html_escaped() -> None:
    from rebootspec.conformance.reports.report import build, header
    from rebootspec.conformance.runner.records import Record

    record = Record(
        id="ZZZZ", title=f"painted {ESC}[31mRED{ESC}]0;pwned\x07 title", rules=["CNT-2"],
        tags=["phantom"], era="compacted", container="jsonl",
        expected={"outcome": "count", "reboots": 1}, actual={"outcome": "count", "reboots": 2},
        outcome="fail", gate="fail", detail="wrong count", stderr="",
    )  # fmt: skip
    head = header(
        candidate=["tool"], profile="spec-v2", reader="JSON key reboots",
        corpus=Path("fixtures"), timeout=1.0,
    )  # fmt: skip
    report = build(head, [record])
    for template in ("report.html.j2", "report.md.j2"):
        page = render(report, template)
        assert ESC not in page and "\x07" not in page, template
        assert "x1b" in page, template  # shown, as the escape it was
    assert "\\x1b[31mRED" in render(report, "report.html.j2")


# --- 9: the small ones ---------------------------------------------------------------------


def test_whoami_guess_with_a_field_says_it_guessed_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = tmp_path / ".chat-sessions"
    sessions.mkdir()
    first = FIXTURES / "545X" / "input" / "helper_20260302_090200.md"
    shutil.copyfile(first, sessions / first.name)
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = whoami(["--guess", "--field", "reboots"], out, err, {"HOME": str(tmp_path)})
    assert code == 0, err.getvalue()
    assert out.getvalue().strip().isdigit()
    assert err.getvalue().startswith("warning: W-GUESSED: "), err.getvalue()
    assert len(err.getvalue().splitlines()) == 1


@pytest.mark.parametrize("other", [CODEX, OPENCODE], ids=["codex", "opencode"])
def test_pi_session_file_naming_another_hosts_file_is_refused(other: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = whoami([], out, err, {"PI_SESSION_FILE": str(other)})
    assert code == 2 and out.getvalue() == ""
    assert "not a session of pi" in err.getvalue().splitlines()[0], err.getvalue()


def test_hook_with_only_a_transcript_reports_the_session_id(tmp_path: Path) -> None:
    code, out, err = run_hook(hook_json(claude_copy(tmp_path), sid=None))
    assert (code, err) == (0, "")
    assert orjson.loads(out)["id"] == CLAUDE_ID


def test_hook_takes_a_utf8_byte_order_mark(tmp_path: Path) -> None:
    code, out, err = run_hook(
        b"\xef\xbb\xbf" + hook_json(claude_copy(tmp_path)), "--field", "reboots"
    )
    assert (code, out, err) == (0, "1\n", "")


def test_hook_errors_say_hook() -> None:
    code, _, err = run_hook(b'{"session_id": "nothing-has-this-id"}')
    assert code == 2
    assert err.startswith("error: hook: "), err


def test_cases_export_refusal_exits_2_as_anonymize_does(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    code, out, err = cli("cases", "export", str(tmp_path / "full"), "-k", "446W")
    assert code == 2 and out == ""
    one_error_line(err)


def test_sessions_path_naming_a_file_is_a_usage_error() -> None:
    code, out, err = cli("sessions", "--no-cache", "--path", str(CLAUDE))
    assert code == 2 and out == ""
    assert "not a folder" in one_error_line(err)


def test_the_sessions_id_column_fits_chat_loop_ids() -> None:
    stem = "helper_20260302_0905"
    rows = [
        {"id": f"{stem}{n}", "host": "basic-agent-chat-loop", "modified": None, "reboots": 1}
        | {"title": f"title {n}", "warnings": [], "file": f"/x/{stem}{n}.md"}
        for n in (10, 33)
    ]
    lines = table(rows).splitlines()
    starts = {line.index("title ") for line in lines[1:]}
    assert len(starts) == 1 and lines[0].index("title") == starts.pop(), "\n".join(lines)


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_flags(flag: str) -> None:
    code, out, err = cli(flag)
    assert (code, err) == (0, "")
    assert out.startswith("rebootspec ")


def test_a_mistyped_subcommand_is_named_with_the_nearest_one() -> None:
    code, out, err = cli("cuont", "x.jsonl")
    assert code == 2 and out == ""
    assert "did you mean count?" in one_error_line(err)


def test_a_stderr_reader_that_left_ends_the_run_with_141(tmp_path: Path) -> None:
    """`rebootspec count missing.jsonl 2>&1 | true`'s stderr half: the error line meets a broken
    pipe; the run still ends with one code and no "Exception ignored" at exit."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rebootspec.conformance", "count", str(tmp_path / "no.jsonl")],
            stdout=subprocess.PIPE,
            stderr=write,
            timeout=120,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stdout) == (141, b"")
