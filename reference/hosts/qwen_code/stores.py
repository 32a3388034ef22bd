"""qwen-code's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.

Qwen Code keeps its sessions under its *runtime* folder: `QWEN_RUNTIME_DIR` when set, else the
settings' `advanced.runtimeOutputDir`, else its home folder (`QWEN_HOME`, else `~/.qwen`); the
variables and the setting exist from 0.15 (0.1 to 0.12 always use `~/.qwen`).
"""

from __future__ import annotations

import os

from ...core.storetypes import Base, Root, Store, expand, under

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Mapping

# A Q1 transcript: `<sessionId>.jsonl`, the id a UUID.
QWEN_NAME = r"(?P<id>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})\.jsonl"
# A Q0 chat (0.1.x): `session-<UTC minute>-<first 8 hex of the session id>.json`.
QWEN_Q0_NAME = r"session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})\.json"

SOURCE = (
    "QwenLM/qwen-code packages/core/src/config/storage.ts (getGlobalQwenDir: $QWEN_HOME, else "
    "<home>/.qwen; getRuntimeBaseDir: $QWEN_RUNTIME_DIR, else the settings' "
    "advanced.runtimeOutputDir, else the global folder), read in the 0.15.10 and 0.24.4 packages"
)


def _resolved(value: str, home: str) -> str:
    """A folder the way Qwen resolves its own: `~` expanded, a relative one from the current
    folder (Qwen resolves it from the process's folder too)."""
    return os.path.abspath(expand(value, home))


def _settings_folder(qwen_home: str) -> str | None:
    """The global settings' `advanced.runtimeOutputDir`, when absolute or under `~` (a
    relative one is resolved from each project's root, which a listing cannot know)."""
    import json

    try:
        with open(os.path.join(qwen_home, "settings.json"), "rb") as handle:
            settings = json.loads(handle.read(1 << 20))
    except (OSError, ValueError, RecursionError):
        return None
    advanced = settings.get("advanced") if isinstance(settings, dict) else None
    folder = advanced.get("runtimeOutputDir") if isinstance(advanced, dict) else None
    if not isinstance(folder, str) or not folder:
        return None
    if folder == "~" or folder.startswith(("~/", "~\\")) or os.path.isabs(folder):
        return folder
    return None


def qwen_roots(env: Mapping[str, str], platform: str, home: str) -> list[Root]:
    """Qwen Code's runtime folder: QWEN_RUNTIME_DIR, the setting, else its home folder."""
    runtime = env.get("QWEN_RUNTIME_DIR")
    if runtime:
        return [Root("qwen-code", _resolved(runtime, home), "QWEN_RUNTIME_DIR")]
    qwen_home = env.get("QWEN_HOME")
    global_folder = _resolved(qwen_home, home) if qwen_home else under(home, ".qwen")
    configured = _settings_folder(global_folder)
    if configured:
        return [Root("qwen-code", _resolved(configured, home), "advanced.runtimeOutputDir")]
    return [Root("qwen-code", global_folder, "QWEN_HOME" if qwen_home else None)]


BASES: tuple[Base, ...] = (
    Base("qwen-code", "QWEN_RUNTIME_DIR", ".qwen", SOURCE, finder=qwen_roots),
)

STORES: tuple[Store, ...] = (
    Store(
        "qwen-code",
        "projects",
        "projects/*/chats",
        False,
        QWEN_NAME,
        "QwenLM/qwen-code packages/core/src/services/chatRecordingService.ts "
        "(projects/<cwd, each character other than a letter or digit turned into '-'>/chats/"
        "<sessionId>.jsonl; sub-agents write projects/<cwd>/subagents/, not sessions, QWN-7)",
        distinct=False,
    ),
    Store(
        "qwen-code",
        "tmp chats (0.1)",
        "tmp/*/chats",
        False,
        QWEN_Q0_NAME,
        "QwenLM/qwen-code packages/core/src/services/chatRecordingService.ts as released in 0.1.4 "
        "(tmp/<sha256 of the project root>/chats/session-<time>-<id8>.json, rewritten whole; "
        "QWN-9)",
        distinct=False,
    ),
)
