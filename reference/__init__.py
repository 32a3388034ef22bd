"""The reference reboot counter of rebootspec: the spec's rules as small readable functions.

`count_path` is the whole answer for one file; `python -m reference` is its command line.
"""

from __future__ import annotations

import os

from .count import Count, count_state
from .errors import Notice, Rejection
from .replay import Replay, load_path

__all__ = ["Count", "Notice", "Rejection", "Replay", "count_path", "load_path"]

# The fast path pays for itself from about this size: below it, importing msgspec costs more
# than the fast path saves (measured on both benchmark shapes; see README, Performance).
FAST_FROM_BYTES = 16 * 2**20


def count_path(path: str | os.PathLike[str], *, readable: bool = False) -> Count:
    """Replay a `.jsonl` or `.json` session and count its reboots; raises Rejection (ERR-*).

    Only the final state is counted (RPL-10): the lines that led to it are history.

    For a big file the fast path (reference.fastpath) answers first unless `readable` is set;
    whenever it cannot be certain (any rejection, any shape its schema does not cover) the
    readable path below, which is the definition, reads the file again and answers. Both give
    the same output on every input (tests/reference/test_fastpath.py).
    """
    if not readable and _size(path) >= FAST_FROM_BYTES:
        from .fastpath import count_fast

        fast = count_fast(path)
        if fast is not None:
            return fast
    replay = load_path(path)
    count = count_state(replay.state)
    count.notices[:0] = replay.notices
    return count


def _size(path: str | os.PathLike[str]) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # the readable path reports it
