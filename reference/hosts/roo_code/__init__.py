"""Roo Code (spec/hosts/cline.md, CLN-2, CLN-10): its task folders are the Cline family's, read
by Cline's reader through the host interface (core/family.py); this package holds its key and
its store rows (`stores.py`), and no reader of its own.
"""

from __future__ import annotations

from ...core.family import Member
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from ...core.storetypes import Base, Store


class RooCode(Member):
    input_label = "roo code task folder"
    identity = Identity(how="Roo Code gives its command tool no task id")

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = RooCode()
