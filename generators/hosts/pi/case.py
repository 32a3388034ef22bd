"""pi's adapter to the one case builder: a (scenario, era) pair played into a session file.

The count is the plan's own completed compactions (`plan.expected_reboots`), never the copy's
(PIA-5); a `Deep` value is `E-LIMIT` at its line. The bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file, own_note
from .plan import PiPlan, expected_reboots
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play, torn_tail


def make(scenario: Scenario[PiPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    session = play(plan)
    data = session.bytes()
    if plan.torn:
        data += torn_tail(session)
    own = expected_reboots(plan)
    copied = expected_reboots(plan.copy.parent) if plan.copy else 0
    return one_file(
        scenario,
        BASE_RULES,
        data,
        reboots=own,
        deep_line=session.reject_line(),
        note=own_note(own, copied),
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
