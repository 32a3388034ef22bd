"""The fuzz loop: a counter wrong in a known way is caught and shrunk; a right one is not."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fuzz_kit import IgnoresI, RejectsTornTails, SlowReference, load_fake

from rebootspec.conformance.fuzzing.describe import case_tags
from rebootspec.conformance.fuzzing.differential import FuzzResult, fuzz
from rebootspec.conformance.runner.candidates import ReferenceCandidate
from rebootspec.conformance.runner.outcome import classify
from rebootspec.generators.hosts.vscode.plan import Remove, Retry, expected_reboots

# Fuzz searches that run until a divergence is found and shrunk: minutes, so `tox -e slow`.
pytestmark = pytest.mark.slow

SEED = 5


@pytest.fixture(scope="module")
def caught() -> FuzzResult:
    candidate = IgnoresI()
    return fuzz(candidate, candidate.default_reader(), seed=SEED, examples=2000, budget=None)


def test_a_counter_that_ignores_i_is_caught(caught: FuzzResult, tmp_path: Path) -> None:
    finding = caught.finding
    assert finding is not None
    assert finding.verdict.outcome != "pass"
    # the divergence is real: the fake, run again on the shrunk bytes, misses the plan's count
    path = tmp_path / f"session.{finding.case.container}"
    path.write_bytes(finding.played.data)
    fake = load_fake()
    try:
        answer: int | None = fake.count(path)
    except Exception:
        answer = None
    assert answer != expected_reboots(finding.case.plan)


def test_the_divergence_is_shrunk_to_a_small_plan_with_the_cause(caught: FuzzResult) -> None:
    finding = caught.finding
    assert finding is not None
    steps = finding.case.plan.steps
    assert len(steps) <= 4, steps
    # ignoring `i` only matters where requests are removed or replaced
    assert any(isinstance(step, Remove | Retry) for step in steps)
    shapes = {"push-truncate", "push-index"}
    assert shapes & set(case_tags(finding.case, finding.played)) or any(
        isinstance(step, Retry) for step in steps
    )


def test_the_same_seed_finds_the_same_divergence(caught: FuzzResult) -> None:
    candidate = IgnoresI()
    again = fuzz(candidate, candidate.default_reader(), seed=SEED, examples=2000, budget=None)
    assert caught.finding is not None and again.finding is not None
    assert again.finding.case == caught.finding.case
    assert again.finding.played.data == caught.finding.played.data


def test_the_reference_as_candidate_finds_nothing() -> None:
    candidate = ReferenceCandidate()
    result = fuzz(candidate, candidate.default_reader(), seed=11, examples=80, budget=None)
    assert result.finding is None, result.finding and result.finding.verdict
    assert result.sessions >= 80


def test_avoiding_a_tag_looks_past_its_divergence() -> None:
    candidate = RejectsTornTails()
    reader = candidate.default_reader()
    found = fuzz(candidate, reader, seed=4, examples=300, budget=None)
    assert found.finding is not None
    assert found.finding.case.torn_tail
    assert found.finding.verdict.outcome == "false-error"
    clean = fuzz(
        candidate, reader, seed=4, examples=60, budget=None, avoid=frozenset({"torn-tail"})
    )
    assert clean.finding is None


def test_the_budget_stops_the_search() -> None:
    candidate = SlowReference(delay=0.2)
    started = time.monotonic()
    result = fuzz(candidate, candidate.default_reader(), seed=1, examples=10_000, budget=1.0)
    assert time.monotonic() - started < 5
    assert result.out_of_time
    assert result.finding is None


def test_a_run_is_classified_like_the_runner_does(caught: FuzzResult) -> None:
    finding = caught.finding
    assert finding is not None
    verdict = classify(finding.case.expected(), finding.run, IgnoresI().default_reader())
    assert verdict == finding.verdict
