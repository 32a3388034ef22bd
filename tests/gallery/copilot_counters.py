"""The gallery's Copilot CLI counters: the reference's reading with one rule bent.

Each takes a path and answers like the reference on every file that is not a Copilot CLI
session, so on the other hosts' cases it is the reference; on a Copilot CLI `events.jsonl` it
makes exactly the mistake its SPEC.md §10 row names (CPL-3..CPL-6, HST-2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Notice
from rebootspec.reference.core.jsonvalues import iter_values
from rebootspec.reference.core.registry import detect
from rebootspec.reference.hosts.copilot_cli.reader import COMPLETE, count_records

Counter = Callable[[str], int]
Records = list[tuple[int, Any]]
COPILOT = "copilot-cli"


def _records(path: str) -> Records:
    notices: list[Notice] = []
    with open(path, "rb") as stream:
        return list(iter_values(stream, notices))


def _reference_elsewhere(mistake: Callable[[Records], int]) -> Counter:
    """The reference on every file but a Copilot CLI session, which `mistake` reads."""

    def counter(path: str) -> int:
        if detect(path).key != COPILOT:
            return _reference(path)
        return mistake(_records(path))

    return counter


def _reference(path: str) -> int:
    """The reference, with the session a store's case names (PRO-1)."""
    return count_path(path, readable=True, session=getattr(path, "session", None)).reboots


def _main(value: Any) -> bool:
    return isinstance(value, dict) and value.get("agentId") is None


def _data(value: dict[str, Any]) -> dict[str, Any]:
    data = value.get("data")
    return data if isinstance(data, dict) else {}


def _starts(records: Records) -> int:
    """CPL-4 bent: every `session.compaction_start` of the main agent is a compaction."""
    return sum(
        1
        for _, value in records
        if _main(value) and value.get("type") == "session.compaction_start"
    )


def _every_complete(records: Records) -> int:
    """CPL-3 bent: every `session.compaction_complete` of the main agent, whatever `success`."""
    return sum(1 for _, value in records if _main(value) and value.get("type") == COMPLETE)


def _summary_count(records: Records) -> int:
    """CPL-4, CPL-6 bent: what the CLI's own `summary_count` (workspace.yaml) says — every
    applied main-agent compaction the file holds, a fork's copies included. (It drops with
    the file at a rewind, CPL-8: there it agrees.)"""
    count = count_records(records)
    return count.reboots + len(count.inherited)


def _subagents_too(records: Records) -> int:
    """CPL-5 bent: `agentId` ignored, a sub-agent's applied compactions are the session's."""
    count = count_records(records)
    return count.reboots + len(count.subagent)


def _as_vscode(path: str) -> int:
    """HST-2 bent: an `events.jsonl` read by VS Code's rules, as a VS Code tool would read a
    session of VS Code's Agent Host (CPL-11)."""
    return count_path(path, readable=True, host="vscode").reboots


COPILOT_GALLERY: dict[str, Counter] = {
    "copilot-counts-starts": _reference_elsewhere(_starts),
    "copilot-counts-every-complete": _reference_elsewhere(_every_complete),
    "copilot-summary-count": _reference_elsewhere(_summary_count),
    "copilot-counts-subagents": _reference_elsewhere(_subagents_too),
    "copilot-read-as-vscode": lambda path: (
        _as_vscode(path) if detect(path).key == COPILOT else _reference(path)
    ),
}
