"""Measure the reference against baselines on the same files in one run, and print ratios.

Every contender runs as its own process, so its peak memory (RSS, from `wait4`) is its own and
nothing is cached between contenders. Each is run `--repeat` times; the fastest run counts
(the others measure the machine's noise, not the program). Absolute figures depend on the
machine; the ratios to the floor measured in the same run are what the targets are about.

    python -m benchmarks.run --sizes 25,50,100,200          # generates the inputs on demand
    python -m benchmarks.run --file big.jsonl --qhoami /tmp/qhoami
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_FLOOR_RATIO = 1.25  # the reference's time / the floor's time, at most
TARGET_NAIVE_SPEEDUP = 5.0  # the naive baseline's time / the reference's time, at least


@dataclass(frozen=True)
class Measure:
    contender: str
    size_mb: float
    seconds: float  # the whole process, start-up included
    startup: float  # the same program on a one-line session: interpreter, imports, exit
    peak_rss_mb: float
    exit_code: int

    @property
    def work(self) -> float:
        """The time the file itself cost: the whole run less the program's start-up."""
        return max(self.seconds - self.startup, 1e-9)


def _run_once(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """Wall time, peak RSS (MB) and exit code of one process."""
    started = time.perf_counter()
    process = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024, process.returncode


def contenders(path: Path, qhoami: Path | None) -> Iterator[tuple[str, list[str], dict[str, str]]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    python = sys.executable
    yield "floor (orjson parse only)", [python, "-m", "benchmarks.floor", str(path)], env
    yield "reference count", [python, "-m", "reference", "count", str(path)], env
    yield "naive (json, deepcopy)", [python, "-m", "benchmarks.naive", str(path)], env
    if qhoami is not None:
        yield "qhoami cli", *_qhoami(path, qhoami, env)


def _qhoami(path: Path, checkout: Path, env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    from conformance.presets import SESSION_ID, WORKSPACE_HASH, lay_session, user_dir

    home = Path(tempfile.mkdtemp(prefix="bench-qhoami-"))
    lay_session(path, user_dir(home))
    argv = ["node", str(checkout / "out" / "cli.js"), "--session-id", SESSION_ID]
    argv += ["--workspace-hash", WORKSPACE_HASH]
    return argv, dict(env, HOME=str(home))


TINY = b'{"kind":0,"v":{"requests":[]}}\n'


def startups(repeat: int, qhoami: Path | None) -> dict[str, float]:
    """Each contender's start-up: its best time on a one-line session, in this run."""
    with tempfile.TemporaryDirectory(prefix="bench-tiny-") as folder:
        tiny = Path(folder) / "tiny.jsonl"
        tiny.write_bytes(TINY)
        return {
            name: min(_run_once(argv, env, ROOT)[0] for _ in range(repeat * 3))
            for name, argv, env in contenders(tiny, qhoami)
        }


def measure(path: Path, repeat: int, qhoami: Path | None, start: dict[str, float]) -> list[Measure]:
    size_mb = path.stat().st_size / 2**20
    results = []
    for name, argv, env in contenders(path, qhoami):
        runs = [_run_once(argv, env, ROOT) for _ in range(repeat)]
        best = min(runs)
        peak = max(r[1] for r in runs)
        results.append(Measure(name, size_mb, best[0], start[name], peak, best[2]))
    return results


def table(results: list[Measure]) -> str:
    """A Markdown table: MB/s, time ratios to the floor of the same file, peak RSS."""
    floors = {m.size_mb: m for m in results if m.contender.startswith("floor")}
    lines = [
        "| file MB | contender | MB/s | time / floor | less start-up: time / floor "
        "| start-up ms | peak RSS MB | exit |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in results:
        floor = floors[m.size_mb]
        lines.append(
            f"| {m.size_mb:.0f} | {m.contender} | {m.size_mb / m.work:.0f} "
            f"| {m.seconds / floor.seconds:.2f}x | {m.work / floor.work:.2f}x "
            f"| {m.startup * 1000:.0f} | {m.peak_rss_mb:.0f} | {m.exit_code} |"
        )
    return "\n".join(lines)


def verdict(results: list[Measure]) -> list[str]:
    """The targets of the performance issue, checked on the largest file."""
    largest = max(m.size_mb for m in results)
    by_name = {m.contender: m for m in results if m.size_mb == largest}
    ref = by_name["reference count"]
    floor = by_name["floor (orjson parse only)"]
    naive = by_name["naive (json, deepcopy)"]
    lines = []
    for label, ref_time, floor_time, naive_time in (
        ("whole process", ref.seconds, floor.seconds, naive.seconds),
        ("less start-up", ref.work, floor.work, naive.work),
    ):
        floor_ratio = ref_time / floor_time
        speedup = naive_time / ref_time
        met_floor = "met" if floor_ratio <= TARGET_FLOOR_RATIO else "NOT met"
        met_naive = "met" if speedup >= TARGET_NAIVE_SPEEDUP else "NOT met"
        lines += [
            f"{label}: reference / floor on {largest:.0f} MB: {floor_ratio:.2f}x "
            f"(target <= {TARGET_FLOOR_RATIO}x): {met_floor}",
            f"{label}: naive / reference on {largest:.0f} MB: {speedup:.1f}x "
            f"(target >= {TARGET_NAIVE_SPEEDUP}x): {met_naive}",
        ]
    return lines


@contextmanager
def inputs(args: argparse.Namespace) -> Iterator[list[Path]]:
    """The files to measure: given ones, or big sessions generated on demand (not committed)."""
    if args.file:
        yield [Path(f) for f in args.file]
        return
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        paths = []
        for size in args.sizes:
            path = Path(folder) / f"big-{size}mb.jsonl"
            # In a child process: a parent that grew while generating would inflate the peak RSS
            # of every contender it forks afterwards (a forked child starts with its pages).
            command = [sys.executable, "-m", "generators", "big", "--size-mb", str(size)]
            command += ["--seed", str(args.seed), "--out", str(path)]
            subprocess.run(
                command, check=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT))
            )
            paths.append(path)
        yield paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--file", action="append", help="measure this file (repeatable)")
    parser.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[25, 50, 100, 200],
        help="sizes in MB of generated sessions (default 25,50,100,200)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--qhoami", type=Path, help="a qhoami checkout to measure too")
    args = parser.parse_args(argv)
    start = startups(args.repeat, args.qhoami)
    with inputs(args) as paths:
        results = [m for path in paths for m in measure(path, args.repeat, args.qhoami, start)]
    print(table(results))
    print()
    for line in verdict(results):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
