"""The end of a run on the terminal: what failed, per host, and how to reproduce the first one.

A candidate author who sees red needs, without scrolling: each failing case (its name, host,
what was expected, what the candidate said, where its input is), the totals per host, and a
command that reproduces the first failure, both through the runner (`rebootspec run ... -k
NAME`) and as the bare candidate command on the input's path. The list is cut to what fits one
screen; every case is in the report. Built from the report's dictionary (the one source of the
three report files), so the terminal and the files never disagree; the plugin only prints it.
"""

from __future__ import annotations

import math
import shlex
from pathlib import Path
from typing import Any

from ..runner.outcome import GATE_FAILURES
from .report import show_answer

SCREEN_ROWS = 24
# Rows the summary leaves for the lines above it on the screen (pytest's totals line, a prompt).
RESERVED_ROWS = 2
MIN_LISTED = 1  # one failing case is shown even on a tiny terminal


def cases(n: int) -> str:
    """`1 case`, `2 cases`."""
    return f"{n} case" if n == 1 else f"{n} cases"


def rows(line: str, width: int) -> int:
    """How many terminal rows `line` takes when the terminal wraps it at `width` columns."""
    return max(1, math.ceil(len(line) / max(width, 20)))


def shown_input(case: dict[str, Any], corpus: str) -> str:
    """The case's input, relative to the corpus folder when it is inside (`233D/session.jsonl`)."""
    path = str(case.get("input") or "")
    if not path:
        return str(case.get("id", "?"))
    try:
        return Path(path).relative_to(corpus).as_posix()
    except ValueError:
        return path


def failure_line(case: dict[str, Any], corpus: str) -> str:
    """One failing case: `name  host  expected -> got  input`."""
    name = case.get("name") or case["id"]
    expected, got = show_answer(case.get("expected")), show_answer(case.get("actual"))
    if case.get("outcome") in ("unpinned", "corpus-error"):
        got = str(case["outcome"])
    where = shown_input(case, corpus)
    return f"  {name}  {case.get('host', '?')}  expected {expected}, got {got}  {where}"


def host_lines(report: dict[str, Any]) -> list[str]:
    """`  codex     62 cases: 10 pass, 52 fail`: the outcome totals of each host."""
    hosts = report["totals"].get("hosts") or {}
    width = max((len(host) for host in hosts), default=0)
    lines = []
    for host, outcomes in hosts.items():
        total = sum(outcomes.values())
        parts = ", ".join(f"{n} {outcome}" for outcome, n in outcomes.items())
        lines.append(f"  {host:<{width}}  {cases(total)}: {parts}")
    return lines


def bare_command(candidate: Any, case: dict[str, Any]) -> str | None:
    """The candidate's own command on the case's input (what the runner ran, on the corpus's
    file rather than its private copy); None for a preset, which builds a fake tree per case."""
    path = Path(str(case.get("input") or ""))
    session = case.get("session")
    command_for = getattr(candidate, "command_for", None)
    if callable(command_for):
        return shlex.join(command_for(path, session))
    if candidate.describe() == ["reference (in process)"]:
        words = ["rebootspec", "count", str(path)]
        return shlex.join([*words, "--session", session] if session else words)
    return None


def summary_lines(
    report: dict[str, Any],
    *,
    rerun: list[str],
    bare: str | None,
    written: list[Path],
    width: int = 80,
    height: int = SCREEN_ROWS,
) -> list[str]:
    """The lines of the summary, the failing list cut so that the whole fits `height` rows of
    `width` columns. `rerun` is the `rebootspec run` command line of this run without `-k`;
    `bare` the candidate's command on the first failure's input (None: not runnable alone)."""
    totals = report["totals"]
    outcomes = ", ".join(f"{n} {name}" for name, n in totals["outcomes"].items())
    head = [f"{report['verdict']}: {cases(totals['cases'])}: {outcomes}"]
    corpus = str(report["header"].get("corpus", ""))
    bad = [case for case in report["cases"] if case["gate"] in GATE_FAILURES]
    tail: list[str] = []
    if written:
        tail.append(f"report: {written[0]}" + (" (and .md, .html)" if len(written) > 1 else ""))
    hosts = host_lines(report)
    if len(hosts) > 1 or bad:
        tail += ["per host:", *hosts]
    if bad:
        first = bad[0]
        name = first.get("name") or first["id"]
        tail.append(f"reproduce the first failure ({name}, {first['id']}):")
        tail.append("  " + shlex.join([*rerun, "-k", name]))
        if bare is not None:
            tail.append("  " + bare)
        if first.get("detail"):
            tail.append(f"  ({' '.join(str(first['detail']).split())})")
    if not bad:
        return head + tail
    where = "all in the report" if written else "all with --report-dir DIR"

    def title(listed: int) -> str:
        shown = f"the first {listed}; {where}" if listed < len(bad) else "all"
        return f"not passing: {len(bad)} ({shown}); inputs under {corpus}/"

    # the section's heading line, the title at its longest, and every other line
    fixed = head + tail + [title(len(bad) - 1)]
    room = height - RESERVED_ROWS - 1 - sum(rows(line, width) for line in fixed)
    listed: list[str] = []
    used = 0
    for case in bad:
        line = failure_line(case, corpus)
        if used + rows(line, width) > max(room, MIN_LISTED) and len(listed) >= MIN_LISTED:
            break
        listed.append(line)
        used += rows(line, width)
    return [*head, title(len(listed)), *listed, *tail]
