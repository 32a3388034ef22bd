"""VS Code Copilot Chat (spec/hosts/vscode.md): a chat session's mutation log (`.jsonl`), its
legacy flat `.json`, or an Export Chat `.json`.

The definition is `replay.py` (the final state) and `count.py` (its reboots), with the era
table `eras.py`; `fastpath.py` is the fast path proven equal to them; `stores.py` its rows of
the store table. This module is the host's entry in the registry and imports none of them.
"""

from __future__ import annotations

from ...core.host import Host
from ...core.identity import Identity

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
        """HST-2, LEG-1: a `.json` document of VS Code's own shape, as its first bytes show it:
        an object whose `requests` is an array, with a number `version` or a string
        `sessionId` (a flat session) or a string `responderUsername` (an export, LEG-3)."""
        if is_dir or not path.endswith(".json"):
            return False
        from ...core.peek import prefix_view

        view = prefix_view(head)
        return view.document and document_misses(view.value) is None

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, RPL-3: an entry of the mutation log, whose `kind` is a number (Gemini CLI's
        metadata record names a string `kind`)."""
        return _is_number(value.get("kind"))

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: what a log entry or a `.json` session of VS Code's would have."""
        if "kind" in value:
            return None if _is_number(value["kind"]) else "`kind` is not a number"
        if any(name in value for name in DOCUMENT_MEMBERS) or (
            _is_number(value.get("version")) and "type" not in value
        ):
            return document_misses(value)
        return None

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
        from ...core.nulrun import vscode_rejection
        from ...core.records import wants_fast

        refused = vscode_rejection(path)  # a long first line of NULs: no need to hold it
        if refused is not None:
            raise refused

        if wants_fast(path, readable):
            from .shape import appended  # here: a small log's count never needs it (mmap)

            if appended(path):
                return self._readable(path, with_title)
            from .fastpath import count_fast

            fast = count_fast(path)
            if fast is not None:
                return fast
        return self._readable(path, with_title)

    def _readable(self, path: str, with_title: bool) -> Answer:
        """The definition: the replayed final state (replay.py), counted (count.py)."""
        from .count import count_state
        from .replay import load_path

        replay = load_path(path)
        count = count_state(replay.state)
        count.notices[:0] = replay.notices
        if with_title:
            from . import titles

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


# HST-4's hint: members only VS Code's `.json` session and export carry (a number `version`
# without a `type` also reads as a flat session's).
DOCUMENT_MEMBERS = ("requests", "responderUsername", "requesterUsername")


def _is_number(value: Any) -> bool:
    """A JSON number as JavaScript sees one (`true` is none)."""
    return type(value) in (int, float)


def document_misses(value: Any) -> str | None:
    """LEG-1, HST-2: what a `.json` document lacks of VS Code's marks (None: it has them all):
    an object whose `requests` is an array, and a number `version`, a string `sessionId` or a
    string `responderUsername` (Gemini CLI's and Qwen Code's chats, Cline's task and SDK files
    have no `requests`; no other writer pairs it with these)."""
    if not isinstance(value, dict):
        return "not an object"
    if not isinstance(value.get("requests"), list):
        return "no array `requests`"
    if _is_number(value.get("version")) or any(
        isinstance(value.get(name), str) for name in ("sessionId", "responderUsername")
    ):
        return None
    return "no number `version`, string `sessionId` or string `responderUsername`"


HOST = VsCode()
