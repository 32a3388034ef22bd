"""The scoreboard as people read it: `peers.json` (the source), `peers.md`, `peers.html`, README.

Everything is rendered from one dictionary (`summary`), as the conformance report is: the JSON
is what a later run or a test compares, the Markdown goes into the README between two markers
(`rewrite_readme`), the HTML is the page with every miss. Nothing read from a peer reaches a page
unescaped (jinja2 autoescapes the HTML; the Markdown shows only numbers, names and case ids).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .board import PeerRecord, is_miss

HOST_ORDER = ("codex", "claude-code", "pi", "gemini-cli", "opencode")
# The board's last column names this many rows per peer (most misses first); the peer's own
# section of the page lists them all.
TOP_REASONS = 5
BEGIN = "<!-- peers:begin (written by `rebootspec peers`; edit the command, not this table) -->"
END = "<!-- peers:end -->"
TEMPLATES = Path(__file__).resolve().parent.parent / "reports" / "templates"


def _cell(records: Sequence[Any]) -> dict[str, Any]:
    right = sum(1 for record in records if not is_miss(record))
    counts = [r for r in records if r.expected.get("outcome") == "count"]
    return {
        "right": right,
        "claimed": len(records),
        "count_right": sum(1 for r in counts if not is_miss(r)),
        "count_claimed": len(counts),
        "median": round(statistics.median(r.seconds for r in records), 3) if records else None,
    }


def _miss_reason(record: Any, always: int | None = None) -> str:
    if always is not None and record.actual.get("reboots") == always:
        return f"always {always}"
    if record.rows:
        return str(record.rows[0])
    outcome = str(record.outcome)
    if outcome == "bad-output":
        return "no answer"
    if outcome in ("crash", "timeout"):
        return outcome
    return "unmatched"


def summary(
    peers: Sequence[PeerRecord],
    own: dict[str, float],
    *,
    date: str,
    rebootspec_version: str,
    gallery: bool,
    big_files: dict[str, dict[str, float | str]] | None = None,
    load: float | None = None,
) -> dict[str, Any]:
    """The one dictionary every page is rendered from."""
    hosts = [h for h in HOST_ORDER if any(h in p.hosts for p in peers)]
    rows = []
    for peer in peers:
        cells = {}
        for host in hosts:
            if host in peer.hosts and not peer.skipped:
                cells[host] = _cell([r for r in peer.records if r.host == host])
        misses = [r for r in peer.records if is_miss(r)]
        said = {r.actual.get("reboots") for r in peer.records if r.actual.get("outcome") == "count"}
        # A peer that gives one number for every case shows nothing of any rule: its misses are
        # named so, not matched by accident to a row that happens to say the same number.
        always = next(iter(said)) if len(said) == 1 and len(peer.records) > 2 else None
        reasons = Counter(_miss_reason(r, always) for r in misses)
        rows.append(
            {
                "name": peer.name,
                "version": peer.version,
                "registry": peer.registry,
                "package": peer.package,
                "hosts": peer.hosts,
                "reads": peer.reads,
                "skipped": peer.skipped,
                "cells": cells,
                "total": _cell(peer.records) if peer.records else None,
                "reasons": reasons.most_common(),
                "top": reasons.most_common(TOP_REASONS),
                "more": max(0, len(reasons) - TOP_REASONS),
                "notes": peer.notes,
                "misses": [
                    {
                        "case": r.case,
                        "host": r.host,
                        "expected": _shown(r.expected),
                        "actual": _shown(r.actual),
                        "outcome": r.outcome,
                        "rows": r.rows,
                        "detail": r.detail,
                    }
                    for r in misses
                ],
            }
        )
    return {
        "date": date,
        "rebootspec": rebootspec_version,
        "hosts": hosts,
        "own": own,
        "gallery": gallery,
        "peers": rows,
        "big_files": big_files or {},
        "load": load,
    }


def _shown(answer: dict[str, Any]) -> str:
    if answer.get("outcome") == "count" and "reboots" in answer:
        return str(answer["reboots"])
    if answer.get("outcome") == "reject":
        return f"reject {answer.get('error') or answer.get('code') or ''}".strip()
    return str(answer.get("outcome", "?"))


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env


def markdown(data: dict[str, Any]) -> str:
    return str(_environment().get_template("peers.md.j2").render(**data))


def html(data: dict[str, Any]) -> str:
    return str(_environment().get_template("peers.html.j2").render(**data))


_SECTION = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)


def rewrite_readme(readme: Path, table: str) -> bool:
    """Put `table` between the README's peers markers; False when the markers are missing."""
    from ...reference.core.userio import read_text, write_text

    text = read_text(readme, "text")  # bounded, a regular file; written back atomically
    if not _SECTION.search(text):
        return False
    block = f"{BEGIN}\n{table.strip()}\n{END}"
    write_text(readme, _SECTION.sub(lambda _: block, text, count=1))
    return True
