"""Mutation testing covers every host the registry lists: its package's entry and its reader.

Why: docs/evidence.md presents mutation testing as covering the readable reference; a host added to
spec/hosts.toml whose reader is missing from mutmut's `only_mutate` would be untested by it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# The fast path and its choice (proven equal to the readable path: tests/reference/test_fastpath*).
FAST = ("fast", "fastpath", "shape")


def test_every_registered_hosts_readable_modules_are_mutated() -> None:
    hosts = tomllib.loads((ROOT / "spec" / "hosts.toml").read_text("utf-8"))
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]["only_mutate"]
    )
    for key, row in hosts.items():
        package = ROOT / "reference" / "hosts" / row["module"]
        readable = [p for p in sorted(package.glob("*.py")) if p.stem not in FAST]
        informative = ("stores", "titles", "anonymize", "explain", "eras_table")
        readable = [p for p in readable if p.stem not in informative]
        for path in readable:
            relative = path.relative_to(ROOT).as_posix()
            assert relative in listed, f"{key}: {relative} is not in mutmut's only_mutate"
