"""codex's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

CODEX_NAME = r"rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-(?P<id>.+?)\.jsonl(?:\.zst)?"

BASES: tuple[Base, ...] = (
    Base(
        "codex",
        "CODEX_HOME",
        ".codex",
        "openai/codex codex-rs/core/src/config (find_codex_home: $CODEX_HOME, else ~/.codex)",
    ),
)

STORES: tuple[Store, ...] = (
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
)
