"""The GitHub Copilot CLI's adapter to the one case builder: a (scenario, era) pair played into
an `events.jsonl`.

The count is the plan's applied compactions of the main agent (`plan.expected_reboots`, CPL-3);
the bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file, own_note
from .plan import CopilotPlan, expected_reboots, inherited_applied
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play


def make(scenario: Scenario[CopilotPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    own = expected_reboots(plan)
    copied = inherited_applied(plan) if plan.mark else 0
    return one_file(
        scenario,
        BASE_RULES,
        play(plan).bytes(),
        reboots=own,
        note=own_note(own, copied),
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
