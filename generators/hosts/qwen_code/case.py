"""Qwen Code's adapter to the one case builder: a (scenario, era) pair played into a session.

The count is the plan's own completed summary compressions (`plan.expected_reboots`); a Q0 chat
and a sub-agent's transcript are `E-UNMEASURABLE` (QWN-9, QWN-7), as their scenarios say. The
bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file, own_note
from .plan import QwenPlan, expected_reboots, inherited_compressions
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play

WHOLE_FILE_ERAS = ("Q0",)  # QWN-1: a whole-file `.json` chat; Q1 writes `.jsonl`


def make(scenario: Scenario[QwenPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    own = expected_reboots(plan)
    return one_file(
        scenario,
        BASE_RULES,
        play(plan).bytes(),
        reboots=own,
        note=own_note(own, inherited_compressions(plan)),
        container="json" if era in WHOLE_FILE_ERAS else "jsonl",
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
