"""mypy --strict passes over the installed names (`rebootspec.*`) and the benchmarks.

The same check as `tox -e lint` (tests/typecheck.py), as a test so that the default run does it
beside the other tests instead of before them: about 17 s of one core on a clean clone, which a
serial tox command spent while the other core idled. tests/conftest.py runs it first.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_passes(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e .[lint])")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "typecheck.py"), str(tmp_path / "typetree")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout + done.stderr
