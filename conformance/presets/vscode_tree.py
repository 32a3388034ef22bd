"""The fake VS Code user-data tree every preset lays a case's input into (PRO-1).

Tools that look a session up by id, instead of taking a path, find it under
`<user>/workspaceStorage/<hash>/chatSessions/<session id>.<ext>`. Each case gets a fresh tree
holding that one file (one file per hash folder, so tools that parse every sibling see only
this one), under a fake HOME the preset points the tool at.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..runner.candidates import neutral_name, place_copy

SESSION_ID = "00000000-0000-4000-8000-00000000c0de"
WORKSPACE_HASH = "0123456789abcdef0123456789abcdef"
FLAVOR = "Code - Insiders"


def user_dir(home: Path, platform: str = sys.platform) -> Path:
    """Where VS Code (Insiders) keeps `User/` under a HOME, as the Node tools compute it."""
    if platform == "darwin":
        return home / "Library" / "Application Support" / FLAVOR / "User"
    if platform == "win32":
        return home / "AppData" / "Roaming" / FLAVOR / "User"
    return home / ".config" / FLAVOR / "User"


def preset_folders(root: Path, source: Path) -> tuple[Path, Path]:
    """(working directory, fake HOME) under `root`: the working directory holds only the
    input's neutral copy (PRO-1 applies to presets too), the HOME only the user-data tree."""
    work, home = root / "work", root / "home"
    place_copy(source, work / neutral_name(source))
    home.mkdir()
    return work, home


def lay_session(source: Path, user: Path) -> Path:
    """Copy the case's input into a fake tree under `user`; the extension stays the signal."""
    target = (
        user / "workspaceStorage" / WORKSPACE_HASH / "chatSessions" / f"{SESSION_ID}{source.suffix}"
    )
    return place_copy(source, target)
