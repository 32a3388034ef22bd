"""The one scenario type of every host, and what a host's adapter makes of a (scenario, era) pair.

Every host package (`hosts/<host>/`) holds the same three things: a plan (what happened in a
session; the expected count comes from it alone), a writer (the plan on disk, the way the host
writes it) and its scenarios. Its `case.py` is the small adapter the one case builder
(`corpus/cases.py`) calls: `make(scenario, era)` plays the plan with the host's writer and says
what the case expects, without ever reading the bytes back. Everything a case.toml needs beyond
that (id, provenance, key order, the comment) is the builder's, written once for all hosts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..corpus.casefile import INPUT_FOLDER

PlanT = TypeVar("PlanT")


@dataclass(frozen=True)
class Scenario(Generic[PlanT]):
    """One scenario: how to make its plan (or raw bytes) for each era it applies to, and what
    the case cites. Each (scenario, era) pair is one case; its ID is chosen once and kept in
    `corpus/case_ids.toml` under the key `name/era`, so `name` is unique across hosts.

    `host`: a key of spec/hosts.toml; None for a file of no host (HST-4) or an empty one, whose
    case has no `host` key and era "none". `reject`: the error code the plan's content calls for.
    `options`: how the host's writer plays the plan, when the plan alone does not say (VS Code:
    save cadence, container, damage; `vscode/scenarios.py`, `Writing`).
    """

    name: str
    host: str | None
    eras: tuple[str, ...]
    title: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    plan: Callable[[str], PlanT] | None = None
    raw: bytes | None = None
    reject: str | None = None
    comment: str = ""
    options: Any = None


@dataclass(frozen=True)
class Made:
    """A (scenario, era) pair played by its host's adapter: the case's input and its answer.

    `files`: every input file by its path in the case folder (`session.jsonl`, or `input/...`
    for a folder container, spec/FIXTURES.md). `given`: the one the candidate is given, if the
    case names one (`input`). `rules` and `tags` are all the case cites (the builder sorts them).
    `note`: what the plan holds, appended to the scenario's comment. `plan`: the plan played
    (None for raw bytes), kept for the tests that check the bytes against it.
    """

    files: dict[str, bytes]
    container: str
    expect: dict[str, Any]
    rules: Collection[str]
    tags: Collection[str]
    note: str = ""
    title: str | None = None
    input: str | None = None
    session: str | None = None
    seed: int = 1
    plan: Any = None


@dataclass(frozen=True)
class Adapter:
    """What the case builder needs of a host: its scenarios and how to make a case of one."""

    scenarios: tuple[Scenario[Any], ...]
    make: Callable[[Any, str], Made]


def rule_sort(rule: str) -> tuple[str, int]:
    """Rule IDs in the spec's order: by prefix, then by number (CNT-2 before CNT-10)."""
    prefix, number = rule.split("-")
    return prefix, int(number)


def in_input_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """A folder container's files by their path in the case folder (spec/FIXTURES.md, "Inputs
    of several files": under `input/`)."""
    return {f"{INPUT_FOLDER}/{name}": data for name, data in files.items()}


def cited(scenario: Scenario[Any], base: tuple[str, ...], expect: dict[str, Any]) -> set[str]:
    """The rules a case cites: its host's base rules and the scenario's; a rejected file shows
    no count, so it cites no OUT-4."""
    rules = {*base, *scenario.rules}
    if expect["outcome"] == "reject":
        rules -= {"OUT-4"}
    return rules


def one_file(
    scenario: Scenario[Any],
    base: tuple[str, ...],
    data: bytes,
    *,
    reboots: int | None,
    deep_line: int | None = None,
    note: str = "",
    container: str = "jsonl",
    plan: Any = None,
) -> Made:
    """A case of one session file: the plan's count, or the rejection the scenario calls for.

    ERR-10: a rejection names the line of the value at fault (`deep_line`, the one the plan made
    too deep, for `E-LIMIT`), 0 when the whole file is (E-HOST, E-EMPTY, E-UNMEASURABLE).
    """
    expect: dict[str, Any]
    if scenario.reject is None:
        if reboots is None:
            raise ValueError(f"{scenario.name}: no plan and no rejection")
        expect = {"outcome": "count", "reboots": reboots}
    else:
        at = deep_line if scenario.reject == "E-LIMIT" else 0
        if at is None:
            raise ValueError(f"{scenario.name}: E-LIMIT but the plan holds no deep value")
        expect = {"outcome": "reject", "error": scenario.reject, "line": at}
    rules = cited(scenario, base, expect)
    files = {f"session.{container}": data}
    return Made(files, container, expect, rules, scenario.tags, note=note, plan=plan)


def own_note(own: int, copied: int, copied_as: str = "inherited (copied, not counted)") -> str:
    """What the plan holds, for the case's comment: own and copied compactions."""
    note = f"plan: {own} own completed compactions"
    return note + (f", {copied} {copied_as}." if copied else ".")
