"""The rebootspec conformance runner: a pytest plugin that checks a candidate counter on the corpus.

Where things are, so every module agrees. The spec and the corpus are package data of
`rebootspec.spec` and `rebootspec.fixtures` (the `spec/` and `fixtures/` folders of a checkout),
so an installed copy finds them without a checkout; the syrupy snapshots that pin each case's
expected outcome live beside the suite's test files in `suite/__snapshots__/`.

This file only computes paths, with absolute lookups and no imports of its own: pytest imports
it again under the bare name `conformance` when it collects the suite (a package above the
test files), and that second copy must be harmless.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path


def data_dir(package: str) -> Path:
    """The folder of a data package of rebootspec, found without importing (or writing into) it."""
    spec = find_spec(package)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"rebootspec is not installed: no {package}")
    return Path(spec.origin).resolve().parent


PACKAGE_DIR = Path(__file__).resolve().parent
SUITE_DIR = PACKAGE_DIR / "suite"
SPEC_DIR = data_dir("rebootspec.spec")
DEFAULT_CORPUS = data_dir("rebootspec.fixtures")
DEFAULT_SNAPSHOTS = SUITE_DIR / "__snapshots__"

__all__ = ["DEFAULT_CORPUS", "DEFAULT_SNAPSHOTS", "PACKAGE_DIR", "SPEC_DIR", "SUITE_DIR"]
