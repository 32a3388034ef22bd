"""`compare OLD.json NEW.json`: the release gate, case by case (by ID, never position).

Two reports can gate one another only when they were made on the same corpus (and snapshots),
with the same profile and the same selection: otherwise `compare` fails (exit 1) and says what
differs, unless told explicitly with `--allow-different corpus,profile,selection`. A case that
passed in OLD and does not pass in NEW is *newly broken*, whatever it became: a wrong answer,
a crash, a timeout, `not-claimed`, or missing from NEW. The output lists the newly broken, the
newly fixed and the unchanged failures, in case-ID order, each with a one-line command that
reproduces it (from NEW's header); cases new in NEW are listed but never gate.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from ...reference.core.printable import printable
from ..runner.outcome import Outcome
from .report import show_answer

ASPECTS = ("corpus", "profile", "selection")
MISSING = "missing"


@dataclass
class Comparison:
    fixed: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    still_failing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    lines: dict[str, str] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)  # aspects that differ, with why
    allowed: list[str] = field(default_factory=list)  # of those, the ones allowed explicitly
    repro: dict[str, str] = field(default_factory=dict)
    hosts: dict[str, str] = field(default_factory=dict)  # case ID -> its host (HST-1)
    names: dict[str, str] = field(default_factory=dict)  # case ID -> its readable name

    @property
    def failed(self) -> bool:
        return bool(self.broken) or any(
            m.split(":", 1)[0] not in self.allowed for m in self.mismatches
        )


def _passing(case: dict[str, Any] | None) -> bool:
    return case is not None and case.get("outcome") == Outcome.PASS


def _aspects(report: dict[str, Any]) -> dict[str, Any]:
    """What must agree between two reports: corpus (and snapshots), profile, selection."""
    head = report.get("header") or {}
    selection = dict(head.get("selection") or {})
    selection.pop("corpus", None)  # where the corpus sits differs between machines; its digest
    if head.get("corpus_digest") is None:
        corpus = None
    else:
        corpus = (head.get("corpus_digest"), head.get("snapshots_digest"))
    profile = head.get("profile")
    if profile is not None:
        profile = {"name": profile, **(head.get("profile_claims") or {})}
    return {
        "corpus": corpus,
        "profile": profile,
        "selection": selection or None,
    }


def _why(aspect: str, old: Any, new: Any) -> str:
    if old is None or new is None:
        return f"{aspect}: one report does not record it (made by an older runner?)"
    if aspect == "corpus":
        return f"corpus: digests differ (old {str(old[0])[:12]}, new {str(new[0])[:12]})"
    diff = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    shown = "; ".join(f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in diff)
    return f"{aspect}: {shown}"


def reproduce(report: dict[str, Any], case_id: str) -> str:
    """A one-line command that runs one case as NEW's header ran it (from the repository)."""
    head = report.get("header") or {}
    argv = ["rebootspec", "run", "-k", case_id]
    candidate = head.get("candidate") or []
    if candidate and candidate != ["reference (in process)"]:
        first = str(candidate[0])
        spec = first if len(candidate) == 1 and ":" in first else shlex.join(candidate)
        argv += ["--candidate", spec]
    name = head.get("profile")
    if name and name != "spec-v2":
        argv += ["--profile", str(name)]
    answer = str(head.get("answer") or "")
    if answer.startswith("JSON pointer ") and answer != "JSON pointer /reboots":
        argv += ["--answer-pointer", answer.removeprefix("JSON pointer ")]
    elif answer == "last integer printed":
        argv += ["--answer-last-int"]
    isolation = head.get("isolation") or {}
    for name in isolation.get("pass_env") or []:
        argv += ["--pass-env", str(name)]
    if isolation.get("case_memory_mb"):
        argv += ["--case-memory", str(isolation["case_memory_mb"])]
    return shlex.join(argv)


def compare(
    old: dict[str, Any], new: dict[str, Any], allow: frozenset[str] = frozenset()
) -> Comparison:
    result = Comparison(allowed=sorted(allow))
    a_old, a_new = _aspects(old), _aspects(new)
    for aspect in ASPECTS:
        if a_old[aspect] is None or a_new[aspect] is None or a_old[aspect] != a_new[aspect]:
            result.mismatches.append(_why(aspect, a_old[aspect], a_new[aspect]))
    for label, report in (("old", old), ("new", new)):
        if report.get("corpus_changes"):
            result.mismatches.append(
                f"corpus: changed during the {label} run "
                f"({len(report['corpus_changes'])} files; that run cannot gate)"
            )
    before = {c["id"]: c for c in old["cases"]}
    after = {c["id"]: c for c in new["cases"]}
    for case_id in sorted(before.keys() | after.keys()):
        a, b = before.get(case_id), after.get(case_id)
        result.hosts[case_id] = str((b or a or {}).get("host", "vscode"))
        named = str((b or a or {}).get("name") or case_id)
        if named != case_id:  # the readable name first (spec/FIXTURES.md, "Names")
            result.names[case_id] = named
        if a is None:
            assert b is not None
            result.added.append(case_id)
            result.lines[case_id] = f"{b['outcome']}  {b.get('title', '')}"
            continue
        if _passing(a) and not _passing(b):
            bucket = result.broken
        elif not _passing(a) and _passing(b):
            bucket = result.fixed
        elif not _passing(a) and not _passing(b):
            if b is None or b.get("outcome") == Outcome.NOT_CLAIMED:
                continue  # not claimed (or gone) before and after: nothing to gate
            bucket = result.still_failing
        else:
            continue
        bucket.append(case_id)
        now = f"{b['outcome']} ({show_answer(b.get('actual'))})" if b is not None else MISSING
        result.lines[case_id] = (
            f"{a['outcome']} ({show_answer(a.get('actual'))}) -> {now}  {(b or a).get('title', '')}"
        )
        if b is not None or bucket is not result.fixed:
            result.repro[case_id] = reproduce(new, case_id)
    return result


def _by_host(result: Comparison) -> dict[str, str]:
    """Per host: how many cases are newly broken, newly fixed and still failing."""
    buckets = (
        ("broken", result.broken),
        ("fixed", result.fixed),
        ("failing", result.still_failing),
    )
    hosts = sorted(set(result.hosts.values()))
    return {
        host: ", ".join(
            f"{sum(1 for i in ids if result.hosts.get(i) == host)} {name}" for name, ids in buckets
        )
        for host in hosts
    }


def format_comparison(result: Comparison, old_name: str, new_name: str) -> str:
    """The comparison for a terminal: every name and every text read from the two reports is
    escaped (ERR-10), so a report.json holding an escape sequence or a line break prints as one
    visible line."""
    out = [f"compare {printable(old_name)} -> {printable(new_name)}"]
    for mismatch in result.mismatches:
        aspect = mismatch.split(":", 1)[0]
        note = "allowed by --allow-different" if aspect in result.allowed else "FAILS the gate"
        out.append(f"different {printable(mismatch)} ({note})")
    for title, ids in (
        ("newly broken", result.broken),
        ("newly fixed", result.fixed),
        ("unchanged failures", result.still_failing),
        ("new cases (not gated)", result.added),
    ):
        out.append(f"{title}: {len(ids)}")
        for case_id in ids:
            named = f"  {printable(result.names[case_id])}" if case_id in result.names else ""
            line = printable(result.lines[case_id])
            out.append(f"  {printable(case_id)}{named}  {line}")
            if case_id in result.repro and title != "newly fixed":
                out.append(f"    {printable(result.repro[case_id])}")
    by_host = _by_host(result)
    if len(by_host) > 1:  # HST-1: a run over several hosts, read per host
        shown = "; ".join(f"{printable(host)} {text}" for host, text in by_host.items())
        out.append(f"by host: {shown}")
    if result.failed:
        reasons = []
        if result.broken:
            reasons.append(f"{len(result.broken)} newly broken")
        blocked = [m.split(":", 1)[0] for m in result.mismatches]
        blocked = [a for a in blocked if a not in result.allowed]
        if blocked:
            reasons.append(
                "the reports differ in " + ", ".join(blocked) + " (--allow-different to accept)"
            )
        out.append("FAIL: " + "; ".join(reasons))
    else:
        out.append("OK: nothing newly broke")
    return "\n".join(out) + "\n"
