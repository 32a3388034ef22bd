"""kilo-code's rows of the store table (spec/STORES.md): the extension's task folders.

Imported only by the session finder. The extension keeps
`<globalStorage>/kilocode.kilo-code/tasks/<id>/` under VS Code's user data folders and
profiles (found by VS Code's own rows); the task's id is the folder's name (an empty `id`
group). A `customStoragePath` setting moves the folder; the
finder does not read settings: give that folder with `sessions --path`.
"""

from __future__ import annotations

from ...core.family import rehosted
from ...core.storetypes import Base, Store

UI_NAME = r"(?P<id>)ui_messages\.json"
EXTENSION = "kilocode.kilo-code"

BASES: tuple[Base, ...] = (
    Base(
        "kilo-code",
        "",
        "{appdata}/{product}",
        "Kilo-Org/kilocode src/utils/storage.ts (Roo's getTaskDirectoryPath: <globalStora"
        "ge>/tasks/<taskId>), under VS Code's user data folders (VS Code's rows)",
        finder=rehosted("vscode", "kilo-code"),
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "kilo-code",
        "extension",
        f"User/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "Kilo-Org/kilocode src/utils/storage.ts (Roo's getTaskDirectoryPath: <globalStora"
        "ge>/tasks/<taskId>) (the default profile's globalStorage)",
        distinct=False,
    ),
    Store(
        "kilo-code",
        "extension",
        f"User/profiles/*/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "Kilo-Org/kilocode src/utils/storage.ts, under another VS Code profile "
        "(User/profiles/<profileId>/globalStorage)",
        distinct=False,
    ),
)
