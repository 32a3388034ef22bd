"""The rebootspec conformance runner: a pytest plugin that checks a candidate counter on the corpus.

Where things are, so every module agrees. The spec and the corpus are package data of
`rebootspec.spec` and `rebootspec.fixtures` (the `spec/` and `fixtures/` folders of a checkout),
so an installed copy finds them without a checkout; the syrupy snapshots that pin each case's
expected outcome live beside the suite's test files in `suite/__snapshots__/`.

This file only computes paths, with absolute lookups: pytest imports it again under the bare
name `conformance` when it collects the suite (a package above the test files), and that second
copy must be harmless. The paths are computed on first use, not on import: every `rebootspec`
command, `rebootspec count` too, imports this package first, and `count` (run once per case by
a subprocess candidate) needs none of them, nor pathlib and importlib.util to find them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, on the path of every count
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    PACKAGE_DIR: Path
    SUITE_DIR: Path
    SPEC_DIR: Path
    DEFAULT_CORPUS: Path
    DEFAULT_SNAPSHOTS: Path


def data_dir(package: str) -> Path:
    """The folder of a data package of rebootspec, found without importing (or writing into) it."""
    from importlib.util import find_spec
    from pathlib import Path

    spec = find_spec(package)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"rebootspec is not installed: no {package}")
    return Path(spec.origin).resolve().parent


def _package_dir() -> Path:
    from pathlib import Path

    return Path(__file__).resolve().parent


_PATHS: dict[str, Callable[[], Path]] = {
    "PACKAGE_DIR": _package_dir,
    "SUITE_DIR": lambda: _package_dir() / "suite",
    "SPEC_DIR": lambda: data_dir("rebootspec.spec"),
    "DEFAULT_CORPUS": lambda: data_dir("rebootspec.fixtures"),
    "DEFAULT_SNAPSHOTS": lambda: _package_dir() / "suite" / "__snapshots__",
}


def __getattr__(name: str) -> Path:
    """A path of `__all__`, computed once, on its first use (PEP 562)."""
    if name not in _PATHS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = _PATHS[name]()
    globals()[name] = value
    return value


__all__ = ["DEFAULT_CORPUS", "DEFAULT_SNAPSHOTS", "PACKAGE_DIR", "SPEC_DIR", "SUITE_DIR"]
