"""roo-code's rows of the store table (spec/STORES.md): the extension's task folders.

Imported only by the session finder. The extension keeps
`<globalStorage>/rooveterinaryinc.roo-cline/tasks/<id>/` under VS Code's user data folders and
profiles (found by VS Code's own rows); the task's id is the folder's name (an empty `id`
group). A `customStoragePath` setting moves the folder; the
finder does not read settings: give that folder with `sessions --path`.
"""

from __future__ import annotations

from ...core.family import rehosted
from ...core.storetypes import Base, Store

UI_NAME = r"(?P<id>)ui_messages\.json"
EXTENSION = "rooveterinaryinc.roo-cline"

BASES: tuple[Base, ...] = (
    Base(
        "roo-code",
        "",
        "{appdata}/{product}",
        "RooCodeInc/Roo-Code src/utils/storage.ts (getTaskDirectoryPath: <globalStorage>/"
        "tasks/<taskId>), src/shared/globalFileNames.ts, under VS Code's user data folders "
        "(VS Code's rows)",
        finder=rehosted("vscode", "roo-code"),
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "roo-code",
        "extension",
        f"User/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "RooCodeInc/Roo-Code src/utils/storage.ts (getTaskDirectoryPath: <globalStorage>/"
        "tasks/<taskId>), src/shared/globalFileNames.ts (the default profile's globalStorage)",
        distinct=False,
    ),
    Store(
        "roo-code",
        "extension",
        f"User/profiles/*/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "RooCodeInc/Roo-Code src/utils/storage.ts, under another VS Code profile "
        "(User/profiles/<profileId>/globalStorage)",
        distinct=False,
    ),
)
