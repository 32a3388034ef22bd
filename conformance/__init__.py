"""The rebootspec conformance runner: a pytest plugin that checks a candidate counter on the corpus.

Where things are, so every module agrees: the package sits beside `spec/` and `fixtures/` in the
repository, and the syrupy snapshots that pin each case's expected outcome live in
`conformance/__snapshots__/`.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
DEFAULT_CORPUS = REPO_ROOT / "fixtures"
SPEC_DIR = REPO_ROOT / "spec"
DEFAULT_SNAPSHOTS = PACKAGE_DIR / "__snapshots__"
