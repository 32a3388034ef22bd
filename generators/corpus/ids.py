"""Case IDs: four characters from A-Z and 2-9 without 0, 1, O, I (spec/FIXTURES.md).

Real logs (spec/FIXTURES.md, "Real logs") are the one exception: their ID is a readable
`realworld-<slug>`, chosen by the person who counted them; generated IDs never take that form.

An ID is chosen once at random and written into `case_ids.toml` (generated cases) or a case
folder name (hand-written cases); nothing derives an ID from a name at run time. Retired IDs are
listed in fixtures/retired.txt and never used again.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ...fixtures import CORPUS_DIR

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ID_PATTERN = re.compile(r"^[A-HJ-NP-Z2-9]{4}$")
REALWORLD_PATTERN = re.compile(r"^realworld-[a-z0-9-]+$")
FIXTURES = CORPUS_DIR
RETIRED = FIXTURES / "retired.txt"
REGISTRY = Path(__file__).resolve().parent / "case_ids.toml"


def is_id(text: str) -> bool:
    return ID_PATTERN.match(text) is not None


def is_realworld_id(text: str) -> bool:
    return REALWORLD_PATTERN.match(text) is not None


def is_case_id(text: str) -> bool:
    """A folder name that may be a case: a four-character ID or a real log's `realworld-<slug>`."""
    return is_id(text) or is_realworld_id(text)


def retired(path: Path = RETIRED) -> list[str]:
    """Retired IDs, one per line (blank lines and `#` comments ignored)."""
    if not path.exists():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def registry(path: Path = REGISTRY) -> dict[str, str]:
    """`scenario/era` -> ID of every generated case."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    return {str(key): str(value) for key, value in table.items()}


Made = TypeVar("Made")


def missing_keys(pairs: Sequence[tuple[Any, str]]) -> list[str]:
    """The `scenario/era` keys of (scenario, era) pairs that have no ID yet (a scenario has a
    `name`)."""
    table = registry()
    return [f"{s.name}/{e}" for s, e in pairs if f"{s.name}/{e}" not in table]


def registered_cases(
    pairs: Sequence[tuple[Any, str]],
    make: Callable[[Any, str, str], Made],
    only: str | None = None,
) -> list[Made]:
    """`make(scenario, era, id)` for every pair that has an ID (only the case `only`, if given)."""
    table = registry()
    out = []
    for scenario, era in pairs:
        case_id = table.get(f"{scenario.name}/{era}")
        if case_id is None or (only is not None and case_id != only):
            continue
        out.append(make(scenario, era, case_id))
    return out


def folder_ids(fixtures: Path = FIXTURES) -> list[str]:
    if not fixtures.is_dir():
        return []
    return sorted(p.name for p in fixtures.iterdir() if is_case_folder_name(p))


def is_case_folder_name(path: Path) -> bool:
    """Whether a folder of fixtures/ is meant as a case (not `.git*` or Python's `__pycache__`,
    which appears because fixtures/ is also the data package `rebootspec.fixtures`)."""
    return path.is_dir() and not path.name.startswith((".", "__"))


def taken(fixtures: Path = FIXTURES) -> set[str]:
    """Every ID in use or retired: a new ID must be none of these."""
    return (
        set(registry().values())
        | set(retired(fixtures / "retired.txt"))
        | set(folder_ids(fixtures))
    )


def new_id(used: set[str], rng: random.Random | None = None) -> str:
    """A fresh random ID (system randomness unless an RNG is given)."""
    source = rng or random.SystemRandom()
    while True:
        candidate = "".join(source.choice(ALPHABET) for _ in range(4))
        if candidate not in used:
            return candidate


def append_registry(pairs: dict[str, str], path: Path = REGISTRY) -> None:
    """Write newly chosen IDs at the end of the registry file (kept by hand from then on)."""
    with path.open("a", encoding="utf-8") as handle:
        for key, value in pairs.items():
            handle.write(f'"{key}" = "{value}"\n')
