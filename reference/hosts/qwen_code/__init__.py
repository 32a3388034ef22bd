"""Qwen Code (spec/hosts/qwen-code.md, QWN-*): a `.jsonl` transcript (Q1), or the whole-file
`.json` chat of 0.1.x (Q0).

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither until asked.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import ID, Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

# QWN-1: the record types of Qwen's recorder (`ChatRecord.type`).
RECORD_TYPES = frozenset({"user", "assistant", "tool_result", "system"})
# QWN-1: a Q0 chat's reply message, as 0.1.x's recorder types it (Gemini CLI's says "gemini").
Q0_REPLY = rb'"type"\s*:\s*"qwen"'


def has_q0_reply(data: bytes) -> bool:
    """Whether `data` holds Q0_REPLY. `re` is imported here, not with the registry: only a
    `.json` naming `projectHash` is searched, and every count imports this package."""
    import re

    return re.search(Q0_REPLY, data) is not None


class QwenCode(Host):
    input_label = "qwen-code transcript"
    store_variables = ("QWEN_RUNTIME_DIR", "QWEN_HOME")
    identity = Identity(
        (("QWEN_CODE_SESSION_ID", ID),),
        hook_transcript=True,
        how="Qwen Code 0.21.10 and later set QWEN_CODE_SESSION_ID in the shell tool's "
        "environment; 0.12 to 0.15: a hook piping its stdin (transcript_path) to "
        "`rebootspec hook`",
    )

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2, QWN-1: a `.json` whose first 64 KiB name `projectHash` and hold a reply
        message typed `qwen`, and whose document is a whole-file chat (Q0)."""
        if is_dir or not path.endswith(".json"):
            return False
        if b'"projectHash"' not in head or not has_q0_reply(head):
            return False
        return is_q0_file(path)

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, QWN-1: a record of Qwen's recorder: string `uuid` and `sessionId`, a `type`
        of its four, and one mark only Qwen writes (Gemini-style `message.parts`, a
        `systemPayload` object, a `tool_result` record, or Gemini-style `usageMetadata`)."""
        kind = value.get("type")
        if kind not in RECORD_TYPES:
            return False
        if not isinstance(value.get("uuid"), str) or not isinstance(value.get("sessionId"), str):
            return False
        if kind == "tool_result":
            return True
        message = value.get("message")
        if isinstance(message, dict) and isinstance(message.get("parts"), list):
            return True
        return isinstance(value.get("systemPayload"), dict) or isinstance(
            value.get("usageMetadata"), dict
        )

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """QWN-1..QWN-10; a whole-file `.json` chat (Q0) is E-UNMEASURABLE (QWN-9)."""
        from ...core.records import count_file
        from .reader import count_records, reject_q0

        if path.endswith(".json") and is_q0_file(path):
            raise reject_q0()
        pickers = None
        if with_title:  # titles: only a listing asks
            from . import titles

            pickers = (titles.first_message, titles.given_name)
        return count_file(path, count_records, readable=readable, titles=pickers)

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def is_q0_file(path: str) -> bool:
    """QWN-1: whether a `.json` file is a whole-file Qwen Code 0.1.x chat."""
    import json

    from ...core.files import open_log
    from ...core.jsontext import BOM
    from ...core.peek import PEEK

    with open_log(path) as stream:
        data = stream.read(PEEK)
        if b'"projectHash"' not in data or not has_q0_reply(data):
            return False
        data += stream.read()
    try:
        value = json.loads(data[len(BOM) :] if data.startswith(BOM) else data)
    except (ValueError, RecursionError):
        return False
    return is_q0_document(value)


def is_q0_document(value: Any) -> bool:
    """QWN-1: a Q0 chat document: string `sessionId` and `projectHash`, an array `messages`
    holding a message of type `qwen`, and no `requests` (VS Code's, LEG-1)."""
    if not isinstance(value, dict) or "requests" in value:
        return False
    messages = value.get("messages")
    return (
        isinstance(value.get("sessionId"), str)
        and isinstance(value.get("projectHash"), str)
        and isinstance(messages, list)
        and any(isinstance(m, dict) and m.get("type") == "qwen" for m in messages)
    )


HOST = QwenCode()
