"""kilo-code's rows of the store table (spec/STORES.md): the extension's task folders.

Imported only by the session finder. The extension keeps
`<globalStorage>/kilocode.kilo-code/tasks/<id>/` under VS Code's user data folders and
profiles (found by VS Code's own rows); the task's id is the folder's name. The rows are the
family's (`cline/stores.py`).
"""

from __future__ import annotations

from ..cline.stores import extension_rows

BASES, STORES = extension_rows(
    "kilo-code", "kilocode.kilo-code", "Kilo-Org/kilocode src/utils/storage.ts (Roo's)"
)
