"""roo-code's rows of the store table (spec/STORES.md): the extension's task folders.

Imported only by the session finder. The extension keeps
`<globalStorage>/rooveterinaryinc.roo-cline/tasks/<id>/` under VS Code's user data folders and
profiles (found by VS Code's own rows); the task's id is the folder's name. A
`customStoragePath` setting moves the folder; the finder does not read settings: give that
folder with `sessions --path`. The rows are the family's (`cline/stores.py`).
"""

from __future__ import annotations

from ..cline.stores import extension_rows

BASES, STORES = extension_rows(
    "roo-code",
    "rooveterinaryinc.roo-cline",
    "RooCodeInc/Roo-Code src/utils/storage.ts and src/shared/globalFileNames.ts",
)
