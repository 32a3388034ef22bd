"""Every file a command is given, every file it writes, every stream it prints to (ERR-10, ERR-12).

Why one module: the readers already refuse a FIFO, a device or a folder before a byte is read
(`files.py`) and escape what they print (`printable.py`), but the commands around them read a
report, a profile or a hook's stdin with `read_bytes()`, wrote with `write_text()`, and let a
closed pipe end in a traceback. Each command doing it again is how one of them forgets. The
rules are written here once, and a command calls these functions instead of `open`:

Reading (`read_bytes`, `read_text`, `read_json`, `read_toml`, `read_stdin`)
    A regular file only (a folder of a store is the readers' business). The open never blocks
    (O_NONBLOCK, then `fstat` on the descriptor: a FIFO is refused at once, not waited on) and
    the file is read up to a bound stated per kind of file (`LIMITS`), so `/dev/zero`, a 1 GiB
    sparse file or a file growing while it is read ends with one line, never a MemoryError.
    Every refusal is a `Refused`: one line that names the file (escaped), for `error: ...`.

Our own state (`read_own`, and `write_bytes(..., private=True)`)
    A file rebootspec keeps for itself between runs (the `sessions` cache) is believed only if
    nobody else could have written it: a regular file, not reached through a symlink, this
    user's, writable by nobody else; else it is `Refused` and the caller rebuilds it. It is
    written 0600, the one exception to the mode below: it is no output, and a group-writable
    file (umask 002) would be refused on the next read.

Writing (`write_bytes`, `write_text`)
    Into a temporary file in the target's own folder, then renamed over the target, so a reader
    (a status line polling `--out`, a CI step) sees the old file or the new one, never half of
    one, and an interrupted run leaves no partial file and no temporary behind. A target that
    exists and is not a regular file (a FIFO, a device node, a folder, a symlink, a socket) is
    refused and left untouched: renaming over `/dev/null` or a FIFO would replace it, and
    writing through a symlink would not be atomic. The mode is the one a shell's `>` gives:
    a new file is 0666 less the umask (0644 under the usual umask 022; a user who wants private
    files sets umask 077), and a file that is replaced keeps its own mode. Nothing we write is
    a secret the session's own log is not (counts, reports of public cases), and a tool that
    reads our output (a status line, a CI job under another user) must be able to.

Output (`prepare_streams`, `ended_by_pipe`, `StreamClosed`)
    A closed descriptor 0, 1 or 2 (`<&-`, `>&-`, `2>&-`) is opened on /dev/null first, so no
    file we open later takes its number. A closed stdout is told as one line on stderr and exit
    2 when something is printed; a closed stderr swallows what would go there; a closed stdin
    is a `Refused` from `read_stdin`. A reader that goes away (`rebootspec cases | head -1`)
    ends the run quietly with 141 (128 + SIGPIPE), what a shell reports for `cat`, `ls` and
    the other coreutils killed by SIGPIPE; Python ignores SIGPIPE, so the same code is given
    after the clean-up instead of a traceback. (ripgrep exits 0 there; 141 keeps
    `set -o pipefail` honest: the output was cut short.)

Text from a file or the environment is shown through `printable` (printable.py), re-exported
here as `shown`, so a command imports its whole discipline from one place.
"""

from __future__ import annotations

import os
import stat
import sys

from .printable import printable as shown

__all__ = [
    "LIMITS",
    "Refused",
    "StreamClosed",
    "open_regular",
    "prepare_streams",
    "read_bytes",
    "read_json",
    "read_own",
    "read_stdin",
    "read_text",
    "read_toml",
    "shown",
    "writable_target",
    "write_bytes",
    "write_text",
]

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any, BinaryIO

    PathLike = str | os.PathLike[str]

MIB = 1 << 20

# How much a command reads of each kind of file it is given. Each bound is far above any real
# file of its kind and far below what would hurt a machine: a report of the whole corpus is
# about 1 MB (477 cases with stderr excerpts), a profile or a hook's JSON a few hundred bytes.
LIMITS: dict[str, int] = {
    "report": 256 * MIB,  # report.json: `compare`, `report`, `baseline`
    "profile": 1 * MIB,  # `run --profile FILE`
    "known-divergences": 16 * MIB,  # `run --known-divergences FILE`, `baseline`'s output
    "cache": 64 * MIB,  # the `sessions` cache (conformance/commands/sessions_cache.py)
    "stdin": 1 * MIB,  # a hook's JSON on stdin (`hook`)
    "peers": 64 * MIB,  # `peers`' own peers.json, read back
    "text": 16 * MIB,  # a document we rewrite a section of (`peers --readme README.md`)
}

EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell shows for a coreutils program whose reader left
EXIT_CLOSED = 2  # stdout closed (`>&-`): the caller's set-up, not the input's fault


class Refused(Exception):
    """A file (or stream) a command cannot use, as one line: `str(refused)` is
    `NAME: REASON` with the name escaped; a command prints `error: {refused}`."""

    def __init__(self, name: PathLike, reason: str) -> None:
        self.name = os.fspath(name)
        self.reason = reason
        super().__init__(f"{shown(self.name)}: {reason}")


class StreamClosed(OSError):
    """stdout was closed before the run (`>&-`) and something was printed."""


# --- reading ----------------------------------------------------------------------------------


def limit_of(kind: str) -> int:
    """The bound of a kind of file (a KeyError names a kind nobody stated: a bug, not input)."""
    return LIMITS[kind]


def open_regular(path: PathLike) -> BinaryIO:
    """`path` opened for reading if it is a regular file (followed through symlinks), without
    ever blocking on a FIFO; else `Refused` (files.py's rule, in a command's words)."""
    from .errors import Rejection, os_reason
    from .files import open_regular as open_checked

    try:
        return open_checked(path)
    except Rejection as rejection:
        raise Refused(path, rejection.reason) from None
    except OSError as error:
        raise Refused(path, f"cannot read: {os_reason(error)}") from None


def read_bytes(path: PathLike, kind: str) -> bytes:
    """The whole of a regular file of at most `LIMITS[kind]` bytes, else `Refused`."""
    from .errors import os_reason

    limit = limit_of(kind)
    with open_regular(path) as stream:
        size = os.fstat(stream.fileno()).st_size
        if size > limit:
            raise Refused(path, _too_big(kind, limit, f"{size:,} bytes"))
        try:
            data = stream.read(limit + 1)  # a file that grows past the bound is refused too
        except OSError as error:
            raise Refused(path, f"cannot read: {os_reason(error)}") from None
    if len(data) > limit:
        raise Refused(path, _too_big(kind, limit, "longer"))
    return data


def read_own(path: PathLike, kind: str) -> bytes:
    """The whole of a file rebootspec wrote for itself (see the module's docstring), at most
    `LIMITS[kind]` bytes; `Refused` if anyone else could have written it or placed it."""
    from .errors import os_reason

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if not hasattr(os, "O_NOFOLLOW") and os.path.islink(path):
        raise Refused(path, "a symlink: never followed")
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as error:  # ELOOP: a symlink
        reason = os_reason(error) if isinstance(error, OSError) else str(error)
        raise Refused(path, f"cannot read: {reason}") from None
    limit = limit_of(kind)
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(path, f"is {_file_type(info.st_mode)}, not a regular file")
        if os.name == "posix" and info.st_uid != os.geteuid():
            raise Refused(path, "belongs to another user")
        if os.name == "posix" and info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise Refused(path, "can be written by other users")
        if info.st_size > limit:
            raise Refused(path, _too_big(kind, limit, f"{info.st_size:,} bytes"))
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise Refused(path, f"cannot read: {os_reason(error)}") from None
    if len(data) > limit:
        raise Refused(path, _too_big(kind, limit, "longer"))
    return data


def _too_big(kind: str, limit: int, size: str) -> str:
    return f"{size}: not a {kind} file (a {kind} file is at most {limit:,} bytes)"


def read_text(path: PathLike, kind: str) -> str:
    """`read_bytes` decoded as UTF-8 (a byte-order mark is dropped), else `Refused`."""
    return _decoded(read_bytes(path, kind), path)


def _decoded(data: bytes, name: PathLike) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Refused(name, f"not UTF-8 text (byte {error.start})") from None


def read_json(path: PathLike, kind: str) -> Any:
    """`read_bytes` parsed as one JSON document (orjson), else `Refused`."""
    import orjson

    data = read_bytes(path, kind)
    try:
        return orjson.loads(data[3:] if data.startswith(b"\xef\xbb\xbf") else data)
    except orjson.JSONDecodeError as error:
        raise Refused(path, f"not JSON: {shown(str(error))}") from None


def read_toml(path: PathLike, kind: str) -> dict[str, Any]:
    """`read_text` parsed as TOML, else `Refused`."""
    import tomllib

    text = read_text(path, kind)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise Refused(path, f"not TOML: {shown(str(error))}") from None


def read_stdin(kind: str = "stdin", stream: Any = None) -> bytes:
    """Standard input, at most `LIMITS[kind]` bytes (a UTF-8 byte-order mark dropped), else
    `Refused` naming `stdin`: closed (`<&-`), unreadable, or longer than the bound."""
    limit = limit_of(kind)
    if stream is None:
        if sys.stdin is None or _closed(0):
            raise Refused("stdin", "closed: nothing can be read")
        stream = sys.stdin.buffer
    try:
        data = stream.read(limit + 1)
    except (OSError, ValueError) as error:  # ValueError: a closed file object
        raise Refused(
            "stdin", f"cannot read: {getattr(error, 'strerror', None) or error}"
        ) from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise Refused("stdin", f"longer than {limit:,} bytes: not a {kind} of a hook")
    return bytes(data[3:] if data.startswith(b"\xef\xbb\xbf") else data)


def _closed(fd: int) -> bool:
    """Whether `fd` is the /dev/null `prepare_streams` put where a closed descriptor was."""
    return fd in _REOPENED


# --- writing ----------------------------------------------------------------------------------


def writable_target(path: PathLike) -> None:
    """`Refused` unless `path` is absent or a regular file (not followed: a symlink is refused)
    in an existing folder; called by `write_bytes`, and by a command before long work."""
    from .errors import os_reason

    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise Refused(path, "cannot write: its folder does not exist") from None
        return
    except OSError as error:
        raise Refused(path, f"cannot write: {os_reason(error)}") from None
    if not stat.S_ISREG(mode):
        what = "a symlink" if stat.S_ISLNK(mode) else _file_type(mode)
        raise Refused(path, f"exists and is {what}, not a regular file: left as it is")


def _file_type(mode: int) -> str:
    from .files import _file_type as described

    return described(mode)


def write_bytes(
    path: PathLike, data: bytes, exclusive: bool = False, private: bool = False
) -> None:
    """`data` as the whole new content of `path`, atomically (a temporary file in its folder,
    renamed into place); mode as the module says. `exclusive`: refuse a target that exists;
    `private`: our own state, mode 0600 (`read_own`)."""
    import contextlib
    import tempfile

    from .errors import os_reason

    writable_target(path)
    if exclusive and os.path.lexists(path):
        raise Refused(path, "exists; never overwritten (remove it or name another file)")
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(prefix=".rebootspec-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as stream:
            os.fchmod(stream.fileno(), 0o600 if private else _mode_for(target))
            stream.write(data)
        if exclusive:
            os.link(temporary, target)  # fails if the target appeared meanwhile
            os.unlink(temporary)
        else:
            writable_target(path)  # once more, just before: a FIFO made meanwhile stays
            os.replace(temporary, target)
        temporary = None
    except FileExistsError:
        raise Refused(path, "exists; never overwritten (remove it or name another file)") from None
    except OSError as error:
        raise Refused(path, f"cannot write: {os_reason(error)}") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def write_text(path: PathLike, text: str, exclusive: bool = False) -> None:
    """`write_bytes` of `text` in UTF-8 (a lone surrogate, from a name that is not UTF-8,
    becomes U+FFFD rather than an error)."""
    write_bytes(path, text.encode("utf-8", "replace"), exclusive)


def _mode_for(target: str) -> int:
    """A replaced file keeps its mode; a new one gets 0666 less the umask, as `>` does."""
    try:
        info = os.stat(target)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask
    return stat.S_IMODE(info.st_mode)


# --- output -----------------------------------------------------------------------------------

_REOPENED: set[int] = set()


class _ClosedOutput:
    """sys.stdout when descriptor 1 was closed: the first write says so (StreamClosed)."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        raise StreamClosed("stdout is closed: nothing can be printed")

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise StreamClosed("stdout is closed: nothing can be printed")


def prepare_streams() -> None:
    """Before a command runs: each closed descriptor 0-2 is opened on /dev/null (so no file
    opened later takes its number), and a closed stdout or stderr gets a stand-in object."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            _REOPENED.add(fd)
    if sys.stdout is None or 1 in _REOPENED:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None or 2 in _REOPENED:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the run)


def ended_by_pipe() -> int:
    """After a BrokenPipeError (stdout's or stderr's reader left): both pointed at /dev/null, so
    Python's own flush at exit has nowhere to fail, and the exit code of a program ended by
    SIGPIPE."""
    for stream in (sys.stdout, sys.stderr):
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):
            continue
    return EXIT_PIPE


def closed_output(error: StreamClosed) -> int:
    """A closed stdout: one line on stderr (if it is open), and EXIT_CLOSED."""
    try:
        sys.stderr.write(f"error: {error}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return EXIT_CLOSED


def flush_output() -> None:
    """Flush stdout inside the guard, so a reader that left shows up as BrokenPipeError here
    and not as Python's "Exception ignored" message at exit."""
    stream = sys.stdout
    if stream is not None:
        stream.flush()
