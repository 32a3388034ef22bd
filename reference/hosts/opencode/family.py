"""What a database of opencode's family says about the program that wrote it (HST-2, OPC-1,
KLO-1): the owner's one reading, which each host of the family judges by its own marks.

Why a reading of the tables, not of a prefix: opencode and Kilo write the same SQLite format, and
a database's first pages hold whatever SQLite put there, not a header of the program's. What
tells them apart is in the rows: each `session` row's `version` (the release that created it:
opencode's are 0.x and 1.x, Kilo's 7.x) and, from Kilo 7.7, Kilo's own tables (`kilo_board`).
The database is read as the count reads it (`store.py`: a private copy with its `-wal`, never
the file in place, OPC-12), once per file: detection asks every host of the family, and they
share this reading (`_last`).
"""

from __future__ import annotations

import os
import sqlite3

from ...core.errors import Rejection
from ...core.plain import Plain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FAMILY_TABLES = ("session", "message", "part")  # OPC-1: the tables every member writes


class Evidence(Plain):
    """A database of the family's kind: its tables and its sessions' `version` values.

    `readable` is False when SQLite cannot read it or it lacks the family's tables: then no
    member's marks are needed, the owner's reader says what is wrong (E-READ, E-HOST)."""

    _fields = ("readable", "tables", "versions")

    def __init__(self, readable: bool, tables: frozenset[str], versions: frozenset[str]) -> None:
        self.readable = readable
        self.tables = tables
        self.versions = versions


def major(version: str) -> int | None:
    """The leading number of a release (`"7.7.9"` -> 7); None when it has none (`"local"`)."""
    digits = version.split(".", 1)[0]
    return int(digits) if digits.isascii() and digits.isdigit() else None


_last: tuple[tuple[Any, ...], Evidence] | None = None


def evidence(path: str) -> Evidence:
    """The family's reading of the database at `path` (a file that starts with SQLite's
    header), read once per version of the file."""
    global _last
    key = _stamp(path)
    if _last is not None and key is not None and _last[0] == key:
        return _last[1]
    from .store import _with_copy

    def read(connection: sqlite3.Connection) -> Evidence:
        tables = frozenset(
            str(row[0]) for row in connection.execute("SELECT name FROM sqlite_master")
        )
        if not set(FAMILY_TABLES) <= tables:
            return Evidence(False, tables, frozenset())
        rows = connection.execute("SELECT DISTINCT version FROM session")
        return Evidence(True, tables, frozenset(str(row[0]) for row in rows))

    try:
        found = _with_copy(path, read)
    except Rejection:
        found = Evidence(False, frozenset(), frozenset())
    if key is not None:
        _last = (key, found)
    return found


def _stamp(path: str) -> tuple[Any, ...] | None:
    """What changes when the database or its `-wal` changes (None: not a file to remember)."""
    stamp: list[Any] = [os.path.abspath(path)]
    for name in (path, path + "-wal"):
        try:
            info = os.stat(name)
        except OSError:
            stamp.append(None)
            continue
        stamp.append((info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns))
    return tuple(stamp) if stamp[1] is not None else None
