"""The expectation self-checks, out of the conformance run: snapshots agree with case.toml.

They used to be `test_expectation[ID]` items of every conformance run, mixed into the
candidate's totals and JUnit; now the run counts the candidate's cases only, and these checks
run here, on the real corpus and on tiny hand-written ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cf_runner import corpus

from rebootspec.conformance import DEFAULT_CORPUS, DEFAULT_SNAPSHOTS
from rebootspec.conformance.runner.corpus import load_corpus
from rebootspec.conformance.runner.snapshots import SnapshotFolder, drift


@pytest.fixture
def snapshots_at() -> Iterator[None]:
    yield
    SnapshotFolder.root = None


def test_the_committed_snapshots_agree_with_case_toml() -> None:
    SnapshotFolder.root = DEFAULT_SNAPSHOTS
    try:
        found = drift(load_corpus(DEFAULT_CORPUS))
    finally:
        SnapshotFolder.root = None
    assert found == {"stale": [], "unpinned": [], "mismatch": []}, (
        f"{found}: review case.toml, then run "
        "`rebootspec run --snapshot-update` and review the diff"
    )


def test_drift_names_a_mismatch_a_stale_snapshot_and_an_unpinned_case(
    tmp_path: Path, snapshots_at: None
) -> None:
    root, snaps, ids = corpus(tmp_path, ["aba", "phantom", "push"])
    folder = snaps / "test_expectations"
    (folder / f"test_expectation[{ids['aba']}].json").write_text(
        json.dumps({"outcome": "count", "reboots": 2}), encoding="utf-8"
    )
    (folder / "test_expectation[ZZZZ].json").write_text('{"outcome": "reject"}', encoding="utf-8")
    (folder / f"test_expectation[{ids['push']}].json").unlink()
    SnapshotFolder.root = snaps
    assert drift(load_corpus(root)) == {
        "stale": ["ZZZZ"],
        "unpinned": [ids["push"]],
        "mismatch": [ids["aba"]],
    }
