"""The one case builder: from a (scenario, era) pair of any host to a case, its input files and
its case.toml metadata.

Each host's adapter (`hosts/<host>/case.py`, listed in `hosts/registry.py`) plays the plan with
the host's writer and says what the case expects, from the plan alone; this module adds what
every case has alike: its ID (`case_ids.toml`), title, provenance, the keys of case.toml in the
order of spec/FIXTURES.md, and the comment.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from ..hosts.registry import ADAPTERS
from ..hosts.scenario import Adapter, Made, Scenario, rule_sort
from . import casefile, ids

# spec/FIXTURES.md: a case without a `host` key is VS Code's; its cases are written without one.
DEFAULT_HOST = "vscode"


@dataclass
class Case:
    """One generated case, ready to be written to fixtures/<id>/."""

    id: str
    scenario: Scenario[Any]
    era: str
    made: Made

    @property
    def key(self) -> str:
        return f"{self.scenario.name}/{self.era}"

    @property
    def container(self) -> str:
        return self.made.container

    @property
    def expect(self) -> dict[str, Any]:
        return self.made.expect

    @property
    def plan(self) -> Any:
        return self.made.plan

    @property
    def note(self) -> str:
        return self.made.note

    @property
    def tags(self) -> list[str]:
        return sorted(set(self.made.tags))

    @property
    def rules(self) -> list[str]:
        return sorted(set(self.made.rules), key=rule_sort)

    @property
    def title(self) -> str:
        return self.made.title or self.scenario.title

    def files(self) -> dict[str, bytes]:
        """The input files by their path in the case folder (spec/FIXTURES.md)."""
        return dict(self.made.files)

    @property
    def file_name(self) -> str:
        """The file the candidate is given: the one input file, or `input/<input>`."""
        if self.made.input is not None:
            return f"{casefile.INPUT_FOLDER}/{self.made.input}"
        (name,) = self.made.files
        return name

    @property
    def data(self) -> bytes:
        """The bytes of the file the candidate is given (empty for a storage folder)."""
        return self.made.files.get(self.file_name, b"")

    @property
    def provenance(self) -> str:
        return f"generator:{self.scenario.name}/era={self.era}/seed={self.made.seed}"

    def table(self) -> dict[str, Any]:
        """The case.toml table, keys in the order of spec/FIXTURES.md (`host` after `title`)."""
        table: dict[str, Any] = {"id": self.id, "title": self.title}
        if self.scenario.host not in (None, DEFAULT_HOST):
            table["host"] = self.scenario.host
        table["rules"] = self.rules
        table["tags"] = self.tags
        table["era"] = self.era
        table["container"] = self.container
        if self.made.input is not None:
            table["input"] = self.made.input
        if self.made.session is not None:
            table["session"] = self.made.session
        table["provenance"] = self.provenance
        table["comment"] = " ".join(t for t in (self.scenario.comment, self.made.note) if t)
        table["expect"] = self.expect
        return table

    def toml(self) -> str:
        """case.toml as the one writer (casefile.render) lays it out: stable bytes."""
        return casefile.render(self.table())


def adapter_of(scenario: Scenario[Any]) -> Adapter:
    for adapter in ADAPTERS:
        if any(s is scenario for s in adapter.scenarios):
            return adapter
    raise KeyError(scenario.name)


def generate(scenario: Scenario[Any], era: str, case_id: str) -> Case:
    """Play the scenario in the era with its host's adapter and describe the result."""
    return Case(case_id, scenario, era, adapter_of(scenario).make(scenario, era))


def pairs() -> list[tuple[Scenario[Any], str]]:
    """Every (scenario, era) pair the corpus holds: VS Code's first, then the other hosts'."""
    return [(s, era) for adapter in ADAPTERS for s in adapter.scenarios for era in s.eras]


def scenario_hosts() -> frozenset[str | None]:
    """Every host key some scenario of the corpus writes for (None: a file of no host)."""
    return frozenset(scenario.host for scenario, _ in pairs())


def missing_ids() -> list[str]:
    """Keys `scenario/era` with no ID in the registry yet."""
    return ids.missing_keys(pairs())


def all_cases(
    only: str | None = None,
    hosts: Container[str | None] | None = None,
    scenarios: Container[str] | None = None,
) -> list[Case]:
    """Generate every registered case (or the one with ID `only`, or those of `hosts` or of the
    scenarios named `scenarios` only: playing VS Code's writer is most of a build, so a test
    about one host or scenario asks for its own; a host None is a file of no host)."""
    chosen = [
        (scenario, era)
        for scenario, era in pairs()
        if (hosts is None or scenario.host in hosts)
        and (scenarios is None or scenario.name in scenarios)
    ]
    return ids.registered_cases(chosen, generate, only)


TITLE_COUNT = re.compile(r"\b(no|one|two|three|four|five|six|\d+) reboots?\b")
NUMBERS = {"no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def title_count(title: str) -> int | None:
    """The count a title states ("two reboots"), if it states one."""
    match = TITLE_COUNT.search(title)
    if match is None:
        return None
    word = match.group(1)
    return NUMBERS[word] if word in NUMBERS else int(word)
