"""The Kilo Code VS Code extension (spec/hosts/cline.md, CLN-2, CLN-11): its task folders are the
Cline family's, read by Cline's reader through the host interface (core/family.py); this package
holds its key and its store rows (`stores.py`), and no reader of its own.
"""

from __future__ import annotations

from ...core.family import Member
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from ...core.storetypes import Base, Store


class KiloCode(Member):
    input_label = "kilo code task folder"
    identity = Identity(how="the Kilo Code extension gives its command tool no task id")

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = KiloCode()
