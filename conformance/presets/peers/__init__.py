"""The peers: counters people already use, each a preset run over the cases of its hosts.

One module per peer (how it is handed a case and how its answer is read); `PEERS` lists them
all, in the order the scoreboard shows them. See `base.Peer` for what a preset declares and
`install` for where the pinned packages go.
"""

from __future__ import annotations

from .agentsview import Agentsview
from .ai_code_sessions import AiCodeSessions
from .base import Peer
from .ccstatusline import Ccstatusline
from .claude_code_log import ClaudeCodeLog
from .claude_code_transcripts import ClaudeCodeTranscripts
from .codeburn import Codeburn
from .compaction_viewer import CompactionViewer
from .pi_export import PiExport
from .sniffly import Sniffly

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
