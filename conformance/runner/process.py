"""Run one candidate process with a time limit, bounded output and no strays (PRO-2 timeout).

The process starts in a session of its own, so the whole group (a shell wrapper, `npx`, a
forked worker) dies together. After every case, whether it exited, timed out or crashed, every
process it started is killed and reaped, also those that left the group (`setsid()`): on Linux
the runner is a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`, set once), so orphans are
re-parented to it instead of init, and each new child of the runner is killed with its whole
tree (psutil); elsewhere the candidate's tree is walked, best effort. The leader stays unreaped
until then (its group ID cannot be reused). Output beyond the caps is drained and dropped: a
candidate printing garbage in a loop costs the runner no memory. `memory_mb` caps the address
space (RLIMIT_AS), and the leader's peak resident memory comes from `wait4`'s rusage.

One candidate runs at a time per runner process (pytest-xdist gives each worker its own): the
strays of a case are told apart from the runner's other children by a before/after list.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

import psutil

from .outcome import RunResult

STDOUT_CAP = 1 << 20
STDERR_CAP = 64 << 10
# After the leader exited, how long its children may keep the pipes open before being killed.
EXIT_GRACE = 0.2
_TICK = 0.05
PR_SET_CHILD_SUBREAPER = 36
_KILL_ROUNDS = 50
_subreaper: bool | None = None


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux), once; True when it is one."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError, AttributeError):
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _subreaper


def _memory_limit(megabytes: int) -> Callable[[], None]:
    def apply() -> None:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def _proc_children(pid: int) -> set[int] | None:
    """Direct children from /proc/PID/task/*/children (Linux; cheap), None if unavailable."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None if pid == os.getpid() else set()
    found: set[int] = set()
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                found.update(int(word) for word in handle.read().split())
        except FileNotFoundError:
            if task == str(pid) and pid == os.getpid():
                return None  # the kernel has no /proc/PID/task/TID/children
        except (OSError, ValueError):
            continue
    return found


_FAST = sys.platform.startswith("linux") and _proc_children(os.getpid()) is not None


def _child_pids(pid: int) -> set[int]:
    """The direct children of `pid` (empty when it is gone)."""
    if _FAST:
        return _proc_children(pid) or set()
    try:
        return {child.pid for child in psutil.Process(pid).children()}
    except psutil.Error:
        return set()


def _children() -> set[int]:
    return _child_pids(os.getpid())


def _tree(pid: int) -> set[int]:
    """Every descendant of `pid` (not `pid` itself)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in _child_pids(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def run_command(
    argv: Sequence[str],
    *,
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdout_cap: int = STDOUT_CAP,
    stderr_cap: int = STDERR_CAP,
    memory_mb: int | None = None,
) -> RunResult:
    """Run `argv` (never through a shell) with empty stdin; never raises for the candidate."""
    become_subreaper()
    before = _children()
    started = time.monotonic()
    deadline = started + timeout
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            start_new_session=True,
            preexec_fn=_memory_limit(memory_mb) if memory_mb else None,
        )
    except (OSError, ValueError, subprocess.SubprocessError) as error:
        return RunResult(start_error=str(error), duration=time.monotonic() - started)
    assert proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    try:
        timed_out, overflow = _pump(
            proc, proc.stdout, proc.stderr, out, err, deadline, stdout_cap, stderr_cap
        )
        if not timed_out:
            timed_out = not _wait_unreaped(proc.pid, deadline)
    finally:
        _kill_group(proc.pid)
        reap_strays(proc.pid, before)
        peak = _reap_leader(proc)
        proc.stdout.close()
        proc.stderr.close()
    duration = time.monotonic() - started
    code = proc.returncode
    text_out = out.decode("utf-8", errors="replace")
    text_err = err.decode("utf-8", errors="replace")
    if timed_out:
        return RunResult(
            timed_out=True, stdout=text_out, stderr=text_err, duration=duration, peak_rss_kb=peak
        )
    if code < 0:
        return RunResult(
            signal=-code, stdout=text_out, stderr=text_err, duration=duration, peak_rss_kb=peak
        )
    return RunResult(
        exit_code=code,
        stdout=text_out,
        stderr=text_err,
        stdout_overflow=overflow,
        duration=duration,
        peak_rss_kb=peak,
    )


def _pump(
    proc: subprocess.Popen[bytes],
    stdout: IO[bytes],
    stderr: IO[bytes],
    out: bytearray,
    err: bytearray,
    deadline: float,
    stdout_cap: int,
    stderr_cap: int,
) -> tuple[bool, bool]:
    """Read both pipes until EOF; returns (timed out, stdout overflowed)."""
    caps = {stdout.fileno(): (out, stdout_cap), stderr.fileno(): (err, stderr_cap)}
    overflow = False
    exited_at: float | None = None
    with selectors.DefaultSelector() as selector:
        for stream in (stdout, stderr):
            selector.register(stream, selectors.EVENT_READ)
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                return True, overflow
            if exited_at is None and _has_exited(proc.pid):
                exited_at = now
            if exited_at is not None and now - exited_at > EXIT_GRACE:
                return False, overflow  # children hold the pipes; the group kill ends them
            for key, _ in selector.select(min(deadline - now, _TICK)):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                buffer, cap = caps[key.fd]
                room = cap - len(buffer)
                if room > 0:
                    buffer += chunk[:room]
                if len(chunk) > room and key.fd == stdout.fileno():
                    overflow = True
    return False, overflow


def _has_exited(pid: int) -> bool:
    """Whether the leader has exited, without reaping it (the group ID stays reserved)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _wait_unreaped(pid: int, deadline: float) -> bool:
    """Wait for the leader to exit, leaving it unreaped; False when the deadline passed first."""
    while not _has_exited(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)
    return True


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def reap_strays(leader: int, before: set[int]) -> None:
    """Kill every process the candidate started, wherever it went, and reap what is ours.

    Found in rounds until none is left: the (unreaped) leader's tree, and every child of the
    runner that was not there before the case, with its tree (on Linux the subreaper makes
    orphans, `setsid()` ones included, our children; killed descendants become zombies that are
    re-parented to us and reaped in the next round). A forking loop cannot outrun it: each
    round kills all it sees, and `_KILL_ROUNDS` bounds the work.
    """
    for _ in range(_KILL_ROUNDS):
        ours = _children() - before - {leader}
        found = _tree(leader) | ours
        for child in ours:
            found |= _tree(child)
        if not found:
            return
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in ours:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
        if not ours and not _tree(leader):
            return


def _reap_leader(proc: subprocess.Popen[bytes]) -> int | None:
    """Reap the leader with wait4 (its exit status and peak RSS in KiB); None when unmeasured."""
    if proc.returncode is not None:
        return None
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:
        proc.wait()
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = int(usage.ru_maxrss)
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KiB elsewhere
