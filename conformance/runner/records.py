"""One record per case: what the report, the terminal summary and `compare` are built from.

`judge` is the only place that turns a classified outcome into a gate verdict, taking the
profile and the known divergences into account:

| gate        | when                                                         |
| pass        | the outcome is pass and the case is not listed               |
| fail        | any other outcome, unlisted (or listed with another outcome) |
| xfail       | a listed case that still diverges (as listed)                |
| xpass       | a listed case that now passes: the list is stale, the run fails |
| not-claimed | the profile does not claim one of the case's tags            |
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .answers import AnswerReader
from .candidates import Candidate
from .corpus import Case
from .divergences import Divergence
from .integrity import file_digest
from .outcome import NOT_CLAIMED, Verdict, classify
from .profiles import Profile

STDERR_EXCERPT = 2000
UNPINNED = "unpinned"  # the case has no snapshot: nothing to compare with
CORPUS_ERROR = "corpus-error"  # the case's input vanished or changed during the run
GATE_FAILURES = ("fail", "xpass")


@dataclass
class Record:
    id: str
    title: str
    rules: list[str]
    tags: list[str]
    era: str
    container: str
    expected: dict[str, Any] | None
    actual: dict[str, Any] | None
    outcome: str
    gate: str
    detail: str = ""
    duration: float = 0.0
    stderr: str = ""
    divergence: str | None = None
    missing_tags: list[str] = field(default_factory=list)
    # What the candidate said beside the count (reboots_possible, phantom reasons); never a gate.
    informative: dict[str, Any] = field(default_factory=dict)
    # A rejection's code and line against the expected ones (PRO-4); normative only with a
    # profile's `match_codes`.
    diagnostic: dict[str, Any] = field(default_factory=dict)
    peak_rss_kb: int | None = None  # the candidate's peak resident memory, when measured

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__ if name in data})


def _base(case: Case, expected: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": case.id,
        "title": case.title,
        "rules": list(case.rules),
        "tags": list(case.tags),
        "era": case.era,
        "container": case.container,
        "expected": expected,
    }


def judge(verdict: Verdict, divergence: Divergence | None) -> tuple[str, str]:
    """(gate, extra detail) for a classified outcome and its known-divergence entry."""
    if divergence is None:
        return ("pass", "") if verdict.outcome == "pass" else ("fail", "")
    if verdict.outcome == "pass":
        return "xpass", "listed as a known divergence but passes now: remove it from the list"
    if divergence.outcome is not None and divergence.outcome != verdict.outcome:
        return (
            "fail",
            f"listed as a known {divergence.outcome}, but the outcome is {verdict.outcome}",
        )
    return "xfail", ""


def check_case(
    case: Case,
    *,
    candidate: Candidate,
    reader: AnswerReader,
    expected: dict[str, Any] | None,
    profile: Profile,
    divergence: Divergence | None,
    timeout: float,
    input_digest: str | None = None,
) -> Record:
    """Run one case (unless the profile leaves it out) and record everything about it.

    With `input_digest` (taken when the run started) an input that vanished or changed since
    is a `corpus-error` for this case: reported, never silently dropped, never run.
    """
    missing = profile.missing(case)
    base = _base(case, expected)
    reason = divergence.reason if divergence else None
    if missing:
        detail = f"not claimed by profile {profile.name}: {', '.join(missing)}"
        return Record(
            **base,
            actual=None,
            outcome=NOT_CLAIMED,
            gate=NOT_CLAIMED,
            detail=detail,
            divergence=reason,
            missing_tags=missing,
        )
    if expected is None:
        detail = "no snapshot pins this case: review case.toml, then run with --snapshot-update"
        return Record(**base, actual=None, outcome=UNPINNED, gate="fail", detail=detail)
    if input_digest is not None:
        now = file_digest(case.input)
        if now != input_digest:
            state = "vanished" if now is None else "changed"
            detail = f"the input {case.input} {state} during the run (the corpus is not intact)"
            return Record(**base, actual=None, outcome=CORPUS_ERROR, gate="fail", detail=detail)
    started = time.monotonic()
    run = candidate.run(case.input, timeout)
    verdict = classify(
        expected,
        run,
        reader,
        expected_code=case.expect.get("error"),
        expected_line=case.expect.get("line"),
        match_codes=profile.match_codes,
    )
    gate, extra = judge(verdict, divergence)
    return Record(
        **base,
        actual=verdict.actual,
        outcome=verdict.outcome,
        gate=gate,
        detail="; ".join(part for part in (verdict.detail, extra) if part),
        duration=round(run.duration or time.monotonic() - started, 4),
        stderr=run.stderr[:STDERR_EXCERPT],
        divergence=reason,
        informative=verdict.informative,
        diagnostic=verdict.diagnostic,
        peak_rss_kb=run.peak_rss_kb,
    )
