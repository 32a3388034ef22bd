"""What `rebootspec count`, `whoami` and `hook` of a small file cost as whole processes, vs bare
Python.

A status line or a hook calls these on every render or every turn, so the target (issues #34,
#45) is at most 2x `python -c pass`, start-up included. Measured in one run, interleaved round by
round (a busy machine slows every command alike), paired: each run of a command is timed right
after a run of bare Python, its ratio is the one over the other, and the table prints the median
of those ratios with their spread (the middle half of the rounds, and the least and most), with
the best and median milliseconds. A ratio, never pass/fail: no timed test. `--against PYTHON`
measures another install too (a venv of the last release's wheel), in the same rounds.

Measure an installed wheel, never an editable install: its import hook (`__editable___*_finder`)
imports pathlib and `re` into every process, bare Python's too, so the ratios would flatter.
`--fresh-venv` (what `tox -e bench-startup` runs) builds a wheel of this checkout, installs it
into a new virtual environment whose pip is first upgraded to the current release, and measures
there: the console script is the one today's pip writes. pip 23.2's script imported `re` (its
`sys.argv[0]` clean-up was a `re.sub`), 26.3's does not; the run prints the pip version and
whether the script imports `re` (from `-X importtime` of the script's `whoami`, whose own path
imports none: tests/reference/test_startup_imports.py).

The sessions are corpus cases copied into a private fake home (Codex by `CODEX_THREAD_ID`, the
id looked up in the stores; pi by `PI_SESSION_FILE`, no lookup; a Codex hook's JSON naming the
rollout), the way a host's shell tool or hook calls them. `python -m rebootspec.reference
count` is measured too (it pays `runpy`'s imports instead of the script's).

    python -m benchmarks.whoami [--rounds 20] [--fresh-venv] [--against PYTHON]
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
from pathlib import Path

import orjson

from .startup import ENV, entry_point

ROOT = Path(__file__).resolve().parents[1]
CODEX_CASE = "V8MB"  # a small Codex rollout, one reboot
PI_CASE = "WVNH"  # a small pi session, one reboot
CODEX_ID = "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b"
PI_ID = "7eb0cddb-8209-448f-8553-6181b3013229"


def fake_home(folder: Path) -> tuple[Path, Path]:
    """A home with one Codex rollout and one pi session; (the rollout, the pi file)."""
    codex = folder / ".codex" / "sessions" / "2026" / "03" / "01"
    codex.mkdir(parents=True)
    rollout = codex / f"rollout-2026-03-01T10-00-00-{CODEX_ID}.jsonl"
    shutil.copyfile(ROOT / "fixtures" / CODEX_CASE / "session.jsonl", rollout)
    pi = folder / ".pi" / "agent" / "sessions" / "--home-me-proj--"
    pi.mkdir(parents=True)
    session = pi / f"2026-03-02T10-00-04-000Z_{PI_ID}.jsonl"
    shutil.copyfile(ROOT / "fixtures" / PI_CASE / "session.jsonl", session)
    return rollout, session


def commands(
    home: Path, rollout: Path, session: Path, python: str | None = None
) -> dict[str, tuple[list[str], dict[str, str], bytes]]:
    """name: (argv, environment, stdin) of each command, bare Python's first; of this Python's
    install, or of the one `python` names (its console script beside it)."""
    base = {k: v for k, v in ENV.items() if not k.startswith(("CODEX_", "PI_", "CLAUDE_"))}
    base["HOME"] = str(home)
    python = python or sys.executable
    rebootspec = (
        entry_point() if python == sys.executable else [str(Path(python).parent / "rebootspec")]
    )
    hook = orjson.dumps({"session_id": CODEX_ID, "transcript_path": str(rollout)})
    listed = {
        "python -c pass": ([python, "-c", "pass"], base),
        "rebootspec count (codex rollout)": ([*rebootspec, "count", str(rollout)], base),
        "python -m rebootspec.reference count": (
            [python, "-m", "rebootspec.reference", "count", str(rollout)],
            base,
        ),
        "rebootspec whoami (CODEX_THREAD_ID)": (
            [*rebootspec, "whoami", "--field", "reboots"],
            {**base, "CODEX_THREAD_ID": CODEX_ID},
        ),
        "rebootspec whoami (PI_SESSION_FILE)": (
            [*rebootspec, "whoami", "--field", "reboots"],
            {**base, "PI_SESSION_FILE": str(session), "PI_SESSION_ID": PI_ID},  # as pi sets both
        ),
    }
    chosen = {name: (argv, env, b"") for name, (argv, env) in listed.items()}
    chosen["rebootspec hook (codex transcript)"] = (
        [*rebootspec, "hook", "--field", "reboots"],
        base,
        hook,
    )
    return chosen


def installed_how() -> str:
    """Whether the rebootspec measured is an editable install (its finder in site-packages)."""
    import glob
    import sysconfig

    purelib = sysconfig.get_paths()["purelib"]
    if glob.glob(os.path.join(purelib, "__editable__*rebootspec*")):
        return "an EDITABLE install: its import hook flatters every ratio; measure a wheel"
    return "an installed wheel (no editable import hook)"


def pip_version() -> str:
    """The version of the pip beside this Python (the one that wrote the console script)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pip")
    except PackageNotFoundError:
        return "none"


def script_imports_re(argv: list[str], env: dict[str, str]) -> str:
    """Whether the console script imports `re`, by `-X importtime` of its `whoami` (whose own
    path imports none, so any `re` is the script's)."""
    if argv[0] == sys.executable:
        return "no console script beside this Python (measured `python -m` instead)"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, env=env
    )
    names = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()}
    return "yes" if "re" in names else "no"


def fresh_venv(rounds: int, against: str | None) -> int:
    """Build a wheel of this checkout, install it into a new venv with pip upgraded to the
    current release, and run this benchmark there."""
    with tempfile.TemporaryDirectory(prefix="whoami-venv-") as folder:
        place = Path(folder)
        wheels = place / "wheels"
        print("building the wheel, and a venv with the current pip (from PyPI) ...", flush=True)
        python = str(place / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python")
        steps = [
            [sys.executable, "-m", "pip", "-q", "wheel", "--no-deps", "-w", str(wheels), str(ROOT)],
            [sys.executable, "-m", "venv", str(place / "venv")],
            [python, "-m", "pip", "-q", "install", "-U", "pip"],
        ]
        for step in steps:
            subprocess.run(step, check=True, stdout=subprocess.DEVNULL)
        wheel = next(wheels.glob("rebootspec-*.whl"))
        install = [python, "-m", "pip", "-q", "install", str(wheel)]
        subprocess.run(install, check=True, stdout=subprocess.DEVNULL)
        measured = [python, "-m", "benchmarks.whoami", "--rounds", str(rounds)]
        measured += ["--against", against] if against else []
        return subprocess.run(measured, cwd=ROOT, check=False).returncode


def timed(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, check=False, env=env)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-300:]!r}")
    return elapsed


def spread(values: list[float]) -> str:
    """The median ratio, the middle half of the rounds and the extremes."""
    ordered = sorted(values)
    quarter = len(ordered) // 4
    low, high = ordered[quarter], ordered[-1 - quarter]
    middle = statistics.median(ordered)
    return f"{middle:.2f}x [{low:.2f}-{high:.2f}] ({ordered[0]:.2f}-{ordered[-1]:.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--fresh-venv",
        action="store_true",
        help="measure a wheel of this checkout in a new venv with the current pip (PyPI)",
    )
    parser.add_argument(
        "--against",
        metavar="PYTHON",
        help="also measure the rebootspec installed for this Python (e.g. a venv with the "
        "last release's wheel), interleaved in the same rounds: a before and after",
    )
    args = parser.parse_args(argv)
    if args.fresh_venv:
        return fresh_venv(args.rounds, args.against)
    with tempfile.TemporaryDirectory(prefix="whoami-bench-") as folder:
        home = Path(folder)
        files = fake_home(home)
        chosen = commands(home, *files)
        script, script_env, _ = chosen["rebootspec whoami (CODEX_THREAD_ID)"]
        imports_re = script_imports_re(script, script_env)
        if args.against:
            other = commands(home, *files, python=args.against)
            del other["python -c pass"]  # one bare Python: this one
            chosen |= {f"{name} [against]": spec for name, spec in other.items()}
        times, ratios = measured(chosen, args.rounds)
    print(f"whole processes, {args.rounds} rounds interleaved; {installed_how()}")
    print(
        f"python {sys.version.split()[0]}, pip {pip_version()}; "
        f"the console script imports re: {imports_re}"
    )
    if args.against:
        print(f"[against]: the rebootspec installed for {args.against}")
    head = "ratio to the bare run just before: median [middle half] (min-max)"
    print(f"  {'command':<50} {'best ms':>8} {'median':>8}  {head}")
    for name, values in times.items():
        best, median = min(values) * 1000, statistics.median(values) * 1000
        print(f"  {name:<50} {best:8.1f} {median:8.1f}  {spread(ratios[name])}")
    print(f"  (rebootspec: {' '.join(entry_point())}; target: at most 2x, issues #34, #45)")
    return 0


Spec = tuple[list[str], dict[str, str], bytes]


def measured(
    chosen: dict[str, Spec], rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each command's times, and their ratios to a bare Python run made just before each (so
    that a load that changes within a round changes both sides of a ratio alike)."""
    bare = next(iter(chosen.values()))  # `python -c pass`
    times: dict[str, list[float]] = {name: [] for name in chosen}
    ratios: dict[str, list[float]] = {name: [] for name in chosen}
    for command, env, stdin in chosen.values():  # warm the file cache and the bytecode
        timed(command, env, stdin)
    load = os.getloadavg()[0]
    for _ in range(rounds):
        for name, (command, env, stdin) in chosen.items():
            floor = timed(*bare)
            elapsed = timed(command, env, stdin)
            times[name].append(elapsed)
            ratios[name].append(elapsed / floor)
    print(f"load {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    return times, ratios


if __name__ == "__main__":
    sys.exit(main())
