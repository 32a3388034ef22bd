"""The GitHub Copilot CLI (spec/hosts/copilot-cli.md, CPL-*): a session's `events.jsonl`, also
written by VS Code's Agent Host (CPL-11).

The reader is `reader.py` (the definition), its store rows `stores.py`; this module is the
host's entry in the registry and imports neither until asked.
"""

from __future__ import annotations

import os

from ...core.host import Host
from ...core.identity import ID, Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store

# HST-2, CPL-1: the first event of every session file, and the runtime its `data` names.
START = "session.start"
PRODUCER = "copilot-agent"
WORKSPACE = "workspace.yaml"  # beside events.jsonl: the session's folder, name, summary_count
WORKSPACE_BYTES = 1 << 14  # a few hundred bytes in practice; never more is read


class CopilotCli(Host):
    input_label = "copilot events.jsonl"
    store_variables = ("COPILOT_HOME",)
    # WHO-1: the shell tool's child gets the session folder's id (a fork's own id in a fork);
    # inside a sub-agent 1.0.102 gives an id that names no folder, 1.0.60 the parent's.
    identity = Identity(
        (("COPILOT_AGENT_SESSION_ID", ID),),
        how="the Copilot CLI (and VS Code's Agent Host) set COPILOT_AGENT_SESSION_ID in its shell "
        "tool's environment; COPILOT_HOME must reach the child too when it is not ~/.copilot",
    )

    def claims_value(self, value: dict[str, Any]) -> bool:
        """HST-2, CPL-1: the `session.start` event every session file begins with, whose `data`
        names the runtime that wrote it, `producer` `copilot-agent` (the CLI's, also VS Code's
        Agent Host's). Another writer's `session.*` events do not."""
        return value.get("type") == START and self.near_miss(value) is None

    def near_miss(self, value: dict[str, Any]) -> str | None:
        """HST-4: an event of `session.*` type with `data` that is not the runtime's start."""
        kind = value.get("type")
        if not (isinstance(kind, str) and kind.startswith("session.")):
            return None
        data = value.get("data")
        if kind != START:
            return f"`{START}` is not first"
        if not isinstance(data, dict):
            return "`data` is not an object"
        if data.get("producer") != PRODUCER:
            return f"`data.producer` is not `{PRODUCER}`"
        return None

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """CPL-1..CPL-10; the title: a name given in the session, else its first message, with
        the working folder `workspace.yaml` names (a VS Code Agent Host session's workspace)."""
        from ...core.records import count_file
        from .reader import count_records

        titles = (_first_message, _given_name) if with_title else None
        answer = count_file(path, count_records, readable=readable, titles=titles)
        if with_title:
            folder = _workspace_folder(path)
            if folder:
                answer.title = f"{answer.title} [{folder}]" if answer.title else f"[{folder}]"
        return answer

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES

    def anonymize_policy(self) -> Any:
        """What of its input is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY


def _first_message(value: dict[str, Any]) -> str | None:
    """The main agent's first `user.message` (a sub-agent's carry `agentId`, CPL-5)."""
    from ...core.titles import text_of

    data = value.get("data")
    if value.get("type") != "user.message" or value.get("agentId") is not None:
        return None
    return text_of(data.get("content")) if isinstance(data, dict) else None


def _given_name(value: dict[str, Any]) -> str | None:
    """A title the session was given (`session.title_changed`, the SDK's event)."""
    data = value.get("data")
    if value.get("type") != "session.title_changed" or not isinstance(data, dict):
        return None
    title = data.get("title")
    return title.strip() or None if isinstance(title, str) else None


def _workspace_folder(path: str) -> str | None:
    """`cwd` of the `workspace.yaml` beside the file, when there is one (informative)."""
    try:
        with open(os.path.join(os.path.dirname(path), WORKSPACE), "rb") as handle:
            text = handle.read(WORKSPACE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, rest = line.partition(":")
        if sep and key == "cwd":
            value = rest.strip().strip("'\"")
            return value or None
    return None


HOST = CopilotCli()
