"""vscode's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

import os

from ...core.storetypes import VSCODE_USER_DATA_ENV, Base, Root, Store, expand, under

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Mapping

VSCODE_NAME = r"(?P<id>[^/\\]+?)\.jsonl?"

# The product names VS Code builds put after the application-data folder (product.json
# `nameLong` / `dataFolderName` of the stable, Insiders, VSCodium and OSS builds).
VSCODE_PRODUCTS = ("Code", "Code - Insiders", "VSCodium", "Code - OSS")

# VS Code's application-data folder per platform: (environment variable, default under home).
# src/vs/platform/environment/node/userDataPath.ts `getUserDataPath`, `getAppDataPath`.
APPDATA: dict[str, tuple[str | None, str]] = {
    "win32": ("APPDATA", "AppData/Roaming"),
    "darwin": (None, "Library/Application Support"),
    "linux": ("XDG_CONFIG_HOME", ".config"),
}


def vscode_roots(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
    """VS Code's user data folders: ours override all; else portable, then every product."""
    override = env.get(VSCODE_USER_DATA_ENV)
    if override:
        return [
            Root("vscode", expand(part, home), VSCODE_USER_DATA_ENV)
            for part in override.split(os.pathsep)
            if part
        ]
    found: list[Root] = []
    portable = env.get("VSCODE_PORTABLE")
    if portable:
        found.append(Root("vscode", os.path.join(portable, "user-data"), "VSCODE_PORTABLE"))
    variable, default = APPDATA.get(platform, APPDATA["linux"])
    via: str | None = None
    if env.get("VSCODE_APPDATA"):
        appdata, via = env["VSCODE_APPDATA"], "VSCODE_APPDATA"
    elif variable and env.get(variable):
        appdata, via = env[variable], variable
    else:
        appdata = under(home, default)
    found += [Root("vscode", os.path.join(appdata, product), via) for product in VSCODE_PRODUCTS]
    return found


BASES: tuple[Base, ...] = (
    Base(
        "vscode",
        VSCODE_USER_DATA_ENV,
        "{appdata}/{product}",
        "microsoft/vscode src/vs/platform/environment/node/userDataPath.ts (getUserDataPath: "
        "VSCODE_PORTABLE, VSCODE_APPDATA, --user-data-dir, the platform's app-data folder)",
        finder=vscode_roots,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "vscode",
        "profile",
        "User/globalStorage/chatSessions/*",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts (the profile's "
        "globalStorage/chatSessions/<workspaceId>/<sessionId>.jsonl, the default profile's)",
        distinct=False,
    ),
    Store(
        "vscode",
        "profile",
        "User/profiles/*/globalStorage/chatSessions/*",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts (another "
        "profile's globalStorage: User/profiles/<profileId>/globalStorage/chatSessions/...)",
        distinct=False,
    ),
    Store(
        "vscode",
        "legacy-workspace",
        "User/workspaceStorage/*/chatSessions",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts "
        "(storage location: workspaceStorage/<workspace>/chatSessions/<sessionId>.jsonl|.json)",
        distinct=False,
    ),
    Store(
        "vscode",
        "legacy-empty-window",
        "User/globalStorage/emptyWindowChatSessions",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts "
        "(chats of a window without a workspace: globalStorage/emptyWindowChatSessions)",
        distinct=False,
    ),
)
