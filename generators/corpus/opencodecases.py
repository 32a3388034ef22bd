"""From an opencode (scenario, era) pair to a case: its `input/` folder and its case.toml
(spec/FIXTURES.md, "Inputs of several files").

The scenarios live in `hosts/opencode_scenarios.py`, the store writer in `hosts/opencode*.py`.
The expectation comes from the store plan (`expected_reboots`) or from the rejection the plan's
content calls for (`expected_rejection`); the files are never read back to decide it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hosts.opencode.files import StoreFiles, render
from ..hosts.opencode.plan import all_compactions, expected_reboots, expected_rejection
from ..hosts.opencode.scenarios import BASE_RULES, SCENARIOS, OcScenario
from . import casefile, ids

STORAGE_ERAS = ("O0", "O1")


@dataclass
class OpencodeCase:
    """One generated opencode case, ready for fixtures/<id>/."""

    id: str
    scenario: OcScenario
    era: str
    store: StoreFiles
    expect: dict[str, Any]
    note: str

    @property
    def key(self) -> str:
        return f"{self.scenario.name}/{self.era}"

    @property
    def container(self) -> str:
        """OPC-1: `storage` for a JSON storage folder, `sqlite` for a database."""
        return "storage" if self.store.input == "storage" else "sqlite"

    # The build's single-file members, unused: `files()` names every input file.
    file_name = "input"
    data = b""

    def files(self) -> dict[str, bytes]:
        return {f"{casefile.INPUT_FOLDER}/{name}": data for name, data in self.store.files.items()}

    @property
    def provenance(self) -> str:
        return f"generator:{self.scenario.name}/era={self.era}/seed=1"

    def table(self) -> dict[str, Any]:
        """The case.toml table: the host cases' layout plus `input` and `session`."""
        table: dict[str, Any] = {"id": self.id, "title": self.scenario.title}
        table["host"] = self.scenario.host
        rules = {*BASE_RULES, *self.scenario.rules}
        tags = set(self.scenario.tags)
        tags.add("opencode-storage" if self.container == "storage" else "opencode-database")
        if self.expect["outcome"] == "reject":
            rules -= {"OUT-4", "OPC-4", "RBT-1"} - set(self.scenario.rules)
        table["rules"] = sorted(rules, key=_rule_sort)
        table["tags"] = sorted(tags)
        table["era"] = self.era
        table["container"] = self.container
        table["input"] = self.store.input
        if self.store.session is not None:
            table["session"] = self.store.session
        table["provenance"] = self.provenance
        table["comment"] = " ".join(t for t in (self.scenario.comment, self.note) if t)
        table["expect"] = self.expect
        return table

    def toml(self) -> str:
        return casefile.render(self.table())


def _rule_sort(rule: str) -> tuple[str, int]:
    prefix, number = rule.split("-")
    return prefix, int(number)


def generate(scenario: OcScenario, era: str, case_id: str) -> OpencodeCase:
    store = scenario.store(era)
    files = render(store)
    rejection = expected_rejection(store)
    expect: dict[str, Any]
    if rejection is None:
        expect = {"outcome": "count", "reboots": expected_reboots(store)}
    else:
        expect = {"outcome": "reject", "error": rejection, "line": 0}  # OPC-11, OPC-12
    return OpencodeCase(case_id, scenario, era, files, expect, _note(store))


def _note(store: Any) -> str:
    """What the plan holds, in the comment: the case session's own and copied compactions."""
    index = store.selected or 0
    session = store.sessions[index]
    own = expected_reboots(store) if expected_rejection(store) is None else None
    if own is None:
        return ""
    copied = all_compactions(store.era, session) - own if session.fork_of is not None else 0
    note = f"plan: {own} own completed compactions"
    return note + (f", {copied} copied by the fork (not counted)." if copied else ".")


def pairs() -> list[tuple[OcScenario, str]]:
    return [(s, era) for s in SCENARIOS for era in s.eras]


def missing_ids() -> list[str]:
    return ids.missing_keys(pairs())


def all_cases(only: str | None = None) -> list[OpencodeCase]:
    return ids.registered_cases(pairs(), generate, only)
