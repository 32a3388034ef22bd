"""opencode's adapter to the one case builder: a (scenario, era) pair played into a store (an
`input/` folder: a database or a storage folder) and the session asked about.

The expectation comes from the store plan (`expected_reboots`) or from the rejection the plan's
content calls for (`expected_rejection`); the files are never read back to decide it.
"""

from __future__ import annotations

from typing import Any

from ..scenario import Adapter, Made, Scenario, in_input_folder, own_note
from .files import render
from .plan import OcStore, all_compactions, expected_reboots, expected_rejection
from .scenarios import BASE_RULES, HOST, KILO_RULES, SCENARIOS

# A rejected store shows no count and no compaction: these base rules are then not shown,
# unless the scenario cites them itself.
NOT_SHOWN_BY_REJECTION = frozenset({"OUT-4", "OPC-4", "RBT-1"})


def make(scenario: Scenario[OcStore], era: str) -> Made:
    assert scenario.plan is not None, scenario.name
    store = scenario.plan(era)
    files = render(store)
    rejection = expected_rejection(store)
    expect: dict[str, Any]
    rules = {*BASE_RULES, *scenario.rules}
    if scenario.host != HOST:  # a member of the family (Kilo): its own eras and answer
        rules = (rules - {"OPC-2"}) | set(KILO_RULES)
    if rejection is None:
        expect = {"outcome": "count", "reboots": expected_reboots(store)}
    else:
        expect = {"outcome": "reject", "error": rejection, "line": 0}  # OPC-11, OPC-12
        rules -= NOT_SHOWN_BY_REJECTION - set(scenario.rules)
    container = "storage" if files.input == "storage" else "sqlite"  # OPC-1
    tags = {*scenario.tags, "opencode-storage" if container == "storage" else "opencode-database"}
    if scenario.host != HOST:
        tags.discard("opencode-database")  # its own tag: kilo-database
    return Made(
        in_input_folder(files.files),
        container,
        expect,
        rules,
        tags,
        note=_note(store) if rejection is None else "",
        input=files.input,
        session=files.session,
        plan=store,
    )


def _note(store: OcStore) -> str:
    """What the plan holds, in the comment: the case session's own and copied compactions."""
    session = store.sessions[store.selected or 0]
    own = expected_reboots(store)
    copied = all_compactions(store.era, session) - own if session.fork_of is not None else 0
    return own_note(own, copied, "copied by the fork (not counted)")


ADAPTER = Adapter(SCENARIOS, make)
