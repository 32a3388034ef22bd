"""opencode (spec/hosts/opencode.md, OPC-*): a store of many sessions, a SQLite database
(`opencode.db`) or a JSON storage folder, and a session named in it.

The reader is `reader.py` (the definition) over `store.py` (reading a store without changing
it); this module is the host's entry in the registry and imports neither until asked.
"""

from __future__ import annotations

import os

from ...core.family import family_claims
from ...core.host import Host
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

SQLITE_MAGIC = b"SQLite format 3\x00"  # OPC-1, HST-2: the first 16 bytes of a database
RELEASE_LINES = (0, 1)  # KLO-1: the major numbers of opencode's releases (0.x, 1.x)


class Opencode(Host):
    input_label = "opencode store"
    store_variables = ("XDG_DATA_HOME",)
    identity = Identity(
        how="opencode gives its bash tool no session id (OPENCODE=1 only): the plugin "
        "conformance/hooks/opencode on session.compacted",
    )

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2, OPC-1: a storage folder (`session` and `message` inside), or a database
        whose content carries opencode's marks and no other member's (KLO-1)."""
        if is_dir:
            return self.is_store(path)
        return head.startswith(SQLITE_MAGIC) and family_claims(self, path, is_dir, head)

    def family_evidence(self, path: str, is_dir: bool, head: bytes) -> Any:
        """KLO-1: a database's tables and its sessions' versions, read once for the family."""
        if is_dir or not head.startswith(SQLITE_MAGIC):
            return None
        from .family import evidence

        return evidence(path)

    def marks(self, evidence: Any) -> bool:
        """KLO-1: a session created by an opencode release (`version` 0.x or 1.x); or no
        database of the family at all, which opencode's reader rejects itself (OPC-1: E-HOST
        without the tables, E-READ when SQLite cannot read it)."""
        from .family import major

        if not evidence.readable:
            return True
        return any(major(version) in RELEASE_LINES for version in evidence.versions)

    def is_store(self, path: str) -> bool:
        if os.path.isdir(path):
            return all(os.path.isdir(os.path.join(path, name)) for name in ("session", "message"))
        from ...core.errors import Rejection
        from ...core.files import open_regular

        try:  # a FIFO or a device is no store, and is never waited on or read (ERR-12)
            with open_regular(path) as handle:
                return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
        except (OSError, Rejection):
            return False

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """OPC-1..OPC-13: the session `session` of the store at `path` (E-SESSION without)."""
        from .reader import count_opencode

        return count_opencode(path, session)

    def count_store(self, path: str) -> list[tuple[str, str, Answer | Exception]]:
        """Every session of one store with its answer, the store read once (OPC-11, OPC-12),
        under the name of the family's host that wrote it (KLO-1: E-HOST when none or both)."""
        from ...core.family import family_member
        from .reader import count_session
        from .store import read_all

        writer = family_member(self, path)

        found: list[tuple[str, str, Answer | Exception]] = []
        for ident, title, session in read_all(path):
            if isinstance(session, Exception):
                found.append((ident, title, session))
                continue
            answer = writer.relabel(count_session(session))
            answer.title = title
            found.append((ident, title, answer))
        return found

    def sessions_in(self, path: str) -> list[tuple[str, str]]:
        from .store import session_ids

        return [(ident, "") for ident in session_ids(path)]

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = Opencode()
