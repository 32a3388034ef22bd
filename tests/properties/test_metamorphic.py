"""Metamorphic properties of the reference: transformations of a session that keep its count.

Each test plays a random plan (the fuzzer's cases, drawn by generators.hosts.vscode.strategies and
written by the generator's session model and writer), transforms the session in a way the spec
says cannot change the count, and checks the reference gives the same count before and after.
The count itself is checked too, against the plan's own expectation, so these properties are
never the only check of the count.
"""

from __future__ import annotations

from dataclasses import replace

import orjson
from hypothesis import given
from hypothesis import strategies as st

from rebootspec.conformance.fuzzing.plans import FuzzCase, fuzz_cases, play_case
from rebootspec.generators.hosts.vscode.plan import (
    Compaction,
    Flag,
    Plan,
    Remove,
    Retry,
    Send,
    Step,
    Turn,
    expected_events,
    expected_reboots,
    expected_summaries,
)
from rebootspec.reference.core.errors import W_TORN_TAIL
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import load_flat, replay_bytes

CASES = fuzz_cases(max_steps=8)
LOGS = CASES.map(lambda case: replace(case, container="jsonl", old_marker_kind=False))


def reboots(data: bytes, container: str) -> int:
    """The reference's count of a session held in memory."""
    replay = load_flat(data) if container == "json" else replay_bytes(data)
    return count_state(replay.state).reboots


def planned(case: FuzzCase) -> int:
    return expected_reboots(case.plan)


@given(LOGS)
def test_one_initial_line_of_the_final_state_keeps_the_count(case: FuzzCase) -> None:
    data = play_case(case).data
    final = replay_bytes(data).state
    snapshot = orjson.dumps({"kind": 0, "v": final}) + b"\n"
    assert reboots(snapshot, "jsonl") == reboots(data, "jsonl") == planned(case)


@given(
    LOGS,
    st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    st.integers(0, 2**16),
    st.sampled_from([4, 40, 1024]),
)
def test_another_save_cadence_keeps_the_count(
    case: FuzzCase, save_rate: float, seed: int, rewrite_after: int
) -> None:
    other = replace(case, save_rate=save_rate, seed=seed, rewrite_after=rewrite_after)
    first, second = play_case(case).data, play_case(other).data
    assert reboots(first, "jsonl") == reboots(second, "jsonl") == planned(case)


def insert_send(plan: Plan, position: int, turn: Turn) -> Plan:
    """The plan with `turn` sent before step `position`; later removals, retries and flags are
    moved so they still address the same requests as before."""
    steps = list(plan.steps)
    alive = len(Plan(tuple(steps[:position]), plan.summary_field).final_turns())
    inserted: int | None = alive  # where the new request is now (None: gone)
    out: list[Step] = [*steps[:position], Send(turn)]
    for step in steps[position:]:
        if isinstance(step, Flag):
            if inserted is not None and step.index >= inserted:
                step = Flag(step.index + 1, step.partial, step.hidden)
        elif inserted is not None and isinstance(step, Remove):
            if step.index >= inserted:
                step = Remove(step.index + 1)
            else:
                inserted -= 1
        elif inserted is not None and isinstance(step, Retry):
            if step.index >= inserted:
                step = Retry(step.index + 1, step.turn)
            else:
                inserted = None
        out.append(step)
    return Plan(tuple(out), plan.summary_field)


NEUTRAL_TURNS = {
    "cancelled compaction": Turn("Fix it", (Compaction(None, cancelled=True),), tools=1),
    "phantom": Turn("Fix it", (Compaction(None),), tools=1),
    "phantom then cancelled": Turn(
        "Fix it", (Compaction(None), Compaction(None, cancelled=True)), tools=2
    ),
}


@given(LOGS, st.sampled_from(sorted(NEUTRAL_TURNS)), st.data())
def test_inserting_a_cancelled_compaction_or_a_phantom_keeps_the_count(
    case: FuzzCase, name: str, data: st.DataObject
) -> None:
    position = data.draw(st.integers(0, len(case.plan.steps)), label="position")
    plan = insert_send(case.plan, position, NEUTRAL_TURNS[name])
    assert expected_summaries(plan) == expected_summaries(case.plan)  # the edit is neutral
    edited = replace(case, plan=plan)
    before, after = play_case(case).data, play_case(edited).data
    assert reboots(after, "jsonl") == reboots(before, "jsonl") == planned(case)


@given(LOGS)
def test_repeating_the_last_summary_at_once_keeps_the_count(case: FuzzCase) -> None:
    events = expected_events(case.plan)
    if not events or events[-1][0] != "text":
        return
    # one tool round: the compaction anchors on the previous request, so only its entry
    # (the pair, in the array era) holds the text: the same key as the last event (CNT-2)
    repeat = Turn("Go on", (Compaction(events[-1][1]),), tools=1)
    plan = Plan((*case.plan.steps, Send(repeat)), case.plan.summary_field)
    edited = replace(case, plan=plan)
    before, after = play_case(case).data, play_case(edited).data
    assert reboots(after, "jsonl") == reboots(before, "jsonl") == planned(case)


@given(LOGS, st.data())
def test_appending_a_torn_line_keeps_the_count(case: FuzzCase, data: st.DataObject) -> None:
    whole = replace(case, torn_tail=False)
    played = play_case(whole).data
    assert played.endswith(b"\n")
    entry = orjson.dumps({"kind": 1, "k": ["inputState", "inputText"], "v": "and then we"})
    cut = data.draw(st.integers(1, len(entry) - 1), label="cut")
    torn = played + entry[:cut]
    replay = replay_bytes(torn)
    assert W_TORN_TAIL in {notice.code for notice in replay.notices}
    assert reboots(torn, "jsonl") == reboots(played, "jsonl") == planned(case)


@given(CASES)
def test_the_json_and_jsonl_forms_of_a_session_agree(case: FuzzCase) -> None:
    log = play_case(replace(case, container="jsonl", torn_tail=False, old_marker_kind=False))
    flat = play_case(replace(case, container="json", torn_tail=False, old_marker_kind=False))
    assert reboots(flat.data, "json") == reboots(log.data, "jsonl") == planned(case)
