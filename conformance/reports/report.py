"""The run report: JSON (orjson, for machines and `compare`), Markdown and self-contained HTML.

The JSON is the source; Markdown and HTML are rendered from the same dictionary by jinja2
templates in `templates/`, so the three never disagree.
"""

from __future__ import annotations

import platform
import re
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ...reference.core.userio import (
    Refused,
    read_json,
    shown,
    writable_target,
    write_bytes,
    write_text,
)
from ..runner.corpus import known_tags, spec_version
from ..runner.outcome import GATE_FAILURES, PROTOCOL_VERSION, Gate, Outcome
from ..versions import suite_version

if TYPE_CHECKING:  # the renderer and the records are loaded only when a report is made
    import jinja2
    from markupsafe import Markup

    from ..runner.records import Record

REPORT_FORMAT = 2  # spec/report.schema.json describes this format
# The report's columns and gate totals, in the enums' order, as the plain words JSON holds.
COLUMNS: tuple[str, ...] = tuple(str(outcome) for outcome in Outcome)
GATES: tuple[str, ...] = tuple(str(gate) for gate in Gate)


def header(
    *,
    candidate: list[str],
    profile: str,
    reader: str,
    corpus: Path,
    timeout: float,
    corpus_digest: str = "",
    snapshots_digest: str = "",
    selection: dict[str, Any] | None = None,
    isolation: dict[str, Any] | None = None,
    profile_claims: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a reader needs to know to trust or reproduce the run, and what `compare` checks:
    the corpus and snapshot digests, the profile and the selection must agree between two
    reports before one can gate the other."""
    return {
        "report_format": REPORT_FORMAT,
        "candidate": candidate,
        "answer": reader,
        "profile": profile,
        "profile_claims": profile_claims or {},
        "selection": selection or {},
        "corpus_digest": corpus_digest,
        "snapshots_digest": snapshots_digest,
        "runner_version": suite_version(),
        "suite_version": suite_version(),
        "spec_version": spec_version(),
        "protocol_version": PROTOCOL_VERSION,
        "corpus": str(corpus),
        "case_timeout": timeout,
        "isolation": isolation or {},
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }


def build(
    head: dict[str, Any], records: list[Record], corpus_changes: list[str] | None = None
) -> dict[str, Any]:
    """The whole report: header, totals, the tag x outcome matrix, and one record per case.

    `corpus_changes` (files of the corpus or snapshots that changed during the run) fail it.
    """
    ordered = sorted(records, key=lambda r: r.id)
    outcomes = Counter(str(r.outcome) for r in ordered)
    gates = Counter(str(r.gate) for r in ordered)
    tag_order = known_tags()
    seen = {tag for r in ordered for tag in r.tags}
    tags = [t for t in tag_order if t in seen] + sorted(seen - set(tag_order))
    matrix = {tag: {col: 0 for col in COLUMNS} for tag in tags}
    for record in ordered:
        for tag in record.tags:
            column = str(record.outcome)
            matrix[tag][column] = matrix[tag].get(column, 0) + 1
    return {
        "header": head,
        "verdict": ("FAIL" if corpus_changes or any(gates[g] for g in GATE_FAILURES) else "PASS"),
        "corpus_changes": list(corpus_changes or []),
        "totals": {
            "cases": len(ordered),
            "outcomes": {col: outcomes[col] for col in COLUMNS if outcomes[col]},
            "gates": {gate: gates[gate] for gate in GATES if gates[gate]},
            "hosts": host_totals(ordered),
        },
        "matrix": matrix,
        "informative": informative_summary(ordered),
        "diagnostics": diagnostic_summary(ordered),
        "cases": [r.to_json() for r in ordered],
    }


def host_totals(records: list[Record]) -> dict[str, dict[str, int]]:
    """Cases per outcome for each host (HST-1), so a run over several hosts reads per host."""
    table: dict[str, Counter[str]] = {}
    for record in records:
        table.setdefault(record.host, Counter())[str(record.outcome)] += 1
    return {
        host: {col: counts[col] for col in COLUMNS if counts[col]}
        for host, counts in sorted(table.items())
    }


def diagnostic_summary(records: list[Record]) -> dict[str, Any]:
    """Over the rejections the candidate made (PRO-4): how many had the expected code and line,
    and the cases whose code differs (informative unless the profile matches codes)."""
    made = [r for r in records if r.diagnostic and "expected_code" in r.diagnostic]
    return {
        "rejections": len(made),
        "code_matches": sum(1 for r in made if r.diagnostic.get("code_matches")),
        "line_matches": sum(1 for r in made if r.diagnostic.get("line_matches")),
        "other_code": [r.id for r in made if not r.diagnostic.get("code_matches")],
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
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent / "templates"),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        # Every value a template prints goes through `clean` (ERR-10): autoescape makes HTML
        # inert but keeps ESC, so a case title or a candidate's stderr with an escape sequence
        # would reach whoever `cat`s the page or opens it in a terminal browser.
        finalize=_finalize,
    )
    env.filters["answer"] = show_answer
    env.filters["informative"] = show_informative
    env.filters["phantoms"] = show_phantoms
    env.filters["mdcell"] = md_text
    env.filters["mdtext"] = md_text
    env.filters["mdblock"] = md_code_block
    env.filters["mdcode"] = md_code_span
    env.filters["clean"] = clean
    env.filters["case_file"] = case_file
    env.filters["file_url"] = file_url
    env.filters["breakable"] = breakable
    env.globals["used_columns"] = used_columns
    return env


def _finalize(value: Any) -> Any:
    """`clean` of a printed value; markup a filter made stays markup (control characters are
    no HTML, so escaping them cannot open a tag)."""
    from markupsafe import Markup

    if isinstance(value, Markup):
        return Markup(clean(value))
    if isinstance(value, str):
        return clean(value)
    return value


def used_columns(table: dict[str, dict[str, int]]) -> list[str]:
    """The outcome columns some row of `table` has a case in, in the report's order: a column
    of zeros only widens the page past a laptop's screen."""
    return [col for col in COLUMNS if any(row.get(col) for row in table.values())]


def breakable(word: str) -> Markup:
    """An outcome as a column heading that may wrap after its hyphens (`missed-<wbr>error`)."""
    from markupsafe import Markup, escape

    return Markup("-<wbr>".join(escape(part) for part in str(word).split("-")))


def case_file(case: dict[str, Any]) -> str:
    """The case.toml that holds a case's expectation: the folder above its input (a file's
    folder, or the case folder above `input/` for the folder containers)."""
    path = Path(str(case.get("input") or ""))
    for folder in (path.parent, *path.parents):
        if folder.name == case.get("id"):
            return str(folder / "case.toml")
    return str(path.parent / "case.toml")


def file_url(path: str) -> str:
    """A `file://` link to a local path (report.html is read on the machine that ran)."""
    return Path(path).as_uri() if Path(path).is_absolute() else path


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


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~!&])")
_BACKTICKS = re.compile(r"`+")


def clean(text: Any) -> str:
    """Candidate text with control characters (ANSI escapes, NUL, CR...) shown as `\\xNN`;
    newlines and tabs stay. Used by both reports before any other escaping."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def md_text(text: Any) -> str:
    """Candidate text as inert Markdown on one line (a table cell or a list item): every
    Markdown or HTML special character is backslash-escaped, newlines become spaces."""
    one_line = " ".join(clean(text).split())
    return _MD_SPECIAL.sub(r"\\\1", one_line)


def _fence_for(text: str, least: int) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    return "`" * max(least, longest + 1)


def md_code_block(text: Any) -> str:
    """A fenced code block that the text cannot close: the fence is longer than any run of
    backticks inside it (CommonMark)."""
    body = clean(text).strip("\n")
    fence = _fence_for(body, 3)
    return f"{fence}text\n{body}\n{fence}"


def md_code_span(text: Any) -> str:
    """An inline code span, safe in a table cell: one line, a longer backtick fence, `\\|`."""
    body = " ".join(clean(text).split()).replace("|", "\\|")
    fence = _fence_for(body, 1)
    return f"{fence} {body} {fence}"


def _with_defaults(report: dict[str, Any]) -> dict[str, Any]:
    """The report with every header field the templates show (older reports lack some)."""
    head = dict(report.get("header") or {})
    head["profile_info"] = {"name": head.get("profile", "?"), **(head.get("profile_claims") or {})}
    head.setdefault("selection", {})
    head["selection"] = {"selected": "?", "corpus_cases": "?", **head["selection"]}
    for key in ("runner_version", "spec_version", "protocol_version", "corpus_digest"):
        head.setdefault(key, head.get("suite_version", "?") if key == "runner_version" else "?")
    for key in ("answer", "started", "case_timeout"):  # a hand-made or partial report
        head.setdefault(key, "?")
    head.setdefault("candidate", [])
    diagnostics = {"rejections": 0, "code_matches": 0, "line_matches": 0, "other_code": []}
    informative = {"cases": 0, "above_count": 0, "phantom_reasons": {}}
    cases = [{**_CASE_DEFAULTS, **case} for case in report["cases"]]
    return {
        "corpus_changes": [],
        "diagnostics": diagnostics,
        "informative": informative,
        **report,
        "header": head,
        "cases": cases,
    }


# What a case of an older report may lack that the pages show (a Record's members).
_CASE_DEFAULTS: dict[str, Any] = {
    "title": "",
    "rules": [],
    "tags": [],
    "era": "",
    "container": "",
    "expected": None,
    "actual": None,
    "detail": "",
    "stderr": "",
    "divergence": None,
    "informative": {},
    "diagnostic": {},
    "name": "",
    "input": "",
    "session": None,
}


def render(report: dict[str, Any], template: str) -> str:
    report = _with_defaults(report)
    return (
        _environment()
        .get_template(template)
        .render(report=report, failing=failing(report), informative=informative_rows(report))
    )


def failing(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every claimed case that did not pass (known divergences included, marked as such)."""
    return [c for c in report["cases"] if c["gate"] in (Gate.FAIL, Gate.XFAIL, Gate.XPASS)]


REPORT_FILES = ("report.json", "report.md", "report.html")


def write(report: dict[str, Any], folder: Path) -> list[Path]:
    """Write report.json, report.md and report.html into `folder`; returns their paths.
    Each is written atomically; a FIFO, device, folder or symlink under one of those names is
    refused (`Refused`) before any is written (userio.py)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / name for name in REPORT_FILES]
    for path in paths:  # every target checked before the first is written (userio.py)
        writable_target(path)
    pages = [render(report, "report.md.j2"), render(report, "report.html.j2")]  # may refuse
    write_bytes(paths[0], orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n")
    write_text(paths[1], pages[0])
    write_text(paths[2], pages[1])
    return paths


def load(path: Path) -> dict[str, Any]:
    """Read a report.json (for `compare`, `report`, `baseline`); ValueError with a one-line reason.

    The check is the shape every report has had since the first format, not the whole
    spec/report.schema.json (jsonschema is a test dependency only): enough that a file which is
    not a report, or a case with an unknown outcome or gate, is refused before any use.
    Header members added by later formats may be missing; a newer format is refused.
    """
    try:  # a regular file of at most LIMITS["report"] bytes: /dev/zero or a FIFO is one line
        data = read_json(path, "report")
    except Refused as refused:
        raise ValueError(str(refused)) from None
    problem = report_problem(data)
    if problem:
        raise ValueError(f"{shown(str(path))}: not a conformance report: {shown(problem)}")
    return data  # type: ignore[no-any-return]


# The top-level members every report format has had, with the JSON type each must be.
_MEMBERS: tuple[tuple[str, type], ...] = (
    ("header", dict),
    ("verdict", str),
    ("totals", dict),
    ("matrix", dict),
    ("cases", list),
)


def report_problem(data: Any) -> str:
    """Why `data` is not a report the tools can read, in a few words; "" when it is one."""
    if not isinstance(data, dict):
        return f"a JSON {type(data).__name__}, not an object"
    for name, kind in _MEMBERS:
        if not isinstance(data.get(name), kind):
            return f"no {name} {'list' if kind is list else 'member'}"
    found = data["header"].get("report_format", REPORT_FORMAT)
    if not isinstance(found, int) or found > REPORT_FORMAT:
        return f"report_format {found!r}; this rebootspec reads formats up to {REPORT_FORMAT}"
    if data["verdict"] not in ("PASS", "FAIL"):
        return f"verdict {data['verdict']!r} is neither PASS nor FAIL"
    for index, case in enumerate(data["cases"]):
        where = f"cases[{index}]"
        if not isinstance(case, dict) or not isinstance(case.get("id"), str):
            return f"{where} has no id"
        for name, words in (("outcome", COLUMNS), ("gate", GATES)):
            if case.get(name) not in words:
                known = ", ".join(words)
                return f"{where} ({case['id']}): {name} {case.get(name)!r} is not one of {known}"
    return ""
