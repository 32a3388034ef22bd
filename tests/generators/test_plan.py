"""The expected counts of a plan, on plans whose answer a person can check by hand.

Spec 2.0 (expected_reboots): events of the stored evidence (SUM-1, SUM-6, SUM-7, SUM-2 in the
order of SUM-8), CNT-2 key comparison, CNT-5/CNT-6 removal flags. Spec 1.0
(expected_reboots_v1): summaries of requests with a completed English marker only.
"""

from __future__ import annotations

from rebootspec.generators.hosts.vscode.plan import (
    Compaction,
    Flag,
    Fork,
    Plan,
    Remove,
    Retry,
    Send,
    Step,
    Turn,
    TypeUntilRewrite,
    expected_phantoms,
    expected_reboots,
    expected_reboots_possible,
    expected_reboots_v1,
    plan_tags,
    positions,
)


def auto(*summaries: str | None, cancelled: bool = False, tools: int = 2) -> Send:
    compactions = tuple(Compaction(s) for s in summaries)
    if cancelled:
        compactions += (Compaction(None, cancelled=True),)
    return Send(Turn("go", compactions, tools=tools))


def at(*pairs: tuple[str | None, int], tools: int = 4, **options: object) -> Send:
    compactions = tuple(Compaction(s, at=n) for s, n in pairs)
    return Send(Turn("go", compactions, tools=tools, **options))  # type: ignore[arg-type]


def plan(field: str, *steps: Step, **options: object) -> Plan:
    return Plan(tuple(steps), field, **options)  # type: ignore[arg-type]


def count(field: str, *steps: Step, **options: object) -> int:
    return expected_reboots(plan(field, *steps, **options))


def count_v1(field: str, *steps: Step, **options: object) -> int:
    return expected_reboots_v1(plan(field, *steps, **options))


def test_the_spec_examples() -> None:
    assert count("summary", auto("A"), auto("B"), auto("A")) == 3
    assert count("summary", auto("A"), auto("A")) == 1
    assert count("summary", auto("A"), auto(None), auto("A")) == 1
    # rounds [A, B] + summary B -> 2
    assert count("summary", at(("A", 2), ("B", 3))) == 2
    # summaries [A, A, ""] -> 1
    assert count("summaries", auto("A", None)) == 1
    # A in request 3 and summary A in request 4 -> 1
    assert count("summary", auto(), auto(), auto("A"), auto("A")) == 1


def test_default_positions_end_after_the_last_tool_round() -> None:
    assert positions(Turn("go", (Compaction("A"),), tools=2)) == [2]
    assert positions(Turn("go", (Compaction("A"), Compaction("B")), tools=3)) == [2, 3]
    assert positions(
        Turn("go", (Compaction("A"), Compaction("B")), tools=3, marker_first=True)
    ) == [
        0,
        3,
    ]
    assert positions(Turn("go", (Compaction("A", at=9),), tools=2)) == [2]


def test_rounds_keep_every_summary_the_singular_field_only_the_last() -> None:
    # SUM-6: rounds 1 and 3 keep A and B; the singular summary holds only B
    assert count("summary", auto("Z"), at(("A", 2), ("B", 4))) == 3
    assert count_v1("summary", auto("Z"), at(("A", 2), ("B", 4))) == 2
    # anchored on the previous request (one round so far): only the entry holds the text
    assert count("summary", auto("Z"), at(("A", 1), ("B", 4))) == 2
    assert count("summaries", auto("Z"), at(("A", 1), ("B", 4))) == 3


def test_the_summaries_pair_counts_once() -> None:
    assert count("summaries", auto("A")) == 1
    assert count_v1("summaries", auto("A")) == 1


def test_error_results_keep_rounds_and_drop_entries() -> None:
    four = at(("A", 2), ("B", 4), ("C", 8), ("D", 11), tools=11, error="fetch")
    assert count("summary", four) == 4
    assert count_v1("summary", four) == 0
    lost = at(("B", 1), tools=3, error="fetch")
    p = plan("summaries", auto("A"), lost)
    assert expected_reboots(p) == 1
    assert expected_phantoms(p) == [(1, "lost-after-error")]
    assert expected_reboots_possible(p) == 2
    gone = plan("summary", auto("A"), at(("B", 2), error="no-response"))
    assert expected_reboots(gone) == 1
    assert expected_phantoms(gone) == [(1, "unknown")]


def test_cleared_markers_keep_their_summaries() -> None:
    cleared = Send(Turn("go", (Compaction("B"),), tools=2, retry="filter"))
    assert count("summary", auto("A"), cleared) == 2
    assert count_v1("summary", auto("A"), cleared) == 1
    assert "marker-cleared" in plan_tags(plan("summary", auto("A"), cleared))


def test_translated_markers_count_in_2_0_only() -> None:
    assert count("summary", auto("A"), auto("B"), locale="tr") == 2
    assert count_v1("summary", auto("A"), auto("B"), locale="tr") == 0


def test_provider_compactions_count_by_id() -> None:
    two = Send(Turn("go", provider=("cmp_1", "cmp_2"), tools=3))
    assert count("summary", two) == 2
    assert count("summary", two, Send(Turn("go", provider=("cmp_2",)))) == 2  # same id
    assert count("summary", two, Send(Turn("go", provider=("cmp_1",)))) == 3
    assert count_v1("summary", two) == 0


def test_background_passes() -> None:
    passed = Send(Turn("go", tools=3, background_pass="A"))
    applied = Send(Turn("go", (Compaction("A", at=0, background=True), Compaction("B", at=2))))
    # round A in request 1, summaries [A(background), B, B] + round B in request 2 -> 2
    assert count("summaries", auto(), passed, applied) == 2
    assert count("summary", auto(), passed, applied) == 2
    only = Send(Turn("go", (Compaction("A", at=0, background=True),), tools=1))
    p = plan("summary", passed, only)
    assert expected_reboots(p) == 1
    assert expected_phantoms(p) == [(1, "unknown")]


def test_removal_flags_count_when_they_reach_the_file() -> None:
    steps = (auto("A"), auto("B"), auto("C"), Flag(1))
    assert count("summary", *steps, TypeUntilRewrite()) == 2
    assert count("summary", *steps) == 3  # a sealed request's flag is not appended (UNC-6)
    assert count("summary", *steps, container="json") == 2
    assert count("summary", *steps, Remove(0)) == 1  # A removed, B re-pushed with its flag
    assert count("summary", auto("A"), auto("B"), Flag(1, partial=True), TypeUntilRewrite()) == 2
    hidden = (auto("A"), auto("B"), Flag(1, hidden=True))
    assert count("summary", *hidden, container="json") == 1
    assert count_v1("summary", *hidden, container="json") == 2


def test_a_fork_copies_everything_and_clears_flags() -> None:
    steps = (auto("A"), auto("B"), Flag(1), Fork("t"), auto("C"))
    assert count("summary", *steps, container="json") == 3
    stopped = plan("summary", auto(None, cancelled=True), Fork("t"))
    assert expected_phantoms(stopped) == [(0, "unknown")]  # modelState forced Complete


def test_truncated_texts_compare_as_stored() -> None:
    a, b = "a" * 50, "b" * 50
    assert count("summaries", auto(a), auto(b), truncate_over=20) == 1
    assert count("summaries", auto(a), auto(b + "b"), truncate_over=20) == 2


def test_cancelled_turns_store_nothing() -> None:
    assert count("summary", auto("A"), auto("B", cancelled=True)) == 1
    p = plan("summaries", Send(Turn("go", (Compaction(None, cancelled=True),))))
    assert expected_reboots(p) == 0
    assert expected_phantoms(p) == [(0, "cancelled")]


def test_removed_and_retried_requests_are_gone() -> None:
    assert count("summary", auto("A"), auto("B"), Remove(1)) == 1
    assert count("summary", auto("A"), auto("B"), auto("C"), Retry(1, Turn("again"))) == 1


def test_compact_and_stray_summaries() -> None:
    manual = Send(Turn("/compact", manual="B"))
    stray = Send(Turn("go", stray_summary="Z"))
    # 2.0 counts the stray summary (SUM-5): A, B, Z, B
    assert count("summaries", auto("A"), manual, stray, auto("B")) == 4
    assert count_v1("summaries", auto("A"), manual, stray, auto("B")) == 2


def tags(field: str, *steps: Step) -> set[str]:
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
    assert "count-changed-v2" in tags("summary", at(("A", 2), ("B", 3)))
    assert "count-changed-v2" not in tags("summary", auto("A"))
    assert "summaries-pair" in tags("summaries", auto("A"))
