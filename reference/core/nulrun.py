"""A log whose first line is a long run of NUL bytes, judged without holding it (ERR-1, ERR-3,
ERR-9, JSV-2, JSV-3, JSV-4; issue 43).

Why: NUL bytes are what a crash leaves where a file's blocks were allocated but never written,
and what a sparse or preallocated file reads as. A line that starts with NUL is no JSON, whatever
follows its first byte, so what it does to the answer depends only on where it ends. Running to
the end of the file, it is an unterminated line that does not parse, ignored (ERR-9, JSV-2), and
the log holds no entry at all: `E-EMPTY` at line 0 (ERR-1; JSV-3 under a named host). Followed by
a LF, it is VS Code's `E-JSON` at line 1 (ERR-3), and a line a record host skips (JSV-3), which
only reading on can answer. The readers would read the whole line to learn that (a 1 GiB file of
NULs: 16 s and 2 GB, 3.6 GB under `--host`); here the line is only scanned for a LF, a chunk at a
time, so memory is one chunk and time is a scan of the bytes.

Only a line of at least `LONG_TEXT` bytes is judged here (no LF in the first chunk): a shorter
one is read as any line, and a long one gets the reason the readers give a long line that does
not parse (jsontext.py's check), so an answer never depends on which path gave it.
"""

from __future__ import annotations

import os

from .errors import E_EMPTY, E_JSON, Rejection
from .files import COMPRESSED, open_log
from .jsontext import BOM, LONG_TEXT

NUL = b"\x00"
EMPTY = "the log has no entries"  # the readers' own reason for ERR-1
NOT_JSON = "not valid JSON (invalid character)"  # the readers' reason for a long line (ERR-3)


def nul_run_ends(path: str | os.PathLike[str]) -> bool | None:
    """None unless the `.jsonl` log's first line starts with NUL and is `LONG_TEXT` bytes or
    longer; then whether a LF ends it (True) or the file does (False)."""
    name = os.fspath(path)
    if name.endswith(".json"):
        return None  # LEG-1: a flat document is read whole by its own rules
    if not name.endswith(COMPRESSED):
        try:
            if os.stat(name).st_size < LONG_TEXT:
                return None  # the common case, one stat: no line of it can be that long
        except (OSError, ValueError):
            return None  # the readers say why it cannot be read, as they always did
    with open_log(path) as stream:
        start = stream.read(len(BOM) + 1)
        first = start[len(BOM) :] if start.startswith(BOM) else start[:1]  # RPL-2
        if first != NUL:
            return None  # the common case: one small read, nothing more
        if b"\n" in start + stream.read(LONG_TEXT):
            return None  # a short line: the readers judge it (and word it) as any line
        while chunk := stream.read(LONG_TEXT):
            if b"\n" in chunk:
                return True
    return False


def vscode_rejection(path: str | os.PathLike[str]) -> Rejection | None:
    """VS Code's answer to a long first line of NULs (E-JSON at 1, or E-EMPTY), or None."""
    ends = nul_run_ends(path)
    if ends is None:
        return None
    return Rejection(1, E_JSON, NOT_JSON) if ends else Rejection(0, E_EMPTY, EMPTY)


def record_rejection(path: str | os.PathLike[str]) -> Rejection | None:
    """A record host's answer to a log that is one long line of NULs (E-EMPTY), or None (a LF
    ends the run: the line is skipped and what follows decides, JSV-3)."""
    return Rejection(0, E_EMPTY, EMPTY) if nul_run_ends(path) is False else None
