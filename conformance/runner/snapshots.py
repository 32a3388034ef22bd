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

from .. import DEFAULT_SNAPSHOTS

EXPECTATION_MODULE = "test_expectations"
EXPECTATION_TEST = "test_expectation"


class SnapshotFolder:
    """Where the snapshots are: the bundled ones, or `root` when set.

    A class setting, set once per process from `--conformance-snapshots` by the plugin or by
    `smoke` (tests use it with temporary corpora). Reading needs nothing but the files; syrupy's
    extension, which writes them under `--snapshot-update`, is `runner/syrupy_extension.py`
    and honours the same setting, so `smoke` never loads pytest or syrupy.
    """

    root: Path | None = None


def snapshot_root() -> Path:
    return SnapshotFolder.root or DEFAULT_SNAPSHOTS


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
