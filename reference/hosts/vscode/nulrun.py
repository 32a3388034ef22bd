"""A log whose first line is a long run of NUL bytes, decided without holding it (ERR-1, ERR-3,
ERR-9, JSV-4; issue 43).

Why: NUL bytes are what a crash leaves where a file's blocks were allocated but never written,
and what a sparse or preallocated file reads as. Such a line is no JSON whatever follows its
first byte, so its answer depends only on where it ends: followed by a LF it is `E-JSON` at
line 1 (ERR-3); running to the end of the file it is an unterminated line that does not parse,
ignored (ERR-9), and then the log has no entry at all (`E-EMPTY`, ERR-1). The readers would
read the whole line to learn that (a 1 GiB file of NULs: 16 s and 2 GB); here the line is only
scanned for a LF, one chunk at a time, so memory is one chunk and time is a scan of the bytes.

Only a line of at least `LONG_TEXT` bytes is decided here (no LF in the first chunk): a shorter
one is read as any line, and a long one gets the same reason the readers give a long line that
does not parse (jsontext.py's check), so an answer never depends on which path gave it.
"""

from __future__ import annotations

import os

from ...core.errors import E_EMPTY, E_JSON, Rejection
from ...core.files import open_log
from ...core.jsontext import BOM, LONG_TEXT

NUL = b"\x00"


def nul_run_rejection(path: str | os.PathLike[str]) -> Rejection | None:
    """The rejection of a `.jsonl` log whose first line starts with NUL and is `LONG_TEXT`
    bytes or longer, or None (every other file, read by the readers as before)."""
    if os.fspath(path).endswith(".json"):
        return None  # LEG-1: a flat document is read whole by its own rules
    with open_log(path) as stream:
        start = stream.read(len(BOM) + 1)
        first = start[len(BOM) :] if start.startswith(BOM) else start[:1]  # RPL-2
        if first != NUL:
            return None  # the common case: one small read, nothing more
        head = start + stream.read(LONG_TEXT)
        if b"\n" in head:
            return None  # a short line: the readers decide it (and word it) as any line
        while chunk := stream.read(LONG_TEXT):
            if b"\n" in chunk:
                return Rejection(1, E_JSON, "not valid JSON (invalid character)")
    return Rejection(0, E_EMPTY, "the log has no entries")
