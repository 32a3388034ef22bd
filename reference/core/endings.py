"""How a run ends when it is stopped: its private files removed, one line, a signal's exit code.

Why in the core: opencode's store is read from a private copy (OPC-12) that can be as big as
the user's database. A run stopped by SIGTERM or SIGHUP (a closed terminal, a service manager)
would otherwise leave that copy behind, and Ctrl-C would print a traceback. `guarded` turns
those signals into an exception, so every `with` that made a temporary folder removes it on the
way out, and the entry points (`python -m rebootspec.reference`, `rebootspec`) end with one line.

A run that cannot clean up (SIGKILL, power loss) leaves a folder whose name holds its process
id (`copy_prefix`); the next run removes such folders once that process is gone
(`remove_stale`), and never touches a folder of a live process or of another user.
"""

from __future__ import annotations

# The C module under `signal`: `signal` itself imports `enum` (a few milliseconds on every
# count) to name handlers and signals, and nothing here needs the names but the last line.
import _signal  # type: ignore[import-not-found]  # (typeshed has no stub of it)
import os
import sys

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C
STOPPING = ("SIGTERM", "SIGHUP")  # the signals that end a run as Ctrl-C does
COPY_PREFIX = "rebootspec-opencode-"


class Ended(BaseException):
    """A stopping signal arrived: unwinds like KeyboardInterrupt (not caught as an Exception)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, _frame: Any) -> None:
    for name in STOPPING:  # a second signal must not cut the clean-up short
        _signal.signal(getattr(_signal, name), _signal.SIG_IGN)
    raise Ended(signum)


def guarded(run: Callable[[], int], err: TextIO | None = None) -> int:
    """`run()`'s exit code; on Ctrl-C `error: interrupted` and 130, on SIGTERM or SIGHUP one
    line and 128 + the signal, in every case after the `with` blocks on the way have closed.

    The standard streams are guarded too (userio.py): a closed descriptor is reopened on
    /dev/null first; a reader that left (BrokenPipeError) ends the run quietly with 141, and a
    closed stdout with one line and 2, never a traceback."""
    from . import userio

    userio.prepare_streams()
    err = err or sys.stderr
    previous: dict[int, Any] = {}
    for name in STOPPING:
        number = getattr(_signal, name, None)
        if number is None:
            continue
        try:
            previous[number] = _signal.signal(number, _stop)
        except ValueError:  # not the main thread: its signals are the main thread's to handle
            break
    try:
        code = run()
        userio.flush_output()
        return code
    except BrokenPipeError:
        return userio.ended_by_pipe()
    except userio.StreamClosed as closed:
        return userio.closed_output(closed)
    except KeyboardInterrupt:
        err.write("error: interrupted\n")
        return EXIT_INTERRUPTED
    except Ended as ended:
        import signal

        err.write(f"error: stopped by {signal.Signals(ended.signum).name}\n")
        return 128 + ended.signum
    finally:
        for number, handler in previous.items():
            _signal.signal(number, handler)


# The young generation's threshold while a program runs (Python's default is 700 objects).
# Start-up creates some 5,000 objects that live to the end (modules, functions, classes), and
# each young collection scans those made since the last: a `whoami` paid 3 young collections
# and a 2 ms middle one for nothing found. Above start-up's count, none happens before the
# work; a long count still collects its cyclic garbage, 20,000 objects at a time.
YOUNG_THRESHOLD = 20_000


def program(run: Callable[[], int], err: TextIO | None = None) -> int:
    """`guarded(run)` as this process's whole job (an entry point called as the program, never
    a caller in the same process, such as the tests): the collector tuned for a short run.

    Why: a status line or a hook runs `whoami` on every render or turn, and on a small file
    the garbage collector cost a tenth of its time (measured: 3 young collections and one of
    the middle generation during the imports, about 2.6 ms; the interpreter's last full
    collection at exit, 1.5-2.5 ms, of objects that all live to the end). So the young
    threshold is raised for the run (YOUNG_THRESHOLD), and at the end every object is frozen
    (`gc.freeze`): the collection at exit then skips them, and the operating system frees the
    process's memory as it does anyway."""
    import gc

    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, old)
    try:
        return guarded(run, err)
    finally:
        gc.freeze()


def copy_prefix() -> str:
    """The name a private copy's folder starts with: ours, and which process made it."""
    return f"{COPY_PREFIX}{os.getpid()}-"


def remove_stale(folder: str) -> None:
    """Best effort: remove the copies in `folder` left by runs whose process is gone (POSIX
    only: elsewhere a process cannot be asked whether it lives without touching it)."""
    if os.name != "posix":
        return
    import shutil

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        pid = _owner(entry.name)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and entry.stat().st_uid == os.getuid():
                shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            continue


def _owner(name: str) -> int | None:
    """The process id in `rebootspec-opencode-<pid>-<random>`, else None (not ours)."""
    if not name.startswith(COPY_PREFIX):
        return None
    digits, dash, _ = name[len(COPY_PREFIX) :].partition("-")
    if not dash or not digits.isascii() or not digits.isdigit() or len(digits) > 10:
        return None
    return int(digits)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process, or cannot tell: leave its folder alone
    return True
