"""Big Qwen Code transcripts and Cline task folders, for the benchmark (never committed).

The hosts of the last round (issue 45) have no big-file writer in the generators; these play
their writer models (`rebootspec.generators.hosts.qwen_code`, `...cline`) on a long plan until
the files reach the asked size, as `generators/hosts/big.py` does for the first four hosts. The
count is the plan's (`expected_reboots`, `expected`), never the reference's.

- Qwen Code: turns with shell calls, an automatic compression every tenth step; each
  compression record carries the whole compressed history (`compressedHistory`), so the file
  grows like a Gemini CLI chat.
- Cline: a task folder (`ui_messages.json`, `api_conversation_history.json`,
  `task_metadata.json`) of era L2, turns with tool calls and an auto-compact every tenth step;
  the two message arrays are single JSON documents, written whole (`JSON.stringify`).

    python -m benchmarks.bighosts --host qwen-code --size-mb 25 --out /tmp/qwen.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rebootspec.generators.hosts.cline import plan as cline_plan
from rebootspec.generators.hosts.cline import writer as cline
from rebootspec.generators.hosts.cline.scenarios import VERSIONS
from rebootspec.generators.hosts.qwen_code import plan as qwen_plan
from rebootspec.generators.hosts.qwen_code import writer as qwen


def write_big_qwen(path: Path, size_mb: float, seed: int = 1) -> int:
    """A Q1 transcript of about `size_mb` MB; returns its expected count (the plan's)."""
    goal = int(size_mb * 1_000_000)
    steps: list[qwen_plan.QwenTurn | qwen_plan.QwenCompress] = []
    session = qwen.QwenSession(qwen_plan.QwenPlan("Q1", seed=seed))
    written = 0
    with path.open("wb") as out:
        while written < goal:
            if len(steps) % 10 == 9:
                compress = qwen_plan.QwenCompress("auto")
                steps.append(compress)
                session.compress(compress)
            else:
                turn = qwen_plan.QwenTurn(tools=2)
                steps.append(turn)
                session.turn(turn)
            for data in session.out:
                out.write(data)
                written += len(data)
            session.out.clear()
    return qwen_plan.expected_reboots(qwen_plan.QwenPlan("Q1", tuple(steps), seed=seed))


def _cline_plan(steps: int) -> cline_plan.TaskPlan:
    chosen: list[cline_plan.Step] = [
        cline_plan.AutoCompact() if index % 10 == 9 else cline_plan.Turn(tools=3)
        for index in range(steps)
    ]
    return cline_plan.TaskPlan(
        member=cline_plan.CLINE, era="L2", steps=tuple(chosen), version=VERSIONS["L2"]
    )


def write_big_cline(folder: Path, size_mb: float) -> tuple[Path, int]:
    """A Cline task folder of about `size_mb` MB in all; (its ui_messages.json, the count)."""
    goal = size_mb * 1_000_000
    steps = 20
    files = cline.play(_cline_plan(steps))
    while sum(map(len, files.values())) < goal:  # the size grows about linearly with the steps
        size = sum(map(len, files.values()))
        steps = max(steps + 10, int(steps * goal / size * 1.02))
        files = cline.play(_cline_plan(steps))
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    outcome, reboots = cline_plan.expected(_cline_plan(steps))
    assert outcome == "count" and isinstance(reboots, int), (outcome, reboots)
    return folder / "ui_messages.json", reboots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bighosts", description=__doc__)
    parser.add_argument("--host", choices=("qwen-code", "cline"), required=True)
    parser.add_argument("--size-mb", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="the .jsonl file (Qwen) or folder (Cline)")
    args = parser.parse_args(argv)
    if args.host == "qwen-code":
        reboots = write_big_qwen(Path(args.out), args.size_mb, args.seed)
    else:
        _, reboots = write_big_cline(Path(args.out), args.size_mb)
    print(reboots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
