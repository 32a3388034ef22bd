"""Big sessions of the two shapes a real log has, for the benchmark (never committed).

- *rewritten*: VS Code's writer rewrites the file (one kind-0 line with the whole state) after
  every 1024 entries, so a big log is mostly one long line plus a tail of patches (as
  `generators.big`).
- *appended*: a log that never reached the rewrite threshold since its state was written, so
  everything after the first line is patches: many lines, the state never written whole. Here
  the writer is simply never allowed to rewrite.

    python -m benchmarks.shapes --shape appended --size-mb 100 --out /tmp/appended.jsonl
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rebootspec.generators.hosts.vscode import eras as era_table
from rebootspec.generators.hosts.vscode.big import BulkySession
from rebootspec.generators.hosts.vscode.plan import Plan
from rebootspec.generators.hosts.vscode.player import Player
from rebootspec.generators.hosts.vscode.randomized import long_session_steps
from rebootspec.generators.hosts.vscode.texts import Labels
from rebootspec.generators.hosts.vscode.writer import REWRITE_AFTER, LogWriter

SHAPES = ("rewritten", "appended")
NEVER = 10**12  # a rewrite threshold no log reaches


@dataclass
class _BulkyPlayer(Player):
    def __post_init__(self) -> None:
        super().__post_init__()
        self.session = BulkySession(
            self.era, era_table.manual(), self.rng, self.marker_kind or self.era.marker_kind
        )


def session(
    shape: str, size_mb: float, seed: int = 1, era_id: str = "compacted-summaries"
) -> bytes:
    """A log of at least `size_mb` MB of the given shape: the corpus's random long-session plans
    played on a session whose tools print a lot, until the file is big enough."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}")
    era = era_table.era(era_id)
    rng = random.Random(seed)
    rewrite_after = REWRITE_AFTER if shape == "rewritten" else NEVER
    player = _BulkyPlayer(era, seed, save_rate=0.7, writer=LogWriter(rewrite_after=rewrite_after))
    target = int(size_mb * 2**20)
    for step in long_session_steps(rng, Labels(rng), 100_000, manual=False):
        if len(player.writer.data) >= target:
            break
        player.play(Plan((step,), era.summary_field))
    return player.bytes("jsonl")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.shapes", description=__doc__)
    parser.add_argument("--shape", choices=SHAPES, default="rewritten")
    parser.add_argument("--size-mb", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args: Any = parser.parse_args(argv)
    data = session(args.shape, args.size_mb, args.seed)
    args.out.write_bytes(data)
    print(f"wrote {args.out}: {args.shape}, {len(data) / 2**20:.0f} MB, {data.count(10)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
