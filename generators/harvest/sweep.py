"""The pinned version list ``tox -e harvest`` sweeps: one Codex version per era, three pi formats.

Codex: 0.40.0 (first `compacted` lines, message only), 0.80.0 (summary prefix,
``context_compacted``), 0.111.0 (fork and rollback copy the parent; ``thread/*`` methods), 0.130.0
(``replacement_history``; manual ``thread/compact/start``), 0.150.1 (subagents marked
``thread_source``), 0.166.0 (``history_base``, ordinals), 0.169.0 (window ids, usage fields),
0.171.0 (the newest, Nov 2026).
pi: 0.30.2 (session format v1), 0.50.7 (v3), 0.73.1 (v3, RPC fork; the last of
``@mariozechner/pi-coding-agent``), then ``@earendil-works/pi-coding-agent``: 0.82.0 (the first to
set ``PI_SESSION_FILE`` for its bash tool; like every later one it needs Node 22.19, taken
from npm when the system's is older), 0.87.1,
1.0.3 (not run: npm cannot install it, a pinned library is missing), 1.5.2 (a ``system``
message entry, ``usage`` in compactions), 1.6.0 (the newest, Nov 2026; installable since its
``pi-agent-core`` reached the registry).
opencode: 1.0.0 (JSON storage; the summary is a ``summary: true`` assistant message, no
compaction part), 1.0.98 (the compaction pair, no ``auto``), 1.1.65 (the last JSON-storage
release on the registry), 1.2.1 (the first SQLite ``opencode.db`` on the registry), 1.14.41
(``overflow``, ``tail_start_id``), 1.18.33 (the wrapper's newest), 1.18.34 (the newest binary,
Nov 2026, run from ``opencode-linux-x64`` alone: no wrapper of it on the registry).
Gemini CLI: 0.38.2 (whole-file ``.json`` chats, J0), 0.39.1 (``.jsonl`` without the history, G0),
0.44.0 (the first to write the compressed history, G1), 0.61.0 (the newest release, Nov 2026).
The first two record no compression: their rows expect ``E-UNMEASURABLE`` (GEM-7).
basic-agent-chat-loop (PyPI): 1.5.1 (JSON + Markdown in ~/agent-conversations, resume replays),
1.6.0 (``#compact``/``#resume``, summaries; saves at exit), 1.7.0 (saves after every turn),
1.9.0 (session persister/restorer components), 1.10.0 (the newest).
GitHub Copilot CLI: 1.0.60 (the last with readable JS and schemas), 1.0.85 (the Copilot SDK's
pin of mid 2026), 1.0.102 (the newest: `outcome`, `model.*`). 1.0.20 runs, but each tool call
over the scripted server took about 100 s of CPU there (a scenario outlives the 600 s limit).
Kilo Code CLI: every linux-x64 binary the registry has (``@kilocode/cli-linux-x64``): 7.0.33
(opencode 1.2's database, K0), 7.7.2, 7.7.7 and 7.7.9 (Kilo's own tables, K1). The wrapper's
7.8.1 has no linux-x64 binary there (``--latest`` says "not run").
Qwen Code (Node 22 from npm): 0.1.4 (the whole-file ``.json`` chat of 0.1.x, Q0: records no
compression, its row expects ``E-UNMEASURABLE``), 0.5.0 and 0.5.2 (the first ``.jsonl``
transcripts, Q1; no headless ``/compress``), 0.8.2 (headless ``/compress``; drops an
"inflated" compression), 0.12.0, 0.15.10, 0.21.10 (``triggerReason``), 0.24.4 (its own summary
directive; ``--fork-session``; the newest, Nov 2026).
Cline CLI: 1.0.10 (Go around extension core 3.52.0), 2.18.0 (Node around core 3.82.0): the
extension's task folders; 3.0.65 (the SDK's session folders, the newest).
"""

from __future__ import annotations

from .hosts import chat_loop, cline, codex, copilot_cli, gemini, kilo, opencode, pi, qwen_code

VERSIONS: dict[str, tuple[str, ...]] = {
    "codex": (
        "0.40.0",
        "0.80.0",
        "0.111.0",
        "0.130.0",
        "0.150.1",
        "0.166.0",
        "0.169.0",
        "0.171.0",
    ),
    "pi": ("0.30.2", "0.50.7", "0.73.1", "0.82.0", "0.87.1", "1.0.3", "1.5.2", "1.6.0"),
    "gemini": ("0.38.2", "0.39.1", "0.44.0", "0.61.0"),
    "opencode": ("1.0.0", "1.0.98", "1.1.65", "1.2.1", "1.14.41", "1.18.33", "1.18.34"),
    "chat-loop": ("1.5.1", "1.6.0", "1.7.0", "1.9.0", "1.10.0"),
    "copilot-cli": ("1.0.60", "1.0.85", "1.0.102"),
    "kilo": ("7.0.33", "7.7.2", "7.7.7", "7.7.9"),
    "qwen-code": ("0.1.4", "0.5.0", "0.5.2", "0.8.2", "0.12.0", "0.15.10", "0.21.10", "0.24.4"),
    "cline": ("1.0.10", "2.18.0", "3.0.65"),
}


def jobs() -> list[tuple[str, str, str]]:
    """Every (host, version, scenario) of the sweep that the version can run."""
    out: list[tuple[str, str, str]] = []
    for host, module in (
        ("codex", codex),
        ("pi", pi),
        ("gemini", gemini),
        ("opencode", opencode),
        ("chat-loop", chat_loop),
        ("copilot-cli", copilot_cli),
        ("kilo", kilo),
        ("qwen-code", qwen_code),
        ("cline", cline),
    ):
        for version in VERSIONS[host]:
            out.extend(
                (host, version, scenario)
                for scenario in module.SCENARIOS
                if module.supports(version, scenario)
            )
    return out
