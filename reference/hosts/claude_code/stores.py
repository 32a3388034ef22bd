"""claude-code's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# A Claude Code transcript: `<sessionId>.jsonl`, the id a UUID.
CLAUDE_NAME = r"(?P<id>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})\.jsonl"

BASES: tuple[Base, ...] = (
    Base(
        "claude-code",
        "CLAUDE_CONFIG_DIR",
        ".claude",
        "docs: Claude Code's settings documentation ($CLAUDE_CONFIG_DIR moves ~/.claude); the "
        "program is proprietary with no public source, so this row rests on its documentation "
        "and public transcripts (spec/hosts/claude-code.md)",
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "claude-code",
        "projects",
        "projects/*",
        False,
        CLAUDE_NAME,
        "docs: public transcripts (marot/spotter test/fixtures/transcripts) lie in "
        "projects/<cwd, separators turned into '-'>/<sessionId>.jsonl; the subagents/ folder "
        "beside a transcript holds side files, not sessions (CLC-5)",
        distinct=False,
    ),
)
