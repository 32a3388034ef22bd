"""Shared test settings: Hypothesis profiles.

`ci` (the tox default) is derandomized, bounded and has no deadline, so property tests are
repeatable and never flaky under load or xdist; `dev` explores more; `nightly` much more.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# The default tox must finish in under 6 minutes on a clean clone: 30 derandomized examples a
# property there; `HYPOTHESIS_PROFILE=dev tox` (200) or `nightly` (5000) look further.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=30,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.register_profile("nightly", deadline=None, max_examples=5000)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _no_conformance_settings_from_the_shell(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A CONFORMANCE_* variable left in a developer's shell would change what `run`, `smoke` and
    `fuzz` test (they all read them); each test starts without them and sets what it needs."""
    for name in [n for n in os.environ if n.startswith("CONFORMANCE_")]:
        monkeypatch.delenv(name)
    yield


# Sweeps that repeat one check over every case of the corpus (or every scenario of a host): the
# default run keeps one parameter in SAMPLE of each, a fixed choice by the test's ID, and marks
# the rest `slow`, so `tox -e slow` runs the whole sweep. Why: CI has 6 minutes; each of these
# checks is the same code on another input, and the other inputs are the release's to run.
SWEEPS = {
    "tests/reference/test_fastpath_hosts.py::test_mutated_files_give_the_same_answer": 4,
    "tests/anonymize/test_anonymize_hosts.py::"
    "test_a_real_or_harvested_input_keeps_its_count_and_its_structure": 4,
    "tests/anonymize/test_anonymize_corpus.py::"
    "test_an_anonymized_fixture_keeps_its_expected_outcome": 4,
    "tests/anonymize/test_anonymize_corpus.py::"
    "test_an_anonymized_fixture_passes_the_anonymizers_own_check": 4,
    "tests/anonymize/test_anonymize_planted.py::"
    "test_every_scenario_of_every_host_loses_its_secret": 4,
    "tests/reference/test_opencode.py::test_each_scenario_counts_as_its_plan_says": 3,
    "tests/generators/test_opencode_model.py::test_every_build_writes_the_same_bytes": 3,
}


def sampled(nodeid: str, every: int) -> bool:
    """Whether a sweep's parameter is in the default run's sample: a fixed 1 in `every`, by a
    digest of the test ID (stable across runs, machines and hash seeds)."""
    return zlib.crc32(nodeid.encode("utf-8")) % every == 0


# The longest single tests, run first: each is one process busy for a quarter to most of a
# minute (pip building and installing the wheel, mypy, a test that spawns many runs). xdist's
# `worksteal` hands each worker a contiguous share of the list and steals from the end of a
# share, so at the front they all start on the first worker while the other works through the
# short tests; at the end they would leave one core idle while the last of them ran.
FIRST = (
    "tests/install/",
    "tests/architecture/test_types.py",
    "tests/docs/test_examples.py",
)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        every = SWEEPS.get(item.nodeid.split("[", 1)[0])
        if every is not None and not sampled(item.nodeid, every):
            item.add_marker(pytest.mark.slow)
    rank = {prefix: place for place, prefix in enumerate(FIRST)}

    def place(item: pytest.Item) -> int:
        return next((rank[p] for p in FIRST if item.nodeid.startswith(p)), len(FIRST))

    items.sort(key=place)  # stable: every other test keeps its order
