"""copilot-cli's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
The CLI keeps one folder per session, named by the session's id, holding `events.jsonl`
(CPL-1): the file's name carries no id, so the finder takes the folder's (an empty `id` group).
VS Code's Agent Host writes its sessions to the same place (CPL-11).
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# `session-state/<id>/events.jsonl`: the id is the folder's name (the `id` group matches nothing).
EVENTS_NAME = r"(?P<id>)events\.jsonl"
# 0.0.342 to about 0.0.37x: one flat `session-state/<id>.jsonl` per session.
FLAT_NAME = r"(?P<id>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})\.jsonl"

BASES: tuple[Base, ...] = (
    Base(
        "copilot-cli",
        "COPILOT_HOME",
        ".copilot",
        "docs: GitHub Copilot CLI 1.0.102 `copilot help environment` (COPILOT_HOME: where "
        "configuration and state are stored, default $HOME/.copilot); the program is "
        "proprietary, its bundle up to 1.0.60 builds the same path (spec/hosts/copilot-cli.md)",
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "copilot-cli",
        "session-state",
        "session-state/*",
        False,
        EVENTS_NAME,
        "docs: files the CLI wrote (1.0.x, generators/harvest): session-state/<id>/events.jsonl "
        "beside workspace.yaml and checkpoints/; VS Code's Agent Host writes the same (CPL-11)",
    ),
    Store(
        "copilot-cli",
        "flat",
        "session-state",
        False,
        FLAT_NAME,
        "docs: the 0.0.343 and 0.0.372 bundles write one session-state/<id>.jsonl per session "
        "(before the per-session folders; 1.0.60 leaves such files unread beside the folders)",
        distinct=False,
    ),
)
