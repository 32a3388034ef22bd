"""The types of the store table's rows (spec/STORES.md): each host's rows are data of these.

Why in the core: a host's rows are part of the host interface (`Host.stores`), and the session
finder (`reference/sessions/`) reads every host's rows; neither imports the other's modules.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# Our own override of VS Code's user data folder, the way `code --user-data-dir DIR` moves it:
# one folder or several separated by os.pathsep; when set, nothing else is looked at for VS Code.
VSCODE_USER_DATA_ENV = "REBOOTSPEC_VSCODE_USER_DATA_DIR"


@dataclass(frozen=True)
class Base:
    """A host's root folder: an override variable, else a default under the home folder."""

    host: str
    env: str  # the variable that moves it (the host's own, or ours for VS Code)
    default: str  # under home, `/`-separated; "{appdata}/{product}" for VS Code
    source: str  # the host's source file that says so
    env_is_home: bool = False  # the variable names a home folder, the base is `default` under it
    env_under: bool = False  # the base is `default`'s last folder under the variable's folder
    cwd: bool = False  # the base is the current folder (basic-agent-chat-loop's .chat-sessions)
    # The host finds its bases itself: (environment, platform, home) -> roots (VS Code's).
    finder: Callable[[Mapping[str, str], str, str], list[Root]] | None = None


@dataclass(frozen=True)
class Store:
    """Folders under a base that hold session files, and how a file name carries the id."""

    host: str
    name: str  # a short label shown to people
    folders: str  # `/`-separated under the base; `*` matches any one folder
    recursive: bool  # session files may sit in sub-folders (Codex's YYYY/MM/DD)
    pattern: re.Pattern[str]  # a session file's name; group `id` is the session id
    source: str
    within: bool = False  # the matching files hold many sessions, listed inside them (opencode)
    # The file name alone says the host (`--path` folders outside the table): False for names
    # another host could also write (a UUID `.jsonl` is VS Code's and Claude Code's alike).
    distinct: bool = True


@dataclass(frozen=True)
class Root:
    """One base folder on this machine, and the variable that chose it (None: the default)."""

    host: str
    path: str
    via: str | None


def home_of(env: Mapping[str, str], platform: str) -> str:
    """The home folder the hosts use: USERPROFILE on Windows, HOME elsewhere."""
    name = "USERPROFILE" if platform == "win32" else "HOME"
    return env.get(name) or env.get("HOME") or os.path.expanduser("~")


def under(home: str, relative: str) -> str:
    return os.path.join(home, *relative.split("/"))


def expand(value: str, home: str) -> str:
    """`~` and `~/x` the way the hosts expand their own variables (pi does; it is harmless)."""
    if value == "~":
        return home
    if value.startswith(("~/", "~\\")):
        return os.path.join(home, value[2:])
    return value

