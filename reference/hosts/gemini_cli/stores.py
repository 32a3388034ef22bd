"""gemini-cli's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# A Gemini CLI chat: `session-<time>-<first 8 hex of the session id>.jsonl` (`.json` up to 0.38).
GEMINI_NAME = r"session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})\.jsonl?"

BASES: tuple[Base, ...] = (
    Base(
        "gemini-cli",
        "GEMINI_CLI_HOME",
        ".gemini",
        "google-gemini/gemini-cli packages/core/src/utils/paths.ts (homedir: $GEMINI_CLI_HOME "
        "replaces the home folder) and packages/core/src/config/storage.ts (getGlobalGeminiDir: "
        "<home>/.gemini)",
        env_is_home=True,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "gemini-cli",
        "chats",
        "tmp/*/chats",
        False,
        GEMINI_NAME,
        "google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts "
        "(tmp/<project>/chats/session-<time>-<id8>.jsonl; a whole-file .json up to 0.38)",
    ),
)
