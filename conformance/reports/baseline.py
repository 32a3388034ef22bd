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

TODO = "TODO: say why this case may fail"


def baseline(report: dict[str, Any]) -> str:
    """The TOML text: one table per case whose gate failed, in case-ID order."""
    lines = [
        "# Known divergences written by `rebootspec baseline` from a report.",
        f"# Candidate: {report.get('header', {}).get('candidate', '?')}",
        "# Replace every TODO with the reason the case may fail, or fix the candidate and drop it.",
        "",
    ]
    failing = [case for case in report.get("cases", []) if case.get("gate") == "fail"]
    for case in sorted(failing, key=lambda c: str(c.get("id"))):
        lines += [
            f"[{case['id']}]",
            f"# {case.get('title', '')}",
            f"# {case.get('detail', '')}".rstrip(),
            f"reason = {json.dumps(TODO)}",
            f"outcome = {json.dumps(case.get('outcome', 'fail'))}",
            "",
        ]
    return "\n".join(lines)


def write_baseline(report_path: Path, out: Path | None) -> str:
    report = json.loads(report_path.read_text("utf-8"))
    text = baseline(report)
    if out is not None:
        if out.exists():
            raise FileExistsError(f"{out}: exists; a baseline never overwrites a reviewed file")
        out.write_text(text, encoding="utf-8")
    return text
