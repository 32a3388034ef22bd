"""Where each host keeps its sessions on this machine: one table, as data (spec/STORES.md).

Why a table: `count --session ID` and `rebootspec sessions` must look in the same places, and a
new host or a moved folder should be one new row here, never a path spread over the readers.
Each row cites the host's own source file that says it; the spec's informative chapter
`spec/STORES.md` restates the table for people.

A store is a *base* folder (found from the platform and the environment) and, under it, the
folders that hold session files and how a file's name carries the session id. Nothing here
reads a file; `finder.py` walks the folders.

Platforms are named like `sys.platform` (`win32`, `darwin`, anything else follows Linux's
rules, as VS Code does); every function takes the platform, the environment and the home
folder as arguments, so tests build fake homes of every platform on any machine.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass

# Our own override of VS Code's user data folder, the way `code --user-data-dir DIR` moves it:
# one folder or several separated by os.pathsep; when set, nothing else is looked at for VS Code.
VSCODE_USER_DATA_ENV = "REBOOTSPEC_VSCODE_USER_DATA_DIR"

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


@dataclass(frozen=True)
class Base:
    """A host's root folder: an override variable, else a default under the home folder."""

    host: str
    env: str  # the variable that moves it (the host's own, or ours for VS Code)
    default: str  # under home, `/`-separated; "{appdata}/{product}" for VS Code
    source: str  # the host's source file that says so
    env_is_home: bool = False  # the variable names a home folder, the base is `default` under it
    env_under: bool = False  # the base is `default`'s last folder under the variable's folder


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


VSCODE_NAME = re.compile(r"(?P<id>[^/\\]+?)\.jsonl?")
CODEX_NAME = re.compile(r"rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-(?P<id>.+?)\.jsonl(?:\.zst)?")
# A Claude Code transcript: `<sessionId>.jsonl`, the id a UUID.
CLAUDE_NAME = re.compile(r"(?P<id>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})\.jsonl")
# A Gemini CLI chat: `session-<time>-<first 8 hex of the session id>.jsonl` (`.json` up to 0.38).
GEMINI_NAME = re.compile(r"session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})\.jsonl?")
PI_NAME = re.compile(r"\d{4}-\d{2}-\d{2}T[0-9-]+Z?_(?P<id>.+?)\.jsonl")
# An opencode store of many sessions: `opencode.db` (or a release channel's `opencode-<channel>.db`)
# and the JSON storage folder `storage` of the versions before 1.2 (OPC-1). The sessions are
# inside: the finder lists them (`within`), their ids are not in a file name.
OPENCODE_STORE = re.compile(r"(?P<id>opencode(?:-[A-Za-z0-9._-]+)?\.db|storage)")

BASES: tuple[Base, ...] = (
    Base(
        "vscode",
        VSCODE_USER_DATA_ENV,
        "{appdata}/{product}",
        "microsoft/vscode src/vs/platform/environment/node/userDataPath.ts (getUserDataPath: "
        "VSCODE_PORTABLE, VSCODE_APPDATA, --user-data-dir, the platform's app-data folder)",
    ),
    Base(
        "codex",
        "CODEX_HOME",
        ".codex",
        "openai/codex codex-rs/core/src/config (find_codex_home: $CODEX_HOME, else ~/.codex)",
    ),
    Base(
        "pi",
        "PI_CODING_AGENT_DIR",
        ".pi/agent",
        "badlogic/pi-mono packages/coding-agent/src/config.ts (getAgentDir: "
        "$PI_CODING_AGENT_DIR, else ~/.pi/agent)",
    ),
    Base(
        "claude-code",
        "CLAUDE_CONFIG_DIR",
        ".claude",
        "docs: Claude Code's settings documentation ($CLAUDE_CONFIG_DIR moves ~/.claude); the "
        "program is proprietary with no public source, so this row rests on its documentation "
        "and public transcripts (spec/hosts/claude-code.md)",
    ),
    Base(
        "gemini-cli",
        "GEMINI_CLI_HOME",
        ".gemini",
        "google-gemini/gemini-cli packages/core/src/utils/paths.ts (homedir: $GEMINI_CLI_HOME "
        "replaces the home folder) and packages/core/src/config/storage.ts (getGlobalGeminiDir: "
        "<home>/.gemini)",
        env_is_home=True,
    ),
    Base(
        "opencode",
        "XDG_DATA_HOME",
        ".local/share/opencode",
        "sst/opencode packages/opencode/src/global/index.ts (Global.Path.data: xdg-basedir's "
        "data folder, $XDG_DATA_HOME or ~/.local/share on every platform, then opencode)",
        env_under=True,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "vscode",
        "workspace",
        "User/workspaceStorage/*/chatSessions",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts "
        "(storage location: workspaceStorage/<workspace>/chatSessions/<sessionId>.jsonl|.json)",
    ),
    Store(
        "vscode",
        "empty-window",
        "User/globalStorage/emptyWindowChatSessions",
        False,
        VSCODE_NAME,
        "microsoft/vscode src/vs/workbench/contrib/chat/common/chatSessionStore.ts "
        "(chats of a window without a workspace: globalStorage/emptyWindowChatSessions)",
    ),
    Store(
        "codex",
        "sessions",
        "sessions",
        True,
        CODEX_NAME,
        "openai/codex codex-rs/core/src/rollout/recorder.rs "
        "(sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl)",
    ),
    Store(
        "codex",
        "archived",
        "archived_sessions",
        True,
        CODEX_NAME,
        "openai/codex codex-rs/app-server/src/codex_message_processor.rs (archiving moves a "
        "rollout to archived_sessions/); codex-rs/rollout/src/compression.rs (.jsonl.zst)",
    ),
    Store(
        "pi",
        "sessions",
        "sessions/*",
        False,
        PI_NAME,
        "badlogic/pi-mono packages/coding-agent/src/core/session-manager.ts "
        "(getDefaultSessionDir: sessions/--<cwd>--/<time>_<id>.jsonl)",
    ),
    Store(
        "claude-code",
        "projects",
        "projects/*",
        False,
        CLAUDE_NAME,
        "docs: public transcripts (marot/spotter test/fixtures/transcripts) lie in "
        "projects/<cwd, separators turned into '-'>/<sessionId>.jsonl; the subagents/ folder "
        "beside a transcript holds side files, not sessions (CLC-5)",
    ),
    Store(
        "gemini-cli",
        "chats",
        "tmp/*/chats",
        False,
        GEMINI_NAME,
        "google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts "
        "(tmp/<project>/chats/session-<time>-<id8>.jsonl; a whole-file .json up to 0.38)",
    ),
    Store(
        "opencode",
        "store",
        "",
        False,
        OPENCODE_STORE,
        "sst/opencode packages/opencode/src/storage/db.ts (<data>/opencode.db; a release "
        "channel's opencode-<channel>.db from 1.14) and src/storage/storage.ts (<data>/storage/"
        "session|message|part, before 1.2)",
        within=True,
    ),
)


# The platform the roots are found for; tests set it to build other platforms' fake homes.
PLATFORM = sys.platform


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


def _under(home: str, relative: str) -> str:
    return os.path.join(home, *relative.split("/"))


def _expand(value: str, home: str) -> str:
    """`~` and `~/x` the way the hosts expand their own variables (pi does; it is harmless)."""
    if value == "~":
        return home
    if value.startswith(("~/", "~\\")):
        return os.path.join(home, value[2:])
    return value


def roots(
    hosts: tuple[str, ...] | None = None,
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
) -> list[Root]:
    """Every base folder to look in, for the given hosts (all by default), in table order."""
    env = os.environ if env is None else env
    platform = platform or PLATFORM
    home = home_of(env, platform)
    found: list[Root] = []
    for base in BASES:
        if hosts is not None and base.host not in hosts:
            continue
        if base.host == "vscode":
            found += _vscode_roots(env, platform, home)
            continue
        value = env.get(base.env)
        if value and base.env_is_home:  # Gemini CLI: its variable replaces the home folder
            found.append(Root(base.host, _under(_expand(value, home), base.default), base.env))
        elif value and base.env_under:  # opencode: XDG_DATA_HOME/opencode
            last = base.default.split("/")[-1]
            found.append(Root(base.host, os.path.join(_expand(value, home), last), base.env))
        elif value:
            found.append(Root(base.host, _expand(value, home), base.env))
        else:
            found.append(Root(base.host, _under(home, base.default), None))
    return found


def _vscode_roots(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
    """VS Code's user data folders: ours override all; else portable, then every product."""
    override = env.get(VSCODE_USER_DATA_ENV)
    if override:
        return [
            Root("vscode", _expand(part, home), VSCODE_USER_DATA_ENV)
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
        appdata = _under(home, default)
    found += [Root("vscode", os.path.join(appdata, product), via) for product in VSCODE_PRODUCTS]
    return found


def stores_of(host: str) -> tuple[Store, ...]:
    return tuple(store for store in STORES if store.host == host)


def session_id(name: str) -> tuple[str, str] | None:
    """(host, id) from a file name alone, for folders outside the table (`--path`); or None.

    A Codex rollout name, a pi session name and a Gemini CLI chat name are distinctive; any
    other `.json`/`.jsonl` is
    taken as VS Code's `<sessionId>.jsonl` (its content decides the host when it is counted).
    """
    named = ((CODEX_NAME, "codex"), (PI_NAME, "pi"), (GEMINI_NAME, "gemini-cli"))
    for pattern, host in (*named, (VSCODE_NAME, "vscode")):
        match = pattern.fullmatch(name)
        if match:
            return host, match["id"]
    return None
