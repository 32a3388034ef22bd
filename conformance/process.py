"""Run one candidate process with a time limit, bounded output and no strays (PRO-2 timeout).

The process starts in a session of its own, so the whole group (a shell wrapper, `npx`, a
forked worker) dies together on timeout. The group is also killed after a normal exit, before
the leader is reaped (the unreaped leader keeps the group ID from being reused), so a stray
left behind by one case cannot disturb the next one. Output beyond the caps is drained and
dropped: a candidate printing garbage in a loop costs the runner no memory.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from conformance.outcome import RunResult

STDOUT_CAP = 1 << 20
STDERR_CAP = 64 << 10
# After the leader exited, how long its children may keep the pipes open before being killed.
EXIT_GRACE = 0.2
_TICK = 0.05


def run_command(
    argv: Sequence[str],
    *,
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdout_cap: int = STDOUT_CAP,
    stderr_cap: int = STDERR_CAP,
) -> RunResult:
    """Run `argv` (never through a shell) with empty stdin; never raises for the candidate."""
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
        )
    except (OSError, ValueError) as error:
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
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    duration = time.monotonic() - started
    code = proc.returncode
    text_out = out.decode("utf-8", errors="replace")
    text_err = err.decode("utf-8", errors="replace")
    if timed_out:
        return RunResult(timed_out=True, stdout=text_out, stderr=text_err, duration=duration)
    if code < 0:
        return RunResult(signal=-code, stdout=text_out, stderr=text_err, duration=duration)
    return RunResult(
        exit_code=code,
        stdout=text_out,
        stderr=text_err,
        stdout_overflow=overflow,
        duration=duration,
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
