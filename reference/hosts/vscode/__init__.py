"""VS Code Copilot Chat (spec/hosts/vscode.md): a chat session's mutation log (`.jsonl`), its
legacy flat `.json`, or an Export Chat `.json`.

The definition is `replay.py` (the final state) and `count.py` (its reboots), with the era
table `eras.py`; `fastpath.py` is the fast path proven equal to them; `stores.py` its rows of
the store table. This module is the host's entry in the registry and imports none of them.
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


class VsCode(Host):
    store_variables = ("REBOOTSPEC_VSCODE_USER_DATA_DIR", "VSCODE_PORTABLE", "VSCODE_APPDATA")
    identity = Identity(
        how="VS Code gives its agent terminal no session id: a language-model tool extension "
        "(as qhoami) that reads the tool invocation's session",
    )

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        """HST-2, LEG-1: a `.json` file is one document, VS Code's (after Gemini CLI's row)."""
        return not is_dir and path.endswith(".json")

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, RPL-3: an entry of the mutation log has a member `kind`."""
        return "kind" in value

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """Replay the log and count its final state (RPL-10): the lines before are history.

        For a big file the fast path (fastpath.py) answers first unless `readable` is set;
        whenever it cannot be certain the readable path, the definition, reads the file again.
        On an appended log it steps aside before it starts (shape.py: it would not be faster).
        Both give the same output on every input (tests/reference/test_fastpath.py).
        """
        from ...core.records import wants_fast
        from .shape import appended

        if wants_fast(path, readable) and not appended(path):
            from .fastpath import count_fast

            fast = count_fast(path)
            if fast is not None:
                return fast
        from .count import count_state
        from .replay import load_path

        replay = load_path(path)
        count = count_state(replay.state)
        count.notices[:0] = replay.notices
        if with_title:
            count.title = titles.title_of(replay.state)
        return count

    def anonymize_policy(self) -> Any:
        """VS Code's log is rewritten by the generators' own VS Code rewriter, whose vocabulary
        is the era table (spec/eras.toml) and the session schema it keeps
        (generators/anonymize/policy.py, CONTRIBUTING.md)."""
        return {"format": "vscode"}

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES


HOST = VsCode()
