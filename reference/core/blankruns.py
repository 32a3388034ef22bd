"""Skipping a run of blank lines at the speed of a byte scan (JSV-1, RPL-1, issue 32).

Why: the readers go through a log a line at a time, and a blank line costs them a step of the
interpreter; a file (or a small `.jsonl.zst`) of millions of blank lines would then take minutes
to give nothing. A reader that has just seen a blank line hands its stream here: the run that
follows is matched in the stream's buffer by one regular expression (in C) and consumed whole
lines at a time, so skipping costs what scanning the bytes costs.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import BinaryIO

EMPTY_LINES = rb"\n*"  # RPL-1: VS Code skips zero-length pieces only
BLANK_LINES = rb"[ \t\r\n]*"  # JSV-1: the record hosts skip whitespace-only lines


def skip_run(stream: BinaryIO, run: bytes) -> int:
    """Consume the whole lines at the stream's position that `run` matches; how many.

    A partial line (whitespace and then a value) is left to the reader. A stream without
    `peek` (an in-memory one) is left as it is: its reader then steps line by line.
    """
    peek = getattr(stream, "peek", None)
    if peek is None:
        return 0
    import re  # here, not at start-up: only a log with a blank line needs it (re caches)

    match = re.compile(run).match
    skipped = 0
    while True:
        data = peek(1 << 16)
        end = match(data).end()  # type: ignore[union-attr]  # `*`: always matches
        last = data.rfind(b"\n", 0, end)
        if last < 0:
            return skipped
        skipped += int(data.count(b"\n", 0, last + 1))
        stream.read(last + 1)
        if end < len(data):  # the run ended inside what was buffered
            return skipped
