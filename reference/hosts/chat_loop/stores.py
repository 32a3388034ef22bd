"""basic-agent-chat-loop's rows of the store table (spec/STORES.md): where its sessions live.

From 1.6.0 the loop writes `<agent>_<YYYYMMDD>_<HHMMSS>.md` into `.chat-sessions` of the folder
it was started in, so the base is the current folder (and any `--path`), not a fixed home.
Imported only by the session finder, never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# `<session id>.md`, the id the agent's name in lower case and the local time to the second.
CHAT_LOOP_NAME = r"(?P<id>[^/\\]+_\d{8}_\d{6})\.md"

BASES: tuple[Base, ...] = (
    Base(
        "basic-agent-chat-loop",
        "",
        ".",
        "basic-agent-chat-loop src/basic_agent_chat_loop/components/session_manager.py "
        "(SessionManager.__init__: the current directory joined with .chat-sessions, 1.6.0+)",
        cwd=True,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "basic-agent-chat-loop",
        "chat-sessions",
        ".chat-sessions",
        False,
        CHAT_LOOP_NAME,
        "basic-agent-chat-loop session_manager.py (.chat-sessions/<session id>.md)",
    ),
)
