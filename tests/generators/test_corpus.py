"""The corpus: every case's expectation holds for the reference, and the generated cases are
exactly what a fresh build writes (so the committed bytes are reproducible).

Expectations are read from case.toml, which the plan (generated cases) or a person
(hand-written cases) wrote; the reference is only the thing being checked.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.generators.corpus import build, ids
from rebootspec.generators.corpus.casefile import load_case
from rebootspec.generators.corpus.cases import Case, all_cases, title_count
from rebootspec.generators.hosts.vscode.case import play_in
from rebootspec.generators.hosts.vscode.eras import era, eras
from rebootspec.generators.hosts.vscode.plan import expected_reboots
from rebootspec.generators.hosts.vscode.scenarios import SCENARIOS, by_name
from rebootspec.reference.cli import main as reference_cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and (p / "case.toml").exists())


def load(folder: Path) -> dict[str, Any]:
    with (folder / "case.toml").open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_the_reference_meets_the_expectation(folder: Path) -> None:
    meta = load(folder)
    path = load_case(folder).input  # session.<container>, or the file `input` names
    session = [meta["session"]] if "session" in meta else []
    out, err = io.StringIO(), io.StringIO()
    code = reference_cli(["count", str(path), *session], out, err)
    expect = meta["expect"]
    if expect["outcome"] == "count":
        assert code == 0, err.getvalue()
        assert orjson.loads(out.getvalue())["reboots"] == expect["reboots"]
    else:
        assert code == 1, out.getvalue()
        assert f":{expect['line']}: {expect['error']}: " in err.getvalue()


@pytest.mark.slow
def test_generated_cases_match_a_fresh_build() -> None:
    assert build.differences(FIXTURES, build.every_case(None), whole=True) == []


@pytest.mark.slow
def test_a_build_is_the_same_under_another_hash_seed() -> None:
    env = {**os.environ, "PYTHONHASHSEED": "4242", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.generators", "build", "--check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr


VSCODE_PAIRS = [(s, era_id) for s in SCENARIOS for era_id in s.eras]


@pytest.mark.parametrize(
    "scenario,era_id", VSCODE_PAIRS, ids=[f"{s.name}/{e}" for s, e in VSCODE_PAIRS]
)
def test_a_count_stated_in_a_title_is_the_plan_count(scenario: Any, era_id: str) -> None:
    stated = title_count(scenario.title)
    if stated is not None and scenario.options.damage != "first-write-lost":
        assert stated == expected_reboots(scenario.plan(era_id))


def test_generated_cases_are_small() -> None:
    """Read from the committed folders: `build --check` (the default tox) proves they are what a
    fresh build writes, and building VS Code's cases again here would cost most of a minute."""
    table = ids.registry()
    keys = [f"{scenario.name}/{era_id}" for scenario, era_id in VSCODE_PAIRS]
    sizes = {
        table[key]: sum(path.stat().st_size for path in (FIXTURES / table[key]).glob("session.*"))
        for key in keys
        if key in table
    }
    assert len(sizes) >= 50, "too few VS Code cases found: the registry or the layout moved"
    # One long session of several hundred requests is worth its ~0.9 MB; the corpus stays a few MB.
    assert max(sizes.values()) < 1_000_000
    assert sum(sizes.values()) < 4_500_000


def test_after_a_rewrite_the_markers_are_only_in_the_kind0_line() -> None:
    rewritten = all_cases(scenarios={"rewrite-1024"})
    assert rewritten
    for case in rewritten:
        lines = case.data.splitlines()
        with_marker = [
            n for n, line in enumerate(lines, 1) if era(case.era).completed.encode() in line
        ]
        assert with_marker == [1], case.id
        assert lines[0].startswith(b'{"kind":0,')


def test_a_new_era_row_gives_its_own_vocabulary() -> None:
    new = replace(
        eras()[-1],
        id="translated",
        completed="Unterhaltung komprimiert",
        in_progress="Unterhaltung wird komprimiert...",
    )
    case = Case("ZZZZ", by_name("aba"), new.id, play_in(by_name("aba"), new))
    assert b'"Unterhaltung komprimiert"' in case.data
    assert b"Compacted conversation" not in case.data
    assert case.expect == {"outcome": "count", "reboots": 3}
    assert case.toml().splitlines()[5] == 'era = "translated"'
