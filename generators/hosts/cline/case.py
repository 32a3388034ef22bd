"""The Cline family's adapter to the one case builder: a (scenario, era) pair played into a task
folder (or an SDK session folder), given to the candidate as the folder.

The answer is the plan's (`plan.expected`: CLN-4..CLN-12), never read back from the files.
"""

from __future__ import annotations

from typing import Any

from ..scenario import Adapter, Made, Scenario, cited, in_input_folder
from .plan import TaskPlan, expected, kept_steps
from .scenarios import BASE_RULES, SCENARIOS
from .writer import play


def make(scenario: Scenario[TaskPlan], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    plan = scenario.plan(era)
    files = play(plan)
    outcome, value = expected(plan)
    expect: dict[str, Any]
    if outcome == "count":
        expect = {"outcome": "count", "reboots": value}
    else:
        # ERR-3's line: the writers put each array on one line (JSON.stringify), so a document
        # that ends early fails inside line 1; the other rejections are of whole files (line 0)
        expect = {"outcome": "reject", "error": value, "line": 1 if value == "E-JSON" else 0}
    if scenario.reject is not None:
        assert scenario.reject == value, f"{scenario.name}: the plan says {value}"
    folder = plan.task_id
    # CLN-1: the candidate is given the task folder, or (option "ui-file") its ui_messages.json
    # CLN-12: an SDK session folder, or (option "sdk-file") its <id>.messages.json
    given = {
        "ui-file": f"{folder}/ui_messages.json",
        "sdk-file": f"{folder}/{folder}.messages.json",
    }.get(scenario.options or "", folder)
    removed = len(plan.steps) - len(kept_steps(plan))
    note = f"plan: {outcome} {value}; {len(plan.steps)} steps" + (
        f", {removed} of them removed by a restore." if removed else "."
    )
    return Made(
        in_input_folder({f"{folder}/{name}": data for name, data in files.items()}),
        "folder",
        expect,
        cited(scenario, BASE_RULES, expect),
        scenario.tags,
        note=note,
        input=given,
        plan=plan,
    )


ADAPTER = Adapter(SCENARIOS, make)
