"""Gemini CLI's adapter to the one case builder: a (scenario, era) pair played into a chat.

The count is the plan's completed compressions (`plan.expected_reboots`); J0 and G0 chats are
`E-UNMEASURABLE` (GEM-7), as their scenarios say. The bytes are never read back to decide it.
"""

from __future__ import annotations

from ..scenario import Adapter, Made, Scenario, one_file
from .plan import GemPlan, expected_reboots
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play

WHOLE_FILE_ERAS = ("J0",)  # GEM-1: a whole-file `.json` chat; later eras write `.jsonl`


def make(scenario: Scenario[GemPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    own = expected_reboots(plan)
    return one_file(
        scenario,
        BASE_RULES,
        play(plan).bytes(),
        reboots=own,
        note=f"plan: {own} completed compressions.",
        container="json" if era in WHOLE_FILE_ERAS else "jsonl",
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
