"""Every command x every hostile input (issue 43): one line, the documented code, nothing left.

The commands are the CLI's own table (`conformance/cli.py` COMMANDS): a command added there
is a row here the day it is added, and the test fails until `FEEDS` says how it is given a
file (or that it takes none). The inputs are the columns of `INPUTS`:

- given as the command's input file: `/dev/zero`, a FIFO, a folder, a symlink loop, a 1 GiB
  sparse file, a file whose name is not UTF-8, a file whose name holds an escape sequence and
  a line break (the last two hold text no host wrote);
- around an ordinary run of the command: stdin closed, stdout closed, stderr closed, stdout a
  pipe whose reader has gone;
- as the command's output file: an existing FIFO.

Each cell runs the command in a child forked from this process (the modules are imported
once, here, so a cell costs the command's own work, not Python's start-up), in a folder of its
own with TMPDIR there, under RLIMIT_AS (this process's size + 1 GiB) and a time bound. It
asserts: the exit code `expected()` documents; no traceback; when the command refuses, exactly
one line on stderr, with no raw control character; nothing left in the cell's folder or its
TMPDIR; and no input or output target changed (a FIFO stays a FIFO, the inputs keep their
bytes). Cells run two at a time; the whole matrix takes seconds (docs/evidence.md's reliability
paragraph gives its size and time).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import resource
import select
import shutil
import signal
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rebootspec.conformance.cli import COMMANDS
from rebootspec.conformance.cli import main as rebootspec
from rebootspec.reference.core.userio import shown

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX: fork, FIFOs, rlimits")

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CLAUDE = FIXTURES / "446W" / "session.jsonl"  # claude-code/sidechain/cc1: one reboot
CLAUDE_ID = "e4ceaef2-cbc3-49f2-823c-ab4de1ddd58a"
PI = FIXTURES / "3X6F" / "session.jsonl"  # pi/torn-tail/v3: one reboot
CHAT_LOOP = FIXTURES / "545X" / "input"  # a folder of two chat-loop session files
CLAUDE_NAMED = Path(os.environ.get("TMPDIR", "/tmp"))  # set by the `inputs` fixture
CELL_SECONDS = 30.0  # a cell that has not ended by then hangs (a FIFO read, an endless loop)
EXTRA_MEMORY = 1 << 30  # what a cell may take beyond this process's own address space

FILE_INPUTS = ("dev-zero", "fifo", "folder", "symlink-loop", "sparse-1GiB", "not-utf8", "escapes")
STREAM_INPUTS = ("stdin-closed", "stdout-closed", "stderr-closed", "broken-pipe")
INPUTS = (*FILE_INPUTS, *STREAM_INPUTS, "fifo-as-output")

# The bytes of a file named to test the name: no host writes this (a rejection, never a count).
JUNK = b"not a session of any host\n"
REPORT = {"header": {}, "verdict": "PASS", "totals": {}, "matrix": {}, "cases": []}


@dataclass
class Call:
    """One way to run a command: its words, environment additions and stdin bytes."""

    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes = b""
    prints: bool = True  # writes to stdout (so a closed stdout or a gone reader is met)


@dataclass
class Feed:
    """How a command is given a file (`given`), run ordinarily (`ordinary`), and pointed at an
    output file (`output`); None where it has no such thing."""

    given: Callable[[str, Path], Call] | None
    ordinary: Callable[[Path], Call]
    output: Callable[[str, Path], Call] | None = None
    rejects: bool = False  # its refusal of a bad session is a rejection (exit 1, PRO-2)


def _hook_stdin(path: str) -> bytes:
    return json.dumps({"transcript_path": path}).encode()


def _claude_hook() -> bytes:
    """A Claude Code hook's JSON naming its transcript, which carries the id in its name."""
    return json.dumps({"session_id": CLAUDE_ID, "transcript_path": str(CLAUDE_NAMED)}).encode()


def _good_report(cell: Path) -> str:
    path = cell / "good.json"
    path.write_text(json.dumps(REPORT))
    return str(path)


HELP = Call(["--help"])
ALL = "corpus,profile,selection"

FEEDS: dict[str, Feed] = {
    "count": Feed(
        lambda p, c: Call(["count", p]), lambda c: Call(["count", str(CLAUDE)]), None, True
    ),
    "explain": Feed(
        lambda p, c: Call(["explain", p]), lambda c: Call(["explain", str(CLAUDE)]), None, True
    ),
    "whoami": Feed(
        lambda p, c: Call(["whoami"], {"PI_SESSION_FILE": p}),
        lambda c: Call(["whoami"], {"PI_SESSION_FILE": str(PI)}),
        None,
        True,
    ),
    "hook": Feed(
        lambda p, c: Call(["hook"], stdin=_hook_stdin(p)),
        lambda c: Call(["hook"], stdin=_claude_hook()),
        lambda p, c: Call(["hook", "--out", p], stdin=_claude_hook(), prints=False),
        True,
    ),
    "sessions": Feed(
        lambda p, c: Call(["sessions", "--no-cache", "--jobs", "1", "--path", p]),
        lambda c: Call(["sessions", "--no-cache", "--jobs", "1", "--path", str(CHAT_LOOP)]),
    ),
    "run": Feed(
        lambda p, c: Call(["run", "--profile", p, "-k", "446W", "-p", "no:cacheprovider"]),
        lambda c: HELP,
        lambda p, c: Call(["run", "--report-dir", p, "-k", "446W", "-p", "no:cacheprovider"]),
    ),
    "cases": Feed(
        lambda p, c: Call(["cases", "--corpus", p]),
        lambda c: Call(["cases", "-k", "446W"]),
        lambda p, c: Call(["cases", "export", p, "-k", "446W"], prints=False),
    ),
    "smoke": Feed(lambda p, c: Call(["smoke", "--profile", p]), lambda c: HELP),
    "compare": Feed(
        lambda p, c: Call(["compare", p, _good_report(c)]),
        lambda c: Call(["compare", _good_report(c), _good_report(c), "--allow-different", ALL]),
    ),
    "fuzz": Feed(  # reads no file of the user's (the candidate is a program); writes one
        None,
        lambda c: HELP,
        lambda p, c: Call(["fuzz", "--out", p, "--examples", "1", "--budget", "1"]),
    ),
    "report": Feed(
        lambda p, c: Call(["report", p, "--out", str(c / "pages")]),
        lambda c: HELP,
        lambda p, c: Call(["report", _good_report(c), "--out", p]),
    ),
    "baseline": Feed(
        lambda p, c: Call(["baseline", p]),
        lambda c: Call(["baseline", _good_report(c)]),
        lambda p, c: Call(["baseline", _good_report(c), "--out", p], prints=False),
    ),
    "anonymize": Feed(
        lambda p, c: Call(["anonymize", p, str(c / "out.jsonl")]),
        lambda c: HELP,
        lambda p, c: Call(["anonymize", str(CLAUDE), p], prints=False),
    ),
    "add-fixture": Feed(
        lambda p, c: Call(
            [
                "add-fixture",
                p,
                "--title",
                "a hostile input given as a session",
                "--rules",
                "CNT-2",
                "--tags",
                "push-append",
                "--era",
                "none",
                "--expect-reboots",
                "1",
                "--fixtures",
                str(c / "corpus"),
            ]
        ),
        lambda c: HELP,
    ),
    "peers": Feed(
        lambda p, c: Call(["peers", "--from-json", p, "--out", str(c / "pages")]),
        lambda c: HELP,
    ),
    "completion": Feed(None, lambda c: Call(["completion", "bash"])),  # reads no file
    "version": Feed(None, lambda c: Call(["version"])),
}

# Where the output cell names a folder that holds the FIFO (the command writes several files).
OUTPUT_IN_FOLDER = {"run": "report.json", "report": "report.md", "cases": None}


def expected(command: str, column: str, prints: bool = True) -> int:
    """The documented exit code of a cell (conformance/cli.py, reference/core/userio.py).

    A file that cannot be a session is the readers' rejection for the commands that count a
    named file (`count`, `explain`: ERR-12, PRO-2: exit 1). `whoami` and `hook` refuse a
    named file that is no session file of a host with exit 2 (nothing could be named), and
    reject a session file whose content is bad with 1, as `count`. Every other command refuses
    what it was given with a usage code, 2. A closed stdout is 2, a gone reader 141 (userio),
    a closed stdin or stderr changes nothing for a command that does not need it (0); `hook`
    needs stdin (2).
    """
    if column in FILE_INPUTS:
        if column == "symlink-loop":
            return 2  # cannot be opened at all, like a missing file (PRO-2: the caller's slip)
        if command in ("count", "explain"):
            return 1  # ERR-12 (not a regular file), or the content is no host's (ERR-*, HST-2)
        if command == "add-fixture" and column in ("not-utf8", "escapes"):
            return 3  # its refusal when the reference rejects what the person expected counted
        if command == "sessions" and column == "folder":
            return 0  # an empty folder of sessions is a folder with none: listed as such
        return 2
    if column == "fifo-as-output":
        return 2
    if column == "stdin-closed":
        return 2 if command == "hook" else 0
    if column == "stderr-closed":
        return 0
    if column == "stdout-closed":
        return 2 if prints else 0
    return 141 if prints else 0


# Cells parked because their fix belongs elsewhere, named in the test's output (none now: the
# last ones, `anonymize` and `add-fixture` on a strange name and on 1 GiB of NULs, and `count`
# and `explain` on those NULs, were fixed in issue 43).
KNOWN: dict[tuple[str, str], str] = {}


# --- the inputs -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile-inputs")
    made = {"dev-zero": Path("/dev/zero")}
    made["fifo"] = folder / "fifo.jsonl"
    os.mkfifo(made["fifo"])
    made["folder"] = folder / "folder.jsonl"
    made["folder"].mkdir()
    made["symlink-loop"] = folder / "loop.jsonl"
    os.symlink(folder / "loop.jsonl", made["symlink-loop"])
    made["sparse-1GiB"] = folder / "sparse.jsonl"
    with made["sparse-1GiB"].open("wb") as handle:
        handle.truncate(1 << 30)
    made["not-utf8"] = Path(os.fsdecode(bytes(folder) + b"/name-\xff\xfe.jsonl"))
    made["escapes"] = folder / "x\x1b[31mRED\x1b]0;pwned\x07\nerror: forged.jsonl"
    for name in ("not-utf8", "escapes"):
        made[name].write_bytes(JUNK)
    global CLAUDE_NAMED
    CLAUDE_NAMED = folder / f"{CLAUDE_ID}.jsonl"
    INPUT_PATHS.update(made)
    shutil.copyfile(CLAUDE, CLAUDE_NAMED)
    return made


def _state(path: Path) -> tuple[int, int, bytes]:
    """What a target is: its type, inode and (for a small regular file) its bytes."""
    info = os.lstat(path)
    small = stat.S_ISREG(info.st_mode) and info.st_size < 1 << 16
    return stat.S_IFMT(info.st_mode), info.st_ino, path.read_bytes() if small else b""


# --- running one cell ---------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int
    stderr: str
    seconds: float


def _child(call: Call, column: str, cell: Path, err_fd: int, out_fd: int) -> None:
    """In the forked child: the streams the column asks for, as Python would set them up at
    start (a closed descriptor is None), then the command, then exit with its code."""
    os.chdir(cell)
    os.environ.clear()
    os.environ.update({"HOME": str(cell), "TMPDIR": str(cell / "tmp"), "PATH": "/usr/bin:/bin"})
    os.environ.update({"REBOOTSPEC_CACHE_DIR": str(cell / "cache"), "LANG": "C.UTF-8"})
    os.environ.update(call.env)
    import tempfile

    tempfile.tempdir = None
    limit = _address_space() + EXTRA_MEMORY
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(CELL_SECONDS) + 5)
    stdin_r, stdin_w = os.pipe()
    os.write(stdin_w, call.stdin)
    os.close(stdin_w)
    os.dup2(stdin_r, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=False)
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), write_through=True, errors="backslashreplace"
    )  # as Python's own stderr
    if column == "stdin-closed":
        os.close(0)
        sys.stdin = None  # type: ignore[assignment]
    elif column == "stdout-closed":
        os.close(1)
        sys.stdout = None  # type: ignore[assignment]
    elif column == "stderr-closed":
        os.close(2)
        sys.stderr = None  # type: ignore[assignment]
    code = 70
    try:
        code = rebootspec(list(call.args))
        with contextlib.suppress(Exception):
            if sys.stdout is not None:
                sys.stdout.flush()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    except BaseException:  # a traceback: what the matrix exists to catch
        import traceback

        with contextlib.suppress(Exception):
            os.write(err_fd, traceback.format_exc().encode())
        code = 99
    os._exit(code)


def _address_space() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 4 << 30


@dataclass
class Running:
    """A cell's child: its pid, the read ends of its pipes, what it said, when it started."""

    pid: int
    readers: list[int]
    err: int
    started: float
    chunks: list[bytes] = field(default_factory=list)
    status: int | None = None


def start_cell(call: Call, column: str, cell: Path) -> Running:
    """Fork the cell's child; the parent keeps the read ends of its stderr and stdout."""
    sys.stdout.flush()
    sys.stderr.flush()
    err_r, err_w = os.pipe()
    out_r, out_w = os.pipe()
    if column == "broken-pipe":
        os.close(out_r)  # the reader is gone before the first write
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            for fd in (err_r, out_r):
                with contextlib.suppress(OSError):
                    os.close(fd)
            _child(call, column, cell, err_w, out_w)
        finally:
            os._exit(98)
    os.close(err_w)
    os.close(out_w)
    readers = [err_r] + ([] if column == "broken-pipe" else [out_r])
    return Running(pid, readers, err_r, time.monotonic())


def poll(running: list[Running], wait: float) -> None:
    """Read what the children said; reap the ones that ended; kill the ones out of time."""
    fds = [fd for child in running for fd in child.readers]
    ready, _, _ = select.select(fds, [], [], wait) if fds else ([], [], [])
    for child in running:
        for fd in [fd for fd in child.readers if fd in ready]:
            data = os.read(fd, 65536)
            if fd == child.err and data:
                child.chunks.append(data)
            if not data:
                child.readers.remove(fd)
                os.close(fd)
        if child.status is None:
            done, raw = os.waitpid(child.pid, os.WNOHANG)
            if done:
                child.status = raw
            elif time.monotonic() - child.started > CELL_SECONDS:
                os.kill(child.pid, signal.SIGKILL)
                os.waitpid(child.pid, 0)
                child.status = -1
        if child.status is not None and not fds:
            child.readers.clear()


def finished(child: Running) -> Outcome:
    for fd in child.readers:  # a grandchild may hold a pipe open: stop reading it
        os.close(fd)
    child.readers.clear()
    seconds = time.monotonic() - child.started
    text = b"".join(child.chunks).decode("utf-8", "replace")
    if child.status == -1:
        return Outcome(-1, text, seconds)
    assert child.status is not None
    return Outcome(os.waitstatus_to_exitcode(child.status), text, seconds)


def run_cells(cells: list[tuple[str, str, Call, Path]], width: int) -> dict[str, Outcome]:
    """Every cell, `width` at a time; the outcome of each by its folder's name."""
    pending = list(cells)
    running: dict[int, tuple[Running, Path]] = {}
    outcomes: dict[str, Outcome] = {}
    while pending or running:
        while pending and len(running) < width:
            _, column, call, cell = pending.pop(0)
            child = start_cell(call, column, cell)
            running[child.pid] = (child, cell)
        poll([child for child, _ in running.values()], 0.05)
        for pid, (child, cell) in list(running.items()):
            reaped = child.status is not None
            if reaped and (not child.readers or time.monotonic() - child.started > 2):
                outcomes[cell.name] = finished(child)
                del running[pid]
    return outcomes


def cell_call(command: str, column: str, made: dict[str, Path], cell: Path) -> Call | None:
    feed = FEEDS[command]
    if column in FILE_INPUTS:
        return None if feed.given is None else feed.given(os.fspath(made[column]), cell)
    if column == "fifo-as-output":
        if feed.output is None:
            return None
        inside = OUTPUT_IN_FOLDER.get(command, "")
        if command in OUTPUT_IN_FOLDER and inside is None:
            target = cell / "export"  # a FIFO where a folder is to be made
            os.mkfifo(target)
            return feed.output(str(target), cell)
        if inside:
            (cell / "pages").mkdir()
            os.mkfifo(cell / "pages" / inside)
            return feed.output(str(cell / "pages"), cell)
        os.mkfifo(cell / "target")
        return feed.output(str(cell / "target"), cell)
    return feed.ordinary(cell)


# --- the matrix ---------------------------------------------------------------------------------


def test_every_command_of_the_cli_has_a_feed() -> None:
    """A command added to the CLI's table is in the matrix, or this fails and says so."""
    missing = sorted(set(COMMANDS) - set(FEEDS))
    assert not missing, f"say in FEEDS how each of {missing} is given a file (or None)"
    assert not set(FEEDS) - set(COMMANDS), "FEEDS names a command the CLI does not have"


def _warm() -> None:
    """Import every command's module here, once, so no forked cell pays for it."""
    for command in COMMANDS.values():
        module, _, _ = command.target.partition(":")
        importlib.import_module(module, "rebootspec.conformance")


WIDTH = 2  # cells at a time: the two cores CI has


def test_every_command_against_every_hostile_input(inputs: dict[str, Path], tmp_path: Path) -> None:
    _warm()
    before = {name: _state(path) for name, path in inputs.items() if name != "dev-zero"}
    checkout = sorted(os.listdir(ROOT))
    cells: list[tuple[str, str, Call, Path]] = []
    skipped: list[str] = []
    known: list[str] = []
    placed: dict[str, set[Path]] = {}
    targets: dict[str, dict[Path, tuple[int, int, bytes]]] = {}
    for command in COMMANDS:
        for column in INPUTS:
            cell = tmp_path / f"{command}-{column}"
            (cell / "tmp").mkdir(parents=True)
            call = cell_call(command, column, inputs, cell)
            if call is None or (command, column) in KNOWN:
                (skipped if call is None else known).append(f"{command} x {column}")
                shutil.rmtree(cell)
                continue
            cells.append((command, column, call, cell))
            placed[cell.name] = {p.relative_to(cell) for p in cell.rglob("*")}
            fifos = [p for p in cell.rglob("*") if stat.S_ISFIFO(os.lstat(p).st_mode)]
            targets[cell.name] = {p: _state(p) for p in fifos}
    started = time.monotonic()
    outcomes = run_cells(cells, WIDTH)
    seconds = time.monotonic() - started
    failures: list[str] = []
    for command, column, call, cell in cells:
        outcome = outcomes[cell.name]
        problems = _judge(command, column, outcome, call.prints)
        left = {p.relative_to(cell) for p in cell.rglob("*")} - placed[cell.name]
        left = {p for p in left if p.parts[0] != "cache"}  # `sessions`' cache: its own file
        if left:
            problems.append(f"left behind: {sorted(map(str, left))}")
        for target, state in targets[cell.name].items():
            if not os.path.lexists(target) or _state(target) != state:
                problems.append(f"changed the target {target.name}")
        if problems:
            failures.append(f"{command} x {column}: " + "; ".join(problems))
    after = {name: _state(path) for name, path in inputs.items() if name != "dev-zero"}
    assert after == before, "an input changed"
    assert sorted(os.listdir(ROOT)) == checkout, "a cell wrote into the checkout"
    slowest = sorted(outcomes.items(), key=lambda item: -item[1].seconds)[:8]
    sys.stderr.write(
        f"matrix: {len(COMMANDS)} commands x {len(INPUTS)} inputs: {len(cells)} cells run in "
        f"{seconds:.1f} s ({WIDTH} at a time; slowest "
        + ", ".join(f"{name} {o.seconds:.1f} s" for name, o in slowest)
        + f"), {len(skipped)} not applicable, {len(known)} known: {'; '.join(known)}\n"
    )
    assert not failures, f"{len(failures)} of {len(cells)} cells:\n" + "\n".join(failures)


# `hook` is given the file inside its stdin's JSON: its refusal says what the JSON lacks.
UNNAMED = frozenset({"hook"})
INPUT_PATHS: dict[str, Path] = {}  # the `inputs` fixture's, for the judge


def _judge(command: str, column: str, outcome: Outcome, prints: bool) -> list[str]:
    """What is wrong with a cell's outcome, in words (empty: the cell holds)."""
    problems: list[str] = []
    want = expected(command, column, prints)
    if outcome.code == -1:
        return [f"still running after {CELL_SECONDS:g} s: {outcome.stderr[-300:]!r}"]
    if outcome.code != want:
        problems.append(f"exit {outcome.code}, documented {want}")
    if "Traceback" in outcome.stderr or "Exception ignored" in outcome.stderr:
        problems.append(f"traceback: {outcome.stderr[-600:]!r}")
    if want not in (0, 141) and column != "stderr-closed":
        # One error line; `whoami` and `hook` may follow it with indented advice (WHO-1).
        lines = outcome.stderr.splitlines()
        errors = [line for line in lines if not line.startswith("  ")]
        starts = ("error: ", "usage error: ") + (("REFUSED: ",) if want == 3 else ())
        if len(errors) != 1 or not lines[0].startswith(starts):
            problems.append(f"{len(errors)} error lines: {outcome.stderr[-400:]!r}")
    named = command not in UNNAMED and want != 3
    if column in FILE_INPUTS and want != 0 and named and outcome.stderr:
        first = outcome.stderr.splitlines()[0]
        if shown(os.path.basename(os.fspath(INPUT_PATHS[column]))) not in first:
            problems.append(f"the error line does not name the file: {first[:300]!r}")
    if column == "broken-pipe" and "pipe" in outcome.stderr.lower():
        problems.append(f"not quiet about the pipe: {outcome.stderr[-300:]!r}")
    raw = [c for c in outcome.stderr if (ord(c) < 32 and c not in "\n\t") or ord(c) == 127]
    if raw:
        problems.append(f"raw control characters {raw[:3]!r} on stderr")
    return problems
