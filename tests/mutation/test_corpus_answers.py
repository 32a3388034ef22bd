"""The corpus as a test of the reference, in process: the test `tox -e mutation` mutates against.

Each case's input must give the outcome its case.toml states (a person's or a plan's answer):
the count, or the rejection code and line. This is what the conformance run checks for the
in-process reference, without the runner around it, so that a mutation tester can run it once
per mutant: a mutant of `reference/` that no case notices is a rule the corpus cannot tell from
its mistake (tests/mutation/equivalent.toml lists the ones that cannot change any answer).
"""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path

import pytest

# Under mutmut the code under test is its mutated copy in mutants/, importable only by the bare
# name `reference` (mutmut puts mutants/ first on sys.path); everywhere else it is the installed
# rebootspec.reference. The reference imports only itself (relatively), so both work.
PACKAGE = "reference" if "MUTANT_UNDER_TEST" in os.environ else "rebootspec.reference"
count_path = importlib.import_module(PACKAGE).count_path
Rejection = importlib.import_module(PACKAGE + ".core.errors").Rejection
vocabulary = importlib.import_module(PACKAGE + ".hosts.vscode.eras").vocabulary
registry = importlib.import_module(PACKAGE + ".core.registry")

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CASES = sorted(path.parent for path in FIXTURES.glob("*/case.toml"))


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    """Each case starts as a fresh `rebootspec count` does: with the host table loaded again
    from spec/hosts.toml and the era vocabulary built again. A table cached by an earlier case
    (or by mutmut's parent process, before the mutant was switched on) would run the case
    without the mutant of `registry._load` or of the era code, and hide it."""
    registry._HOSTS = None
    vocabulary.cache_clear()


@pytest.mark.parametrize("folder", CASES, ids=[folder.name for folder in CASES])
def test_case_answer(folder: Path) -> None:
    case = tomllib.loads((folder / "case.toml").read_text("utf-8"))
    expect = case["expect"]
    path = _input(folder, case)
    try:
        answer = count_path(path, readable=True, session=case.get("session"))
        got: tuple[object, ...] = ("count", answer.reboots)
    except Rejection as rejection:
        got = ("reject", rejection.code, rejection.line)
    if expect["outcome"] == "count":
        assert got == ("count", expect["reboots"])
    else:
        assert got == ("reject", expect["error"], expect["line"])


def _input(folder: Path, case: dict[str, object]) -> Path:
    """What the candidate is given: ``session.<container>``, or ``input/<input>`` for a folder
    container (spec/FIXTURES.md, "Inputs of several files")."""
    rel = case.get("input")
    if isinstance(rel, str):
        return folder / "input" if rel == "." else folder / "input" / rel
    return folder / f"session.{case['container']}"
