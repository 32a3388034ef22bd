"""`--snapshot-update` over part of the corpus never deletes a committed snapshot (issue 13).

syrupy prunes every snapshot a run did not collect, and the writer removes snapshots whose case
is gone; on a run over a subset (`--corpus DIR`) both would wipe the truth of every other case.
The run here works on a copy of the snapshots, so the real ones are never at risk.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_subset_update_keeps_every_other_snapshot(tmp_path: Path) -> None:
    snapshots = tmp_path / "snapshots"
    shutil.copytree(ROOT / "conformance" / "suite" / "__snapshots__", snapshots)
    before = sorted(p.relative_to(snapshots) for p in snapshots.rglob("*.json"))
    subset = tmp_path / "subset"
    for case_id in ("2BL5", "DFZD"):
        shutil.copytree(ROOT / "fixtures" / case_id, subset / case_id)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rebootspec.conformance",
            "run",
            "-q",
            "--snapshot-update",
            "--corpus",
            str(subset),
            "--conformance-snapshots",
            str(snapshots),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    after = sorted(p.relative_to(snapshots) for p in snapshots.rglob("*.json"))
    assert after == before
