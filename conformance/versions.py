"""Which rebootspec made a result: the one fact `rebootspec version` and every report header share.

Its own small module so that `rebootspec version` reads it without loading the report renderer
(jinja2) or the process control (psutil) behind it.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path


def suite_version() -> str:
    """The rebootspec version: installed metadata, else pyproject.toml of the checkout."""
    try:
        return metadata.version("rebootspec")
    except metadata.PackageNotFoundError:
        pass
    try:
        with (Path(__file__).resolve().parents[1] / "pyproject.toml").open("rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"
