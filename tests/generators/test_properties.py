"""Property tests: any written log replays to the model's final state, and counts as planned.

The replay and the count are the reference's; the expectation is the plan's own
(`expected_reboots`), so a disagreement is a bug in the writer, the plan or the reference.
"""

from __future__ import annotations

from hypothesis import given

from rebootspec.generators.hosts.vscode.legacy import to_legacy
from rebootspec.generators.hosts.vscode.model import SESSION, extract
from rebootspec.generators.hosts.vscode.plan import (
    expected_phantoms,
    expected_reboots,
    expected_reboots_possible,
)
from rebootspec.generators.hosts.vscode.strategies import Drawn, drawn_sessions
from rebootspec.generators.hosts.vscode.writer import flat_json
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import load_flat, replay_bytes


@given(drawn_sessions())
def test_replaying_the_log_gives_the_final_state(drawn: Drawn) -> None:
    player = drawn.play()
    replayed = replay_bytes(player.writer.bytes())
    assert replayed.state == extract(SESSION, player.session.state)
    assert replayed.notices == []


@given(drawn_sessions())
def test_the_count_of_a_written_log_agrees_with_the_plan(drawn: Drawn) -> None:
    player = drawn.play()
    state = replay_bytes(player.writer.bytes()).state
    assert count_state(state).reboots == expected_reboots(drawn.plan)


@given(drawn_sessions())
def test_the_phantoms_of_a_written_log_agree_with_the_plan(drawn: Drawn) -> None:
    """OUT-3 (informative): phantom reasons and reboots_possible as the plan states them."""
    player = drawn.play()
    result = count_state(replay_bytes(player.writer.bytes()).state)
    assert [(v.index, v.phantom_reason) for v in result.phantoms] == expected_phantoms(drawn.plan)
    assert result.reboots_possible == expected_reboots_possible(drawn.plan)


@given(drawn_sessions(max_turns=12))
def test_the_count_of_a_flat_json_agrees_with_the_plan(drawn: Drawn) -> None:
    player = drawn.play()
    state = load_flat(flat_json(to_legacy(player.session.state))).state
    assert count_state(state).reboots == expected_reboots(drawn.plan)


@given(drawn_sessions(max_turns=8))
def test_the_same_draw_writes_the_same_bytes(drawn: Drawn) -> None:
    assert drawn.play().writer.bytes() == drawn.play().writer.bytes()
