"""Big realistic sessions on demand, for benchmarks (never committed).

Real sessions reach hundreds of MB because tool output is stored twice (in the tool
invocation part of the response and in the result's `toolCallResults`) and responses are
re-pushed on every save. This plays the same random long-session plans as the corpus on a
session whose tools return large outputs, until the log reaches the asked size. The writer is
the corpus's writer, so the file has the same shapes: Push with `i` re-pushes, Sets of whole
results, and kind-0 rewrites after every 1024 entries.

    python -m rebootspec.generators big --size-mb 200 --out /tmp/big.jsonl
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import eras as era_table
from .live import Session
from .plan import Plan, expected_reboots
from .player import Player
from .randomized import long_session_steps
from .texts import Labels, words

OUTPUT_LINES = 900  # about 64 KB of tool output per tool call


class BulkySession(Session):
    """A session whose tools print a lot, as build and test tools do."""

    def tool_finish(self, index: int) -> None:
        super().tool_finish(index)
        part = dict(self.current["response"][index])
        part["resultDetails"] = {"output": self._output()}
        self.current["response"][index] = part

    def finish(self, *args: Any, **kwargs: Any) -> None:
        super().finish(*args, **kwargs)
        # The error results of the 2.0 plans carry no tool results (and maybe no metadata).
        metadata = self.current["result"].get("metadata") or {}
        results = metadata.get("toolCallResults")
        if results is None:
            return
        for round_ in metadata.get("toolCallRounds") or []:
            for call in round_.get("toolCalls", []):
                content = [{"$mid": 21, "value": self._output()}]
                results[call["id"]] = {"$mid": 20, "content": content}

    def _output(self) -> str:
        block = [words(self.rng, 9) for _ in range(12)]
        return "\n".join(f"{n:5d}  {block[n % len(block)]}" for n in range(OUTPUT_LINES))


@dataclass
class BulkyPlayer(Player):
    def __post_init__(self) -> None:
        super().__post_init__()
        self.session = BulkySession(
            self.era, era_table.manual(), self.rng, self.marker_kind or self.era.marker_kind
        )


def big_session(
    size_mb: float, seed: int = 1, era_id: str = "compacted-summaries"
) -> tuple[bytes, int]:
    """A log of at least `size_mb` MB and its expected count (from the plan, as in the corpus)."""
    era = era_table.era(era_id)
    rng = random.Random(seed)
    labels = Labels(rng)
    player = BulkyPlayer(era, seed, save_rate=0.7)
    planned = long_session_steps(rng, labels, 100_000, manual=False)
    steps: list[Any] = []
    target = int(size_mb * 2**20)
    for step in planned:
        if len(player.writer.data) >= target:
            break
        steps.append(step)
        player.play(Plan((step,), era.summary_field))
    expected = expected_reboots(Plan(tuple(steps), era.summary_field))
    return player.bytes("jsonl"), expected


def write_big_session(path: Path, size_mb: float, seed: int = 1) -> int:
    """Write a big session to `path`; returns its expected reboot count."""
    data, expected = big_session(size_mb, seed)
    path.write_bytes(data)
    return expected
