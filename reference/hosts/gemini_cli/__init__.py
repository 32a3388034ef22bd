"""Gemini CLI (spec/hosts/gemini-cli.md, GEM-*): a `.jsonl` chat, or the whole-file `.json` of
era J0.

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither until asked.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store


class GeminiCli(Host):
    input_label = "gemini chat"
    store_variables = ("GEMINI_CLI_HOME",)
    identity = Identity(
        hook_transcript=True,
        how="Gemini CLI gives its shell tool no session id (GEMINI_CLI=1 only): a hook "
        "(AfterAgent) piping its stdin to `rebootspec hook --out FILE`",
    )

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2, GEM-1: a `.json` whose document, as its first bytes show it, is a whole-file
        chat with a message of Gemini's own `type` (`chat_misses`)."""
        if is_dir or not path.endswith(".json"):
            return False
        from ...core.peek import prefix_view

        view = prefix_view(head)
        return view.document and chat_misses(view.value) is None

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, GEM-1: the chat's metadata record, string `sessionId` and `projectHash` (Qwen
        Code's and Claude Code's records name no `projectHash`; VS Code's `kind` is a number,
        the metadata record's a string)."""
        return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str)

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: a chat's metadata (`sessionId`, `projectHash`, `startTime`) without all of
        Gemini CLI's marks."""
        if not isinstance(value.get("sessionId"), str):
            return None
        if isinstance(value.get("messages"), list):
            return chat_misses(value)
        if "startTime" in value or "lastUpdated" in value:
            return "no string `projectHash`" if "projectHash" not in value else None
        return None

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """GEM-1..GEM-8; a whole-file `.json` chat is E-UNMEASURABLE (GEM-7)."""
        from ...core.records import count_file
        from .reader import count_records, reject_document

        if path.endswith(".json") and is_chat_file(path):
            raise reject_document()  # GEM-7: the whole-file .json era

        def fast() -> Any:
            from .fast import count_stream

            return count_stream

        pickers = None
        if with_title:  # titles: only a listing asks
            from . import titles

            pickers = (titles.first_message, None)
        # The fast path from 32 MiB: below, importing msgspec costs more than it saves
        # (the saving is about 1 ms per MB; issue 37, measured in benchmarks/README.md).
        return count_file(
            path, count_records, fast=fast, readable=readable, titles=pickers, fast_scale=2
        )

    def session_ids(self, path: str, name_id: str) -> tuple[str, ...]:
        """A chat's file name carries 8 hex digits of its id; the whole id is inside, in the
        metadata record (GEM-1), so a user's full id finds it too."""
        from . import titles

        full = titles.full_id(path)
        return (full, name_id) if full and full != name_id else (name_id,)

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


# GEM-1: the `type` Gemini CLI gives its model's messages (Qwen Code 0.1's chat, the same
# document otherwise, gives them "qwen").
MODEL_TYPE = "gemini"


def chat_misses(value: Any) -> str | None:
    """GEM-1, HST-2: what a `.json` document lacks of a whole-file Gemini CLI chat (None: it
    has every mark): string `sessionId` and `projectHash`, an array `messages` and no
    `requests` (VS Code's, LEG-1), and among the messages the first bytes show one whose
    `type` is `gemini`: Qwen Code 0.1 writes the same document with `qwen` there."""
    if not isinstance(value, dict):
        return "not an object"
    for name in ("sessionId", "projectHash"):
        if not isinstance(value.get(name), str):
            return f"no string `{name}`"
    messages = value.get("messages")
    if not isinstance(messages, list) or "requests" in value:
        return "no array `messages`" if not isinstance(messages, list) else "a `requests` member"
    if any(isinstance(item, dict) and item.get("type") == MODEL_TYPE for item in messages):
        return None
    return "no message of `type` `gemini` in the first 64 KiB"


def is_chat_file(path: str) -> bool:
    """GEM-1, LEG-1: whether a `.json` file is a whole-file Gemini CLI chat (HST-2's marks)."""
    from ...core.files import open_log
    from ...core.peek import PEEK, prefix_view

    with open_log(path) as stream:
        head = stream.read(PEEK)
    view = prefix_view(head)
    return view.document and chat_misses(view.value) is None


HOST = GeminiCli()
