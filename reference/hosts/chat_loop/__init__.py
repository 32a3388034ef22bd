"""basic-agent-chat-loop (spec/hosts/basic-agent-chat-loop.md, BCL-*): markdown session files
chained by their `Resumed From` links.

The reader is `reader.py` (the definition); this module is the host's entry in the registry.
Its sessions live in `.chat-sessions` of whatever folder the loop started in (spec/STORES.md),
so its store row is that folder under the current one.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store


class ChatLoop(Host):
    input_label = "chat-loop chain"
    identity = Identity(
        how="basic-agent-chat-loop gives its tools no session id and has no hooks: "
        "`rebootspec count .chat-sessions/<file>.md`, or `whoami --guess`",
    )

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2, BCL-1: a markdown file whose first line is the writer's `# <agent>
        Conversation`; its reader checks the rest of the header (`**Date:**`, `**Agent:**`,
        `---`) and rejects a file without it (E-HOST)."""
        if is_dir or not path.endswith(".md"):
            return False
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:]
        title = head.split(b"\n", 1)[0].removesuffix(b"\r")
        return title.startswith(b"# ") and title.endswith(b" Conversation")

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """BCL-1..BCL-8: a session file and the chain of its previous sessions."""
        from .reader import count_chat_loop

        answer = count_chat_loop(path)
        if with_title:
            from . import titles

            answer.title = titles.first_query(path)
        return answer

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = ChatLoop()
