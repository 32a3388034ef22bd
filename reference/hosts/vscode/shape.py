"""Which shape a big log has, read from its first line's length alone (issue 37).

The fast path (fastpath.py) wins by not building what the count never reads: on a *rewritten*
log (VS Code's writer rewrites the file as one kind-0 line after 1024 entries, so most bytes
are one line) that is most of the work. On an *appended* log of short patches (a small first
line, then tens of thousands of lines of a KB or two: ../shared/bench's shape) both paths scan
every byte with a C parser at the same speed and then replay the same patches in Python, one by
one: measured on 100 MB, 69,000 lines, the fast path's replay costs as much CPU as the readable
path's, and importing its decoder costs more. So on that shape the fast path steps aside before
importing anything, and the readable path (the definition) answers: same output, never slower.
An appended log of long patches (big tool outputs re-pushed: the project's own appended shape,
3,750 lines in 108 MB) is the fast path's again: there it skips most bytes unbuilt.
"""

from __future__ import annotations

import mmap
import os

# At or above this size a log whose first line holds less than FIRST_LINE_SHARE of its bytes is
# read by the readable path directly (tests lower it to check the step-aside itself).
APPENDED_FROM_BYTES = 16 * 2**20
FIRST_LINE_SHARE = 4  # the first line is at least 1/4 of the file: the rewritten shape
SAMPLE = 2**20  # bytes after the first line whose lines are counted
SHORT_LINES = 4096  # a mean line shorter than this (bytes) in the sample: short patches


def appended(path: str | os.PathLike[str]) -> bool:
    """Whether the log is big, its first line short (under a quarter of the file) and the
    lines after it short (a mean under SHORT_LINES bytes in the SAMPLE after the first line).

    Two scans in C through a read-only mapping (no copy, no decode): a memchr over at most a
    quarter of the file, and a count of LFs in at most SAMPLE bytes. Any error answers False,
    and the fast path then meets it as it would have.
    """
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size < APPENDED_FROM_BYTES:
                return False
            with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as view:
                first = view.find(b"\n", 0, size // FIRST_LINE_SHARE)
                if first < 0:
                    return False
                sample = view[first + 1 : first + 1 + SAMPLE]
                return sample.count(b"\n") * SHORT_LINES > len(sample)
    except (OSError, ValueError):
        return False
