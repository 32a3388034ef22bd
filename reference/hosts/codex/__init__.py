"""The OpenAI Codex CLI (spec/hosts/codex.md, CDX-*): rollouts, `.jsonl` or `.jsonl.zst`.

The reader is `reader.py` (the definition), its fast path `fast.py`, its store rows
`stores.py`; this module is the host's entry in the registry and imports none of them.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import ID, Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

# HST-2, CDX-1: every member of a rollout's record envelope (C1 onwards; `ordinal` from C5),
# and of the bare header a C0 rollout begins with.
ENVELOPE = frozenset(("timestamp", "type", "payload", "ordinal"))
LEGACY_HEADER = frozenset(("id", "timestamp", "instructions", "git"))


class Codex(Host):
    input_label = "codex rollout"
    store_variables = ("CODEX_HOME",)
    identity = Identity(
        (("CODEX_THREAD_ID", ID),),
        misleading=("CODEX_SESSION_ID",),
        hook_transcript=True,
        how="Codex 0.95.0 and later set CODEX_THREAD_ID in the shell tool's environment; "
        "in a hook, pipe its stdin to `rebootspec hook`",
    )

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, CDX-1: an envelope (`timestamp`, `type`, `payload`, from C5 `ordinal`, and
        nothing else) that is a `session_meta` or carries a `payload` object, or the legacy
        header of era C0 (string `id` and `timestamp`, no `type`, nothing but `instructions`
        and `git` besides)."""
        return _misses(value) == ""

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: an object with some of a rollout's first record's marks, not all."""
        return _misses(value) or None

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """CDX-1..CDX-10 (a `.jsonl.zst` is read as the `.jsonl` it holds, CDX-7)."""
        from ...core.records import count_file
        from .reader import count_records

        def fast() -> Any:
            from .fast import count_stream

            return count_stream

        pickers = None
        if with_title:  # titles: only a listing asks
            from . import titles

            pickers = (titles.first_message, None)
        # The fast path from 64 MiB: below, importing msgspec costs more than it saves
        # (Codex's few long lines parse fast; issue 37, measured in benchmarks/README.md).
        return count_file(
            path, count_records, fast=fast, readable=readable, titles=pickers, fast_scale=4
        )

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


def _misses(value: dict[str, Any]) -> str | None:
    """What a first value lacks of a rollout's first record: "" when nothing, None when it is
    nothing like one."""
    kind = value.get("type")
    if "payload" in value or kind == "session_meta":
        if not isinstance(kind, str):
            return "no string `type`"
        if kind != "session_meta" and not isinstance(value.get("payload"), dict):
            return "`payload` is not an object"
        if not isinstance(value.get("timestamp"), str):
            return "no string `timestamp`"
        other = sorted(set(value) - ENVELOPE)
        return f"members outside the envelope ({', '.join(other[:3])})" if other else ""
    if kind is None and isinstance(value.get("id"), str) and "timestamp" in value:
        if not isinstance(value.get("timestamp"), str):
            return "no string `timestamp`"
        other = sorted(set(value) - LEGACY_HEADER)
        return f"members outside the C0 header ({', '.join(other[:3])})" if other else ""
    return None


HOST = Codex()
