"""Claude Code (spec/hosts/claude-code.md, CLC-*): a transcript of threaded records.

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import ID, Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

# HST-2, CLC-1: the Claude Code records that carry no `uuid`, and the member each one names
# itself by (a resume-picker title row, a file backup snapshot, a queued prompt, title rows).
UNTHREADED = {
    "summary": "leafUuid",
    "file-history-snapshot": "messageId",
    "queue-operation": "sessionId",
    "ai-title": "sessionId",
    "custom-title": "sessionId",
}

# HST-2, CLC-1: the member Claude Code writes on every conversation record (`external`).
USER_TYPE = "userType"


class ClaudeCode(Host):
    input_label = "claude-code transcript"
    store_variables = ("CLAUDE_CONFIG_DIR",)
    identity = Identity(
        (("CLAUDE_CODE_SESSION_ID", ID),),
        hook_transcript=True,
        how="Claude Code 2.1.132 and later set CLAUDE_CODE_SESSION_ID in the Bash tool's "
        "environment; older ones: a SessionStart hook piping its stdin to `rebootspec hook`",
    )

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, CLC-1: a conversation record (string `type`, `uuid`, `sessionId` and the
        `userType` Claude Code stamps on each: Qwen Code's records, threaded the same way,
        carry none) or one of the records without a `uuid` that carries the member it is
        known by."""
        kind = value.get("type")
        if not isinstance(kind, str):
            return False
        member = UNTHREADED.get(kind)
        if member is not None and "uuid" not in value:
            return isinstance(value.get(member), str)
        return all(isinstance(value.get(name), str) for name in ("uuid", "sessionId", USER_TYPE))

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: a typed record with some of a Claude Code record's marks (None when it has
        all of them, or none)."""
        kind = value.get("type")
        if not isinstance(kind, str):
            return None
        member = UNTHREADED.get(kind)
        if member is not None and "uuid" not in value:
            return None if isinstance(value.get(member), str) else f"no string `{member}`"
        if not isinstance(value.get("sessionId"), str):
            return None
        if not isinstance(value.get("uuid"), str):
            return "no string `uuid`"
        if isinstance(value.get(USER_TYPE), str):
            return None
        message = value.get("message")
        if isinstance(message, dict) and "parts" in message:
            return "no string `userType`, and `message.parts` (Gemini's), not `message.content`"
        return "no string `userType`"

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """CLC-1..CLC-10."""
        from ...core.records import count_file
        from .reader import count_records

        def fast() -> Any:
            from .fast import count_stream

            return count_stream

        pickers = None
        if with_title:  # titles: only a listing asks
            from . import titles

            pickers = (titles.first_message, titles.given_name)
        # The fast path from 48 MiB: below, importing msgspec costs more than it saves
        # (the saving is about 0.6 ms per MB; issue 37, measured in benchmarks/README.md).
        return count_file(
            path, count_records, fast=fast, readable=readable, titles=pickers, fast_scale=3
        )

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = ClaudeCode()
