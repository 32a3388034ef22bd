"""opencode's store read the tests' own simple way: messages and parts of one session.

Not a counter: it lists what opencode wrote (a database file, or the JSON ``storage/`` folder) so
the tests can say how many compaction records a session holds, copies and failed ones included,
and compare that with the manifest.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Message:
    """One message with the parts that belong to it."""

    info: dict[str, Any]
    parts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def compaction(self) -> bool:
        """A user message holding a ``compaction`` part (1.0.98 and later)."""
        return self.info.get("role") == "user" and any(
            p.get("type") == "compaction" for p in self.parts
        )

    @property
    def summary(self) -> bool:
        """An assistant message marked ``summary: true``."""
        return self.info.get("role") == "assistant" and self.info.get("summary") is True


def _from_database(path: Path, session: str) -> list[Message]:
    with tempfile.TemporaryDirectory() as scratch:  # never open the curated bytes for writing
        copy = Path(scratch) / path.name
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        connection = sqlite3.connect(copy)
        try:
            rows = connection.execute(
                "SELECT id, data, time_created FROM message WHERE session_id = ?", (session,)
            ).fetchall()
            out = []
            for ident, data, _created in sorted(rows, key=lambda r: (r[2], r[0])):
                info = {**json.loads(data), "id": ident}
                parts = connection.execute(
                    "SELECT data FROM part WHERE message_id = ? ORDER BY id", (ident,)
                ).fetchall()
                out.append(Message(info, [json.loads(p[0]) for p in parts]))
            return out
        finally:
            connection.close()


def _from_storage(path: Path, session: str) -> list[Message]:
    out = []
    for file in sorted((path / "message" / session).glob("*.json")):
        info = json.loads(file.read_text(encoding="utf-8"))
        parts = [
            json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((path / "part" / info["id"]).glob("*.json"))
        ]
        out.append(Message(info, parts))
    return sorted(out, key=lambda m: (m.info.get("time", {}).get("created", 0), m.info["id"]))


def messages(store: Path, session: str) -> list[Message]:
    """The session's messages in creation order (a database file or a storage folder)."""
    return _from_storage(store, session) if store.is_dir() else _from_database(store, session)


def records(store: Path, session: str) -> int:
    """Compaction records of the session: user messages with a ``compaction`` part, or (1.0.0,
    which writes none) assistant ``summary: true`` messages."""
    found = messages(store, session)
    pairs = sum(1 for m in found if m.compaction)
    return pairs if pairs else sum(1 for m in found if m.summary)
