"""What one `rebootspec count` costs before it reads a byte: start-up against bare Python.

A subprocess candidate pays start-up once per corpus case, and a script that counts many
sessions pays it once per file, so start-up is most of what a small log costs. Measured in the
same run, interleaved round by round so that a busy machine slows every command alike:

- `python -c pass` (the floor) and `python -c "import orjson"` (the one dependency the count
  cannot do without);
- `rebootspec count` (the entry point, `conformance/cli.py`, then the reference's CLI) and
  `python -m rebootspec.reference count`, on a hand-written 3-request log;

each as milliseconds (best and median) and as the ratio of its best to bare Python's best (the
best is what the machine can do; the median shows how busy it was). Then an `-X importtime`
budget of `rebootspec count`: the modules with the most import time of their own (best of 5),
and the total per top-level package. With `--corpus` it also times whole `rebootspec run`s
over the corpus: the in-process reference (the default), the reference as a subprocess, and a
trivial shell candidate (the runner's floor). Ratios, never pass/fail: a speed target lives
here, not in a timed test.

    python -m benchmarks.startup [--rounds 20] [--top 15] [--corpus]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import orjson

# Three requests, two summaries: two reboots (CNT-2); small enough that only start-up shows.
TINY_REQUESTS = [
    {"requestId": "r0", "message": {"text": "one"}, "response": []},
    {
        "requestId": "r1",
        "message": {"text": "two"},
        "response": [],
        "result": {"metadata": {"summary": {"toolCallRoundId": "t1", "text": "A"}}},
    },
    {
        "requestId": "r2",
        "message": {"text": "three"},
        "response": [],
        "result": {"metadata": {"summary": {"toolCallRoundId": "t2", "text": "B"}}},
    },
]


def tiny_log(folder: Path) -> Path:
    path = folder / "tiny.jsonl"
    line = {"kind": 0, "v": {"version": 3, "requests": TINY_REQUESTS}}
    path.write_bytes(orjson.dumps(line) + b"\n")
    return path


def _environment() -> dict[str, str]:
    """As an installed rebootspec runs: bytecode cached (outside the tree). With
    PYTHONDONTWRITEBYTECODE set, every start would compile each changed module again, which an
    installed package never does."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="startup-pycache-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


ENV = _environment()


def entry_point() -> list[str]:
    """The installed `rebootspec` script beside this Python, else the module that backs it."""
    script = Path(sys.executable).with_name("rebootspec")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "rebootspec.conformance"]


def commands(log: Path) -> dict[str, list[str]]:
    python, path = sys.executable, str(log)
    return {
        "python -c pass": [python, "-c", "pass"],
        'python -c "import orjson"': [python, "-c", "import orjson"],
        "rebootspec count": [*entry_point(), "count", path],
        "python -m rebootspec.reference count": [
            python,
            "-m",
            "rebootspec.reference",
            "count",
            path,
        ],
    }


def timed(argv: list[str], cwd: Path | None = None) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, cwd=cwd, check=False, env=ENV)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-300:]!r}")
    return elapsed


def start_up_table(log: Path, rounds: int) -> None:
    chosen = commands(log)
    times: dict[str, list[float]] = {name: [] for name in chosen}
    for argv in chosen.values():  # warm the file cache and .pyc files
        timed(argv)
    for _ in range(rounds):
        for name, argv in chosen.items():
            times[name].append(timed(argv))
    floor = min(times["python -c pass"])
    print(f"start-up, {rounds} rounds interleaved (ms; ratio = best / bare Python's best)")
    print(f"  {'command':<40} {'best':>8} {'median':>8} {'ratio':>7}")
    for name, values in times.items():
        best, median = min(values) * 1000, statistics.median(values) * 1000
        print(f"  {name:<40} {best:8.1f} {median:8.1f} {best / 1000 / floor:6.2f}x")
    print(f"  (rebootspec: {' '.join(entry_point())})")


def import_times(argv: list[str]) -> list[tuple[str, int, int]]:
    """(module, own µs, cumulative µs) of every import `-X importtime` reports for `argv`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:") :].split("|")
        rows.append((name.strip(), int(own), int(cumulative)))
    return rows


def budget_table(log: Path, top: int) -> None:
    argv = ["-m", "rebootspec.conformance.cli", "count", str(log)]
    import_times(argv)  # write the bytecode cache
    runs = [import_times(argv) for _ in range(5)]
    own: dict[str, list[int]] = defaultdict(list)
    for rows in runs:
        for name, micros, _ in rows:
            own[name].append(micros)
    best: dict[str, float] = {name: min(values) for name, values in own.items()}
    total = sum(best.values())
    print(f"\n-X importtime of `rebootspec count` (best of 5; own time, ms): {total / 1000:.1f}")
    print(f"  {'module':<44} {'own':>7} {'share':>6}")
    for name, us in sorted(best.items(), key=lambda item: -item[1])[:top]:
        print(f"  {name:<44} {us / 1000:7.2f} {us / total:6.1%}")
    packages: dict[str, float] = defaultdict(float)
    for name, us in best.items():
        root = name.split(".")[0]
        if root == "rebootspec":
            root = ".".join(name.split(".")[:2])
        packages[root] += us
    print("  by top-level package (ms):")
    for root, us in sorted(packages.items(), key=lambda item: -item[1])[:top]:
        print(f"    {root:<42} {us / 1000:7.2f}")


def corpus_runs() -> None:
    """Whole `rebootspec run`s over the bundled corpus, wall clock."""
    sh = shutil.which("sh") or "/bin/sh"
    reference = f"{' '.join(entry_point())} count"
    serial = ["-p", "no:xdist"]
    runs = {
        "in-process reference (default)": serial,
        "rebootspec count (subprocess)": ["--candidate", reference, *serial],
        "rebootspec count (subprocess), -n auto": ["--candidate", reference, "-n", "auto"],
        "python -m rebootspec.reference count": [
            "--candidate",
            f"{sys.executable} -m rebootspec.reference count",
            *serial,
        ],
        "sh printing a count (runner's floor)": [
            "--candidate",
            f"{sh} -c 'echo {{\"reboots\": 0}}'",
            *serial,
        ],
    }
    print("\nrebootspec run over the whole corpus (s; the shell one fails most cases)")
    with tempfile.TemporaryDirectory(prefix="startup-run-") as folder:
        for name, extra in runs.items():
            argv = [*entry_point(), "run", "-q", "-p", "no:cacheprovider", *extra]
            started = time.perf_counter()
            subprocess.run(argv, capture_output=True, cwd=folder, check=False, env=ENV)
            print(f"  {name:<40} {time.perf_counter() - started:7.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup")
    parser.add_argument("--rounds", type=int, default=20, help="timings per command (20)")
    parser.add_argument("--top", type=int, default=15, help="rows of the import budget (15)")
    parser.add_argument("--corpus", action="store_true", help="also time whole corpus runs")
    options = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]} ({sys.executable}); {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="startup-") as folder:
        log = tiny_log(Path(folder))
        start_up_table(log, options.rounds)
        budget_table(log, options.top)
    if options.corpus:
        corpus_runs()
    return 0


if __name__ == "__main__":
    sys.exit(main())
