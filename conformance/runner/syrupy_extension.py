"""syrupy's side of the expectation snapshots: where `--snapshot-update` writes them.

Loaded only by the pytest plugin (syrupy needs pytest); reading them is `runner/snapshots.py`.
"""

from __future__ import annotations

from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from .snapshots import SnapshotFolder


class ExpectationSnapshots(JSONSnapshotExtension):
    """JSON snapshots in `conformance/__snapshots__/test_expectations/`, or under
    `SnapshotFolder.root` if set (syrupy asks the class, so the setting is a class's too)."""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        if SnapshotFolder.root is None:
            return super().dirname(test_location=test_location)
        return str(SnapshotFolder.root / test_location.basename)
