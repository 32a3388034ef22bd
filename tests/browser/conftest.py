"""A real report to open, and a Chromium to open it in (or a skip that says what is missing).

The report comes from running the suite as a user does (`python -m rebootspec.conformance run`)
against `flawed_candidate.py` on a corpus subset with phantoms and hostile inputs, so it has
passes, wrong counts, missed errors, a crash with stderr and informative details.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from chromium import find_chromium  # noqa: E402

SUBSET = "phantom or hostile"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless system Chromium driven by Playwright; skipped when either is missing."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e .[browser])"
    )
    executable, missing = find_chromium()
    if executable is None:
        pytest.skip(missing)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def report_dir(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Path:
    """report.json/.md/.html of a run of the flawed candidate (made only if a browser exists)."""
    folder = tmp_path_factory.mktemp("report")
    candidate = f'"{sys.executable}" "{HERE / "flawed_candidate.py"}"'
    command = [
        sys.executable, "-m", "rebootspec.conformance", "run", "--candidate", candidate,
        "--report-dir", str(folder), "-k", SUBSET, "-q", "-p", "no:cacheprovider",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 1, f"the run should fail some cases:\n{done.stdout}\n{done.stderr}"
    return folder


@pytest.fixture(scope="session")
def report(report_dir: Path) -> dict[str, Any]:
    """The run's report.json: what the HTML page must show."""
    data: dict[str, Any] = orjson.loads((report_dir / "report.json").read_bytes())
    return data
