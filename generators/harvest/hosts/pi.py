"""pi coding agent (placeholder until the driver lands)."""

from __future__ import annotations

from pathlib import Path

from ..server import ScriptedServer
from .common import HarvestError, Install
from .result import Outcome

PACKAGE = "@mariozechner/pi-coding-agent"
LICENCE = "MIT"
SCENARIOS: tuple[str, ...] = ()


def supports(version: str, scenario: str) -> bool:
    return False


def drive(install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path) -> Outcome:
    raise HarvestError("pi is not driven yet")
