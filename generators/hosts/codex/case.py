"""Codex CLI's adapter to the one case builder: a (scenario, era) pair played into a rollout.

The count is the plan's own completed compactions (`plan.expected_reboots`); a rejection comes
from what the plan put in the file (a C0 rollout: `E-UNMEASURABLE`; a `Deep` value: `E-LIMIT`
at its line). The bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file, own_note
from .plan import CodexPlan, codex_all_compactions, expected_reboots
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play


def make(scenario: Scenario[CodexPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    rollout = play(plan)
    own = expected_reboots(plan)
    return one_file(
        scenario,
        BASE_RULES,
        rollout.bytes(),
        reboots=own,
        deep_line=rollout.reject_line,
        note=own_note(own, codex_all_compactions(plan) - own),
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
