"""The era table as the generator reads it (ERA-1): every marker string comes from spec/eras.toml.

The generator reads the table itself (it does not import the reference), so a new era row gives
its fixtures on the next build.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ....spec import SPEC_DIR

ERAS_FILE = SPEC_DIR / "eras.toml"


@dataclass(frozen=True)
class Era:
    """One row of the era table: the vocabulary a session of that era is written with."""

    id: str
    completed: str
    in_progress: str
    summary_field: str  # "summary" (singular) or "summaries" (array)
    containers: tuple[str, ...]
    from_date: str
    marker_kind: str  # the serialised marker part kind (first of marker_part_kinds)
    old_marker_kind: str  # the kind a live task object had before toJSON existed


@dataclass(frozen=True)
class Manual:
    """The `/compact` command's vocabulary (MRK-4)."""

    slash_command: str
    message_command: str
    in_progress: str
    completed_markdown: str
    since_date: str


def _table(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


@cache
def table(path: Path = ERAS_FILE) -> dict[str, Any]:
    """The raw era table (every string of it, for the anonymizer's kept vocabulary)."""
    return _table(path)


def spec_version(path: Path = ERAS_FILE) -> str:
    """`spec_version` of the era table (ERA-1), for report headers; "unknown" if unreadable."""
    try:
        return str(_table(path).get("spec_version", "unknown"))
    except (OSError, tomllib.TOMLDecodeError):
        return "unknown"


@cache
def eras(path: Path = ERAS_FILE) -> tuple[Era, ...]:
    """Every era of the table, in table order."""
    table = _table(path)
    kinds = list(table["marker_part_kinds"])
    return tuple(
        Era(
            id=row["id"],
            completed=row["completed"][0],
            in_progress=row["in_progress"][0],
            summary_field=row["summary_field"],
            containers=tuple(row["containers"]),
            from_date=row["from_date"],
            marker_kind=kinds[0],
            old_marker_kind=kinds[-1],
        )
        for row in table["eras"]
    )


@cache
def manual(path: Path = ERAS_FILE) -> Manual:
    """The `/compact` vocabulary of the table."""
    row = _table(path)["manual"]
    return Manual(
        slash_command=row["slash_command"],
        message_command=row["message_command"],
        in_progress=row["in_progress"][0],
        completed_markdown=row["completed_markdown"][0],
        since_date=row["since_date"],
    )


def era(era_id: str) -> Era:
    """The era with this id (KeyError when the table has none)."""
    for row in eras():
        if row.id == era_id:
            return row
    raise KeyError(era_id)


@cache
def translation(locale: str, of: str, path: Path = ERAS_FILE) -> str:
    """ERA-3: the text of a `[[translations]]` row (KeyError when the table has none)."""
    for row in _table(path).get("translations", []):
        if row["locale"] == locale and row["of"] == of:
            return str(row["text"])
    for row in _table(path).get("translations", []):
        if row["locale"] == locale:  # only some strings are known: the completed text stands in
            return str(row["text"])
    raise KeyError((locale, of))


@cache
def other_progress_tasks(path: Path = ERAS_FILE) -> tuple[str, ...]:
    """MRK-3: progress task texts that are not compaction markers."""
    return tuple(_table(path).get("other_progress_tasks", ()))


@cache
def translated_strings(locale: str, path: Path = ERAS_FILE) -> tuple[str, ...]:
    """The English strings the table has a `locale` translation of."""
    rows = _table(path).get("translations", [])
    return tuple(str(row["of"]) for row in rows if row["locale"] == locale)
