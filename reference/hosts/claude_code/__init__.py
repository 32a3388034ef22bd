"""Claude Code (spec/hosts/claude-code.md, CLC-*): a transcript of threaded records.

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither.
"""

from __future__ import annotations

from ...core.host import Host

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


class ClaudeCode(Host):
    input_label = "claude-code transcript"
    store_variables = ("CLAUDE_CONFIG_DIR",)

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, CLC-1: a conversation record (string `type`, `uuid` and `sessionId`) or one of
        the records without a `uuid` that carries the member it is known by."""
        kind = value.get("type")
        if not isinstance(kind, str):
            return False
        if isinstance(value.get("uuid"), str) and isinstance(value.get("sessionId"), str):
            return True
        member = UNTHREADED.get(kind)
        return member is not None and isinstance(value.get(member), str)

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

        titles = (_first_message, _given_name) if with_title else None
        # The fast path from 48 MiB: below, importing msgspec costs more than it saves
        # (the saving is about 0.6 ms per MB; issue 37, measured in benchmarks/README.md).
        return count_file(
            path, count_records, fast=fast, readable=readable, titles=titles, fast_scale=3
        )

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def _given_name(value: dict[str, Any]) -> str | None:
    """A title row: the user's own (`custom-title`), else the generated one (`ai-title`, a
    resume-picker `summary`)."""
    for member in ("customTitle", "aiTitle", "summary"):
        text = value.get(member)
        if value.get("type") in ("custom-title", "ai-title", "summary") and isinstance(text, str):
            return text.strip() or None
    return None


def _first_message(value: dict[str, Any]) -> str | None:
    """The first user message of the main thread that is text a person typed."""
    from ...core.titles import text_of

    message = value.get("message")
    if value.get("type") != "user" or value.get("isSidechain") or not isinstance(message, dict):
        return None
    if value.get("isMeta") or value.get("isCompactSummary"):
        return None
    return text_of(message.get("content"))


HOST = ClaudeCode()
