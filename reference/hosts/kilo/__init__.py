"""The Kilo Code CLI (spec/hosts/kilo.md, KLO-*): a member of opencode's family.

Kilo's CLI is opencode's code under another name: its database `kilo.db` has opencode's tables
and shapes, and a compaction is opencode's pair (OPC-4). So its sessions are counted by
opencode's reader, reached through the host interface (`core.host.Member`: no copy of it, and
no import of opencode's package), and the answer carries Kilo's name, Kilo's release (the
session's `version`, 7.x) and Kilo's era (KLO-2). What is Kilo's own here: the marks that tell
its database from opencode's (KLO-1), its store (`stores.py`), its identity (KLO-5).
"""

from __future__ import annotations

from ...core.family import Member
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

FIRST_RELEASE = 7  # KLO-1: Kilo's CLI releases are 7.x (the opencode fork began at 7.0)
BOARD_TABLES = ("kilo_board", "kilo_board_message")  # KLO-1: Kilo's own tables, from 7.7
K1_FROM = (7, 7)  # KLO-2: the first release with Kilo's tables and opencode 1.14's schema


class Kilo(Member):
    input_label = "kilo store"
    store_variables = ("XDG_DATA_HOME",)  # KILO_DB names a file of any name: see spec/STORES.md
    identity = Identity(
        how="Kilo gives its shell tool no session id (KILO=1 only): opencode's plugin "
        'conformance/hooks/opencode, listed under "plugin" in kilo.json, on session.compacted',
    )

    def marks(self, evidence: Any) -> bool:
        """KLO-1: Kilo's own tables, or a session created by a Kilo release (7.x or later)."""
        if not evidence.readable:
            return False
        if any(table in evidence.tables for table in BOARD_TABLES):
            return True
        return any(_major(version) >= FIRST_RELEASE for version in evidence.versions)

    def relabel(self, answer: Answer) -> Answer:
        """KLO-3: opencode's answer as Kilo's: its name, its release, and its era (KLO-2)."""
        answer.host = self.key
        if hasattr(answer, "era"):
            answer.era = era(getattr(answer, "host_version", None))
        return answer

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def era(version: str | None) -> str | None:
    """KLO-2: K0 for a session created by 7.0 to 7.6, K1 from 7.7; None when the version is
    not a Kilo release."""
    numbers = (version or "").split(".")[:2]
    if len(numbers) < 2 or not all(n.isascii() and n.isdigit() for n in numbers):
        return None
    release = (int(numbers[0]), int(numbers[1]))
    if release[0] < FIRST_RELEASE:
        return None
    return "K1" if release >= K1_FROM else "K0"


def _major(version: str) -> int:
    digits = version.split(".", 1)[0]
    return int(digits) if digits.isascii() and digits.isdigit() else -1


HOST = Kilo()
