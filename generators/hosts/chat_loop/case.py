"""basic-agent-chat-loop's adapter to the one case builder: a (scenario, era) pair played into
a session folder, and the file the candidate is asked about.

The answer is the plan's (`plan.expected`: BCL-4, BCL-6), never read back from the files.
"""

from __future__ import annotations

from typing import Any

from ..scenario import Adapter, Made, Scenario, cited, in_input_folder
from .plan import ChatPlan, expected
from .scenarios import BASE_RULES, SCENARIOS
from .writer import RESUMED_FROM_LINE, play


def make(scenario: Scenario[ChatPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    folder = play(plan)
    name = folder.name_of(plan.ask)
    inputs = folder.output()
    outcome, value = expected(plan)
    expect: dict[str, Any]
    if outcome == "count":
        expect = {"outcome": "count", "reboots": value}
    else:
        # ERR-16: E-CHAIN names the asked file's `**Resumed From:**` line (BCL-6); E-HOST and
        # E-EMPTY the whole file (BCL-1).
        line = RESUMED_FROM_LINE if value == "E-CHAIN" else 0
        expect = {"outcome": "reject", "error": value, "line": line}
    if scenario.reject is not None:
        assert scenario.reject == value, f"{scenario.name}: the plan says {value}"
    return Made(
        in_input_folder(inputs),
        "markdown",
        expect,
        cited(scenario, BASE_RULES, expect),
        scenario.tags,
        note=f"plan: {outcome} {value}; the folder holds {len(inputs)} files.",
        input=name,
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
