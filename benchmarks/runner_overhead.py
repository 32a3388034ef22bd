"""What the conformance runner costs per case over a bare spawn of the same candidate (issue 14).

For each candidate (`true`, and the reference as a subprocess) it times, in the same run and
on the same cases:

- *bare*: `subprocess.run(argv + [input])`, one case after another;
- *engine*: the runner's `check_case` (private copy in an empty folder, allowlisted
  environment, process tree kill and reap, classification), one case after another;
- *bare xN*: N bare spawns at a time (a thread pool), N = the number of CPUs;
- *pytest serial* and *pytest -n auto*: a whole `rebootspec run` on those cases
  (pytest and plugin start-up included; wall clock divided by the number of cases).

It prints milliseconds per case and the ratios: engine/bare (and the difference, the
per-case overhead; the aim is at most 10 ms), `-n auto`/serial, and which worker count to use.

    python -m benchmarks.runner_overhead [--cases 60] [--repeat 3] [--skip-pytest]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from rebootspec.conformance import DEFAULT_CORPUS, PACKAGE_DIR
from rebootspec.conformance.runner.answers import JsonPointerReader
from rebootspec.conformance.runner.candidates import CommandCandidate
from rebootspec.conformance.runner.corpus import Case, load_corpus
from rebootspec.conformance.runner.profiles import load_profile
from rebootspec.conformance.runner.records import check_case
from rebootspec.conformance.runner.snapshots import read_expectation

REPO_ROOT = Path(__file__).resolve().parents[1]


def _best(repeat: int, action: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def bare(argv: list[str], cases: list[Case]) -> None:
    for case in cases:
        subprocess.run(
            [*argv, str(case.input)], capture_output=True, stdin=subprocess.DEVNULL, check=False
        )


def bare_parallel(argv: list[str], cases: list[Case], workers: int) -> None:
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda c: bare(argv, [c]), cases))


def engine(argv: list[str], cases: list[Case]) -> None:
    candidate = CommandCandidate(tuple(argv))
    profile = load_profile(None, [])
    for case in cases:
        check_case(
            case,
            candidate=candidate,
            reader=JsonPointerReader(),
            expected=read_expectation(case.id),
            profile=profile,
            divergence=None,
            timeout=30,
        )


def pytest_run(argv: list[str], corpus: Path, workers: str | None) -> None:
    command = [
        sys.executable,
        "-m",
        "rebootspec.conformance",
        "run",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    command += ["--corpus", str(corpus), "--candidate", " ".join(argv)]
    command += ["-n", workers] if workers else ["-p", "no:xdist"]
    subprocess.run(command, capture_output=True, cwd=REPO_ROOT, check=False)


def subset_corpus(cases: list[Case], folder: Path) -> Path:
    for case in cases:
        shutil.copytree(case.input.parent, folder / case.id)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.runner_overhead")
    parser.add_argument("--cases", type=int, default=60, help="how many corpus cases (smallest)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many (default 3)")
    parser.add_argument("--skip-pytest", action="store_true", help="only bare and engine")
    options = parser.parse_args(argv)
    cases = sorted(load_corpus(DEFAULT_CORPUS), key=lambda c: (c.input.stat().st_size, c.id))
    cases = sorted(cases[: options.cases], key=lambda c: c.id)
    n = len(cases)
    cpus = os.cpu_count() or 1
    candidates = {
        "true": [shutil.which("true") or "true"],
        "reference": [sys.executable, "-m", "rebootspec.reference", "count"],
    }
    print(f"{n} cases (the smallest of {DEFAULT_CORPUS.name}/), best of {options.repeat}; "
          f"{cpus} CPUs; times in ms per case")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="runner-overhead-") as tmp:
        corpus = subset_corpus(cases, Path(tmp) / "fixtures")
        verdicts = []
        for name, command in candidates.items():
            t_bare = _best(options.repeat, partial(bare, command, cases)) / n * 1000
            t_engine = _best(options.repeat, partial(engine, command, cases)) / n * 1000
            t_par = _best(options.repeat, partial(bare_parallel, command, cases, cpus)) / n * 1000
            print(f"\n{name}: {' '.join(command)}")
            print(f"  bare spawn, serial      {t_bare:8.2f}")
            print(f"  runner engine, serial   {t_engine:8.2f}   x{t_engine / t_bare:.2f} of bare; "
                  f"overhead {t_engine - t_bare:+.2f} ms per case")  # fmt: skip
            print(f"  bare spawn, x{cpus:<2}        {t_par:8.2f}   x{t_par / t_bare:.2f} of serial")
            if options.skip_pytest:
                continue
            repeat = max(1, options.repeat - 1)
            t_serial = _best(repeat, partial(pytest_run, command, corpus, None)) / n * 1000
            t_auto = _best(repeat, partial(pytest_run, command, corpus, "auto")) / n * 1000
            print(f"  pytest run, serial      {t_serial:8.2f}   x{t_serial / t_bare:.2f} of bare")
            ratios = f"x{t_auto / t_par:.2f} of bare x{cpus}; x{t_auto / t_serial:.2f} of serial"
            print(f"  pytest run, -n auto     {t_auto:8.2f}   {ratios}")
            verdicts.append((name, t_serial, t_auto))
    if verdicts:
        print()
        for name, serial, auto in verdicts:
            better = "-n auto" if auto <= serial else "serial (-p no:xdist)"
            print(f"{name}: use {better} ({n} cases: serial {serial * n / 1000:.1f} s, "
                  f"-n auto {auto * n / 1000:.1f} s)")  # fmt: skip
    print(f"(package: {PACKAGE_DIR})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
