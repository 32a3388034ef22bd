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


@pytest.mark.parametrize("shape", ["middle", "first", "outside-bmp"])
def test_peak_memory_on_a_long_line_is_about_three_times_the_line(
    tmp_path: Path, shape: str
) -> None:
    """JSV-4 on the readable path (the definition): the peak above a one-line log's is at
    most 3.3 times the long line (it was 3.9 times as the first line, 8.8 times for the
    line cut short with one character outside the BMP). The answer is the plan's."""
    small = tmp_path / "small.jsonl"
    small.write_bytes(HEAD + ITEM + COMPACTED)
    base = peak_run("count", "--readable", str(small), tmp=tmp_path / "t")
    assert answer(base)["reboots"] == 1
    path = tmp_path / "long.jsonl"
    path.write_bytes(long_lines(shape))
    done = peak_run("count", "--readable", str(path), tmp=tmp_path / "t")
    got = answer(done)
    assert got["reboots"] == 1
    skipped = [w["line"] for w in got["warnings"] if w["code"] == "W-SKIPPED"]  # type: ignore[index,union-attr]
    assert skipped == ([12] if shape == "outside-bmp" else [])
    ratio = (done.peak - base.peak) / LONG
    assert ratio <= 3.3, f"{shape}: peak {done.peak >> 20} MiB, {ratio:.2f} times the line"
