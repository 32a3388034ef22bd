"""The types of the store table's rows (spec/STORES.md): each host's rows are data of these.

Why in the core: a host's rows are part of the host interface (`Host.stores`), and the session
finder (`reference/sessions/`) reads every host's rows; neither imports the other's modules.
"""

from __future__ import annotations

import os

from .plain import Frozen

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

# Our own override of VS Code's user data folder, the way `code --user-data-dir DIR` moves it:
# one folder or several separated by os.pathsep; when set, nothing else is looked at for VS Code.
VSCODE_USER_DATA_ENV = "REBOOTSPEC_VSCODE_USER_DATA_DIR"

# (Frozen plain classes, not dataclasses, and the name patterns matched by plain functions,
# core/namematch.py: `whoami` reads this table, and `dataclasses` and `re` cost more start-up
# than it.)


class Base(Frozen):
    """A host's root folder: an override variable, else a default under the home folder."""

    _fields = ("host", "env", "default", "source", "env_is_home", "env_under", "cwd", "finder")

    def __init__(
        self,
        host: str,
        env: str,
        default: str,
        source: str,
        env_is_home: bool = False,
        env_under: bool = False,
        cwd: bool = False,
        finder: Callable[[Mapping[str, str], str, str], list[Root]] | None = None,
    ) -> None:
        self.host = host
        self.env = env  # the variable that moves it (the host's own, or ours for VS Code)
        self.default = default  # under home, `/`-separated; "{appdata}/{product}" for VS Code
        self.source = source  # the host's source file that says so
        # The variable names a home folder, the base is `default` under it.
        self.env_is_home = env_is_home
        # The base is `default`'s last folder under the variable's folder.
        self.env_under = env_under
        self.cwd = cwd  # the base is the current folder (basic-agent-chat-loop's .chat-sessions)
        # The host finds its bases itself: (environment, platform, home) -> roots (VS Code's).
        self.finder = finder


class Store(Frozen):
    """Folders under a base that hold session files, and how a file name carries the id."""

    _fields = ("host", "name", "folders", "recursive", "pattern", "source", "within", "distinct")

    def __init__(
        self,
        host: str,
        name: str,
        folders: str,
        recursive: bool,
        pattern: str,
        source: str,
        within: bool = False,
        distinct: bool = True,
    ) -> None:
        self.host = host
        self.name = name  # a short label shown to people
        self.folders = folders  # `/`-separated under the base; `*` matches any one folder
        self.recursive = recursive  # session files may sit in sub-folders (Codex's YYYY/MM/DD)
        self.pattern = pattern  # a regular expression of a session file's name; group `id`
        self.source = source
        # The matching files hold many sessions, listed inside them (opencode).
        self.within = within
        # The file name alone says the host (`--path` folders outside the table): False for
        # names another host could also write (a UUID `.jsonl` is VS Code's and Claude Code's).
        self.distinct = distinct

    def fullmatch(self, name: str) -> dict[str, str] | None:
        """`pattern` matched against a whole file name: {"id": the group `id`}, or None.

        By the pattern's plain matcher (core/namematch.py, proven equal to it), so that a
        lookup by id never imports `re`; a pattern without one is matched by `re`."""
        from .namematch import MATCHERS

        matcher = MATCHERS.get(self.pattern)
        if matcher is not None:
            ident = matcher(name)
            return None if ident is None else {"id": ident}
        import re

        match = re.fullmatch(self.pattern, name)
        return None if match is None else {"id": match["id"]}


class Root(Frozen):
    """One base folder on this machine, and the variable that chose it (None: the default)."""

    _fields = ("host", "path", "via")

    def __init__(self, host: str, path: str, via: str | None) -> None:
        self.host = host
        self.path = path
        self.via = via


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
