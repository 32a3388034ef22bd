"""`rebootspec baseline REPORT`: a known-divergences file from a report, for a person.

A candidate adopting the suite usually starts with failures it cannot fix at once. This writes
one `[ID]` table per failing case of a report.json (the format of conformance/divergences.py),
with the outcome it had and a reason that is left for a person to write: the placeholder starts
with `TODO`, and a divergences file that still holds one is refused, so no gate runs on an
unreviewed list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...reference.core.userio import Refused, shown, writable_target, write_text
from ..runner.outcome import RUN_OUTCOMES, Gate
from .report import load

TODO = "TODO: say why this case may fail"


def baseline(report: dict[str, Any]) -> str:
    """The TOML text: one table per case whose gate failed, in case-ID order."""
    lines = [
        "# Known divergences written by `rebootspec baseline` from a report.",
        f"# Candidate: {report.get('header', {}).get('candidate', '?')}",
        "# Replace every TODO with the reason the case may fail, or fix the candidate and drop it.",
        "",
    ]
    failing = sorted(
        (case for case in report.get("cases", []) if case.get("gate") == Gate.FAIL),
        key=lambda case: str(case.get("id")),
    )
    # `unpinned` and `corpus-error` are the runner's, not the candidate's: a divergences file
    # cannot list them (the corpus needs fixing), so they are named in a comment only.
    runners = [case for case in failing if case.get("outcome") not in RUN_OUTCOMES]
    for case in runners:
        what = shown(f"{case['id']}: {case.get('outcome')}")
        lines.append(f"# {what}, not listable: fix the corpus")
    if runners:
        lines.append("")
    for case in failing:
        if case in runners:
            continue
        lines += [
            f"[{_key(str(case['id']))}]",
            f"# {shown(str(case.get('title', '')))}",  # one comment line, whatever it holds
            f"# {shown(str(case.get('detail', '')))}".rstrip(),
            f"reason = {json.dumps(TODO)}",
            f"outcome = {json.dumps(case.get('outcome', 'fail'))}",
            "",
        ]
    return "\n".join(lines)


def _key(case_id: str) -> str:
    """A TOML table name: the id bare when it is a bare key (every corpus id), else quoted, so
    an id from an edited report cannot break the file's structure."""
    bare = case_id and all(c.isascii() and (c.isalnum() or c in "-_") for c in case_id)
    return case_id if bare else json.dumps(case_id)


def write_baseline(report_path: Path, out: Path | None) -> str:
    """The baseline of the report at `report_path`, also written to `out` when given.

    Raises ValueError (not a report, or `out` cannot be written: a FIFO, a device) or
    FileExistsError (`out` exists), with a one-line reason; `out` is written atomically and
    never replaced.
    """
    if out is not None:
        try:
            writable_target(out)
        except Refused as refused:
            raise ValueError(str(refused)) from None
        if out.exists():
            where = shown(str(out))
            raise FileExistsError(f"{where}: exists; a baseline never overwrites a reviewed file")
    text = baseline(load(report_path))
    if out is not None:
        try:
            write_text(out, text, exclusive=True)
        except Refused as refused:
            raise ValueError(str(refused)) from None
    return text
