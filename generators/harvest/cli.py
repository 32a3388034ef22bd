"""``python -m rebootspec.generators harvest``: real hosts write real session files.

One run (``--host --version --scenario --out``), a sweep over the pinned version list
(``--sweep``), or the registry's newest version (``--latest``, a drift check). Each run prints a
row: the compactions the script caused in the thread per the server log (the expectation) and
the reference's count of the thread's file, side by side. The reference is never the
expectation, and the generator never imports it: its column comes from a child process
(``REFERENCE_SNIPPET``), or from a function a caller injects (the tests do).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import sanitize, sweep
from .hosts import chat_loop
from .hosts.common import HarvestError, NotRunnable, latest
from .run import HOSTS, RunResult, harvest_one

ReferenceCount = Callable[..., str]  # (path) or (path, session) -> "N" | "reject:<code>"

# Run in a child process: "N" for a count, "reject:<code>" for a file the spec rejects. A second
# argument names the session inside a store of many (opencode's database or storage folder).
REFERENCE_SNIPPET = """
import sys
from rebootspec.reference import Rejection, count_path
try:
    if len(sys.argv) > 2:
        print(count_path(sys.argv[1], session=sys.argv[2]).reboots)
    else:
        print(count_path(sys.argv[1]).reboots)
except Rejection as error:
    print("reject:" + error.code)
"""
# Hosts whose store holds many sessions: the reference is asked about the thread's session.
STORES = ("opencode", "kilo")


def compaction_records(path: Path) -> int:
    """The primary records in a file, read the harvest's own simple way (one value a line).

    Not a counter: it sees copies too. It only tells when a host wrote records the script
    did not cause, which the row then says.
    """
    count = 0
    for raw in path.read_bytes().splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("type") in ("compaction", "compacted"):
            count += 1
        elif isinstance(value, dict) and _holds_snapshot(value.get("$set")):
            count += 1  # Gemini CLI: a history replacement that holds a snapshot (GEM-3)
        elif isinstance(value, dict) and _qwen_compression(value):
            count += 1  # Qwen Code 0.5+: a completed compression's system record
        elif isinstance(value, dict) and value.get("type") == "session.compaction_complete":
            data = value.get("data")  # the Copilot CLI: applied, of the main agent (CPL-3, CPL-5)
            applied = isinstance(data, dict) and data.get("success") is True
            count += int(applied and "agentId" not in value)
    return count


def _qwen_compression(value: dict[str, object]) -> bool:
    """A Qwen Code ``system``/``chat_compression`` record with ``compressionStatus`` 1."""
    if value.get("type") != "system" or value.get("subtype") != "chat_compression":
        return False
    payload = value.get("systemPayload")
    info = payload.get("info") if isinstance(payload, dict) else None
    return isinstance(info, dict) and info.get("compressionStatus") == 1


def _holds_snapshot(update: object) -> bool:
    """A Gemini CLI ``$set`` whose ``messages`` mention ``<state_snapshot>`` anywhere."""
    if not isinstance(update, dict) or not isinstance(update.get("messages"), list):
        return False
    return "<state_snapshot>" in json.dumps(update["messages"])


def expected_answer(caused: int, recorded: int) -> str:
    """The row's expectation: the compactions caused, or ``reject:E-UNMEASURABLE`` when the
    host caused some and its file records none (RBT-5; the rule harvest-cases applies)."""
    return "reject:E-UNMEASURABLE" if caused > 0 and recorded == 0 else str(caused)


def _host_differs(
    thread: dict[str, object], data: dict[str, object], recorded: int, answer: str
) -> bool:
    """An own thread whose failed summaries still left records, which the reference counts."""
    failed = data.get("failed_summaries")
    return (
        thread.get("role") == "own"
        and isinstance(failed, int)
        and failed > 0
        and recorded > int(str(thread["caused"]))
        and answer == str(recorded)
    )


def reference_by_process(path: Path, session: str = "") -> str:
    """The reference's answer for ``path`` (``N`` or ``reject:<code>``), from a child process;
    ``session`` names the session inside a store of many."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", REFERENCE_SNIPPET, str(path), *([session] if session else [])],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "error:timeout"
    if done.returncode != 0 or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"error:{last[:60]}"
    return done.stdout.strip().splitlines()[-1]


@dataclass(frozen=True)
class Row:
    """One thread of one run, as the table shows it."""

    host: str
    version: str
    scenario: str
    role: str
    file: str
    caused: str
    reference: str
    agree: str
    seconds: str
    note: str


def _rows(result: RunResult, reference: ReferenceCount) -> list[Row]:
    data = result.data
    timing = f"{result.seconds:.1f}" + (
        "" if result.warm else f" (+{result.install_seconds:.0f} install)"
    )
    if result.error:
        return [
            Row(
                result.host,
                result.version,
                result.scenario,
                "-",
                "-",
                "-",
                "-",
                "-",
                timing,
                f"error: {result.error}",
            )
        ]
    rows = []
    stores = sorted({result.out / t["file"] for t in data.get("threads", [])})
    leaks = sanitize.scan(sanitize.files(stores))
    note = "; ".join(data.get("notes") or [])
    if leaks:
        note = f"LEAK {leaks[0].what} in {leaks[0].path.name}:{leaks[0].line}; " + note
    for thread in data.get("threads", []):
        path = result.out / thread["file"]
        if result.host == "cline":  # a task or SDK session folder (CLN-12: one compaction
            # file keeps the latest only, so a compacted SDK session is unmeasurable)
            answer = reference(path)
            sdk = any(path.glob("*.compaction.json"))
            recorded = 0
            expected = "reject:E-UNMEASURABLE" if sdk else str(thread["caused"])
        elif result.host in STORES:  # one store, many sessions: ask about this thread's
            # A store's records are rows, not lines: the caused count is the expectation.
            answer = reference(path, str(thread["thread"]))
            recorded, expected = 0, str(thread["caused"])
        else:
            answer = reference(path)
            recorded = compaction_records(path)
            # The run's own answer when the driver gives one (a chat-loop chain that loops is
            # E-CHAIN, BCL-6), else the compactions caused, or E-UNMEASURABLE (RBT-5).
            expected = (
                str(thread["answer"])
                if "answer" in thread
                else expected_answer(int(str(thread["caused"])), recorded)
            )
        agree = "yes" if answer == expected else "no"
        row_note = note
        if expected != str(thread["caused"]) and result.host != "cline":
            row_note = f"no compaction recorded: unmeasurable (RBT-5); {note}".removesuffix("; ")
        if agree == "no" and _host_differs(thread, data, recorded, answer):
            # The host did something else than the scenario meant: it recorded a compaction
            # although every summary request failed. Say so; the file is what it is.
            agree = "host-differs"
            row_note = (
                f"the host recorded {recorded} compaction(s) although its summary requests "
                f"failed; {note}"
            )
        rows.append(
            Row(
                result.host,
                result.version,
                result.scenario,
                thread["role"],
                thread["file"],
                str(thread["caused"]),
                answer,
                agree,
                timing,
                row_note,
            )
        )
    return rows


def _table(rows: list[Row]) -> str:
    head = ("host", "version", "scenario", "thread", "caused", "reference", "agree", "s", "note")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = (
            r.host,
            r.version,
            r.scenario,
            r.role,
            r.caused,
            r.reference,
            r.agree,
            r.seconds,
            r.note,
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _one(host: str, version: str, scenario: str, out: Path, reference: ReferenceCount) -> list[Row]:
    try:
        result = harvest_one(host, version, scenario, out / f"{host}-{version}-{scenario}")
    except NotRunnable as error:  # a published version npm cannot install: said, not failed
        return [Row(host, version, scenario, "-", "-", "-", "-", "-", "-", str(error))]
    except HarvestError as error:
        return [Row(host, version, scenario, "-", "-", "-", "-", "-", "-", f"error: {error}")]
    return _rows(result, reference)


def main(argv: list[str], reference: ReferenceCount | None = None) -> int:
    """Parse, run, print the table; exit 1 on a failed run or a leak (``--strict``: also on a
    disagreement), 2 on a usage error."""
    parser = argparse.ArgumentParser(
        prog="python -m rebootspec.generators harvest",
        description="Drive real hosts (Codex CLI, pi, Gemini CLI, opencode, the Copilot CLI, "
        "Qwen Code; basic-agent-chat-loop "
        "with a stub agent) against a scripted loopback model and collect the session files they "
        "write. Needs unshare, and npm with its registry (or pip with PyPI for the chat loop).",
        epilog="example: python -m rebootspec.generators harvest --host codex --version 0.130.0 "
        "--scenario auto-pre-turn --out /tmp/harvest",
    )
    parser.add_argument("--host", choices=sorted(HOSTS))
    parser.add_argument("--version", help="the host's npm version, e.g. 0.130.0")
    parser.add_argument("--scenario", help="e.g. auto-pre-turn, auto-mid-turn, manual, fork")
    parser.add_argument("--out", required=True, type=Path, help="folder for the runs' files")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--sweep", action="store_true", help="every pinned version × scenario")
    group.add_argument("--latest", action="store_true", help="the registry's newest version")
    parser.add_argument("--strict", action="store_true", help="a disagreement fails the run")
    args = parser.parse_args(argv)
    count = reference or reference_by_process
    jobs: list[tuple[str, str, str]] = []
    if args.sweep:
        jobs = [j for j in sweep.jobs() if args.host in (None, j[0])]
    else:
        if not args.host:
            parser.error("--host is needed unless --sweep is given")
        module = HOSTS[args.host]
        version = args.version
        if args.latest:
            try:
                # A host whose release is another package than the one installed (Kilo's
                # wrapper) names it RELEASE; one with two places to look (opencode's wrapper
                # and binary) says which is newer (``newest``).
                release = getattr(module, "RELEASE", module.PACKAGE)
                if args.host == "chat-loop":
                    version = chat_loop.latest()
                elif hasattr(module, "newest"):
                    version = module.newest()
                else:
                    version = latest(release)
            except HarvestError as error:
                print(f"harvest: {error}", file=sys.stderr)
                return 1
        if not version:
            parser.error("--version or --latest is needed")
        if not re.fullmatch(r"\d+\.\d+\.\d+", version):
            parser.error(f"--version must look like 0.130.0, not {version!r}")
        scenarios = [args.scenario] if args.scenario else list(module.SCENARIOS)
        for scenario in scenarios:
            if scenario not in module.SCENARIOS:
                parser.error(f"unknown scenario {scenario!r} for {args.host}")
        jobs = [(args.host, version, s) for s in scenarios if module.supports(version, s)]
        if not jobs:
            parser.error(f"{args.host} {version} supports none of: {', '.join(scenarios)}")
    rows: list[Row] = []
    for host, version, scenario in jobs:
        got = _one(host, version, scenario, args.out, count)
        for row in got:
            print(json.dumps(row.__dict__), file=sys.stderr, flush=True)
        rows.extend(got)
    table = _table(rows)
    print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "harvest-table.md").write_text(table + "\n", encoding="utf-8")
    failed = any(r.note.startswith(("error", "LEAK")) or "WRONG" in r.note for r in rows)
    disagree = any(r.agree == "no" for r in rows)
    return 1 if failed or (args.strict and disagree) else 0
