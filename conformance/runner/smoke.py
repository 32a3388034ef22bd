"""`smoke`: easy cases that show an adapter is wired right, before a full run (bowtie smoke).

One case per kind of answer a candidate must get right: a count from a plain snapshot, a
count through a Push, a phantom (0), a rejection and a legacy .json of VS Code, and one count
of each other host (a Codex rollout, a pi session, a Gemini CLI chat). The easiest case of each
kind is the one with the fewest tags and the smallest input, so the choice is stable; a case
whose count spec 2.0 changed is picked only when there is no other, so a 1.0 counter can
smoke-test its adapter too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ...reference.core.printable import printable
from .answers import AnswerReader
from .candidates import Candidate
from .corpus import Case
from .outcome import Outcome
from .profiles import Profile
from .records import Record, check_case
from .snapshots import read_expectation


@dataclass(frozen=True)
class Pick:
    label: str
    wants: Callable[[Case], bool]


PICKS = (
    Pick(
        "plain snapshot count",
        lambda c: (
            c.host == "vscode"
            and "initial-only" in c.tags
            and c.container == "jsonl"
            and c.expect["outcome"] == "count"
            and "phantom" not in c.tags
            and c.expect["reboots"] > 0
        ),
    ),
    Pick("push", lambda c: "push-append" in c.tags and c.expect["outcome"] == "count"),
    Pick("phantom", lambda c: "phantom" in c.tags and c.expect["outcome"] == "count"),
    Pick("rejection", lambda c: c.host == "vscode" and c.expect["outcome"] == "reject"),
    Pick(
        "legacy json",  # a flat session file (LEG-1), not an Export Chat file
        lambda c: (
            c.container == "json" and "legacy-json" in c.tags and c.expect["outcome"] == "count"
        ),
    ),
)


def host_picks() -> tuple[Pick, ...]:
    """HST-1: one easy count per other host of the registry (spec/hosts.toml), not claimed by
    a candidate that does not count it; a store and its {session}, or a chain, included."""
    from ...reference.core.registry import hosts

    return tuple(
        Pick(host.input_label, _counts_of(host.key)) for host in hosts() if not host.fallback
    )


def described() -> str:
    """What smoke runs, from the picks themselves (never a number typed twice): `11 cases:
    VS Code's plain snapshot count, push, ...; one count of each other host: Codex rollout...`."""
    others = [pick.label for pick in host_picks()]
    return (
        f"{len(PICKS) + len(others)} easy cases: VS Code's "
        + ", ".join(pick.label for pick in PICKS)
        + "; one count of each other host ("
        + ", ".join(others)
        + ")"
    )


def _counts_of(key: str) -> Callable[[Case], bool]:
    return lambda c: c.host == key and _counts_some(c)


def _counts_some(case: Case) -> bool:
    return bool(case.expect["outcome"] == "count" and case.expect["reboots"] > 0)


CHANGED = "count-changed-v2"

_HINTS = {
    Outcome.BAD_OUTPUT: "no count could be read: "
    "check --answer-key/--answer-pointer/--answer-last-int",
    Outcome.CRASH: "the command fails, exits 2+, or exits 1 without an `error: PATH:LINE: E-CODE: "
    "reason` line on stderr (protocol 2): check the command, {path} and the diagnostic",
    Outcome.TIMEOUT: "the candidate hangs: does it wait for stdin or a flag?",
    Outcome.FALSE_ERROR: "valid logs are rejected (exit 1): is the path reaching the candidate?",
    Outcome.MISSED_ERROR: "a rejection was answered: the candidate must exit 1 on an invalid log",
    Outcome.UNPINNED: "the chosen case has no snapshot: the corpus and snapshots are out of step",
}


def _size(case: Case) -> int:
    """The bytes of a case's input (every file of a folder input): smaller is easier."""
    root = case.copied
    if root.is_dir():
        return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
    return root.stat().st_size


def choose(cases: list[Case]) -> list[tuple[str, Case | None]]:
    """The smoke cases (None where the corpus has no case of that kind)."""
    chosen: list[tuple[str, Case | None]] = []
    used: set[str] = set()
    for pick in (*PICKS, *host_picks()):
        fits = [c for c in cases if c.id not in used and pick.wants(c)]
        # A case whose count 2.0 changed comes last: the smoke checks the wiring, not the rules.
        fits.sort(key=lambda c: (CHANGED in c.tags, len(c.tags), _size(c), c.id))
        best = fits[0] if fits else None
        if best is not None:
            used.add(best.id)
        chosen.append((pick.label, best))
    return chosen


def smoke(
    cases: list[Case], candidate: Candidate, reader: AnswerReader, profile: Profile, timeout: float
) -> tuple[str, bool]:
    """Run the smoke cases; returns the one-screen verdict and whether all passed."""
    picked = choose(cases)
    width = max([5, *(len(case.id) for _, case in picked if case is not None)])
    rows = [f"{'kind':<22} {'case':<{width}} {'expected':<9} {'actual':<16} outcome"]
    records: list[Record] = []
    missing = []
    for label, case in picked:
        if case is None:
            missing.append(label)
            rows.append(f"{label:<22} {'-':<{width}} (no such case in the corpus)")
            continue
        record = check_case(
            case,
            candidate=candidate,
            reader=reader,
            expected=read_expectation(case.id),
            profile=profile,
            divergence=None,
            timeout=timeout,
        )
        records.append(record)
        from ..reports.report import show_answer

        rows.append(
            f"{label:<22} {case.id:<{width}} {show_answer(record.expected):<9} "
            f"{printable(show_answer(record.actual)[:40]):<16} {record.outcome}"
        )
        if record.outcome not in (Outcome.PASS, Outcome.NOT_CLAIMED):
            rows.append(f"{'':<22} {printable(record.detail)}")  # the candidate's words
            stderr = record.stderr.strip().splitlines()
            if stderr:
                rows.append(f"{'':<22} stderr: {printable(stderr[-1][:100])}")
    ok = bool(records) and all(r.outcome in (Outcome.PASS, Outcome.NOT_CLAIMED) for r in records)
    rows.append("")
    rows.append(f"candidate: {' '.join(candidate.describe())}; answer: {reader.describe()}")
    if ok:
        passed = sum(1 for r in records if r.outcome == Outcome.PASS)
        unclaimed = len(records) - passed
        aside = f"; {unclaimed} of another host, not claimed" if unclaimed else ""
        rows.append(f"OK: the adapter is wired right ({passed} cases pass{aside}).")
    else:
        seen = Counter(r.outcome for r in records if r.outcome != Outcome.PASS)
        rows.append(
            "NOT OK: " + (", ".join(f"{n} {o}" for o, n in seen.items()) or "no cases to run")
        )
        rows.extend(f"  hint: {_HINTS[o]}" for o in seen if o in _HINTS)
    if missing:
        rows.append(f"(the corpus has no case for: {', '.join(missing)})")
    return "\n".join(rows) + "\n", ok
