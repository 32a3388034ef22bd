"""cline's rows of the store table (spec/STORES.md): where Cline keeps its tasks and sessions.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
A task folder `tasks/<id>/` holds `ui_messages.json` (CLN-1): its name carries no id, so the
finder takes the folder's (an empty `id` group). An SDK session folder `sessions/<id>/` holds
`<id>.messages.json` (CLN-12).
"""

from __future__ import annotations

from ...core.family import rehosted
from ...core.storetypes import Base, Root, Store, expand, under

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Mapping

UI_NAME = r"(?P<id>)ui_messages\.json"
SDK_NAME = r"(?P<id>[^/\\]+?)\.messages\.json"
EXTENSION = "saoudrizwan.claude-dev"  # the extension's id: its globalStorage folder


def data_roots(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
    """Cline's data folder: CLINE_DATA_DIR (CLI 3.x `--data-dir` sets it), else CLINE_DIR/data,
    else ~/.cline/data; and the SDK's sessions folder when CLINE_SESSION_DATA_DIR moves it."""
    found: list[Root] = []
    if env.get("CLINE_DATA_DIR", "").strip():
        found.append(Root("cline", expand(env["CLINE_DATA_DIR"].strip(), home), "CLINE_DATA_DIR"))
    elif env.get("CLINE_DIR", "").strip():
        path = under(expand(env["CLINE_DIR"].strip(), home), "data")
        found.append(Root("cline", path, "CLINE_DIR"))
    else:
        found.append(Root("cline", under(home, ".cline/data"), None))
    if env.get("CLINE_SESSION_DATA_DIR", "").strip():
        path = expand(env["CLINE_SESSION_DATA_DIR"].strip(), home)
        found.append(Root("cline", path, "CLINE_SESSION_DATA_DIR"))
    return found


BASES: tuple[Base, ...] = (
    Base(
        "cline",
        "CLINE_DIR",
        ".cline/data",
        "cline/cline sdk/packages/shared/src/storage/paths.ts (resolveClineDir: CLINE_DIR or "
        "~/.cline; resolveClineDataDir: CLINE_DATA_DIR or <cline dir>/data; "
        "resolveSessionDataDir: CLINE_SESSION_DATA_DIR or <data>/sessions); apps/cli `--data-dir` "
        "sets CLINE_DATA_DIR; the 3.x core run by CLI 1.x/2.x (standalone/vscode-context.ts) "
        "keeps <CLINE_DIR>/data/tasks",
        finder=data_roots,
    ),
    Base(
        "cline",
        "",
        "{appdata}/{product}",
        "cline/cline apps/vscode/src/core/storage/disk.ts (the extension's globalStorageUri/"
        "tasks/<taskId>/), under VS Code's user data folders and profiles (VS Code's rows)",
        finder=rehosted("vscode", "cline"),
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "cline",
        "tasks",
        "tasks/*",
        False,
        UI_NAME,
        "cline/cline apps/vscode/src/core/storage/disk.ts (GlobalFileNames.uiMessages in "
        "<data>/tasks/<taskId>/), written by Cline CLI 1.x and 2.x",
    ),
    Store(
        "cline",
        "sessions",
        "sessions/*",
        False,
        SDK_NAME,
        "cline/cline sdk/packages/core/src/services/session-artifacts.ts "
        "(<data>/sessions/<id>/<id>.messages.json), Cline CLI 3.x and extension 4.x",
        distinct=False,
    ),
    Store(
        "cline",
        "sessions",
        "*",
        False,
        SDK_NAME,
        "cline/cline sdk/packages/shared/src/storage/paths.ts (resolveSessionDataDir: "
        "CLINE_SESSION_DATA_DIR/<id>/<id>.messages.json)",
        distinct=False,
    ),
    Store(
        "cline",
        "extension",
        f"User/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "cline/cline apps/vscode/src/core/storage/disk.ts (globalStorage/saoudrizwan.claude-dev"
        "/tasks/<taskId>/ui_messages.json, the default profile's)",
        distinct=False,
    ),
    Store(
        "cline",
        "extension",
        f"User/profiles/*/globalStorage/{EXTENSION}/tasks/*",
        False,
        UI_NAME,
        "cline/cline apps/vscode/src/core/storage/disk.ts, under another VS Code profile "
        "(User/profiles/<profileId>/globalStorage)",
        distinct=False,
    ),
)


def extension_rows(
    key: str, extension: str, source: str
) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
    """The store rows of a family member that is a VS Code extension keeping Cline's task
    folders (CLN-10): `<globalStorage>/<extension>/tasks/<id>/` under VS Code's user data folders
    and profiles, found through VS Code's own rows. `source` names the file of the member's own
    repository that sets the folder; the rows differ between members only in these three facts.
    """
    bases = (
        Base(
            key,
            "",
            "{appdata}/{product}",
            f"{source} (getTaskDirectoryPath: <globalStorage>/tasks/<taskId>), under VS Code's "
            "user data folders (VS Code's rows)",
            finder=rehosted("vscode", key),
        ),
    )
    stores = (
        Store(
            key,
            "extension",
            f"User/globalStorage/{extension}/tasks/*",
            False,
            UI_NAME,
            f"{source} (getTaskDirectoryPath: <globalStorage>/tasks/<taskId>), the default "
            "profile's globalStorage",
            distinct=False,
        ),
        Store(
            key,
            "extension",
            f"User/profiles/*/globalStorage/{extension}/tasks/*",
            False,
            UI_NAME,
            f"{source}, under another VS Code profile (User/profiles/<profileId>/globalStorage)",
            distinct=False,
        ),
    )
    return bases, stores
