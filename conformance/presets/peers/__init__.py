"""The peers: counters people already use, each a preset run over the cases of its hosts.

One module per kind of tool (how it is run and read); `PEERS` lists them all, in the order the
scoreboard shows them. See `base.Peer` for what a preset declares and `install` for where the
pinned packages go.
"""

from __future__ import annotations

from .agentsview import Agentsview
from .base import Peer
from .ccstatusline import Ccstatusline
from .codeburn import Codeburn
from .html_exports import AiCodeSessions, ClaudeCodeLog, ClaudeCodeTranscripts, PiExport
from .python_harness import CompactionViewer, Sniffly

PEERS: tuple[type[Peer], ...] = (
    Codeburn,
    Agentsview,
    Ccstatusline,
    CompactionViewer,
    Sniffly,
    ClaudeCodeLog,
    ClaudeCodeTranscripts,
    AiCodeSessions,
    PiExport,
)


def peer_named(name: str) -> type[Peer] | None:
    return next((peer for peer in PEERS if peer.name == name), None)
