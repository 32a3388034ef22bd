"""The reference reboot counter of rebootspec: the spec's rules as small readable functions.

`count_path` is the whole answer for one file of any host; `python -m reference` is its command
line. The core decides the host (`hosts/`, HST-2) and hands the file to that host's reader:
VS Code's replay and count (`replay.py`, `count.py`), or the record readers of Codex, pi and
Claude Code and Gemini CLI (`hosts/codex.py`, `hosts/pi.py`, `hosts/claude_code.py`,
`hosts/gemini.py`, over `jsonvalues.py`).
"""

from __future__ import annotations

import os

from .answer import RecordCount
from .count import Count, count_state
from .errors import E_HOST, Notice, Rejection
from .replay import Replay, load_path

__all__ = [
    "Count",
    "Notice",
    "RecordCount",
    "Rejection",
    "Replay",
    "count_path",
    "count_records_path",
    "load_path",
]

# The fast path pays for itself from about this size: below it, importing msgspec costs more
# than the fast path saves (measured on both benchmark shapes; see README, Performance).
FAST_FROM_BYTES = 16 * 2**20


def count_path(
    path: str | os.PathLike[str],
    *,
    readable: bool = False,
    host: str | None = None,
    session: str | None = None,
) -> Count | RecordCount:
    """Count the reboots of one session of any host; raises Rejection (ERR-*).

    `host` names the host (HST-3); without it the content decides (HST-2). `session` names the
    session inside a store of several (an opencode database or storage folder, ERR-15); a file
    that is one session's log (every other host) is that session, and the id is not read.
    """
    from .hosts import CHAT_LOOP, HOSTS, OPENCODE, VSCODE, detect

    if host is None:
        host = detect(path)
    elif host not in HOSTS:
        raise Rejection(0, E_HOST, f"unknown host {host!r} (known: {', '.join(HOSTS)})")
    if host == OPENCODE:
        from .hosts.opencode import count_opencode

        return count_opencode(path, session)  # OPC-1..OPC-12
    if host == VSCODE:
        return count_vscode(path, readable=readable)
    if host == CHAT_LOOP:
        from .hosts.chat_loop import count_chat_loop

        return count_chat_loop(path)  # BCL-1..BCL-7: a session file and its chain
    return count_records_path(path, host, readable=readable)


def count_records_path(
    path: str | os.PathLike[str], host: str, *, readable: bool = False
) -> RecordCount:
    """A Codex rollout, a pi session, a Claude Code transcript or a Gemini CLI chat, read by
    JSON value (JSV-1) by that host's reader.

    For a big Codex or pi file the host's fast path (reference.hosts.fast) answers first unless
    `readable` is set; whenever it has any doubt, the readable path below (the definition) reads
    the file again. Both give the same output on every input
    (tests/reference/test_fastpath_hosts.py).
    """
    from .hosts import (
        CLAUDE_CODE,
        CODEX,
        COPILOT_CLI,
        GEMINI,
        PI,
        claude_code,
        codex,
        gemini,
        json_host,
        pi,
    )
    from .hosts.copilot_cli import reader as copilot_cli

    fast_host = host in (CODEX, PI) and not os.fspath(path).endswith(".zst")
    if fast_host and not readable and _size(path) >= FAST_FROM_BYTES:
        from .hosts.fast import count_records_fast

        if host == CODEX:
            from .hosts.codex_fast import count_stream
        else:
            from .hosts.pi_fast import count_stream
        fast = count_records_fast(path, count_stream)
        if fast is not None:
            return fast
    from .jsonvalues import iter_values
    from .replay import open_log

    if host == GEMINI and os.fspath(path).endswith(".json") and json_host(path) == GEMINI:
        raise gemini.reject_document()  # GEM-7: the whole-file .json era
    readers = {
        CODEX: codex.count_records,
        PI: pi.count_records,
        CLAUDE_CODE: claude_code.count_records,  # CLC-1..CLC-9
        GEMINI: gemini.count_records,  # GEM-1..GEM-8
        COPILOT_CLI: copilot_cli.count_records,  # CPL-1..CPL-10
    }
    notices: list[Notice] = []
    with open_log(path) as stream:
        values = iter_values(stream, notices)
        result = readers[host](values)
    result.notices[:0] = notices
    return result


def count_vscode(path: str | os.PathLike[str], *, readable: bool = False) -> Count:
    """Replay a `.jsonl` or `.json` VS Code session and count its reboots (hosts/vscode.md).

    Only the final state is counted (RPL-10): the lines that led to it are history.

    For a big file the fast path (reference.fastpath) answers first unless `readable` is set;
    whenever it cannot be certain (any rejection, any shape its schema does not cover) the
    readable path below, which is the definition, reads the file again and answers. Both give
    the same output on every input (tests/reference/test_fastpath.py).
    """
    if not readable and not os.fspath(path).endswith(".zst") and _size(path) >= FAST_FROM_BYTES:
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
