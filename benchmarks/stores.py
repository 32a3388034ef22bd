"""The opencode reader against the orjson floor, on a big generated store (issue 24).

An opencode store is a SQLite database of rows whose `data` column holds JSON: the floor
(the least a counter that looks at every record does) copies the database with its WAL, as the
reader must (OPC-1: never open the input in place), and orjson-parses the `data` of every
message and part row. The contender is `rebootspec count DB SESSION` (the reference, one
process). Both are measured as whole processes, interleaved, best of `--repeat`; a tiny store
of the same era gives the start-up that the "less start-up" ratio subtracts. Target (a ratio,
never pass/fail): reader / floor at most 0.5.

    python -m benchmarks.stores                 # about 25 MB
    python -m benchmarks.stores --prompts 10000 --repeat 5
    python -m benchmarks.stores --era K1         # Kilo's store (opencode's format, KLO-1)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.run import PYCACHE, ROOT, _run_once

TARGET = 0.5
FLOOR = """
import shutil, sqlite3, sys, tempfile, os, orjson
db = sys.argv[1]
with tempfile.TemporaryDirectory() as folder:
    for suffix in ("", "-wal"):
        if os.path.exists(db + suffix):
            shutil.copyfile(db + suffix, os.path.join(folder, "opencode.db" + suffix))
    con = sqlite3.connect(os.path.join(folder, "opencode.db"))
    n = 0
    for table in ("message", "part"):
        for (data,) in con.execute(f"SELECT data FROM {table}"):
            orjson.loads(data)
            n += 1
    con.close()
print(n)
"""


def write_store(folder: Path, prompts: int, era: str = "O3") -> tuple[Path, str, int]:
    """A one-session store of `era` (O3: opencode.db; K1: Kilo's kilo.db, the same format):
    `prompts` prompts of three tool calls, a compaction every 50 (the plan's count); returns
    the database, the session and the expected count."""
    from rebootspec.generators.hosts.opencode.files import render
    from rebootspec.generators.hosts.opencode.plan import OcCompact, OcPrompt, OcSession, OcStore

    steps: list[OcPrompt | OcCompact] = []
    for index in range(prompts):
        steps.append(OcPrompt(tools=3))
        if index % 50 == 49:
            steps.append(OcCompact())
    files = render(OcStore(era, (OcSession(tuple(steps)),)))
    for name, data in files.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    assert files.session is not None
    return folder / files.input, files.session, prompts // 50


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stores", description=__doc__)
    parser.add_argument("--prompts", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--era", choices=("O3", "K1"), default="O3", help="K1: Kilo's store")
    args = parser.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=PYCACHE)
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-stores-") as scratch:
        big, session, expected = write_store(Path(scratch) / "big", args.prompts, args.era)
        tiny, tiny_session, _ = write_store(Path(scratch) / "tiny", 1, args.era)
        size = sum(p.stat().st_size for p in big.parent.iterdir()) / 2**20
        python = sys.executable
        count = [python, "-m", "rebootspec.reference", "count"]
        named = {
            "floor": ([python, "-c", FLOOR, str(big)], [python, "-c", FLOOR, str(tiny)]),
            "reader": ([*count, str(big), session], [*count, str(tiny), tiny_session]),
        }
        best: dict[str, tuple[float, float, float]] = {}
        for argv_big, argv_tiny in named.values():  # warm the caches
            _run_once(argv_big, env, ROOT)
            _run_once(argv_tiny, env, ROOT)
        answer = subprocess.run(
            named["reader"][0], env=env, cwd=ROOT, capture_output=True, text=True, check=False
        )
        got = json.loads(answer.stdout)["reboots"] if answer.returncode == 0 else answer.stderr
        print(f"the reader's count {got}, the plan's {expected}")
        for _ in range(args.repeat):
            for name, (argv_big, argv_tiny) in named.items():
                seconds, peak, _ = _run_once(argv_big, env, ROOT)
                start = _run_once(argv_tiny, env, ROOT)[0]
                old = best.get(name)
                if old is None or seconds < old[0]:
                    best[name] = (seconds, min(start, old[1]) if old else start, peak)
    floor, reader = best["floor"], best["reader"]
    label = "kilo (K1 database)" if args.era == "K1" else "opencode (O3 database)"
    ratio = reader[0] / floor[0]
    work = (reader[0] - reader[1]) / max(floor[0] - floor[1], 1e-9)
    print(
        "| host | store MB | reboots (plan) | reader / floor | less start-up | peak RSS MB "
        "reader / floor |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| {label} | {size:.0f} | {expected} | {ratio:.2f}x | {work:.2f}x "
        f"| {reader[2]:.0f} / {floor[2]:.0f} |"
    )
    met = "met" if ratio <= TARGET else "NOT met"
    print(f"{label} {size:.0f} MB: reader / floor {ratio:.2f}x, target <= {TARGET}x: {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
