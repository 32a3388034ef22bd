"""Known divergences: case ID -> reason, turning a listed failure into an expected failure.

The file is TOML, one table per case: `[K7QX]` with `reason = "..."` and optionally
`outcome = "fail"` (then a different failure is not the known one and fails the run). Strict
both ways: an ID the corpus does not have is an error, and a listed case that passes fails the
run, so the list shrinks as the candidate is fixed and never hides a new regression.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...reference.core.userio import Refused, read_toml, shown
from .outcome import RUN_OUTCOMES


class DivergenceError(Exception):
    """A known-divergences file that cannot be used (one line)."""


@dataclass(frozen=True)
class Divergence:
    reason: str
    outcome: str | None = None


def load_divergences(path: Path, case_ids: set[str]) -> dict[str, Divergence]:
    """Read and check the file against the corpus IDs."""
    try:  # a regular file, bounded (userio.py): a FIFO or /dev/zero is one line, not a hang
        data = read_toml(path, "known-divergences")
    except Refused as refused:
        raise DivergenceError(str(refused)) from None
    path = Path(shown(str(path)))  # every message below names it escaped
    entries: dict[str, Divergence] = {}
    for case_id, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("reason"), str):
            raise DivergenceError(f'{path}: [{shown(case_id)}] needs reason = "..."')
        if entry["reason"].strip().upper().startswith("TODO") or not entry["reason"].strip():
            raise DivergenceError(
                f"{path}: [{shown(case_id)}] has no reason yet (a person writes it)"
            )
        outcome = entry.get("outcome")
        if outcome is not None and (outcome not in RUN_OUTCOMES or outcome == "pass"):
            raise DivergenceError(
                f"{path}: [{shown(case_id)}] outcome {shown(repr(outcome))} is not a failure "
                "outcome"
            )
        entries[case_id] = Divergence(entry["reason"], outcome)
    unknown = sorted(set(entries) - case_ids)
    if unknown:
        raise DivergenceError(f"{path}: unknown case IDs: {shown(', '.join(unknown))}")
    return entries
