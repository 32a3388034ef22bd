"""The run report: JSON (orjson, for machines and `compare`), Markdown and self-contained HTML.

The JSON is the source; Markdown and HTML are rendered from the same dictionary by jinja2
templates in `templates/`, so the three never disagree.
"""

from __future__ import annotations

import platform
import sys
import tomllib
from collections import Counter
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import jinja2
import orjson

from conformance import PACKAGE_DIR, REPO_ROOT
from conformance.corpus import known_tags, spec_version
from conformance.outcome import NOT_CLAIMED, OUTCOMES
from conformance.records import GATE_FAILURES, UNPINNED, Record

REPORT_FORMAT = 1
COLUMNS = (*OUTCOMES, UNPINNED, NOT_CLAIMED)
GATES = ("pass", "fail", "xfail", "xpass", NOT_CLAIMED)


def suite_version() -> str:
    """The rebootspec version: installed metadata, else pyproject.toml of the checkout."""
    try:
        return metadata.version("rebootspec")
    except metadata.PackageNotFoundError:
        pass
    try:
        with (REPO_ROOT / "pyproject.toml").open("rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def header(
    *, candidate: list[str], profile: str, reader: str, corpus: Path, timeout: float
) -> dict[str, Any]:
    """What a reader needs to know to trust or reproduce the run."""
    return {
        "report_format": REPORT_FORMAT,
        "candidate": candidate,
        "answer": reader,
        "profile": profile,
        "suite_version": suite_version(),
        "spec_version": spec_version(),
        "corpus": str(corpus),
        "case_timeout": timeout,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }


def build(head: dict[str, Any], records: list[Record]) -> dict[str, Any]:
    """The whole report: header, totals, the tag x outcome matrix, and one record per case."""
    ordered = sorted(records, key=lambda r: r.id)
    outcomes = Counter(r.outcome for r in ordered)
    gates = Counter(r.gate for r in ordered)
    tag_order = known_tags()
    seen = {tag for r in ordered for tag in r.tags}
    tags = [t for t in tag_order if t in seen] + sorted(seen - set(tag_order))
    matrix = {tag: {col: 0 for col in COLUMNS} for tag in tags}
    for record in ordered:
        for tag in record.tags:
            matrix[tag][record.outcome] = matrix[tag].get(record.outcome, 0) + 1
    return {
        "header": head,
        "verdict": "FAIL" if any(gates[g] for g in GATE_FAILURES) else "PASS",
        "totals": {
            "cases": len(ordered),
            "outcomes": {col: outcomes[col] for col in COLUMNS if outcomes[col]},
            "gates": {gate: gates[gate] for gate in GATES if gates[gate]},
        },
        "matrix": matrix,
        "informative": informative_summary(ordered),
        "cases": [r.to_json() for r in ordered],
    }


def informative_summary(records: list[Record]) -> dict[str, Any]:
    """What the candidate said beside its counts, over all cases (OUT-3; never a verdict).

    `cases`: the cases whose answer had informative members; `above_count`: those where
    `reboots_possible` is more than the count; `phantom_reasons`: phantoms per reason
    (`unstated` when the candidate gave none).
    """
    reasons: Counter[str] = Counter()
    cases = above = 0
    for record in records:
        info = record.informative
        if not info:
            continue
        cases += 1
        count = (record.actual or {}).get("reboots")
        possible = info.get("reboots_possible")
        if isinstance(possible, int) and isinstance(count, int) and possible > count:
            above += 1
        for phantom in info.get("phantoms", []):
            reasons[phantom.get("reason", "unstated")] += 1
    return {"cases": cases, "above_count": above, "phantom_reasons": dict(sorted(reasons.items()))}


def informative_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The cases worth a row in the informative table: a phantom, or a possible count above it."""
    rows = []
    for case in report["cases"]:
        info = case.get("informative") or {}
        count = (case.get("actual") or {}).get("reboots")
        possible = info.get("reboots_possible")
        if info.get("phantoms") or (possible is not None and possible != count):
            rows.append(case)
    return rows


def show_informative(info: dict[str, Any] | None) -> str:
    """`reboots_possible 3; phantoms: lost-after-error (1), unknown (2)`, or `-`."""
    if not info:
        return "-"
    parts = []
    if "reboots_possible" in info:
        parts.append(f"reboots_possible {info['reboots_possible']}")
    if "phantoms" in info:
        parts.append(f"phantoms: {show_phantoms(info)}")
    return "; ".join(parts) or "-"


def show_phantoms(info: dict[str, Any] | None) -> str:
    """Phantom reasons with their numbers: `lost-after-error (1), unknown (2)`; `-` for none."""
    phantoms = (info or {}).get("phantoms") or []
    if not phantoms:
        return "-"
    reasons = Counter(p.get("reason", "unstated") for p in phantoms)
    text = ", ".join(f"{reason} ({n})" for reason, n in sorted(reasons.items()))
    total = (info or {}).get("phantoms_total")
    return f"{text} (first {len(phantoms)} of {total})" if total else text


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(PACKAGE_DIR / "templates"),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["answer"] = show_answer
    env.filters["informative"] = show_informative
    env.filters["phantoms"] = show_phantoms
    env.filters["mdcell"] = _md_cell
    return env


def show_answer(answer: dict[str, Any] | None) -> str:
    """An answer in a few words: `3`, `reject`, `crash (exit 2)`, `bad-output: ...`."""
    if not answer:
        return "-"
    kind = answer.get("outcome")
    if kind == "count":
        if "reboots" in answer:
            return str(answer["reboots"])
        return f"count (unreadable: {answer.get('unreadable')})"
    if kind == "reject":
        return f"reject ({answer['code']})" if answer.get("code") else "reject"
    if kind == "crash":
        if "signal" in answer:
            return f"crash ({answer['signal']})"
        if answer.get("exit") is not None:
            return f"crash (exit {answer['exit']})"
        return "crash"
    if kind == "bad-output":
        return f"bad-output: {answer.get('reason')}"
    return str(kind)


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def render(report: dict[str, Any], template: str) -> str:
    return (
        _environment()
        .get_template(template)
        .render(report=report, failing=failing(report), informative=informative_rows(report))
    )


def failing(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every claimed case that did not pass (known divergences included, marked as such)."""
    return [c for c in report["cases"] if c["gate"] in ("fail", "xfail", "xpass")]


def write(report: dict[str, Any], folder: Path) -> list[Path]:
    """Write report.json, report.md and report.html into `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "report.json", folder / "report.md", folder / "report.html"]
    paths[0].write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n")
    paths[1].write_text(render(report, "report.md.j2"), encoding="utf-8")
    paths[2].write_text(render(report, "report.html.j2"), encoding="utf-8")
    return paths


def load(path: Path) -> dict[str, Any]:
    """Read a report.json (for `compare`); raises ValueError with a one-line reason."""
    try:
        data = orjson.loads(path.read_bytes())
    except OSError as error:
        raise ValueError(f"{path}: cannot read: {error.strerror or error}") from None
    except orjson.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise ValueError(f"{path}: not a conformance report (no cases list)")
    return data
