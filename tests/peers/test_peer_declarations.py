"""Every peer declares a pinned package, the hosts it claims and what it reads (issue #36).

Bowtie's implementations declare their dialects; ours declare hosts, and the scoreboard runs a
peer only on those. A range instead of a version, an unknown host or a blank legend would make
the scoreboard say something nobody can reproduce.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rebootspec.conformance.presets.peers import PEERS
from rebootspec.conformance.presets.peers.layout import host_file
from rebootspec.conformance.runner.corpus import known_hosts

EXACT = re.compile(r"\d+(\.\d+)*")


@pytest.mark.parametrize("peer", PEERS, ids=lambda peer: peer.name)
def test_a_peer_declares_a_pinned_version_its_hosts_and_its_reading(peer: type) -> None:
    assert EXACT.fullmatch(peer.package.version), peer.package.version
    assert peer.package.registry in ("npm", "pypi")
    assert peer.hosts and set(peer.hosts) <= set(known_hosts()), peer.hosts
    assert peer.reads.strip()


def test_peer_names_are_unique() -> None:
    names = [peer.name for peer in PEERS]
    assert len(names) == len(set(names))


def test_the_issue_s_counters_are_all_there() -> None:
    wanted = {
        "codeburn",
        "agentsview",
        "ccstatusline",
        "claude-compaction-viewer",
        "sniffly",
        "claude-code-log",
        "claude-code-transcripts",
        "ai-code-sessions",
        "pi-export",
    }
    assert wanted <= {peer.name for peer in PEERS}


@pytest.mark.parametrize(
    ("host", "pattern"),
    [
        ("codex", r"\.codex/sessions/\d{4}/\d\d/\d\d/rollout-[0-9T-]+-[0-9a-f-]{36}\.jsonl"),
        ("claude-code", r"\.claude/projects/-home-dev-project/[0-9a-f-]{36}\.jsonl"),
        ("pi", r"\.pi/agent/sessions/--home-dev-project--/[0-9TZ-]+_[0-9a-f-]{36}\.jsonl"),
        ("gemini-cli", r"\.gemini/tmp/[0-9a-f]{64}/chats/session-[0-9T-]+-[0-9a-f]{8}\.jsonl"),
    ],
)
def test_a_home_layout_puts_the_file_where_the_host_writes_it(host: str, pattern: str) -> None:
    home = Path("/home/someone")
    laid = host_file(host, home, ".jsonl").relative_to(home).as_posix()
    assert re.fullmatch(pattern, laid), laid
