"""A clear message when the conformance tests are run without their plugin."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.hasplugin("conformance.plugin"):
        raise pytest.UsageError(
            "run the conformance suite with its plugin: pytest conformance -p conformance.plugin"
        )
