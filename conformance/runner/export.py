"""The corpus as plain files and one manifest, for a harness in another language.

`rebootspec cases export DIR` writes `DIR/manifest.json` (spec/manifest.schema.json) and each
case's input under `DIR/cases/<ID>/`, byte for byte. The manifest says, per case, what `{path}`
names (relative to DIR), the session asked about, and the expected answer: a count, or a
rejection (PRO-2: only "reject" is normative; the code and line are what the spec expects,
for a harness that matches codes as a profile's `match_codes` does). A harness needs nothing
else to run a candidate the way `rebootspec run` does (spec/PROTOCOL.md): no Python, no pytest.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson

from ...reference.core.errors import os_reason
from ...reference.core.printable import printable
from ...reference.core.userio import Refused, write_bytes
from ..versions import suite_version
from .corpus import Case, spec_version

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
CASES_FOLDER = "cases"


class ExportError(Exception):
    """The export cannot be written; one line naming the folder."""


def expectation(case: Case) -> dict[str, Any]:
    """The expected answer as the manifest holds it: the count, or the rejection with the code
    and line case.toml gives (those two informative unless a harness matches codes)."""
    answer = case.expected_answer()
    if answer["outcome"] == "reject":
        for key in ("error", "line"):
            if key in case.expect:
                answer[key] = case.expect[key]
    return answer


def entry(case: Case, input_path: str) -> dict[str, Any]:
    """One case of the manifest."""
    return {
        "id": case.id,
        "name": case.name,
        "host": case.host,
        "title": case.title,
        "tags": list(case.tags),
        "rules": list(case.rules),
        "container": case.container,
        "input": input_path,
        "session": case.session,
        "expect": expectation(case),
    }


def manifest(cases: list[Case], inputs: dict[str, str]) -> dict[str, Any]:
    """The whole manifest: versions, how to run a case, and one entry per case."""
    return {
        "manifest_format": MANIFEST_FORMAT,
        "suite_version": suite_version(),
        "spec_version": spec_version(),
        "protocol": (
            "spec/PROTOCOL.md: run the candidate once per case with {path} replaced by the "
            "case's input (relative to this file's folder) and {session} by its session; exit "
            "0 with a JSON object whose 'reboots' is the count, or exit 1 with a stderr line "
            "'error: PATH:LINE: CODE: reason' for a rejection"
        ),
        "cases": [entry(case, inputs[case.id]) for case in cases],
    }


def export(cases: list[Case], folder: Path) -> Path:
    """Write the cases and the manifest into `folder` (new or empty); returns the manifest."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ExportError(f"{printable(str(folder))}: exists and is not an empty folder")
    inputs: dict[str, str] = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for case in cases:
            target = folder / CASES_FOLDER / case.id
            target.mkdir(parents=True)
            if case.input_root is None:
                shutil.copyfile(case.input, target / case.input.name)
                where = target / case.input.name
            else:
                shutil.copytree(case.input_root, target / case.input_root.name, symlinks=True)
                where = target / case.input_root.name / case.input.relative_to(case.input_root)
            inputs[case.id] = where.relative_to(folder).as_posix()
        path = folder / MANIFEST
        write_bytes(path, orjson.dumps(manifest(cases, inputs), option=orjson.OPT_INDENT_2))
    except Refused as refused:
        raise ExportError(str(refused)) from None
    except OSError as error:
        raise ExportError(f"{printable(str(folder))}: cannot write: {os_reason(error)}") from None
    return path
