"""The pi coding agent reader: a session file's entries -> its reboots (spec/hosts/pi.md, PIA-*).

    records (JSV-1) -> the header and the entries (PIA-1)
                    -> the inherited prefix of a branch or fork copy (PIA-5)
                    -> every `compaction` entry that is the session's own, on any branch (PIA-3,
                       PIA-6); the ones on the current path beside it (informative)

Entries of other types are looked at only to count companions (PIA-4) and to walk the tree.
The era is the header's format (PIA-2); two entries glued on one line are each an entry, as
`core/jsonvalues.py` reads them by value (PIA-7); a migrated file is read as the format it now
has (PIA-8).
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.instants import before, instant

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ...core.instants import Instant

HOST = "pi"
COMPANIONS = frozenset({"branch_summary"})  # PIA-4: summaries that are not compactions


def count_records(records: Iterable[tuple[int, Any]]) -> RecordCount:
    """Count the reboots of one pi session given its `(line, value)` records."""
    header: dict[str, Any] | None = None
    count = RecordCount(host=HOST, reboots=0)
    copied = False  # PIA-5: still inside the copied prefix
    start: Instant | None = None
    parents: dict[str, Any] = {}  # PIA-6: id -> parentId, for the current path
    last_id: str | None = None
    own: list[tuple[int, Any]] = []  # (line, id) of the session's own compactions
    for line, value in records:
        count.records += 1
        if header is None:  # PIA-1: the first value is the header (HST-2 saw it)
            header = value if isinstance(value, dict) else {}
            copied = bool(header.get("parentSession") or header.get("branchedFrom"))
            start = instant(header.get("timestamp")) if copied else None  # PIA-5 only
            copied = copied and start is not None
            continue
        if not isinstance(value, dict):
            continue
        if copied:  # PIA-5: the prefix ends at the first entry not older than the header
            stamp = instant(value.get("timestamp"))
            copied = stamp is not None and start is not None and before(stamp, start)
        entry_id = value.get("id")
        if isinstance(entry_id, str):
            parents[entry_id] = value.get("parentId")
            last_id = entry_id
        kind = value.get("type")
        if not isinstance(kind, str):
            kind = None  # an object or array names no entry type (PIA-1)
        if kind == "compaction":  # PIA-3
            if copied:
                count.inherited.append(line)
            else:  # an id that is no string is no node of the tree (PIA-6)
                own.append((line, entry_id if isinstance(entry_id, str) else None))
        elif kind in COMPANIONS:
            count.companions += 1
    version = (header or {}).get("version")
    tree = isinstance(version, int) and not isinstance(version, bool) and version >= 2
    count.era = f"v{version}" if tree else "v1"
    count.reboots = len(own)
    path = _current_path(parents, last_id) if tree else None
    count.on_path = len(own) if path is None else sum(1 for _, i in own if i in path)
    count.events = [{"line": line, "on_path": path is None or i in path} for line, i in own]
    return count


def _current_path(parents: dict[str, Any], leaf: str | None) -> set[str]:
    """PIA-6: the ids from the last entry back to the root (a cycle ends the walk)."""
    path: set[str] = set()
    node: Any = leaf
    while isinstance(node, str) and node not in path:
        path.add(node)
        node = parents.get(node)
    return path
