"""The pi coding agent (spec/hosts/pi.md, PIA-*): one session file of tree-linked entries.

The reader is `reader.py` (the definition), its fast path `fast.py`, its store rows
`stores.py`; this module is the host's entry in the registry and imports none of them.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import FILE, ID, Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

# HST-2, PIA-1: the members of the session header besides `type` that HST-2 requires (every
# format writes them, and `cwd`).
HEADER = ("id", "timestamp")


class Pi(Host):
    input_label = "pi session"
    store_variables = ("PI_CODING_AGENT_DIR",)
    identity = Identity(
        (("PI_SESSION_FILE", FILE), ("PI_SESSION_ID", ID)),
        how="pi 0.82.0 and later (@earendil-works/pi-coding-agent) set PI_SESSION_FILE in the "
        "bash tool's environment; older ones: the extension conformance/hooks/pi",
    )

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, PIA-1: the session header: `type` `session` with a string `id` and
        `timestamp`, which every format writes (and `cwd`, not required here)."""
        return value.get("type") == "session" and self.near_miss(value) is None

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: a `type` `session` object without the header's members."""
        if value.get("type") != "session":
            return None
        missing = [name for name in HEADER if not isinstance(value.get(name), str)]
        return f"no string `{missing[0]}`" if missing else None

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

        pickers = None
        if with_title:  # titles: only a listing asks
            from . import titles

            pickers = (titles.first_message, titles.given_name)
        return count_file(path, count_records, fast=fast, readable=readable, titles=pickers)

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = Pi()
