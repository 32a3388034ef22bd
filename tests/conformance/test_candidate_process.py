"""Running a candidate process: time limit, group kill, bounded output, no shell."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from rebootspec.conformance.runner.process import run_command

PY = sys.executable


def test_exit_code_and_streams() -> None:
    result = run_command(
        [PY, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"],
        timeout=20,
    )
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")


def _spawner(tmp_path: Path, marker: Path, delay: float, then: str) -> Path:
    """A script that starts a child (which touches `marker` after `delay` s), then runs `then`."""
    child = f"import time; time.sleep({delay}); open({str(marker)!r}, 'w').close()"
    script = tmp_path / "spawner.py"
    script.write_text(
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', {child!r}],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n" + then + "\n",
        encoding="utf-8",
    )
    return script


def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    marker = tmp_path / "child-alive"
    script = _spawner(tmp_path, marker, 3, "import time; time.sleep(60)")
    started = time.monotonic()
    result = run_command([PY, str(script)], timeout=1)
    assert result.timed_out
    assert time.monotonic() - started < 10
    time.sleep(3.5)
    assert not marker.exists()


def test_strays_of_a_finished_candidate_are_killed(tmp_path: Path) -> None:
    marker = tmp_path / "stray-alive"
    script = _spawner(tmp_path, marker, 2, "print('{\"reboots\": 1}')")
    result = run_command([PY, str(script)], timeout=20)
    assert result.exit_code == 0 and not result.timed_out
    time.sleep(2.5)
    assert not marker.exists()


def test_a_child_holding_the_pipes_does_not_hang_the_run() -> None:
    started = time.monotonic()
    result = run_command(["sh", "-c", "sleep 30 & echo 5"], timeout=20)
    assert result.exit_code == 0 and result.stdout == "5\n"
    assert time.monotonic() - started < 5


def test_endless_garbage_is_capped() -> None:
    result = run_command(
        [PY, "-c", "import sys\nwhile True: sys.stdout.write('x' * 65536)"],
        timeout=1,
        stdout_cap=1000,
    )
    assert result.timed_out and len(result.stdout) == 1000


def test_large_output_sets_overflow() -> None:
    result = run_command([PY, "-c", "print('y' * 5000)"], timeout=20, stdout_cap=100)
    assert result.exit_code == 0 and result.stdout_overflow and len(result.stdout) == 100


def test_signal_is_reported() -> None:
    result = run_command(
        [PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGABRT)"], timeout=20
    )
    assert result.signal == 6 and result.exit_code is None


def test_missing_program_is_a_start_error() -> None:
    result = run_command(["/nonexistent/candidate"], timeout=5)
    assert result.start_error is not None


def test_no_shell_and_empty_stdin(tmp_path: Path) -> None:
    result = run_command(
        [PY, "-c", "import sys; print(repr(sys.stdin.read()), sys.argv[1])", "$HOME;*"], timeout=20
    )
    assert result.stdout == "'' $HOME;*\n"


def test_invalid_utf8_is_replaced() -> None:
    result = run_command([PY, "-c", "import os; os.write(1, b'\\xff{}')"], timeout=20)
    assert result.stdout == "\ufffd{}"
    assert os.getpid() > 0
