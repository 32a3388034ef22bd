"""Every package folder of the checkout is in pyproject's `[tool.setuptools] packages`.

Why a cheap test beside tests/install: a subpackage left out of that list is missing from the
wheel, and the command that needs it fails only once installed (issue 43: `rebootspec peers`
gave ModuleNotFoundError from a wheel, since `conformance/presets/peers/` and
`conformance/scoreboard/` were not listed). Building the wheel takes a minute and the index;
comparing the list with the folders on disk takes milliseconds and runs in the default tox.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _setuptools() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        table: dict[str, object] = tomllib.load(handle)["tool"]["setuptools"]
    return table


def folders_on_disk() -> set[str]:
    """The installed name of every folder with an `__init__.py` under each mapped folder
    (the corpus's case folders are data, not packages, and have none)."""
    mapping = _setuptools()["package-dir"]
    assert isinstance(mapping, dict)
    names: set[str] = set()
    for installed, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            relative = init.parent.relative_to(base)
            if any(part.startswith((".", "__")) for part in relative.parts):
                continue
            names.add(".".join([installed, *relative.parts]))
    return names


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    listed = set(_setuptools()["packages"])  # type: ignore[arg-type]
    missing = sorted(folders_on_disk() - listed)
    assert not missing, f"add to pyproject.toml [tool.setuptools] packages: {missing}"


def test_every_listed_package_has_its_folder() -> None:
    listed = set(_setuptools()["packages"])  # type: ignore[arg-type]
    stale = sorted(listed - folders_on_disk())
    assert not stale, f"listed in pyproject.toml but no such package folder: {stale}"
