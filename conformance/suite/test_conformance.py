"""The conformance test: the candidate's outcome on each case agrees with its snapshot."""

from __future__ import annotations

from collections.abc import Callable

from rebootspec.conformance.plugin import ConformanceRun
from rebootspec.conformance.runner.corpus import Case


def test_case(
    case: Case, conformance: ConformanceRun, record_property: Callable[[str, object], None]
) -> None:
    conformance.run_case(case, record_property)
