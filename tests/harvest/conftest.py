"""Harvest tests: the scripted server and the command run everywhere; real hosts only on demand.

A test marked ``harvest`` installs a host from npm and drives it: it is skipped unless
``REBOOTSPEC_HARVEST=1`` (``tox -e harvest`` sets it), so the default ``tox`` and CI never need
npm, the registry or ``unshare``.
"""

from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:  # the tests' own helpers (opencode_store) import by name
    sys.path.insert(0, HERE)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the npm-driven tests unless asked for, saying how to ask."""
    if os.environ.get("REBOOTSPEC_HARVEST") == "1":
        return
    skip = pytest.mark.skip(
        reason="drives a real host installed from npm: set REBOOTSPEC_HARVEST=1 (tox -e harvest)"
    )
    for item in items:
        if item.get_closest_marker("harvest") is not None:
            item.add_marker(skip)
