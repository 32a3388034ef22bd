"""The era table (ERA-1): marker strings, part kinds and summary fields, read from spec/eras.toml.

Nothing else in the reference spells a marker string; adding an era is a data change.

Start-up: parsing TOML (and importing tomllib and its regular expressions) costs several
milliseconds on every count, so `eras_table.py` holds the table as a Python literal beside the
exact bytes it was made from. It is used only while spec/eras.toml still has those bytes; after
an edit the TOML is parsed as before (and a test asks for `python -m rebootspec.reference.eras`
to write the literal again).
"""

from __future__ import annotations

import os

from ...core.paths import SPEC_DIR
from ...core.plain import Frozen

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

# os.path, not pathlib: the reference runs on every agent wake, and pathlib costs start-up time.
ERAS_FILE = os.path.join(SPEC_DIR, "eras.toml")


class Vocabulary(Frozen):
    """Every string a counter matches, merged over all eras and locales (ERA-2, ERA-3)."""

    _fields = (
        "spec_version", "marker_part_kinds", "completed", "in_progress", "manual_slash_command",
        "manual_message_command", "manual_completed", "manual_in_progress", "eras",
    )  # fmt: skip

    def __init__(
        self,
        spec_version: str,
        marker_part_kinds: frozenset[str],
        completed: frozenset[str],
        in_progress: frozenset[str],
        manual_slash_command: str,
        manual_message_command: str,
        manual_completed: frozenset[str],
        manual_in_progress: frozenset[str],
        eras: tuple[dict[str, Any], ...],
    ) -> None:
        self.spec_version = spec_version
        self.marker_part_kinds = marker_part_kinds
        self.completed = completed
        self.in_progress = in_progress
        self.manual_slash_command = manual_slash_command
        self.manual_message_command = manual_message_command
        self.manual_completed = manual_completed
        self.manual_in_progress = manual_in_progress
        self.eras = eras


# Each table and vocabulary is built once per path (a dict, not functools.cache: functools
# and the collections it imports cost more start-up than a small log takes to count).
_TABLES: dict[str, dict[str, Any]] = {}
_VOCABULARIES: dict[str, Vocabulary] = {}


def clear_caches() -> None:
    """Forget the tables and vocabularies built so far (a test runs each case afresh)."""
    _TABLES.clear()
    _VOCABULARIES.clear()


def load_table(path: str = ERAS_FILE) -> dict[str, Any]:
    """The raw era table, as the generator also reads it."""
    if path not in _TABLES:
        _TABLES[path] = _read_table(path)
    return _TABLES[path]


def _read_table(path: str) -> dict[str, Any]:
    with open(path, "rb") as handle:
        data = handle.read()
    if path == ERAS_FILE:
        from . import eras_table

        if data == eras_table.SOURCE:
            return eras_table.TABLE
    import tomllib

    return tomllib.loads(data.decode())  # what tomllib.load does with the bytes


def table_module(path: str = ERAS_FILE) -> str:
    """The text of `eras_table.py` for the era table at `path`."""
    import pprint
    import tomllib

    with open(path, "rb") as handle:
        data = handle.read()
    table = tomllib.loads(data.decode())
    return (
        '"""spec/eras.toml as a Python literal (start-up: no TOML parsing on a count).\n\n'
        "Written by `python -m rebootspec.reference.eras`; used only while spec/eras.toml has\n"
        'exactly the bytes of SOURCE (reference/hosts/vscode/eras.py). Do not edit."""\n\n'
        "# fmt: off\n"
        f"SOURCE = {pprint.pformat(data, width=88)}\n\n"
        f"TABLE = {pprint.pformat(table, width=88, sort_dicts=False)}\n"
    )


def vocabulary(path: str = ERAS_FILE) -> Vocabulary:
    """The matching vocabulary of the era table at `path`."""
    if path not in _VOCABULARIES:
        _VOCABULARIES[path] = _vocabulary(path)
    return _VOCABULARIES[path]


def _vocabulary(path: str) -> Vocabulary:
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


if __name__ == "__main__":
    with open(os.path.join(os.path.dirname(__file__), "eras_table.py"), "w") as out:
        out.write(table_module())
