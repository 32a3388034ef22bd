"""The plugin is loaded into every pytest run where rebootspec is installed, so its options must
never collide with another plugin's: generic names are prefixed inside pytest
(`--conformance-profile`, `--conformance-corpus`; pytest-profiling owns `--profile`), while
`rebootspec run` keeps the short names and translates them."""

from __future__ import annotations

import pytest

from rebootspec.conformance.options import PYTEST_PREFIXED, SETTINGS, pytest_argv

pytest_plugins = ["pytester"]


def test_a_project_whose_plugin_owns_profile_and_corpus_still_runs(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        """
        def pytest_addoption(parser):
            parser.addoption("--profile", action="store_true")
            parser.addoption("--corpus", default=None)
        """
    )
    pytester.makepyfile("def test_own(request):\n    assert request.config.getoption('profile')\n")
    result = pytester.runpytest_subprocess("-q", "--profile", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "conformance" not in result.stdout.str()


def test_rebootspec_run_translates_exactly_the_prefixed_names() -> None:
    argv = ["--profile", "spec-v1", "--corpus=cases/", "--candidate", "x", "-k", "K7QX"]
    assert pytest_argv(argv) == [
        "--conformance-profile",
        "spec-v1",
        "--conformance-corpus=cases/",
        "--candidate",
        "x",
        "-k",
        "K7QX",
    ]
    assert {SETTINGS[name].pytest_flag for name in PYTEST_PREFIXED} == {
        "--conformance-profile",
        "--conformance-corpus",
        "--conformance-hosts",  # pytest-testinfra has a --hosts of its own
    }
