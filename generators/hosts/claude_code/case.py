"""Claude Code's adapter to the one case builder: a (scenario, era) pair played into a
transcript.

The count is the plan's own completed compactions (`plan.expected_reboots`), never those a
`/branch` copied (CLC-6). The bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file, own_note
from .plan import ClaudePlan, expected_reboots
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play


def make(scenario: Scenario[ClaudePlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    own = expected_reboots(plan)
    copied = expected_reboots(plan.copy.parent) if plan.copy else 0
    return one_file(
        scenario,
        BASE_RULES,
        play(plan).bytes(),
        reboots=own,
        note=own_note(own, copied),
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
