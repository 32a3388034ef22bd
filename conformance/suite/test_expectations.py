"""The snapshot writer: `rebootspec run --snapshot-update`.

Collected only in that mode (the plugin ignores this file otherwise, so a gate run counts the
candidate's cases alone); it rewrites every snapshot from case.toml, the reviewed act of
changing the truth, and deletes snapshots whose case is gone — only on a run over the whole
default corpus: a run over a subset (`--corpus DIR`) never deletes a committed snapshot. That
the snapshots agree with case.toml is checked by the project's own tests
(tests/conformance/test_snapshot_truth.py).
"""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from rebootspec.conformance import DEFAULT_CORPUS
from rebootspec.conformance.plugin import ConformanceRun
from rebootspec.conformance.runner.corpus import Case
from rebootspec.conformance.runner.snapshots import pinned_ids, snapshot_path


def test_expectation(case: Case, snapshot: SnapshotAssertion) -> None:
    assert case.expected_answer() == snapshot


def test_every_snapshot_has_a_case(conformance: ConformanceRun) -> None:
    """A snapshot whose case was deleted or retired is stale truth (syrupy's own unused check
    only covers the default snapshot folder; this one covers `--conformance-snapshots` too)."""
    stale = sorted(set(pinned_ids()) - {case.id for case in conformance.cases})
    whole = conformance.corpus.resolve() == DEFAULT_CORPUS.resolve()
    if stale and whole and conformance.config.getoption("update_snapshots", default=False):
        for case_id in stale:
            snapshot_path(case_id).unlink()
        return
    if stale and not whole:  # a subset of the corpus: the other snapshots are not stale
        return
    assert not stale, f"snapshots without a case: {', '.join(stale)} (run --snapshot-update)"
