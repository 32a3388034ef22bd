"""Gemini CLI (spec/hosts/gemini-cli.md, GEM-*): a `.jsonl` chat, or the whole-file `.json` of
era J0.

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither until asked.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import Identity
from . import titles

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
        """HST-2, GEM-1: a `.json` whose document is a whole-file chat. Only a document that
        names `projectHash` within the prefix is parsed (Gemini CLI writes it second)."""
        return not is_dir and path.endswith(".json") and is_chat_file(path)

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, GEM-1: the chat's metadata record (checked before VS Code's `kind`)."""
        return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str)

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

        pickers = (titles.first_message, None) if with_title else None
        # The fast path from 32 MiB: below, importing msgspec costs more than it saves
        # (the saving is about 1 ms per MB; issue 37, measured in benchmarks/README.md).
        return count_file(
            path, count_records, fast=fast, readable=readable, titles=pickers, fast_scale=2
        )

    def session_ids(self, path: str, name_id: str) -> tuple[str, ...]:
        """A chat's file name carries 8 hex digits of its id; the whole id is inside, in the
        metadata record (GEM-1), so a user's full id finds it too."""
        full = titles.full_id(path)
        return (full, name_id) if full and full != name_id else (name_id,)

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def is_chat_file(path: str) -> bool:
    """GEM-1, LEG-1: whether a `.json` file is a whole-file Gemini CLI chat (not VS Code's)."""
    import json

    from ...core.files import open_log
    from ...core.jsontext import BOM
    from ...core.registry import PEEK
    from .reader import is_chat_document

    with open_log(path) as stream:
        data = stream.read(PEEK)
        if b'"projectHash"' not in data:
            return False  # VS Code's, unread here (LEG-1)
        data += stream.read()
    try:
        value = json.loads(data[len(BOM) :] if data.startswith(BOM) else data)
    except (ValueError, RecursionError):
        return False  # VS Code's rules reject it (LEG-1, ERR-3)
    return is_chat_document(value)


HOST = GeminiCli()
