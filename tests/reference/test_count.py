"""Spec 2.0 counting rules (CNT-*, SUM-*, MRK-*, OUT-*, LEG-2) on hand-built final states.

Summary texts are letters and provider ids are `p1`, `p2`; every expected number below was worked
out by hand from the rule the test names (the 2.0 brief and SPEC.md), never by running the code.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.count import count_state, md5_hex

DONE = "Compacted conversation"
OLD_DONE = "Summarized conversation history"
TURKISH_DONE = "Özetlenmiş konuşma geçmişi"
IN_PROGRESS = "Compacting conversation..."
TRUNCATED = "[VS Code: value truncated for persistence; original 90000 chars]"


def marker(text: str = DONE, kind: str = "progressTaskSerialized") -> dict[str, Any]:
    return {"kind": kind, "content": {"value": text, "isTrusted": False}, "progress": []}


def md(text: str) -> dict[str, Any]:
    return {"value": text, "supportThemeIcons": False}


def round_(summary: str | None = None, provider: str | None = None, **extra: Any) -> dict[str, Any]:
    """A tool-call round, optionally with a summary text (SUM-6) and a provider id (SUM-7)."""
    out: dict[str, Any] = {"id": "round", "response": "", "toolCalls": []}
    if summary is not None:
        out["summary"] = summary
    if provider is not None:
        out["compaction"] = {"type": "compaction", "id": provider, "encrypted_content": "x"}
    out.update(extra)
    return out


def req(
    *parts: Any,
    summary: Any = None,
    summaries: list[Any] | None = None,
    rounds: list[Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A request whose response holds `parts` and whose result stores the given evidence.

    `summaries` entries and `summary` may be strings (a text) or any JSON value (used as is);
    `rounds` entries may be strings (a round with that summary) or any JSON value.
    """
    metadata: dict[str, Any] = {}
    if summaries is not None:
        metadata["summaries"] = [
            {"toolCallRoundId": "round", "text": s} if isinstance(s, str) else s for s in summaries
        ]
    if rounds is not None:
        metadata["toolCallRounds"] = [round_(r) if isinstance(r, str) else r for r in rounds]
    if summary is not None:
        metadata["summary"] = (
            {"toolCallRoundId": "round", "text": summary} if isinstance(summary, str) else summary
        )
    out: dict[str, Any] = {"requestId": "request_x", "message": {"text": "go"}}
    out["response"] = list(parts)
    if metadata:
        out["result"] = {"metadata": metadata}
    out.update(extra)
    return out


def plain() -> dict[str, Any]:
    """A request with no marker and no evidence."""
    return req(md("working on it"))


def reboots(*requests: Any) -> int:
    return count_state({"requests": list(requests)}).reboots


def details(*requests: Any) -> dict[str, Any]:
    return count_state({"requests": list(requests)}).to_json()


def codes(*requests: Any) -> list[str]:
    return [n.code for n in count_state({"requests": list(requests)}).notices]


def from_file(folder: Path, container: str, *requests: Any) -> dict[str, Any]:
    """The answer of `count_path` (the reference's default path, as the CLI runs it) for the
    requests written as a flat session `.json` or a one-line `.jsonl` log."""
    state = {"version": 3, "sessionId": "s1", "requests": list(requests)}
    path = folder / f"session.{container}"
    if container == "json":
        path.write_bytes(orjson.dumps(state))
    else:
        path.write_bytes(orjson.dumps({"kind": 0, "v": state}) + b"\n")
    return count_path(path).to_json()


CONTAINERS = pytest.mark.parametrize("container", ["json", "jsonl"])


# CNT-2: the examples of the brief, one case each ------------------------------------------

BACKGROUND_A = {"toolCallRoundId": "round", "text": "A", "source": "background"}

CNT2_EXAMPLES = [
    pytest.param([req(summary="A")], 1, id="A->1"),
    pytest.param([req(summary="A"), req(summary="A")], 1, id="A,A->1"),
    pytest.param([req(summary="A"), req(summary="B"), req(summary="A")], 3, id="A,B,A->3"),
    pytest.param([req(rounds=["A", "B"], summary="B")], 2, id="rounds[A,B]+summary-B->2"),
    pytest.param([req(summaries=["A", "A", ""])], 1, id="summaries[A,A,empty]->1"),
    pytest.param(
        [plain(), plain(), req(rounds=["A"]), req(summary="A")],
        1,
        id="round-A-in-request-3+summary-A-in-request-4->1",
    ),
    pytest.param(
        [req(rounds=["A"]), req(summaries=[BACKGROUND_A, "B", "B"], rounds=["B"])],
        2,
        id="round-A|summaries[A(background),B,B]+round-B->2",
    ),
    pytest.param(
        [req(rounds=[round_(provider="p1")]), req(rounds=[round_(provider="p2")])],
        2,
        id="provider-p1|provider-p2->2",
    ),
    pytest.param(
        [req(rounds=[round_(provider="p1"), round_(provider="p2")])],
        2,
        id="provider-p1,p2-in-one-request->2",
    ),
    pytest.param(
        [req(rounds=[round_(provider="p1"), round_(provider="p1")])],
        1,
        id="same-provider-id-twice-in-one-request->1",
    ),
    pytest.param(
        [req(rounds=[round_(provider="X")]), req(summary="X")],
        2,
        id="provider-id-X|summary-text-X->2",
    ),
    pytest.param(
        [req(rounds=[round_(summary="X", provider="X")])],
        2,
        id="round-summary-X+provider-id-X-in-one-request->2",
    ),
]


@pytest.mark.parametrize(("requests", "expected"), CNT2_EXAMPLES)
def test_cnt2_examples_of_the_brief(requests: list[dict[str, Any]], expected: int) -> None:
    assert reboots(*requests) == expected


@CONTAINERS
@pytest.mark.parametrize(("requests", "expected"), CNT2_EXAMPLES)
def test_cnt2_examples_of_the_brief_from_a_file(
    tmp_path: Path, container: str, requests: list[dict[str, Any]], expected: int
) -> None:
    assert from_file(tmp_path, container, *requests)["reboots"] == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["A", "B"], 2),
        (["A", None, "A"], 1),  # A | phantom | A: the phantom does not reset (CNT-3)
        (["A", None, "B"], 2),
        ([None], 0),
        ([None, None], 0),
        ([], 0),
    ],
)
def test_cnt2_cnt3_text_change_across_requests(texts: list[str | None], expected: int) -> None:
    requests = [req(marker(), summary=t) if t is not None else req(marker()) for t in texts]
    assert reboots(*requests) == expected


def test_cnt2_texts_compare_exactly() -> None:
    assert reboots(req(summary="A"), req(summary="A "), req(summary="a")) == 3


def test_cnt2_a_request_without_events_does_not_reset_the_previous_provider_key() -> None:
    assert (
        reboots(req(rounds=[round_(provider="p1")]), plain(), req(rounds=[round_(provider="p1")]))
        == 1
    )


def test_cnt1_non_object_requests_are_skipped() -> None:
    assert reboots(None, req(summary="A"), 7, "x", [], req(summary="B")) == 2


def test_cnt1_requests_absent_means_no_requests() -> None:
    assert count_state({}).reboots == 0


def test_err5_requests_not_an_array_is_rejected() -> None:
    with pytest.raises(Rejection) as caught:
        count_state({"requests": {"0": req(summary="A")}})
    assert (caught.value.line, caught.value.code) == (0, "E-STATE")


# SUM-1, SUM-2, SUM-3: entries and the singular summary -------------------------------------


def test_sum1_sum2_summaries_array_and_summary_are_both_read() -> None:
    # summaries A, B then summary Z: three different keys in a row.
    assert reboots(req(summaries=["A", "B"], summary="Z")) == 3


def test_sum1_sum2_empty_summaries_array_does_not_hide_summary() -> None:
    assert reboots(req(marker(), summaries=[], summary="Z")) == 1


def test_sum1_summaries_not_an_array_is_ignored_and_summary_still_counts() -> None:
    request = req(summary="A")
    request["result"]["metadata"]["summaries"] = {"0": {"text": "B"}}
    assert reboots(request) == 1


def test_sum2_summary_equal_to_a_summaries_entry_is_one_event() -> None:
    assert reboots(req(summaries=["A", "A"], summary="A")) == 1


@pytest.mark.parametrize("text", ["", None, 5, ["A"], {"value": "A"}])
def test_sum2_summary_text_must_be_a_non_empty_string(text: Any) -> None:
    assert reboots(req(marker(), summary={"text": text})) == 0


def test_sum2_summary_that_is_not_an_object_is_no_event() -> None:
    request = req(marker())
    request["result"] = {"metadata": {"summary": "A"}}
    assert reboots(request) == 0


@pytest.mark.parametrize(
    "result",
    [None, "A", [], {"metadata": None}, {"metadata": [{"summary": {"text": "A"}}]}],
)
def test_sum1_no_metadata_object_no_events(result: Any) -> None:
    assert reboots(req(marker(), result=result)) == 0


def test_sum3_failure_entries_are_no_events_and_warn() -> None:
    failures = [
        {"toolCallRoundId": "", "text": "", "outcome": "budgetExceeded"},
        {"toolCallRoundId": "", "outcome": "error"},
        {"text": None},
        {"text": 7},
        5,
        "",
    ]
    request = req(marker(), summaries=failures)
    assert reboots(request) == 0
    assert "W-FAILED-SUMMARY" in codes(request)


def test_sum3_failure_entries_between_texts_change_nothing() -> None:
    # A, (failure), A, (failure), B -> A, B after de-duplication: 2.
    request = req(marker(), summaries=["A", {"text": "", "outcome": "error"}, "A", 5, "B"])
    assert reboots(request) == 2


# SUM-6, SUM-7: rounds ----------------------------------------------------------------------


@pytest.mark.parametrize("summary", ["", None, 5, ["A"], {"text": "A"}])
def test_sum6_round_summary_must_be_a_non_empty_string(summary: Any) -> None:
    assert reboots(req(rounds=[{"id": "r", "summary": summary}])) == 0


def test_sum6_rounds_that_are_not_objects_are_skipped() -> None:
    assert reboots(req(rounds=[None, 3, ["A"], round_("A"), round_("B")])) == 2


def test_sum6_tool_call_rounds_not_an_array_is_ignored() -> None:
    request = req(summary="A")
    request["result"]["metadata"]["toolCallRounds"] = {"0": {"summary": "B"}}
    assert reboots(request) == 1


@pytest.mark.parametrize(
    "compaction",
    [
        None,
        True,
        "p1",
        {"type": "compaction"},
        {"type": "compaction", "id": ""},
        {"type": "compaction", "id": 7},
        {"type": "compaction", "id": ["p1"]},
    ],
)
def test_sum7_provider_event_needs_an_object_with_a_non_empty_string_id(compaction: Any) -> None:
    assert reboots(req(rounds=[{"id": "r", "compaction": compaction}])) == 0


def test_sum7_provider_compaction_counts_and_warns() -> None:
    request = req(rounds=[round_(), round_(provider="p1")])
    assert reboots(request) == 1
    assert "W-PROVIDER-COMPACTION" in codes(request)


# SUM-8: order and de-duplication inside a request ------------------------------------------


def test_sum8_summaries_before_rounds_before_summary() -> None:
    """Round A, then request 2 with summaries [A, B, B] and round B (the over-count example).

    In SUM-8 order the walk is A | A, B = 2 reboots. Reading rounds first would give
    A | B, A = 3: a counter that does so over-counts here.
    """
    requests = [req(rounds=["A"]), req(summaries=["A", "B", "B"], rounds=["B"])]
    assert reboots(*requests) == 2


def test_sum8_summary_comes_after_the_rounds() -> None:
    # Request 1 ends with B. Request 2: round B then summary A -> B | B, A = 2 reboots.
    # (summary before the rounds would give B | A, B = 3.)
    assert reboots(req(summary="B"), req(rounds=["B"], summary="A")) == 2


def test_sum8_round_summary_before_its_provider_compaction() -> None:
    # Request 1 ends with provider p1. Request 2's round: summary A, then provider p1
    # -> p1 | A, p1 = 3 (provider first would give p1 | p1, A = 2).
    requests = [req(rounds=[round_(provider="p1")]), req(rounds=[round_("A", provider="p1")])]
    assert reboots(*requests) == 3


def test_sum8_event_sources_in_order() -> None:
    request = req(summaries=["A"], rounds=[round_("B", provider="p1")], summary="C")
    out = details(request)
    assert out["reboots"] == 4
    assert [e["source"] for e in out["reboot_events"]] == [
        "summaries[0]",
        "toolCallRounds[0].summary",
        "toolCallRounds[0].compaction",
        "summary",
    ]
    assert [e["kind"] for e in out["reboot_events"]] == ["text", "text", "provider", "text"]


def test_sum8_de_duplication_is_within_a_request_only() -> None:
    # Within: A, A -> one event. Across: A | A is still compared by CNT-2 (no reboot).
    out = details(req(summaries=["A", "A"]), req(summary="A"))
    assert out["reboots"] == 1
    assert [(d["request"], d["source"]) for d in out["duplicates"]] == [(1, "summary")]


def test_sum8_a_key_repeated_after_another_in_the_same_request_is_dropped() -> None:
    # summaries [A, B, A]: the second A already occurred in this request, so A, B = 2.
    assert reboots(req(summaries=["A", "B", "A"])) == 2


# SUM-5 and MRK-*: markers never change the count --------------------------------------------


def test_sum5_events_without_a_marker_count_and_warn() -> None:
    request = req(md("plain answer"), summary="A")
    assert reboots(request) == 1
    assert codes(request) == ["W-NO-MARKER"]


def test_sum5_round_summary_without_a_marker_counts() -> None:
    assert reboots(req(md("plain"), rounds=["A"])) == 1


def test_sum5_no_warning_when_there_is_a_marker() -> None:
    assert "W-NO-MARKER" not in codes(req(marker(), summary="A"))


MARKER_VARIANTS = [
    pytest.param([], id="no-marker"),
    pytest.param([marker(DONE)], id="en-compacted-serialized"),
    pytest.param([marker(DONE, "progressTask")], id="en-compacted-progressTask"),
    pytest.param([marker(OLD_DONE)], id="en-summarized-serialized"),
    pytest.param([marker(OLD_DONE, "progressTask")], id="en-summarized-progressTask"),
    pytest.param([marker(TURKISH_DONE, "progressTask")], id="tr-progressTask"),
    pytest.param([marker(TURKISH_DONE)], id="tr-serialized"),
    pytest.param([marker(IN_PROGRESS)], id="in-progress"),
    pytest.param([marker("Collecting workspace information")], id="other-progress-task"),
    pytest.param([marker(DONE)] * 4, id="duplicated-marker-parts"),
    pytest.param([md(DONE)], id="marker-text-in-markdown"),
    pytest.param([marker(DONE, "progressMessage")], id="marker-text-in-progressMessage"),
]


@pytest.mark.parametrize("parts", MARKER_VARIANTS)
def test_mrk5_markers_never_change_the_count(parts: list[dict[str, Any]]) -> None:
    # The same evidence with any marker parts: A | B, A (summaries) | provider p1 = 4.
    requests = [
        req(*parts, summary="A"),
        req(*parts, summaries=["B", "A"]),
        req(*parts, rounds=[round_(provider="p1")]),
        req(*parts),
    ]
    assert reboots(*requests) == 4


@pytest.mark.parametrize(
    "part",
    [
        pytest.param(marker(DONE), id="en-compacted"),
        pytest.param(marker(OLD_DONE, "progressTask"), id="en-summarized-progressTask"),
        pytest.param(marker(TURKISH_DONE, "progressTask"), id="tr-progressTask"),
        pytest.param(marker(TURKISH_DONE), id="tr-progressTaskSerialized"),
    ],
)
def test_mrk1_era3_completed_markers_of_every_locale_are_recognised(part: dict[str, Any]) -> None:
    out = details(req(part))
    assert out["reboots"] == 0
    assert [(p["request"], p["marker"]) for p in out["phantoms"]] == [(0, part["content"]["value"])]
    assert "W-NO-MARKER" not in codes(req(part, summary="A"))


@pytest.mark.parametrize(
    "part",
    [
        pytest.param(marker("Collecting workspace information"), id="collecting-workspace"),
        pytest.param(marker("Filtering to most relevant information"), id="filtering"),
        pytest.param(marker("Extending tool call limit with Autopilot..."), id="autopilot"),
        pytest.param(md(DONE), id="markdown"),
        pytest.param(marker(DONE, "progressMessage"), id="progressMessage"),
        pytest.param(marker(DONE, "toolInvocationSerialized"), id="tool-invocation"),
        pytest.param(marker(DONE + "."), id="trailing-period"),
        pytest.param(marker(DONE.lower()), id="lower-case"),
        pytest.param({"kind": "progressTaskSerialized", "content": DONE}, id="content-string"),
    ],
)
def test_mrk3_other_progress_tasks_and_places_are_no_marker(part: dict[str, Any]) -> None:
    out = details(req(part))
    assert out["phantoms"] == []
    assert codes(req(part, summary="A")) == ["W-NO-MARKER"]


def test_mrk3_marker_text_in_the_user_message_is_no_marker() -> None:
    assert details(req(md("ok"), message={"text": DONE}))["phantoms"] == []


# CNT-5, CNT-6: removal flags, read with JavaScript truthiness ------------------------------

REMOVAL_FLAGS = [
    pytest.param(True, True, id="true"),
    pytest.param({}, True, id="empty-object"),
    pytest.param({"requestId": "request_x"}, True, id="object-with-requestId"),
    pytest.param({"afterUndoStop": ""}, True, id="afterUndoStop-empty-string"),
    pytest.param({"afterUndoStop": 0}, True, id="afterUndoStop-0"),
    pytest.param({"afterUndoStop": None}, True, id="afterUndoStop-null"),
    pytest.param({"afterUndoStop": "x"}, False, id="afterUndoStop-x-kept"),
    pytest.param({"afterUndoStop": {}}, False, id="afterUndoStop-object-kept"),
    pytest.param(False, False, id="false"),
    pytest.param(0, False, id="0"),
    pytest.param(0.0, False, id="0.0"),
    pytest.param(math.nan, False, id="NaN"),
    pytest.param("", False, id="empty-string"),
    pytest.param(None, False, id="null"),
    pytest.param(1, True, id="1"),
    pytest.param(-1, True, id="-1"),
    pytest.param("yes", True, id="yes"),
    pytest.param("false", True, id="string-false"),
    pytest.param([], True, id="empty-array"),
]


@pytest.mark.parametrize(("flag", "removed"), REMOVAL_FLAGS)
def test_cnt5_cnt6_should_be_removed_on_send(flag: Any, removed: bool) -> None:
    request = req(marker(), summary="A", shouldBeRemovedOnSend=flag)
    out = details(request)
    assert out["reboots"] == (0 if removed else 1)
    assert out["removed"] == ([0] if removed else [])
    assert ("W-REMOVED" in codes(request)) is removed


@CONTAINERS
@pytest.mark.parametrize(("flag", "removed"), [p for p in REMOVAL_FLAGS if p.id != "NaN"])
def test_cnt5_cnt6_should_be_removed_on_send_from_a_file(
    tmp_path: Path, container: str, flag: Any, removed: bool
) -> None:
    out = from_file(tmp_path, container, req(marker(), summary="A", shouldBeRemovedOnSend=flag))
    assert (out["reboots"], out["removed"]) == ((0, [0]) if removed else (1, []))


@pytest.mark.parametrize(
    ("hidden", "removed"),
    [
        pytest.param(True, True, id="isHidden-true"),
        pytest.param(False, False, id="isHidden-false"),
        pytest.param(1, True, id="isHidden-1"),
        pytest.param(0, False, id="isHidden-0"),
    ],
)
def test_cnt5_is_hidden_overrides_an_after_undo_stop_flag(hidden: Any, removed: bool) -> None:
    request = req(summary="A", isHidden=hidden, shouldBeRemovedOnSend={"afterUndoStop": "stop"})
    out = details(request)
    assert out["reboots"] == (0 if removed else 1)
    assert out["removed"] == ([0] if removed else [])


def test_cnt5_is_hidden_alone_removes() -> None:
    assert reboots(req(summary="A", isHidden=True)) == 0


def test_cnt5_a_removed_request_does_not_reset_the_previous_key() -> None:
    # A | (B, removed) | A -> A, A = 1.
    requests = [req(summary="A"), req(summary="B", shouldBeRemovedOnSend=True), req(summary="A")]
    assert reboots(*requests) == 1


def test_cnt5_all_evidence_of_a_removed_request_is_skipped() -> None:
    request = req(summaries=["A"], rounds=[round_("B", provider="p1")], summary="C", isHidden=True)
    assert reboots(request) == 0


# OUT-3: phantom reasons and reboots_possible -----------------------------------------------


def lost_after_error(*parts: Any) -> dict[str, Any]:
    """A completed compaction whose request ended in an error: rounds kept, no entry (UNC-1)."""
    request = req(*(parts or (marker(),)))
    request["result"] = {
        "errorDetails": {"message": "Sorry, your request failed.", "responseIsIncomplete": True},
        "metadata": {"toolCallRounds": [{"id": "r1", "response": "", "toolCalls": []}]},
    }
    return request


def phantom(out: dict[str, Any]) -> list[tuple[int, str]]:
    return [(p["request"], p["reason"]) for p in out["phantoms"]]


PHANTOMS = [
    pytest.param(
        req(marker(), summaries=[{"toolCallRoundId": "", "text": "", "outcome": "error"}]),
        "failed",
        "W-PHANTOM-FAILED",
        id="failed",
    ),
    pytest.param(lost_after_error(), "lost-after-error", "W-PHANTOM-LOST", id="lost-after-error"),
    pytest.param(
        req(marker(), modelState={"value": 2}), "cancelled", "W-PHANTOM-CANCELLED", id="cancelled"
    ),
    pytest.param(
        req(marker(), isCanceled=True),
        "cancelled",
        "W-PHANTOM-CANCELLED",
        id="cancelled-legacy-isCanceled",
    ),
    pytest.param(
        req(marker(IN_PROGRESS)),
        "in-progress-only",
        "W-PHANTOM-IN-PROGRESS",
        id="in-progress-only",
    ),
    pytest.param(
        req(marker("Compacting conversation (42%)...")),
        "in-progress-only",
        "W-PHANTOM-IN-PROGRESS",
        id="in-progress-percentage",
    ),
    pytest.param(
        req(marker(IN_PROGRESS), modelState={"value": 2}),
        "cancelled",
        "W-PHANTOM-CANCELLED",
        id="in-progress-cancelled",
    ),
    pytest.param(req(marker()), "unknown", "W-PHANTOM", id="unknown"),
    pytest.param(
        req(marker(), modelState={"value": 1}, isCanceled=True),
        "unknown",
        "W-PHANTOM",
        id="modelState-wins-over-isCanceled",
    ),
    pytest.param(
        req(marker(IN_PROGRESS), marker(DONE)), "unknown", "W-PHANTOM", id="completed-wins"
    ),
    pytest.param(
        req(md("Compacted conversation."), slashCommand={"name": "compact"}),
        "unknown",
        "W-PHANTOM",
        id="manual-compact-without-summary",
    ),
]


@pytest.mark.parametrize(("request_", "reason", "code"), PHANTOMS)
def test_out3_phantom_reason_and_its_warning(
    request_: dict[str, Any], reason: str, code: str
) -> None:
    out = details(request_)
    assert out["reboots"] == 0
    assert phantom(out) == [(0, reason)]
    assert code in codes(request_)
    assert out["reboots_possible"] == (1 if reason == "lost-after-error" else 0)


@CONTAINERS
@pytest.mark.parametrize(("request_", "reason", "code"), PHANTOMS)
def test_out3_phantom_reason_from_a_file(
    tmp_path: Path, container: str, request_: dict[str, Any], reason: str, code: str
) -> None:
    out = from_file(tmp_path, container, request_)
    assert (out["reboots"], phantom(out)) == (0, [(0, reason)])
    assert code in [w["code"] for w in out["warnings"]]
    assert out["reboots_possible"] == (1 if reason == "lost-after-error" else 0)


def test_out3_failed_wins_over_lost_after_error() -> None:
    request = lost_after_error()
    request["result"]["metadata"]["summaries"] = [{"text": "", "outcome": "budgetExceeded"}]
    assert phantom(details(request)) == [(0, "failed")]


def test_out3_lost_after_error_wins_over_cancelled() -> None:
    request = lost_after_error()
    request["modelState"] = {"value": 2}
    assert phantom(details(request)) == [(0, "lost-after-error")]


def test_out3_lost_after_error_needs_a_completed_marker() -> None:
    assert phantom(details(lost_after_error(marker(IN_PROGRESS)))) == [(0, "in-progress-only")]


def test_out3_lost_after_error_needs_non_empty_rounds() -> None:
    request = lost_after_error()
    request["result"]["metadata"]["toolCallRounds"] = []
    assert phantom(details(request)) == [(0, "unknown")]  # UNC-2: errorDetails and ids only


def test_out3_lost_after_error_needs_an_error_details_object() -> None:
    request = lost_after_error()
    request["result"]["errorDetails"] = "failed"
    assert phantom(details(request)) == [(0, "unknown")]


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param({"summaries": [{"toolCallRoundId": "", "text": ""}]}, id="summaries-entry"),
        pytest.param({"summary": {"toolCallRoundId": "r1", "text": ""}}, id="summary-entry"),
    ],
)
def test_out3_lost_after_error_needs_no_summaries_or_summary_entry(entry: dict[str, Any]) -> None:
    """The brief: lost-after-error is an error result with rounds and NO summaries/summary entry.

    Here the error result keeps an entry without text (and without an `outcome`, so not
    `failed`); no modelState, no isCanceled: the reason is `unknown`, and reboots_possible
    stays at the count (0).
    """
    request = lost_after_error()
    request["result"]["metadata"].update(entry)
    out = details(request)
    assert phantom(out) == [(0, "unknown")]
    assert out["reboots_possible"] == 0


def test_out3_a_request_with_events_is_no_phantom() -> None:
    request = lost_after_error()
    request["result"]["metadata"]["toolCallRounds"][0]["summary"] = "A"  # UNC-1, anchor here
    out = details(request)
    assert (out["reboots"], out["reboots_possible"], out["phantoms"]) == (1, 1, [])


def test_out3_a_removed_request_is_no_phantom() -> None:
    request = lost_after_error()
    request["shouldBeRemovedOnSend"] = True
    out = details(request)
    assert (out["reboots"], out["reboots_possible"], out["phantoms"], out["removed"]) == (
        0,
        0,
        [],
        [0],
    )


def test_out3_reboots_possible_adds_only_lost_after_error_phantoms() -> None:
    requests = [
        req(marker(), summary="A"),
        lost_after_error(),
        req(marker()),  # unknown
        req(marker(), modelState={"value": 2}),  # cancelled
        req(marker(IN_PROGRESS)),  # in-progress-only
        req(marker(), summaries=[{"text": "", "outcome": "error"}]),  # failed
        req(marker(), summary="B"),
        lost_after_error(),
    ]
    out = details(*requests)
    assert out["reboots"] == 2
    assert out["reboots_possible"] == 4
    assert phantom(out) == [
        (1, "lost-after-error"),
        (2, "unknown"),
        (3, "cancelled"),
        (4, "in-progress-only"),
        (5, "failed"),
        (7, "lost-after-error"),
    ]


def test_out3_a_phantom_lists_its_marker() -> None:
    out = details(req(marker(TURKISH_DONE, "progressTask")))
    assert out["phantoms"] == [{"request": 0, "marker": TURKISH_DONE, "reason": "unknown"}]


# OUT-2: the remaining warnings -------------------------------------------------------------


def test_out2_truncated_summary_warns_and_compares_as_stored() -> None:
    # UNC-8: two summaries truncated to the same text are one event.
    requests = [req(marker(), summary=TRUNCATED), req(marker(), rounds=[TRUNCATED])]
    assert reboots(*requests) == 1
    assert codes(*requests).count("W-TRUNCATED") == 2


# LEG-2 -------------------------------------------------------------------------------------


def test_leg2_plain_string_response_holds_no_marker_but_its_summary_counts() -> None:
    request = {
        "message": "hi",
        "response": DONE,
        "result": {"metadata": {"summary": {"text": "A"}}},
    }
    assert reboots(request) == 1
    assert codes(request) == ["W-NO-MARKER"]


# OUT-1 -------------------------------------------------------------------------------------


def test_out1_details_name_request_source_kind_and_md5_or_id() -> None:
    out = details(
        req(marker(), summary="A"),
        req(marker(), summary="A"),
        req(rounds=[round_(provider="p1")]),
    )
    assert out["reboots"] == 2
    assert out["requests"] == 3
    # md5("A") from `printf A | md5sum`, not from the code under test.
    assert out["reboot_events"] == [
        {
            "request": 0,
            "source": "summary",
            "kind": "text",
            "md5": "7fc56270e7a70fa81a5935b72eacbe29",
        },
        {"request": 2, "source": "toolCallRounds[0].compaction", "kind": "provider", "id": "p1"},
    ]
    assert out["duplicates"] == [
        {
            "request": 1,
            "source": "summary",
            "kind": "text",
            "md5": "7fc56270e7a70fa81a5935b72eacbe29",
        }
    ]


def test_out1_md5_of_utf8_bytes() -> None:
    # md5("é") over UTF-8 bytes c3 a9, computed independently with `printf 'é' | md5sum`.
    assert md5_hex("é") == "66ddcd97cfdeabb2f6fb8a999b4bc76f"
