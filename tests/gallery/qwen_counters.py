"""The gallery's Qwen Code counters: the reference's reading with one rule bent.

Each takes a path and answers like the reference on every file that is not a Qwen Code
session, so on the other hosts' cases it is the reference; on a Qwen Code transcript it makes
exactly the mistake its SPEC.md §10 row names (QWN-3..QWN-9, HST-2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Notice
from rebootspec.reference.core.jsonvalues import iter_values
from rebootspec.reference.core.registry import detect
from rebootspec.reference.hosts.qwen_code.reader import count_records

Counter = Callable[[str], int]
Records = list[tuple[int, Any]]
QWEN = "qwen-code"


def _records(path: str) -> Records:
    notices: list[Notice] = []
    with open(path, "rb") as stream:
        return list(iter_values(stream, notices))


def _reference(path: str) -> int:
    """The reference, with the session a store's case names (PRO-1)."""
    return count_path(path, readable=True, session=getattr(path, "session", None)).reboots


def _reference_elsewhere(mistake: Callable[[str], int]) -> Counter:
    """The reference on every file but a Qwen Code session, which `mistake` reads."""

    def counter(path: str) -> int:
        if detect(path).key != QWEN:
            return _reference(path)
        return mistake(path)

    return counter


def _compression(value: Any) -> bool:
    """A main-thread `chat_compression` record with `compressionStatus` 1."""
    if not isinstance(value, dict) or value.get("isSidechain") is True:
        return False
    if value.get("type") != "system" or value.get("subtype") != "chat_compression":
        return False
    payload = value.get("systemPayload")
    info = payload.get("info") if isinstance(payload, dict) else None
    return isinstance(info, dict) and info.get("compressionStatus") == 1


def _every_status_1(path: str) -> int:
    """QWN-4 bent: every status-1 `chat_compression` that is the thread's own is a reboot, a
    rule-based `/compress-fast` too (QWN-6 kept)."""
    if path.endswith(".json"):
        return _reference(path)
    return sum(1 for _, v in _records(path) if _compression(v) and v.get("forkedFrom") is None)


def _live_chain_only(path: str) -> int:
    """QWN-8 bent: only the compressions on the `parentUuid` chain from the last record, as
    Qwen's own resume rebuilds its history."""
    if path.endswith(".json"):
        return _reference(path)
    records = _records(path)
    by_uuid = {v["uuid"]: (line, v) for line, v in records if isinstance(v, dict) and "uuid" in v}
    last = next(
        (v for _, v in reversed(records) if isinstance(v, dict) and isinstance(v.get("uuid"), str)),
        None,
    )
    chain: set[int] = set()
    while last is not None:
        line = by_uuid[last["uuid"]][0]
        chain.add(line)
        parent = last.get("parentUuid")
        last = by_uuid[parent][1] if parent in by_uuid else None
    events = count_records(records).events
    return sum(1 for event in events if event["line"] in chain)


def _counts_fork_copy(path: str) -> int:
    """QWN-6 bent: `forkedFrom` ignored, a fork's copied compressions are its own."""
    if path.endswith(".json"):
        return _reference(path)
    count = count_records(_records(path))
    return count.reboots + len(count.inherited)


def _unmeasurable_as_zero(path: str) -> int:
    """QWN-7, QWN-9 bent: 0 for a Q0 chat and for a sub-agent's transcript, whose
    compressions reached no file."""
    if path.endswith(".json"):
        return 0
    records = [(line, v) for line, v in _records(path) if isinstance(v, dict)]
    main = [(line, v) for line, v in records if v.get("isSidechain") is not True]
    return count_records(main).reboots if main else 0


def _as_claude_code(path: str) -> int:
    """HST-2 bent: a Q1 transcript read by Claude Code's rules, as detection by shape did
    (issue 42: 0 on every session); a Q0 chat by Gemini CLI's."""
    host = "gemini-cli" if path.endswith(".json") else "claude-code"
    return count_path(path, readable=True, host=host).reboots


QWEN_GALLERY: dict[str, Counter] = {
    "qwen-counts-compress-fast": _reference_elsewhere(_every_status_1),
    "qwen-live-chain-only": _reference_elsewhere(_live_chain_only),
    "qwen-counts-fork-copy": _reference_elsewhere(_counts_fork_copy),
    "qwen-unmeasurable-as-zero": _reference_elsewhere(_unmeasurable_as_zero),
    "qwen-read-as-claude-code": _reference_elsewhere(_as_claude_code),
}
