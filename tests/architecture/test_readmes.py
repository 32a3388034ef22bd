"""Every top-level folder of the layout explains itself: what it owns and what it may import.

A newcomer opening any folder finds a README.md of a few lines; the import rule is on a line
starting with the fixed phrase `May import:`, so it is easy to find and the same everywhere.
(Whether the code keeps those rules is checked by test_import_graph.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = (
    *("reference", "generators", "conformance", "spec", "fixtures", "tests", "benchmarks"),
    "harvested",
)
PHRASE = "May import:"


@pytest.mark.parametrize("folder", FOLDERS)
def test_folder_has_a_readme_saying_what_it_may_import(folder: str) -> None:
    readme = ROOT / folder / "README.md"
    assert readme.is_file(), f"{folder}/ has no README.md"
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert lines and lines[0].startswith("# "), f"{folder}/README.md has no title line"
    rules = [line for line in lines if line.startswith(PHRASE)]
    assert len(rules) == 1, f"{folder}/README.md needs one line starting with {PHRASE!r}"
    assert len(rules[0]) > len(PHRASE) + 3, f"{folder}/README.md: {PHRASE!r} says nothing"


def test_the_layout_has_no_undocumented_top_level_package() -> None:
    """A new top-level folder with Python code gets a README (and a place in FOLDERS) too."""
    skipped = {"build", "dist", "mutants", "reports", "big"}
    code = {
        path.parent.name
        for path in ROOT.glob("*/*.py")
        if not path.parent.name.startswith(".") and path.parent.name not in skipped
    }
    undocumented = code - set(FOLDERS)
    assert not undocumented, f"top-level folders with code but no README rule: {undocumented}"
