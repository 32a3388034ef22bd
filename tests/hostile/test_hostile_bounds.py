"""Bounds you can state (issue 32): decompression, blank lines, long lines, small usage cases.

Every input is generated on the fly and kept small where the behaviour allows: a zstd bomb is
a frame of run-length blocks written by hand (four bytes give 128 KiB), so the real-size bombs
of the issue cost a few hundred KB to make. Each count runs in a child process with a private
TMPDIR and rlimits on CPU time, address space and written file size, so a regression fails the
test (killed, or out of memory) instead of eating the shared machine. A bound the test must
cross quickly is made small in the child by setting the module constant that holds it.
Expected outcomes are the spec's (CDX-7, ERR-8, JSV-1, JSV-4), written here by hand.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILE_LIMIT = 8 << 20  # nothing here writes a file near this
GIB = 1 << 30

MAIN = (
    "import sys\n"
    "from rebootspec.reference.cli import main\n"
    "from rebootspec.reference.core.endings import guarded\n"
    "sys.exit(guarded(lambda: main(sys.argv[1:])))\n"
)


def _limits(cpu: int, memory: int) -> None:
    """In the child: bounded CPU seconds, address space and written file size."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


class Ran:
    """What a child run left: exit code, output, and its peak resident memory in bytes."""

    def __init__(self, returncode: int, stdout: str, stderr: str, peak: int) -> None:
        self.returncode, self.stdout, self.stderr, self.peak = returncode, stdout, stderr, peak


def run(
    *args: str,
    tmp: Path,
    setup: str = "",
    cpu: int = 20,
    memory: int = 2 * GIB,
    timeout: float = 120,
) -> Ran:
    """`rebootspec.reference ARGS` in a bounded child; `setup` runs first (to shrink a bound)."""
    tmp.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", setup + "\n" + MAIN, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp)},
        preexec_fn=lambda: _limits(cpu, memory),
    )
    return Ran(done.returncode, done.stdout, done.stderr, 0)


def peak_run(*args: str, tmp: Path, cpu: int = 60, memory: int = 4 * GIB) -> Ran:
    """As `run`, and the child's peak resident memory (ru_maxrss, from wait4)."""
    tmp.mkdir(exist_ok=True)
    out, err = tmp / "stdout", tmp / "stderr"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-c", MAIN, *args],
            stdout=stdout,
            stderr=stderr,
            cwd=ROOT,
            env={**os.environ, "TMPDIR": str(tmp)},
            preexec_fn=lambda: _limits(cpu, memory),
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, else KiB
    return Ran(child.returncode, out.read_text(), err.read_text(), usage.ru_maxrss * scale)


def one_line(done: Ran, code: str, exit_code: int = 1) -> str:
    """The run ended with exactly one stderr line carrying `code`, and nothing on stdout."""
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == exit_code, (done.returncode, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f": {code}: " in lines[0], lines[0]
    return lines[0]


def answer(done: Ran) -> dict[str, object]:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, (done.returncode, done.stderr)
    value = json.loads(done.stdout)
    assert isinstance(value, dict)
    return value


# A Codex rollout (CDX-1, CDX-3): a header, and one `compacted` record, which is one reboot.
HEAD = b'{"timestamp":"t","type":"session_meta","payload":{"id":"x","cli_version":"0.111.0"}}\n'
ITEM = (
    b'{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",'
    b'"content":[{"type":"input_text","text":"hi"}]}}\n'
)
COMPACTED = b'{"timestamp":"t","type":"compacted","payload":{"message":"s"}}\n'


def rollout(items: int = 498) -> bytes:
    """`items + 2` records, one reboot."""
    return HEAD + ITEM * items + COMPACTED


# -- 1. decompression bounds (CDX-7, ERR-8) ---------------------------------------------------


def rle_bomb(byte: bytes, blocks: int) -> bytes:
    """A zstd frame (RFC 8878) of `blocks` run-length blocks of 128 KiB of `byte`: four bytes
    each, so `blocks` * 128 KiB from 6 + 4 * `blocks` bytes (a ratio of about 32,000)."""
    size = 1 << 17
    frame = bytearray((0xFD2FB528).to_bytes(4, "little"))
    frame += b"\x00\x38"  # no checksum, no content size; a window of 128 KiB
    for index in range(blocks):
        last = index == blocks - 1
        frame += (int(last) | 1 << 1 | size << 3).to_bytes(3, "little") + byte
    return bytes(frame)


def test_the_bomb_builder_makes_what_it_says(tmp_path: Path) -> None:
    """The control: zstandard itself reads the hand-made frame as 128 KiB per block."""
    import zstandard

    data = zstandard.ZstdDecompressor().decompressobj().decompress(rle_bomb(b"\n", 3))
    assert data == b"\n" * (3 << 17)


def test_a_compressed_log_inflating_past_the_ratio_is_e_limit(tmp_path: Path) -> None:
    """A rollout that compresses well is read; with the ratio made 10, the same file is
    E-LIMIT at line 0, naming the bound, before it is read to its end."""
    import zstandard

    path = tmp_path / "rollout.jsonl.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(rollout()))
    assert answer(run("count", str(path), tmp=tmp_path / "t"))["reboots"] == 1
    small = "from rebootspec.reference.core import files\nfiles.ZSTD_RATIO = 10\n"
    small += "files.ZSTD_FLOOR = 0\n"
    line = one_line(run("count", str(path), tmp=tmp_path / "t", setup=small), "E-LIMIT")
    assert f"{path}:0: E-LIMIT: " in line and "10 times its compressed size" in line


def test_a_compressed_log_inflating_past_the_absolute_bound_is_e_limit(tmp_path: Path) -> None:
    import zstandard

    path = tmp_path / "rollout.jsonl.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(rollout()))
    small = "from rebootspec.reference.core import files\nfiles.ZSTD_ABSOLUTE = 4096\n"
    line = one_line(run("count", str(path), tmp=tmp_path / "t", setup=small), "E-LIMIT")
    assert "4,096 bytes, the bound for any compressed log" in line


@pytest.mark.parametrize(
    ("name", "byte", "blocks"),
    [
        ("8 GiB without a newline, 262 KB", b"a", 8 * GIB >> 17),
        ("1 GiB of blank lines, 33 KB", b"\n", GIB >> 17),
    ],
)
def test_the_issues_bombs_end_at_once_with_one_line(
    tmp_path: Path, name: str, byte: bytes, blocks: int
) -> None:
    """Real size: each ends within a few CPU seconds and well below 1 GiB of memory."""
    path = tmp_path / "rollout.jsonl.zst"
    path.write_bytes(rle_bomb(byte, blocks))
    line = one_line(run("count", str(path), tmp=tmp_path / "t", cpu=10, memory=GIB), "E-LIMIT")
    assert "1,000 times its compressed size" in line


# -- blank lines cost a scan, not a step per line (JSV-1, RPL-1) -------------------------------


def test_millions_of_blank_lines_between_records_are_skipped_at_scanning_speed(
    tmp_path: Path,
) -> None:
    """Thirteen million blank and whitespace lines before the compaction (16 MB, read by the
    readable path): one reboot, on the line the plan puts it, within one CPU second (a step
    per line took about as many seconds as millions of lines)."""
    blanks = b"\n" * 12_000_000 + b" \t\r\n" * 1_000_000
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(HEAD + ITEM + blanks + COMPACTED)
    for readable in ([], ["--readable"]):
        got = answer(run("count", *readable, str(path), tmp=tmp_path / "t", cpu=1))
        assert got["reboots"] == 1
        assert got["reboot_events"][0]["line"] == 3 + 13_000_000  # type: ignore[index]


def test_a_file_of_blank_lines_only_is_empty_at_scanning_speed(tmp_path: Path) -> None:
    """ERR-1 / HST-2: 40 MB of LF bytes is no log (E-EMPTY), on the fast path and the other,
    within 3 CPU seconds."""
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n" * 40_000_000)
    for readable in ([], ["--readable"]):
        one_line(run("count", *readable, str(path), tmp=tmp_path / "t", cpu=3), "E-EMPTY")


# -- 2. memory on long lines (JSV-4) ----------------------------------------------------------

LONG = 64 << 20  # long enough that the line, not the interpreter, is the peak
TEXT = (
    b'{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",'
    b'"content":[{"type":"input_text","text":"'
)


def long_lines(shape: str) -> bytes:
    """A rollout of one reboot with one line of LONG bytes: a record holding one long string
    in the middle, or as the header (its instructions), or a record cut short holding one
    character outside the BMP, followed by LF (JSV-3: skipped with a warning)."""
    if shape == "middle":
        body = TEXT + b"a" * (LONG - len(TEXT) - 6) + b'"}]}}\n'
        return HEAD + ITEM * 100 + body + ITEM * 100 + COMPACTED
    if shape == "first":
        start = HEAD[:-3] + b',"base_instructions":{"text":"'
        return start + b"a" * (LONG - len(start) - 6) + b'"}}}\n' + ITEM * 100 + COMPACTED
    half = b"a" * ((LONG - len(TEXT) - 5) // 2)
    return HEAD + ITEM * 10 + TEXT + half + "\U0001f600".encode() + half + b"\n" + COMPACTED


@pytest.mark.slow  # six 64 MiB lines measured in subprocesses: a benchmark more than a test
@pytest.mark.parametrize("readable", [True, False], ids=["readable", "fast"])
@pytest.mark.parametrize("shape", ["middle", "first", "outside-bmp"])
def test_peak_memory_on_a_long_line_is_about_three_times_the_line(
    tmp_path: Path, shape: str, readable: bool
) -> None:
    """JSV-4, on the readable path (the definition) and on the fast path (the file is over
    16 MiB): the peak above a small log's is at most 3.3 times the long line. It was 3.9
    times (readable) and 4.9 times (fast) as the first line, 8.8 and 7.8 times for the line
    cut short with one character outside the BMP. The answer is the plan's."""
    options = ["--readable"] if readable else []
    small = tmp_path / "small.jsonl"
    small.write_bytes(HEAD + ITEM + COMPACTED)
    base = peak_run("count", *options, str(small), tmp=tmp_path / "t")
    assert answer(base)["reboots"] == 1
    path = tmp_path / "long.jsonl"
    path.write_bytes(long_lines(shape))
    done = peak_run("count", *options, str(path), tmp=tmp_path / "t")
    got = answer(done)
    assert got["reboots"] == 1
    skipped = [w["line"] for w in got["warnings"] if w["code"] == "W-SKIPPED"]  # type: ignore[index,union-attr]
    assert skipped == ([12] if shape == "outside-bmp" else [])
    ratio = (done.peak - base.peak) / LONG
    assert ratio <= 3.3, f"{shape}: peak {done.peak >> 20} MiB, {ratio:.2f} times the line"


# -- 3. small ones -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [["PATH", "-h"], ["PATH", "ses_a", "-h"], ["-h", "PATH"], ["--readable", "--help"]],
)
def test_help_beside_other_words_is_a_usage_error_not_a_silent_success(
    tmp_path: Path, words: list[str]
) -> None:
    """`count STORE -h` printed help and exited 0, as if a session named -h had answered.
    Help beside anything else is a usage error (exit 2, one line, nothing on stdout)."""
    log = tmp_path / "rollout.jsonl"
    log.write_bytes(rollout())
    args = [str(log) if word == "PATH" else word for word in words]
    for command in ("count", "explain"):
        done = run(command, *args, tmp=tmp_path / "t")
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("usage error: ")
        assert "alone" in done.stderr


def test_help_alone_is_help(tmp_path: Path) -> None:
    done = run("count", "-h", tmp=tmp_path / "t")
    assert done.returncode == 0 and done.stdout.startswith("usage: ") and done.stderr == ""


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
@pytest.mark.parametrize("folder", ["message/ses_a", "part/msg_1"])
def test_a_symlink_loop_among_storage_records_is_e_read(tmp_path: Path, folder: str) -> None:
    """OPC-12, ERR-12: two links naming each other among a session's records (ELOOP on
    open): `count STORE SESSION` is E-READ at line 0, exit 1, naming the file."""
    store = tmp_path / "storage"
    summary = {"id": "msg_2", "role": "assistant", "parentID": "msg_1", "summary": True}
    files = {
        "session/prj/ses_a.json": {"id": "ses_a", "version": "1.0.50", "time": {"created": 1}},
        "message/ses_a/msg_1.json": {"id": "msg_1", "role": "user", "time": {"created": 2}},
        "message/ses_a/msg_2.json": {**summary, "finish": "stop", "time": {"created": 3}},
        "part/msg_1/prt_1.json": {"id": "prt_1", "type": "compaction"},
    }
    for name, value in files.items():
        (store / name).parent.mkdir(parents=True, exist_ok=True)
        (store / name).write_text(json.dumps(value))
    assert answer(run("count", str(store), "ses_a", tmp=tmp_path / "t"))["reboots"] == 1
    (store / folder / "loop_a.json").symlink_to("loop_b.json")
    (store / folder / "loop_b.json").symlink_to("loop_a.json")
    line = one_line(run("count", str(store), "ses_a", tmp=tmp_path / "t"), "E-READ")
    assert f"{store}:0: E-READ: " in line and "loop_" in line


def test_explain_escapes_what_the_timeline_shows_from_the_store(tmp_path: Path) -> None:
    """ERR-10: a message id holding a terminal escape and a line break is shown escaped, so
    the timeline neither drives the terminal nor gains a forged row."""
    import sqlite3

    path = tmp_path / "opencode.db"
    forged = "msg_2\x1b]0;PWNED\x07\nline       9  REBOOT  (forged)"
    summary = {"role": "assistant", "parentID": "msg_1", "summary": True, "finish": "stop"}
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE session (id text, time_created integer, version text);"
        "CREATE TABLE message (id text, session_id text, time_created integer, data text);"
        "CREATE TABLE part (id text, message_id text, session_id text, data text);"
        "INSERT INTO session VALUES ('ses_a', 1000, '1.2.1');"
        "INSERT INTO message VALUES ('msg_1', 'ses_a', 2000, '{\"role\":\"user\"}');"
        "INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', '{\"type\":\"compaction\"}');"
    )
    row = (forged, json.dumps(summary))
    connection.execute("INSERT INTO message VALUES (?, 'ses_a', 3000, ?)", row)
    connection.commit()
    connection.close()
    done = run("explain", str(path), "ses_a", tmp=tmp_path / "t")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    rows = done.stdout.splitlines()
    assert [row for row in rows if "REBOOT" in row] == [
        "line       2  REBOOT  (message msg_2\\x1b]0;PWNED\\x07\\x0aline       9  REBOOT  (forged))"
    ]
    assert rows[-1] == "reboots: 1"


VSCODE_INITIAL = b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}\n'


@pytest.mark.parametrize("readable", [True, False], ids=["readable", "fast"])
@pytest.mark.parametrize("ending", ["torn", "terminated"])
def test_a_long_vscode_line_that_does_not_parse_costs_about_twice_the_line(
    tmp_path: Path, ending: str, readable: bool
) -> None:
    """ERR-3 / ERR-9 on a VS Code line of 64 MiB cut short, holding one character outside the
    BMP: unterminated it is a torn tail (W-TORN-TAIL, 0 reboots), terminated E-JSON at line
    2; either way the peak stays below 3.3 times the line (it was 8.8 times: orjson's error
    builds the line as text)."""
    options = ["--readable"] if readable else []
    small = tmp_path / "small.jsonl"
    small.write_bytes(VSCODE_INITIAL)
    base = peak_run("count", *options, str(small), tmp=tmp_path / "t")
    assert answer(base)["reboots"] == 0
    start = b'{"kind":1,"k":["x"],"v":"'
    half = b"a" * ((LONG - len(start) - 4) // 2)
    cut = start + half + "\U0001f600".encode() + half
    path = tmp_path / "long.jsonl"
    path.write_bytes(
        VSCODE_INITIAL + cut + (b"\n" + VSCODE_INITIAL if ending == "terminated" else b"")
    )
    done = peak_run("count", *options, str(path), tmp=tmp_path / "t")
    if ending == "torn":
        got = answer(done)
        assert got["reboots"] == 0
        assert [w["code"] for w in got["warnings"]] == ["W-TORN-TAIL"]  # type: ignore[union-attr]
    else:
        assert f"{path}:2: E-JSON: " in one_line(done, "E-JSON")
    ratio = (done.peak - base.peak) / LONG
    assert ratio <= 3.3, f"{ending}: peak {done.peak >> 20} MiB, {ratio:.2f} times the line"


# -- a first line of NUL bytes is decided by where it ends, not by reading it (ERR-1, ERR-3) ---


@pytest.mark.parametrize(
    "options",
    [[], ["--readable"], ["--host", "codex"], ["--host", "claude-code", "--readable"]],
)
def test_a_sparse_gib_of_nul_bytes_is_e_empty_at_once(tmp_path: Path, options: list[str]) -> None:
    """A 1 GiB sparse file (NUL bytes, no LF) is one unterminated line that does not parse
    (ERR-9, JSV-2), so the log has no entry: E-EMPTY at line 0 (ERR-1, and JSV-3 under a named
    host), in a CPU second or two and far below the line's size (reading it took 16 s and 2 GB,
    and 3.6 GB under `--host`)."""
    path = tmp_path / "sparse.jsonl"
    with path.open("wb") as handle:
        handle.truncate(GIB)
    done = peak_run("count", *options, str(path), tmp=tmp_path / "t", cpu=5, memory=GIB)
    assert f"{path}:0: E-EMPTY: " in one_line(done, "E-EMPTY")
    assert done.peak < 256 << 20


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_long_nul_line_followed_by_a_record_is_e_json_at_line_1(
    tmp_path: Path, bom: bytes
) -> None:
    """A first line of 3 MiB of NUL bytes ended by a LF is no JSON (ERR-3: E-JSON at line 1)
    whatever follows, a BOM before it (RPL-2) or a good entry after it."""
    path = tmp_path / "nul.jsonl"
    path.write_bytes(bom + b"\x00" * (3 << 20) + b'\n{"kind":0,"v":{"requests":[]}}\n')
    line = one_line(run("count", str(path), tmp=tmp_path / "t", cpu=5, memory=GIB), "E-JSON")
    assert f"{path}:1: E-JSON: " in line


def test_a_long_nul_line_then_a_record_is_skipped_under_a_named_host(tmp_path: Path) -> None:
    """Under `--host codex` a first line of 3 MiB of NUL bytes ended by a LF is skipped with
    W-SKIPPED at line 1 (JSV-3) and the Codex record after it is read: a count, never E-EMPTY."""
    path = tmp_path / "nul.jsonl"
    path.write_bytes(b"\x00" * (3 << 20) + b"\n" + HEAD + COMPACTED)
    got = answer(run("count", "--host", "codex", str(path), tmp=tmp_path / "t", memory=GIB))
    assert got["reboots"] == 1
    assert [(w["code"], w["line"]) for w in got["warnings"]] == [("W-SKIPPED", 1)]


def test_a_valid_log_then_a_short_nul_tail_is_still_a_torn_tail(tmp_path: Path) -> None:
    """Only a first line is decided early: NUL bytes after a good entry, unterminated, are a
    torn tail (ERR-9) as before, and the entry counts (0 reboots, W-TORN-TAIL at line 2)."""
    path = tmp_path / "tail.jsonl"
    path.write_bytes(b'{"kind":0,"v":{"requests":[]}}\n' + b"\x00" * 100)
    got = answer(run("count", str(path), tmp=tmp_path / "t", cpu=5, memory=GIB))
    assert got["reboots"] == 0
    assert [(w["code"], w["line"]) for w in got["warnings"]] == [("W-TORN-TAIL", 2)]
