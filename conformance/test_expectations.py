"""The snapshots agree with each case's own metadata, so no expectation drifts silently.

`--snapshot-update` rewrites the snapshots from case.toml: the reviewed act of changing the truth.
"""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from conformance.corpus import Case
from conformance.plugin import ConformanceRun
from conformance.snapshots import pinned_ids, snapshot_path


def test_expectation(case: Case, snapshot: SnapshotAssertion) -> None:
    assert case.expected_answer() == snapshot


def test_every_snapshot_has_a_case(conformance: ConformanceRun) -> None:
    """A snapshot whose case was deleted or retired is stale truth (syrupy's own unused check
    only covers the default snapshot folder; this one covers `--conformance-snapshots` too)."""
    stale = sorted(set(pinned_ids()) - {case.id for case in conformance.cases})
    if stale and conformance.config.getoption("update_snapshots", default=False):
        for case_id in stale:
            snapshot_path(case_id).unlink()
        return
    assert not stale, f"snapshots without a case: {', '.join(stale)} (run --snapshot-update)"
