"""One record per case: what the report, the terminal summary and `compare` are built from.

`judge` is the only place that turns a classified outcome into a gate verdict, taking the
profile and the known divergences into account (the words and their meaning are `Gate` and
`GATE_TABLE` in outcome.py; spec/PROTOCOL.md shows them).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .answers import AnswerReader
from .candidates import Candidate, CaseInput
from .corpus import Case
from .divergences import Divergence
from .integrity import input_digest as digest_of
from .outcome import Gate, Outcome, Verdict, classify
from .profiles import Profile

STDERR_EXCERPT = 2000


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
    outcome: Outcome
    gate: Gate
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
    host: str = "vscode"  # HST-1: the host whose log the case is
    name: str = ""  # the case's readable name (spec/FIXTURES.md "Names"); "" in old reports
    # What `{path}` names in the corpus (absolute), so a failure leads to its input; and the
    # session asked about, when the case names one (PRO-1).
    input: str = ""
    session: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as report.json holds it (outcome and gate as their plain words)."""
        data = asdict(self)
        data["outcome"], data["gate"] = str(self.outcome), str(self.gate)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """A record back from `to_json` (an xdist worker's); an unknown word is a ValueError."""
        fields = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        fields["outcome"], fields["gate"] = Outcome(data["outcome"]), Gate(data["gate"])
        return cls(**fields)


def _base(case: Case, expected: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "id": case.id,
        "title": case.title,
        "rules": list(case.rules),
        "tags": list(case.tags),
        "era": case.era,
        "container": case.container,
        "expected": expected,
        "host": case.host,
        "name": case.name,
        "input": str(case.input.resolve()),
        "session": case.session,
    }


def judge(verdict: Verdict, divergence: Divergence | None) -> tuple[Gate, str]:
    """(gate, extra detail) for a classified outcome and its known-divergence entry."""
    passed = verdict.outcome == Outcome.PASS
    if divergence is None:
        return (Gate.PASS, "") if passed else (Gate.FAIL, "")
    if passed:
        return Gate.XPASS, "listed as a known divergence but passes now: remove it from the list"
    if divergence.outcome is not None and divergence.outcome != verdict.outcome:
        return (
            Gate.FAIL,
            f"listed as a known {divergence.outcome}, but the outcome is {verdict.outcome}",
        )
    return Gate.XFAIL, ""


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
    other_host = not profile.claims_host(case.host)  # HST-1: never a failure
    if other_host or missing:
        if other_host:
            counted = ", ".join(sorted(profile.hosts or ()))
            detail = f"not claimed: the candidate counts {counted}, not {case.host} logs"
        else:
            detail = f"not claimed by profile {profile.name}: {', '.join(missing)}"
        return Record(
            **base,
            actual=None,
            outcome=Outcome.NOT_CLAIMED,
            gate=Gate.NOT_CLAIMED,
            detail=detail,
            divergence=reason,
            missing_tags=[] if other_host else missing,
        )
    if expected is None:
        detail = "no snapshot pins this case: review case.toml, then run with --snapshot-update"
        return Record(**base, actual=None, outcome=Outcome.UNPINNED, gate=Gate.FAIL, detail=detail)
    if input_digest is not None:
        now = digest_of(case.copied)
        if now != input_digest:
            state = "vanished" if now is None else "changed"
            detail = f"the input {case.copied} {state} during the run (the corpus is not intact)"
            return Record(
                **base, actual=None, outcome=Outcome.CORPUS_ERROR, gate=Gate.FAIL, detail=detail
            )
    started = time.monotonic()
    run = candidate.run(CaseInput(case.input, case.input_root, case.session), timeout)
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
