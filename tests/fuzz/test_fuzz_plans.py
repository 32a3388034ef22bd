"""The drawn sessions: valid plans the era allows, and metadata the corpus lint accepts."""

from __future__ import annotations

from hypothesis import given

from rebootspec.conformance.fuzzing.describe import case_rules, case_tags, title
from rebootspec.conformance.fuzzing.plans import FuzzCase, fuzz_cases, play_case
from rebootspec.conformance.runner.corpus import known_tags
from rebootspec.generators.corpus.cases import title_count
from rebootspec.generators.corpus.lint import SPEC, protocol_rules, spec_rules
from rebootspec.generators.hosts.vscode.eras import eras
from rebootspec.generators.hosts.vscode.plan import Remove, Retry, Send, Turn, expected_reboots
from rebootspec.generators.hosts.vscode.strategies import compile_plan, manual_allowed

TAGS = set(known_tags())
RULES = set(spec_rules(SPEC)[0]) | set(protocol_rules(SPEC))


@given(fuzz_cases())
def test_a_drawn_plan_is_valid_and_keeps_a_request(case: FuzzCase) -> None:
    turns = case.plan.final_turns()  # raises on an index past the alive requests
    assert turns
    assert case.container in case.era.containers
    if any(t.manual is not None for t in turns):
        assert manual_allowed(case.era)
    if case.old_marker_kind:
        assert case.container == "json"
    assert expected_reboots(case.plan) <= len(turns) * 3


@given(fuzz_cases())
def test_the_metadata_uses_known_tags_and_rules(case: FuzzCase) -> None:
    played = play_case(case)
    tags = case_tags(case, played)
    assert tags and set(tags) <= TAGS
    rules = case_rules(case, tags)
    assert "CNT-2" in rules and set(rules) <= RULES
    text = title(case, tags)
    assert 10 <= len(text) <= 140
    assert title_count(text) == expected_reboots(case.plan)
    assert ("torn-tail" in tags) == case.torn_tail


def test_indexes_are_fitted_to_the_requests_alive() -> None:
    era = eras()[0]
    plain = Turn("?", tools=0)
    plan = compile_plan([Remove(3), Send(plain), Send(plain), Remove(7), Retry(5, plain)], era)
    # nothing alive: the first Remove goes; 7 % 2 = 1; one request left, so the retry is at 0
    assert plan.steps[2] == Remove(1)
    assert isinstance(plan.steps[3], Retry) and plan.steps[3].index == 0
    assert len(plan.final_turns()) == 1
    # a plan that leaves nothing ends with a plain request
    assert len(compile_plan([Send(plain), Remove(0)], era).final_turns()) == 1
