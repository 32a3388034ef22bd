"""Shared test settings: Hypothesis profiles.

`ci` (the tox default) is derandomized, bounded and has no deadline, so property tests are
repeatable and never flaky under load or xdist; `dev` explores more; `nightly` much more.
"""

from __future__ import annotations

import os
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
