"""`compare OLD.json NEW.json`: what changed between two runs, case by case (by ID, never position).

For release gating of one candidate version against the last on the same suite: a case that
passed in OLD and does not pass in NEW is newly broken, and that fails the gate (exit 1).
Cases only in NEW (the suite grew) are listed, not gated: they are not a regression.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.outcome import NOT_CLAIMED
from conformance.report import show_answer


@dataclass
class Comparison:
    fixed: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    lines: dict[str, str] = field(default_factory=dict)


def _passing(case: dict[str, Any]) -> bool:
    return bool(case["outcome"] == "pass")


def compare(old: dict[str, Any], new: dict[str, Any]) -> Comparison:
    before = {c["id"]: c for c in old["cases"]}
    after = {c["id"]: c for c in new["cases"]}
    result = Comparison()
    for case_id in sorted(before.keys() | after.keys()):
        a, b = before.get(case_id), after.get(case_id)
        if a is None:
            assert b is not None
            result.added.append(case_id)
            result.lines[case_id] = f"{b['outcome']}  {b['title']}"
            continue
        if b is None:
            result.removed.append(case_id)
            result.lines[case_id] = a["title"]
            continue
        if NOT_CLAIMED in (a["outcome"], b["outcome"]) and a["outcome"] != b["outcome"]:
            bucket = result.changed
        elif not _passing(a) and _passing(b):
            bucket = result.fixed
        elif _passing(a) and not _passing(b):
            bucket = result.broken
        elif a["outcome"] != b["outcome"] or a.get("actual") != b.get("actual"):
            bucket = result.changed
        else:
            continue
        bucket.append(case_id)
        result.lines[case_id] = (
            f"{a['outcome']} ({show_answer(a.get('actual'))}) -> "
            f"{b['outcome']} ({show_answer(b.get('actual'))})  {b['title']}"
        )
    return result


def format_comparison(result: Comparison, old_name: str, new_name: str) -> str:
    out = [f"compare {old_name} -> {new_name}"]
    for title, ids in (
        ("newly broken", result.broken),
        ("newly fixed", result.fixed),
        ("changed", result.changed),
        ("new cases", result.added),
        ("cases gone", result.removed),
    ):
        out.append(f"{title}: {len(ids)}")
        out.extend(f"  {case_id}  {result.lines[case_id]}" for case_id in ids)
    verdict = "FAIL: something newly broke" if result.broken else "OK: nothing newly broke"
    out.append(verdict)
    return "\n".join(out) + "\n"
