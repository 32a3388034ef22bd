"""The adapter of files of no host to the one case builder: the scenario's raw bytes, and the
rejection it calls for (HST-4: `E-HOST`; an empty file: `E-EMPTY`; ERR-10: line 0); a near
miss's `.json` document keeps its container (`options`)."""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file
from .scenarios import BASE_RULES, SCENARIOS


def make(scenario: Scenario[None], era: str) -> Made:
    """`options` names the container when the file is one JSON document (`json`, HST-2)."""
    container = scenario.options or "jsonl"
    return one_file(scenario, BASE_RULES, scenario.raw or b"", reboots=None, container=container)


ADAPTER = Adapter(SCENARIOS, make)
