"""The pi coding agent (spec/hosts/pi.md, PIA-*): one session file of tree-linked entries.

The reader is `reader.py` (the definition), its fast path `fast.py`, its store rows
`stores.py`; this module is the host's entry in the registry and imports none of them.
"""

from __future__ import annotations

from ...core.host import Host

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store


class Pi(Host):
    input_label = "pi session"
    store_variables = ("PI_CODING_AGENT_DIR",)

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, PIA-1: the session header, `type` `session`."""
        return value.get("type") == "session"

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """PIA-1..PIA-9."""
        from ...core.records import count_file
        from .reader import count_records

        def fast() -> Any:
            from .fast import count_stream

            return count_stream

        titles = (_first_message, _given_name) if with_title else None
        return count_file(path, count_records, fast=fast, readable=readable, titles=titles)

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def _given_name(value: dict[str, Any]) -> str | None:
    """A name the user gave the session (`session_info`); the last one is the one shown."""
    name = value.get("name")
    if value.get("type") == "session_info" and isinstance(name, str) and name.strip():
        return name
    return None


def _first_message(value: dict[str, Any]) -> str | None:
    from ...core.titles import text_of

    message = value.get("message")
    if value.get("type") != "message" or not isinstance(message, dict):
        return None
    if message.get("role") != "user":
        return None
    return text_of(message.get("content"))


HOST = Pi()
