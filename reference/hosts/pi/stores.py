"""pi's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

PI_NAME = r"\d{4}-\d{2}-\d{2}T[0-9-]+Z?_(?P<id>.+?)\.jsonl"

BASES: tuple[Base, ...] = (
    Base(
        "pi",
        "PI_CODING_AGENT_DIR",
        ".pi/agent",
        "badlogic/pi-mono packages/coding-agent/src/config.ts (getAgentDir: "
        "$PI_CODING_AGENT_DIR, else ~/.pi/agent)",
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "pi",
        "sessions",
        "sessions/*",
        False,
        PI_NAME,
        "badlogic/pi-mono packages/coding-agent/src/core/session-manager.ts "
        "(getDefaultSessionDir: sessions/--<cwd>--/<time>_<id>.jsonl)",
    ),
)
