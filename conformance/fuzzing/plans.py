"""The sessions differential fuzzing draws: the generator's strategies, as fuzz cases.

What a session is and how it is drawn lives in the generator
(`generators.hosts.vscode.strategies.shrinkable_sessions`: plans of the generator's step
vocabulary, shrinkable, plus the writer options). Fuzzing adds only what it needs of a case:
the runner's expectation, taken from the plan (`plan.expected_reboots`), never from a counter.
`compile_plan` is re-exported for the shrinker, which drops steps and compiles again.
"""

from __future__ import annotations

from dataclasses import fields

from hypothesis import strategies as st

from ...generators.hosts.vscode.plan import expected_reboots
from ...generators.hosts.vscode.strategies import Drawn, Played, compile_plan, shrinkable_sessions

__all__ = ["FuzzCase", "Played", "compile_plan", "fuzz_cases", "play_case"]


class FuzzCase(Drawn):
    """A drawn session as a case the runner's outcome table classifies."""

    @classmethod
    def of(cls, drawn: Drawn) -> FuzzCase:
        return cls(**{f.name: getattr(drawn, f.name) for f in fields(drawn)})

    def expected(self) -> dict[str, object]:
        """The normative answer, from the plan alone."""
        return {"outcome": "count", "reboots": expected_reboots(self.plan)}


def fuzz_cases(
    avoid: frozenset[str] = frozenset(), max_steps: int = 12
) -> st.SearchStrategy[FuzzCase]:
    """Drawn sessions without the features in `avoid`, as fuzz cases."""
    return shrinkable_sessions(avoid, max_steps).map(FuzzCase.of)


def play_case(case: FuzzCase) -> Played:
    """The case's bytes and what the writer saw while writing them."""
    return case.written()
