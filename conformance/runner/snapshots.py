"""The syrupy snapshots that pin each case's expected answer (one JSON file per case ID).

They are written only by `test_expectations.py` from each case's own `case.toml`, when a person
runs `rebootspec run --snapshot-update` (that file is collected in
that mode only, and then no candidate runs) and reviews the diff; the conformance test reads
them and never writes them, so no candidate (the reference included) can ever become the
truth. `drift` is the self-check the project's tests run (tests/conformance/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from .. import DEFAULT_SNAPSHOTS

EXPECTATION_MODULE = "test_expectations"
EXPECTATION_TEST = "test_expectation"


class ExpectationSnapshots(JSONSnapshotExtension):
    """JSON snapshots in `conformance/__snapshots__/test_expectations/`, or under `root` if set.

    The root is a class setting because syrupy asks the class, not an instance; the plugin sets
    it once per process from `--conformance-snapshots` (tests use it with temporary corpora).
    """

    root: Path | None = None

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        if cls.root is None:
            return super().dirname(test_location=test_location)
        return str(cls.root / test_location.basename)


def snapshot_root() -> Path:
    return ExpectationSnapshots.root or DEFAULT_SNAPSHOTS


def snapshot_path(case_id: str) -> Path:
    return snapshot_root() / EXPECTATION_MODULE / f"{EXPECTATION_TEST}[{case_id}].json"


def read_expectation(case_id: str) -> dict[str, Any] | None:
    """The pinned answer of a case, or None when it has no snapshot (yet)."""
    try:
        value = orjson.loads(snapshot_path(case_id).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def pinned_ids() -> list[str]:
    """The case IDs that have a snapshot, from the file names syrupy gives them."""
    folder = snapshot_root() / EXPECTATION_MODULE
    prefix, suffix = f"{EXPECTATION_TEST}[", "].json"
    return sorted(
        path.name[len(prefix) : -len(suffix)]
        for path in folder.glob(f"{EXPECTATION_TEST}[[]*[]].json")
    )


def drift(cases: list[Any]) -> dict[str, list[str]]:
    """How the snapshots and the cases' own case.toml disagree (the project's self-check).

    `stale`: a snapshot with no case; `unpinned`: a case with no snapshot; `mismatch`: a
    snapshot that is not the case's `expected_answer()`. All empty: the truth has not drifted.
    """
    ids = {case.id for case in cases}
    pinned = set(pinned_ids())
    mismatch = [
        case.id
        for case in cases
        if case.id in pinned and read_expectation(case.id) != case.expected_answer()
    ]
    return {
        "stale": sorted(pinned - ids),
        "unpinned": sorted(ids - pinned),
        "mismatch": sorted(mismatch),
    }
