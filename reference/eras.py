"""The era table (ERA-1): marker strings, part kinds and summary fields, read from spec/eras.toml.

Nothing else in the reference spells a marker string; adding an era is a data change.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

# os.path, not pathlib: the reference runs on every agent wake, and pathlib costs start-up time.
ERAS_FILE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "spec", "eras.toml"
)


@dataclass(frozen=True)
class Vocabulary:
    """Every string a counter matches, merged over all eras and locales (ERA-2, ERA-3)."""

    spec_version: str
    marker_part_kinds: frozenset[str]
    completed: frozenset[str]
    in_progress: frozenset[str]
    manual_slash_command: str
    manual_message_command: str
    manual_completed: frozenset[str]
    manual_in_progress: frozenset[str]
    eras: tuple[dict[str, Any], ...]


@cache
def load_table(path: str = ERAS_FILE) -> dict[str, Any]:
    """The raw era table, as the generator also reads it."""
    with open(path, "rb") as handle:
        return tomllib.load(handle)


@cache
def vocabulary(path: str = ERAS_FILE) -> Vocabulary:
    """The matching vocabulary of the era table at `path`."""
    table = load_table(path)
    eras = tuple(table["eras"])
    manual = table["manual"]
    translations = table.get("translations", [])  # ERA-3: every locale counts everywhere
    return Vocabulary(
        spec_version=table["spec_version"],
        marker_part_kinds=frozenset(table["marker_part_kinds"]),
        completed=frozenset(s for era in eras for s in era["completed"])
        | frozenset(t["text"] for t in translations if t["state"] == "completed"),
        in_progress=frozenset(s for era in eras for s in era["in_progress"])
        | frozenset(t["text"] for t in translations if t["state"] == "in-progress"),
        manual_slash_command=manual["slash_command"],
        manual_message_command=manual["message_command"],
        manual_completed=frozenset(manual["completed_markdown"]),
        manual_in_progress=frozenset(manual["in_progress"]),
        eras=eras,
    )
