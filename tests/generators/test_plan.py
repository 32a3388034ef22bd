"""The expected count of a plan, on plans whose answer a person can check by hand (CNT-2/CNT-3)."""

from __future__ import annotations

from generators.plan import (
    Compaction,
    Plan,
    Remove,
    Retry,
    Send,
    Turn,
    expected_reboots,
    plan_tags,
)


def auto(*summaries: str | None, cancelled: bool = False) -> Send:
    compactions = tuple(Compaction(s) for s in summaries)
    if cancelled:
        compactions += (Compaction(None, cancelled=True),)
    return Send(Turn("go", compactions))


def count(field: str, *steps: Send | Remove | Retry) -> int:
    return expected_reboots(Plan(tuple(steps), field))


def test_the_spec_examples() -> None:
    assert count("summary", auto("A"), auto("B"), auto("A")) == 3
    assert count("summary", auto("A"), auto("A")) == 1
    assert count("summary", auto("A"), auto(None), auto("A")) == 1


def test_several_summaries_in_one_request_depend_on_the_era() -> None:
    assert count("summary", auto("A"), auto("B", "C")) == 2  # only the last is stored
    assert count("summaries", auto("A"), auto("B", "C")) == 3
    assert count("summaries", auto("A"), auto(None, "A")) == 1


def test_cancelled_turns_store_nothing() -> None:
    assert count("summary", auto("A"), auto("B", cancelled=True)) == 1
    assert count("summaries", Send(Turn("go", (Compaction(None, cancelled=True),)))) == 0


def test_removed_and_retried_requests_are_gone() -> None:
    assert count("summary", auto("A"), auto("B"), Remove(1)) == 1
    assert count("summary", auto("A"), auto("B"), auto("C"), Retry(1, Turn("again"))) == 1


def test_compact_and_stray_summaries() -> None:
    manual = Send(Turn("/compact", manual="B"))
    stray = Send(Turn("go", stray_summary="Z"))
    assert count("summaries", auto("A"), manual, stray, auto("B")) == 2


def tags(field: str, *steps: Send | Remove | Retry) -> set[str]:
    return plan_tags(Plan(tuple(steps), field))


def test_tags_read_off_a_plan() -> None:
    assert {"aba", "back-to-back"} <= tags("summary", auto("A"), auto("B"), auto("A"))
    assert "repeat-summary" in tags("summary", auto("A"), Send(Turn("x")), auto("A"))
    assert "back-to-back" not in tags("summary", auto("A"), Send(Turn("x")), auto("A"))
    assert tags("summary", auto("A", "B")) >= {"multi-compaction"}
    assert "phantom" in tags("summary", auto(None))
    assert "failed-summary" in tags("summaries", auto(None, "A"))
    assert "failed-summary" not in tags("summary", auto(None, "A"))
    assert "request-removed" in tags("summary", auto("A"), Remove(0))
    assert "request-removed" not in tags("summary", Send(Turn("x")), Remove(0))
    assert "request-replaced" in tags("summary", auto("A"), Retry(0, Turn("again")))
