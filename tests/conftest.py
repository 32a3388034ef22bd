"""Shared test settings: Hypothesis profiles.

`ci` (the tox default) is derandomized, bounded and has no deadline, so property tests are
repeatable and never flaky under load or xdist; `dev` explores more; `nightly` much more.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.register_profile("nightly", deadline=None, max_examples=5000)
settings.load_profile("ci")
