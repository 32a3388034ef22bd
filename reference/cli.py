"""The reference's command line: `count` (PRO-1..PRO-4) and `explain` (a timeline for people).

Exit codes follow PRO-2: 0 an answer, 1 a rejection, 2 a usage error (no such file, an unknown
extension, bad arguments), 70 a bug in the reference. No input ever produces a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

import orjson

from reference import count_path
from reference.count import Count
from reference.errors import Rejection

EXIT_ANSWER = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70


class UsageParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit 2 (argparse's own code).

    The project's other command lines use it too, so every usage error reads the same.
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"usage error: {message} (try --help)\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(prog="python -m reference", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("count", "print the reboot count and its details as one JSON object"),
        ("explain", "print a timeline of the compaction requests and the total"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("path", help="a session file: .jsonl (log) or .json (legacy)")
    return parser


def main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one command and return its exit code; tests and the runner call it in process."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    path: str = args.path
    if os.path.splitext(path)[1] not in (".json", ".jsonl"):
        err.write(f"error: {path}: not a .json or .jsonl file\n")
        return EXIT_USAGE
    try:
        result = count_path(path)
    except Rejection as rejection:  # ERR-10: exit 1, one line on stderr, nothing on stdout
        err.write(f"error: {path}:{rejection.line}: {rejection.code}: {rejection.reason}\n")
        return EXIT_REJECTED
    except OSError as error:
        err.write(f"error: {path}: cannot read: {error.strerror or error}\n")
        return EXIT_USAGE
    except MemoryError:
        err.write(f"error: {path}:0: out of memory\n")
        return EXIT_INTERNAL
    except Exception as error:  # a bug in the reference, never the input's fault
        err.write(
            f"error: {path}:0: internal error in the reference: {type(error).__name__}: {error}\n"
        )
        return EXIT_INTERNAL
    if args.command == "count":
        out.write(orjson.dumps(result.to_json()).decode() + "\n")
    else:
        out.write(explain(result))
    return EXIT_ANSWER


def explain(result: Count) -> str:
    """A human timeline: one row per compaction request, then the total."""
    rows = [f"{'request':>7}  {'time (UTC)':<19}  {'marker':<33}  {'summary':<12}  verdict"]
    events = {(e.request, e.summary): e for e in result.events}
    for compaction in result.compactions:
        when = _time(compaction.timestamp)
        if not compaction.summaries:
            rows.append(
                f"{compaction.request:>7}  {when:<19}  {compaction.marker:<33}  {'-':<12}  phantom"
            )
            continue
        for position in range(len(compaction.summaries)):
            event = events[(compaction.request, position)]
            verdict = "REBOOT" if event.reboot else "duplicate"
            label = (
                f"{compaction.request}.{position}"
                if len(compaction.summaries) > 1
                else str(compaction.request)
            )
            rows.append(
                f"{label:>7}  {when:<19}  {compaction.marker:<33}  {event.md5[:12]:<12}  {verdict}"
            )
    for notice in result.notices:
        where = f"line {notice.line}" if notice.line is not None else f"request {notice.request}"
        rows.append(f"warning {notice.code} ({where}): {notice.message}")
    rows.append(
        f"reboots: {result.reboots}  (requests: {result.requests},"
        f" compaction requests: {len(result.compactions)})"
    )
    return "\n".join(rows) + "\n"


def _time(timestamp: float | None) -> str:
    if timestamp is None:
        return "-"
    from datetime import UTC, datetime  # only explain needs it

    try:
        return datetime.fromtimestamp(timestamp / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "-"
