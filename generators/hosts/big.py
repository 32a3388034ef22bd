"""Big Codex rollouts, pi sessions, Claude Code transcripts and Gemini CLI chats on demand, for
benchmarks (never committed).

Real rollouts reach gigabytes because every `compacted` line carries the whole new history
(CDX-10). This plays the writer models on a long plan — turns with tool calls, every third
turn compacting with a long replacement history — and streams the records to the file until
it reaches the asked size. The count is the plan's: the compactions the loop planned. A Claude
Code transcript compacts every fourth step (a boundary and its summary among many small records);
a Gemini CLI chat writes the whole history in a `$set.messages` after each compression, so its
size grows like a Codex rollout's.

    python -m rebootspec.generators big-host --host codex --size-mb 100 --out /tmp/big.jsonl
"""

from __future__ import annotations

from pathlib import Path

from .claude_code import plan as claude_plan
from .claude_code import writer as claude_code
from .claude_code.plan import ClaudeCompact, ClaudePlan, ClaudeTurn
from .codex import plan as codex_plan
from .codex import writer as codex
from .codex.plan import CodexPlan, Compact, Turn
from .common import line
from .gemini_cli import plan as gemini_plan
from .gemini_cli import writer as gemini
from .gemini_cli.plan import Compress, GemPlan, Prompt
from .pi import plan as pi_plan
from .pi import writer as pi
from .pi.plan import Exchange, PiCompact, PiPlan


def write_big_codex(path: Path, size_mb: float, seed: int = 1) -> int:
    """A C4 rollout of about `size_mb` MB; returns its expected count."""
    goal = int(size_mb * 1_000_000)
    steps: list[Turn] = []
    rollout = codex.Rollout(CodexPlan("C4", (), version="0.111.0", seed=seed))
    rollout.session_meta()
    rollout.initial_context()
    written = 0
    with path.open("wb") as out:
        while written < goal:
            compacts = (Compact("local" if len(steps) % 2 else "remote", huge=True),)
            step = Turn(3, compacts if len(steps) % 3 == 2 else ())
            steps.append(step)
            rollout.turn(step)
            for chunk in rollout.chunks:
                out.write(chunk)
                written += len(chunk)
            rollout.chunks.clear()
            rollout.records.clear()
    return codex_plan.expected_reboots(CodexPlan("C4", tuple(steps)))


def write_big_pi(path: Path, size_mb: float, seed: int = 1) -> int:
    """A format 3 pi session of about `size_mb` MB; returns its expected count."""
    goal = int(size_mb * 1_000_000)
    steps: list[Exchange | PiCompact] = []
    session = pi.PiSession(PiPlan("v3", seed=seed))
    session.make_header(None)
    written = 0
    done = 0
    with path.open("wb") as out:
        header = pi.line(session.header)
        out.write(header)
        written += len(header)
        while written < goal:
            step: Exchange | PiCompact = Exchange(4) if len(steps) % 4 != 3 else PiCompact()
            steps.append(step)
            if isinstance(step, Exchange):
                session.exchange(step)
            else:
                session.compaction(step)
            for entry in session.entries[done:]:
                data = session.encode(entry)
                out.write(data)
                written += len(data)
            done = len(session.entries)
    return pi_plan.expected_reboots(PiPlan("v3", tuple(steps)))


def write_big_claude(path: Path, size_mb: float, seed: int = 1) -> int:
    """A CC3 transcript of about `size_mb` MB; returns its expected count."""
    goal = int(size_mb * 1_000_000)
    steps: list[ClaudeTurn | ClaudeCompact] = []
    transcript = claude_code.Transcript(ClaudePlan("CC3", seed=seed))
    written = 0
    done = 0
    with path.open("wb") as out:
        while written < goal:
            step: ClaudeTurn | ClaudeCompact = (
                ClaudeTurn(3) if len(steps) % 4 != 3 else ClaudeCompact("auto")
            )
            steps.append(step)
            if isinstance(step, ClaudeTurn):
                transcript.turn(step)
            else:
                transcript.compaction(step)
            for record in transcript.records[done:]:
                data = line(record)
                out.write(data)
                written += len(data)
            done = len(transcript.records)
    return claude_plan.expected_reboots(ClaudePlan("CC3", tuple(steps)))


def write_big_gemini(path: Path, size_mb: float, seed: int = 1) -> int:
    """A G1 chat of about `size_mb` MB; returns its expected count."""
    goal = int(size_mb * 1_000_000)
    steps: list[Prompt | Compress] = []
    chat = gemini.GeminiChat(GemPlan("G1", seed=seed))
    chat.begin()
    written = 0
    with path.open("wb") as out:
        while written < goal:
            step: Prompt | Compress = Prompt(3) if len(steps) % 10 != 9 else Compress()
            steps.append(step)
            if isinstance(step, Prompt):
                chat.prompt(step)
            else:
                chat.compress(step)
            for data in chat.out:
                out.write(data)
                written += len(data)
            chat.out.clear()
    return gemini_plan.expected_reboots(GemPlan("G1", tuple(steps)))
