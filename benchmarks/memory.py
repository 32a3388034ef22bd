"""Peak memory on single-line logs: the ERR-8 memory bound, measured, not timed in a test.

    python -m benchmarks.memory                 # 200 MB, both shapes
    python -m benchmarks.memory --size-mb 20    # a quick look

ERR-8 says a counter holds the final state and one line at a time, so its peak is a small
multiple of the longest line plus the final state. The worst inputs for that are logs that are
one long line: *one-string* (a kind-0 line whose only weight is one huge string in a response
part) and *small-objects* (a kind-0 line whose weight is hundreds of thousands of tiny objects in
a part, which a parser turns into many Python objects). For each, in one run, this prints the
peak RSS of the orjson floor (parse the line, nothing else), of `reference count` (the fast path,
chosen for files this big) and of `reference count --readable`, each as its own process (peak
from `wait4`), as multiples of the file's size and of the floor's peak.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from benchmarks.run import _run_once

ROOT = Path(__file__).resolve().parent.parent
REQUEST_HEAD = (
    b'{"requestId":"request_1","timestamp":1767000000000,"message":{"text":"go","parts":[]},'
    b'"result":{"metadata":{"summary":{"toolCallRoundId":"r","text":"Summary A"}}},'
    b'"response":[{"kind":"progressTaskSerialized","content":{"value":"Compacted conversation"}},'
)


def write_one_string(path: Path, size: int) -> None:
    with path.open("wb") as out:
        out.write(b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[' + REQUEST_HEAD)
        out.write(b'{"value":"')
        chunk = b"lorem ipsum dolor sit amet " * 4096
        written = 0
        while written < size:
            out.write(chunk)
            written += len(chunk)
        out.write(b'"}]}]}}\n')


def write_small_objects(path: Path, size: int) -> None:
    with path.open("wb") as out:
        out.write(b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[' + REQUEST_HEAD)
        out.write(b'{"kind":"treeData","items":[')
        item = b'{"a":1,"b":[2,3],"c":"x"},'
        batch = item * 4096
        written = 0
        while written < size:
            out.write(batch)
            written += len(batch)
        out.write(b'{"a":0}]}]}]}}\n')


SHAPES = {"one-string": write_one_string, "small-objects": write_small_objects}


def measure(path: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    python = sys.executable
    contenders = {
        "floor": [python, "-m", "benchmarks.floor", str(path)],
        "fast": [python, "-m", "rebootspec.reference", "count", str(path)],
        "readable": [python, "-m", "rebootspec.reference", "count", "--readable", str(path)],
    }
    peaks = {}
    for name, argv in contenders.items():
        _, peak_mb, code = _run_once(argv, env, ROOT)
        if code != 0:
            raise SystemExit(f"{name} exited {code} on {path}")
        peaks[name] = peak_mb
    return peaks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__)
    parser.add_argument("--size-mb", type=float, default=200.0)
    args = parser.parse_args(argv)
    size = int(args.size_mb * 2**20)
    print(
        f"{'shape':<14} {'file MB':>8} {'floor MB':>9} {'fast MB':>8} {'readable MB':>12}"
        f" {'fast/file':>10} {'readable/file':>14} {'fast/floor':>11} {'readable/floor':>15}"
    )
    with tempfile.TemporaryDirectory(prefix="rebootspec-memory-") as folder:
        for shape, write in SHAPES.items():
            path = Path(folder) / f"{shape}.jsonl"
            write(path, size)
            mb = path.stat().st_size / 2**20
            peaks = measure(path)
            print(
                f"{shape:<14} {mb:>8.0f} {peaks['floor']:>9.0f} {peaks['fast']:>8.0f}"
                f" {peaks['readable']:>12.0f} {peaks['fast'] / mb:>9.2f}x"
                f" {peaks['readable'] / mb:>13.2f}x {peaks['fast'] / peaks['floor']:>10.2f}x"
                f" {peaks['readable'] / peaks['floor']:>14.2f}x"
            )
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
