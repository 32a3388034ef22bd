"""Big sessions of the two shapes a real log has, for the benchmark (never committed).

- *rewritten*: VS Code's writer rewrites the file (one kind-0 line with the whole state) after
  every 1024 entries, so a big log is mostly one long line plus a tail of patches
  (`generators.big`, unchanged).
- *appended*: a log that never reached the rewrite threshold since its state was written, so
  everything after the first line is patches: many lines, the state never written whole. Here
  the writer is simply never allowed to rewrite.

    python -m benchmarks.shapes --shape appended --size-mb 100 --out /tmp/appended.jsonl
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from generators import eras as era_table
from generators.big import BulkyPlayer, big_session
from generators.plan import Plan
from generators.randomized import long_session_steps
from generators.texts import Labels
from generators.writer import LogWriter

SHAPES = ("rewritten", "appended")
NEVER = 10**12  # a rewrite threshold no log reaches


def appended_session(size_mb: float, seed: int = 1, era_id: str = "compacted-summaries") -> bytes:
    """A log of at least `size_mb` MB written without any rewrite after its first line."""
    era = era_table.era(era_id)
    rng = random.Random(seed)
    player = BulkyPlayer(era, seed, save_rate=0.7, writer=LogWriter(rewrite_after=NEVER))
    target = int(size_mb * 2**20)
    for step in long_session_steps(rng, Labels(rng), 100_000, manual=False):
        if len(player.writer.data) >= target:
            break
        player.play(Plan((step,), era.summary_field))
    return player.bytes("jsonl")


def session(shape: str, size_mb: float, seed: int = 1) -> bytes:
    if shape == "rewritten":
        return big_session(size_mb, seed)[0]
    if shape == "appended":
        return appended_session(size_mb, seed)
    raise ValueError(f"unknown shape {shape!r}")


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
