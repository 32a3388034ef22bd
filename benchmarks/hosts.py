"""The Codex, pi, Claude Code and Gemini CLI readers against the orjson floor, on big generated
logs (issue 22 item 7, issue 24).

For each host and size: a rollout or session written by the host's writer model on a long
plan (`python -m rebootspec.generators big-host`), then in the same rounds, each as its own
process: the *floor* (`benchmarks.floor`: read every line, orjson-parse it), the reference's
`count` (the host's fast path, `reference/hosts/<host>/fast.py`) and `count --readable` (the
definition). The fastest of `--repeat` rounds counts; peak RSS is the process's own; start-up
(the same program on a two-record log of that host) is subtracted for the "less start-up"
ratios. Targets (ratios, never pass/fail in a test): fast / floor at most 0.5 and fast peak
memory below the floor's, on 100 MB, at most 1x at 25 MB, and never slower than `--readable`
(issue 37; CPU times of paired rounds). All four hosts have a fast path (hosts/<host>/fast.py).

    python -m benchmarks.hosts                       # all four hosts, 25 and 100 MB
    python -m benchmarks.hosts --hosts pi --sizes 100 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.run import (
    FAST,
    FLOOR,
    NOISE,
    PYCACHE,
    READABLE,
    ROOT,
    TICKS,
    Measure,
    best_of,
    never_slower,
    paired,
    run_process,
)

TARGET_FAST_FLOOR_RATIO = 0.5
TARGET_MB = 100

TINY = {
    "codex": b'{"timestamp":"2026-03-01T10:00:00.000Z","type":"session_meta","payload":'
    b'{"id":"01a21063-d0e0-7e93-b95f-905668d942da","cli_version":"0.111.0"}}\n'
    b'{"timestamp":"2026-03-01T10:00:01.000Z","type":"compacted","payload":{"message":"s"}}\n',
    "pi": b'{"type":"session","version":3,"id":"s","timestamp":"2026-03-02T10:00:00.000Z"}\n'
    b'{"type":"compaction","id":"a","parentId":null,"timestamp":"2026-03-02T10:00:01.000Z"}\n',
    "claude-code": b'{"type":"user","uuid":"u1","sessionId":"s","isSidechain":false}\n'
    b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s"}\n',
    "gemini": b'{"sessionId":"s","projectHash":"p","kind":"main"}\n'
    b'{"$set":{"messages":[{"id":"c","type":"user","content":"<state_snapshot>x"}]}}\n',
}
# Every host of the benchmark: the first four have a fast path, the hosts of the last round
# (issue 45) are counted by their readable readers (Kilo's store: benchmarks/stores.py).
HOSTS = ("codex", "pi", "claude-code", "gemini", "qwen-code", "cline")
# The hosts with a fast path: its module (reference/hosts/<module>/fast.py).
FAST_MODULE = {"codex": "codex", "pi": "pi", "claude-code": "claude_code", "gemini": "gemini_cli"}
# A tiny log takes the readable path: the fast contender's start-up adds its host's imports.
FAST_STARTUP = (
    "import sys, reference.hosts.{module}.fast; from reference.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


def floor_inputs(path: Path) -> list[str]:
    """What the floor parses: the file, or for a Cline task both message documents (the
    reader reads both; CLN-1)."""
    if path.name == "ui_messages.json":
        return [str(path), str(path.with_name("api_conversation_history.json"))]
    return [str(path)]


def contenders(path: Path, host: str, tiny: Path) -> list[tuple[str, list[str], list[str]]]:
    """(name, argv on the big file, argv on the tiny file) of each contender."""
    python = sys.executable
    count = [python, "-m", "rebootspec.reference", "count"]
    floor = [python, "-m", "benchmarks.floor"]
    fast = [python, "-c", FAST_STARTUP.format(module=FAST_MODULE.get(host, "")), "count"]
    if host not in FAST_MODULE:  # no fast path: `count` is the readable reader
        fast = list(count)
    return [
        (FLOOR, [*floor, *floor_inputs(path)], [*floor, *floor_inputs(tiny)]),
        (FAST, [*count, str(path)], [*fast, str(tiny)]),
        (READABLE, [*count, "--readable", str(path)], [*count, "--readable", str(tiny)]),
    ]


def write_input(host: str, folder: Path, size_mb: float, seed: int) -> Path:
    """A big (or tiny) input of `host`: the generators' writers for the first four hosts,
    benchmarks/bighosts.py for Qwen Code and Cline (a task folder: its ui_messages.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    if host == "cline":
        from benchmarks.bighosts import write_big_cline

        return write_big_cline(folder / f"cline-{size_mb:g}mb", size_mb)[0]
    path = folder / f"{host}-{size_mb:g}mb.jsonl"
    if host == "qwen-code":
        from benchmarks.bighosts import write_big_qwen

        write_big_qwen(path, size_mb, seed)
        return path
    command = [sys.executable, "-m", "rebootspec.generators", "big-host"]
    command += ["--host", host, "--size-mb", str(size_mb), "--out", str(path)]
    command += ["--seed", str(seed)]
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return path


def input_mb(path: Path) -> float:
    """The input's size: a Cline task's files together."""
    if path.name == "ui_messages.json":
        return sum(p.stat().st_size for p in path.parent.iterdir()) / 2**20
    return path.stat().st_size / 2**20


def measure(host: str, path: Path, tiny: Path, repeat: int) -> list[Measure]:
    """Every contender `repeat` rounds, interleaved, each run followed by its start-up run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    named = contenders(path, host, tiny)
    runs: dict[str, list[tuple[float, float, int, float]]] = {name: [] for name, _, _ in named}
    starts: dict[str, list[tuple[float, float, int, float]]] = {name: [] for name, _, _ in named}
    for _, argv, small in named:  # warm the page cache and the bytecode cache
        run_process(argv, env, ROOT)
        run_process(small, env, ROOT)
    for _ in range(repeat):
        for name, argv, small in named:
            runs[name].append(run_process(argv, env, ROOT))
            starts[name].append(run_process(small, env, ROOT))
    size_mb = input_mb(path)
    return [best_of(name, host, size_mb, runs[name], starts[name]) for name, _, _ in named]


def answered(path: Path, host: str) -> str:
    """Whether the fast path answered the file itself (else why it gave up), and whether its
    answer is the readable path's."""
    if host not in FAST_MODULE:
        return "no fast path (the readable reader)"
    probe = (
        "import sys; from reference import count_path, FAST_FROM_BYTES; "
        "from reference.core import fast; fast.last_fallback = 'not taken (below its size)'; "
        "a = count_path(sys.argv[1]).to_json(); why = fast.last_fallback; "
        "b = count_path(sys.argv[1], readable=True).to_json(); "
        "print((why or 'yes') + ('' if a == b else ' (DIFFERENT ANSWER)'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        check=False,
    )
    return done.stdout.strip() or f"error: {done.stderr.strip()[-80:]}"


def summary(results: list[Measure], notes: dict[tuple[str, float], str]) -> str:
    by = {(m.shape, m.size_mb, m.contender): m for m in results}
    lines = [
        "| host | file MB | fast / floor | readable / floor | fast / floor less start-up "
        "| readable / floor less start-up | start-up ms floor / fast / readable "
        "| peak RSS MB fast / readable / floor | CPU fast / floor | CPU fast / readable "
        "| fast path answered |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for host, size in sorted({(m.shape, m.size_mb) for m in results}):
        floor, fast, readable = (by[host, size, c] for c in (FLOOR, FAST, READABLE))
        lines.append(
            f"| {host} | {size:.0f} | {fast.seconds / floor.seconds:.2f}x "
            f"| {readable.seconds / floor.seconds:.2f}x | {fast.work / floor.work:.2f}x "
            f"| {readable.work / floor.work:.2f}x "
            f"| {floor.startup * 1000:.0f} / {fast.startup * 1000:.0f} / "
            f"{readable.startup * 1000:.0f} "
            f"| {fast.peak_rss_mb:.0f} / {readable.peak_rss_mb:.0f} / {floor.peak_rss_mb:.0f} "
            f"| {fast.cpu / floor.cpu:.2f}x | {paired(fast, readable):.2f}x "
            f"| {notes.get((host, size), '?')} |"
        )
    return "\n".join(lines)


def verdict(results: list[Measure]) -> list[str]:
    by = {(m.shape, m.size_mb, m.contender): m for m in results}
    lines = []
    for host, size in sorted({(m.shape, m.size_mb) for m in results}):
        floor, fast, readable = (by[host, size, c] for c in (FLOOR, FAST, READABLE))
        ratio = paired(fast, readable)
        met = "met" if never_slower(fast, readable) else "NOT met"
        if host not in FAST_MODULE:
            met = "no fast path: both are the readable reader (the ratio is the noise)"
        lines.append(
            f"{host} {size:.0f} MB: fast / readable CPU {ratio:.2f}x (median of paired rounds), "
            f"never slower (within {NOISE:.0%} or {TICKS * 1000:.0f} ms): {met}"
        )
        if size < TARGET_MB * 0.9:
            target, what = 1.0, "at 25 MB"
        else:
            target, what = TARGET_FAST_FLOOR_RATIO, "at 100 MB"
        ratio = fast.seconds / floor.seconds
        met = "met" if ratio <= target else "NOT met"
        lines.append(
            f"{host} {size:.0f} MB: fast / floor {ratio:.2f}x (less start-up "
            f"{fast.work / floor.work:.2f}x, CPU {fast.cpu / floor.cpu:.2f}x), target <= "
            f"{target}x {what}: {met}"
        )
        if size < TARGET_MB * 0.9:
            continue
        met = "met" if fast.peak_rss_mb < floor.peak_rss_mb else "NOT met"
        lines.append(
            f"{host} {size:.0f} MB: fast peak {fast.peak_rss_mb:.0f} MB < floor peak "
            f"{floor.peak_rss_mb:.0f} MB: {met}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hosts", description=__doc__)
    parser.add_argument("--hosts", type=lambda s: s.split(","), default=list(HOSTS))
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[25, 100])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    results: list[Measure] = []
    notes: dict[tuple[str, float], str] = {}
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-hosts-") as folder:
        for host in args.hosts:
            if host in TINY:
                tiny = Path(folder) / f"tiny-{host}.jsonl"
                tiny.write_bytes(TINY[host])
            else:  # a host of the last round: its writer model's smallest file
                tiny = write_input(host, Path(folder) / "tiny", 0.002, args.seed)
            for size in args.sizes:
                path = write_input(host, Path(folder), size, args.seed)
                measured = measure(host, path, tiny, args.repeat)
                results += measured
                notes[host, measured[0].size_mb] = answered(path, host)
                print(f"measured {host} {size} MB", file=sys.stderr, flush=True)
                if path.name == "ui_messages.json":
                    shutil.rmtree(path.parent)
                else:
                    path.unlink()
    print(summary(results, notes))
    print()
    for line in verdict(results):
        print(line)
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
