"""The syrupy snapshots that pin each case's expected answer (one JSON file per case ID).

They are written only by `test_expectations.py` from each case's own `case.toml`, when a person
runs `--snapshot-update` and reviews the diff; the conformance test reads them and never
writes them, so no candidate (the reference included) can ever become the truth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from conformance import DEFAULT_SNAPSHOTS

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
