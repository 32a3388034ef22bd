"""The normative spec as package data: `SPEC_DIR` is where SPEC.md, PROTOCOL.md and eras.toml are.

A package only so that an installed rebootspec carries the spec (read through
importlib.resources); nothing here is code the spec depends on.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

SPEC_DIR = Path(str(files(__name__)))
