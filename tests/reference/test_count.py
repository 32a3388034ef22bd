"""Compaction, summary and counting rules (MRK-*, SUM-*, CNT-*, LEG-2, ERA-2) on hand-built states.

The summary texts are letters; the expected counts are the ones SPEC.md's CNT-2 examples give.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference.count import count_state, md5_hex
from reference.errors import Rejection

DONE = "Compacted conversation"
OLD_DONE = "Summarized conversation history"


def marker(text: str = DONE, kind: str = "progressTaskSerialized") -> dict[str, Any]:
    return {"kind": kind, "content": {"value": text, "isTrusted": False}, "progress": []}


def md(text: str) -> dict[str, Any]:
    return {"value": text, "supportThemeIcons": False}


def request(
    *parts: Any, summary: str | None = None, summaries: list[Any] | None = None, **extra: Any
) -> dict[str, Any]:
    """A request whose response holds `parts`, with an optional stored summary."""
    metadata: dict[str, Any] = {}
    if summary is not None:
        metadata["summary"] = {"toolCallRoundId": "r", "text": summary}
    if summaries is not None:
        metadata["summaries"] = [
            {"toolCallRoundId": "r", "text": t} if isinstance(t, str) else t for t in summaries
        ]
    req: dict[str, Any] = {
        "requestId": "request_x",
        "message": {"text": "go"},
        "response": list(parts),
    }
    if metadata:
        req["result"] = {"metadata": metadata}
    req.update(extra)
    return req


def compacted(text: str | None) -> dict[str, Any]:
    """An automatic compaction with one singular summary (None: a phantom)."""
    return request(md("working"), marker(), summary=text)


def reboots(*requests: Any) -> int:
    return count_state({"requests": list(requests)}).reboots


def warnings(*requests: Any) -> list[str]:
    return [n.code for n in count_state({"requests": list(requests)}).notices]


# CNT-2 examples of SPEC.md
@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["A"], 1),
        (["A", "B"], 2),
        (["A", "A"], 1),
        (["A", "B", "A"], 3),
        (["A", None, "A"], 1),
        (["A", None, "B"], 2),
        ([None], 0),
        ([None, None], 0),
        ([], 0),
    ],
)
def test_cnt2_text_change_rule(texts: list[str | None], expected: int) -> None:
    assert reboots(*[compacted(t) for t in texts]) == expected


def test_cnt2_several_summaries_in_one_request_after_another() -> None:
    assert reboots(compacted("A"), request(marker(), marker(), summaries=["B", "C"])) == 3


def test_cnt2_identical_summaries_in_one_request_are_one_reboot() -> None:
    assert reboots(request(marker(), summaries=["A", "A"])) == 1


def test_cnt2_comparison_is_exact_not_normalised() -> None:
    assert reboots(compacted("A"), compacted("A "), compacted("a")) == 3


def test_cnt1_non_object_requests_are_skipped() -> None:
    assert reboots(None, compacted("A"), 7, "x", [], compacted("B")) == 2


def test_cnt1_requests_absent_means_no_requests() -> None:
    assert count_state({}).reboots == 0


def test_err5_requests_not_an_array_is_rejected() -> None:
    with pytest.raises(Rejection) as caught:
        count_state({"requests": {"0": compacted("A")}})
    assert (caught.value.line, caught.value.code) == (0, "E-STATE")


# MRK-1 .. MRK-3
def test_mrk1_both_part_kinds_and_both_era_markers_count() -> None:
    assert (
        reboots(
            request(marker(OLD_DONE, "progressTask"), summary="A"),
            request(marker(OLD_DONE), summary="B"),
            request(marker(DONE, "progressTask"), summary="C"),
        )
        == 3
    )


@pytest.mark.parametrize(
    "part",
    [
        marker("Compacted conversation."),
        marker("compacted conversation"),
        marker("Compacted conversation "),
        marker("Compacting conversation..."),
        marker("Compacting conversation (42%)..."),
        marker("Summarizing conversation history..."),
        marker(DONE, "progressMessage"),
        marker(DONE, "toolInvocationSerialized"),
        md(DONE),
        {"kind": "progressTaskSerialized", "content": DONE},
        {"kind": "progressTaskSerialized", "value": DONE},
        {"kind": ["progressTaskSerialized"], "content": {"value": DONE}},
        {"kind": "progressTaskSerialized", "content": {"value": [DONE]}},
    ],
)
def test_mrk2_mrk3_other_texts_and_places_are_not_markers(part: dict[str, Any]) -> None:
    assert reboots(request(part, summary="A")) == 0


def test_mrk3_marker_text_in_the_user_message_is_not_a_marker() -> None:
    assert reboots(request(md("ok"), summary="A", message={"text": DONE})) == 0


def test_mrk2_in_progress_only_warns() -> None:
    assert warnings(request(marker("Compacting conversation..."))) == ["W-IN-PROGRESS"]
    assert warnings(request(marker("Compacting conversation (42%)..."))) == ["W-IN-PROGRESS"]


# MRK-4 /compact
@pytest.mark.parametrize(
    "fields",
    [
        {"slashCommand": {"name": "compact"}},
        {"message": {"text": "/compact"}},
        {"message": {"text": "/compact keep the test plan"}},
        {"message": {"text": "/compact\n"}},
        {"message": "/compact"},
    ],
)
def test_mrk4_manual_compact_counts(fields: dict[str, Any]) -> None:
    progress = {"kind": "progressMessage", "content": {"value": "Compacting conversation..."}}
    req = request(progress, md("Compacted conversation."), summary="A", **fields)
    assert reboots(req) == 1


@pytest.mark.parametrize(
    ("fields", "done"),
    [
        ({"message": {"text": "/compacted"}}, "Compacted conversation."),
        ({"message": {"text": "please /compact"}}, "Compacted conversation."),
        ({"slashCommand": {"name": "summarize"}}, "Compacted conversation."),
        ({"slashCommand": {"name": "compact"}}, "Compacted conversation"),
        ({"slashCommand": {"name": "compact"}}, "Unable to compact conversation."),
    ],
)
def test_mrk4_not_a_finished_compact_command(fields: dict[str, Any], done: str) -> None:
    assert reboots(request(md(done), summary="A", **fields)) == 0


def test_mrk4_completed_text_with_a_kind_is_not_the_markdown_part() -> None:
    part = {"kind": "markdownContent", "value": "Compacted conversation."}
    assert reboots(request(part, summary="A", slashCommand={"name": "compact"})) == 0


# MRK-5
def test_mrk5_repeated_marker_parts_do_not_multiply() -> None:
    assert reboots(request(marker(), marker(), marker(), marker(), summary="A")) == 1


def test_mrk5_two_markers_one_singular_summary_count_once() -> None:
    assert reboots(request(marker(OLD_DONE), md("more"), marker(OLD_DONE), summary="A")) == 1


# SUM-1 .. SUM-5
def test_sum1_summaries_array_wins_over_summary() -> None:
    req = request(marker(), summaries=["A", "B"])
    req["result"]["metadata"]["summary"] = {"text": "Z"}
    assert reboots(req) == 2


def test_sum1_empty_summaries_array_makes_a_phantom_even_with_a_summary() -> None:
    req = request(marker(), summaries=[])
    req["result"]["metadata"]["summary"] = {"text": "Z"}
    assert reboots(req) == 0


def test_sum1_summaries_not_an_array_falls_back_to_summary() -> None:
    req = request(marker(), summary="A")
    req["result"]["metadata"]["summaries"] = None
    assert reboots(req) == 1


def test_sum3_failed_entries_are_skipped_and_warned() -> None:
    req = request(marker(), summaries=["", "A", {"text": None, "outcome": "error"}, 5, "B"])
    assert reboots(req) == 2
    assert warnings(req) == ["W-FAILED-SUMMARY"]


@pytest.mark.parametrize("text", ["", None, 5, ["A"]])
def test_sum3_empty_or_non_string_singular_summary_is_a_phantom(text: Any) -> None:
    req = request(marker())
    req["result"] = {"metadata": {"summary": {"text": text}}}
    assert reboots(req) == 0


def test_sum4_phantoms_are_listed() -> None:
    out = count_state({"requests": [compacted(None), compacted("A")]}).to_json()
    assert out["phantoms"] == [{"request": 0, "marker": DONE}]
    assert [e["request"] for e in out["reboot_events"]] == [1]


def test_sum5_summary_without_marker_does_not_count_and_warns() -> None:
    req = request(md("plain"), summary="A")
    assert reboots(req) == 0
    assert warnings(req) == ["W-SUMMARY-WITHOUT-MARKER"]


def test_sum5_server_side_compaction_only_warns() -> None:
    req = request(md("x"))
    req["result"] = {
        "metadata": {
            "toolCallRounds": [{"id": "1", "compaction": {"type": "compaction", "id": "c"}}]
        }
    }
    assert reboots(req) == 0
    assert warnings(req) == ["W-SERVER-COMPACTION"]


def test_sum5_tool_call_round_summary_is_never_read() -> None:
    req = request(marker())
    req["result"] = {"metadata": {"toolCallRounds": [{"summary": "A"}]}}
    assert reboots(req) == 0


# LEG-2
def test_leg2_plain_string_response_holds_no_marker() -> None:
    assert (
        reboots(
            {"message": "hi", "response": DONE, "result": {"metadata": {"summary": {"text": "A"}}}}
        )
        == 0
    )


# OUT-1
def test_out1_details_name_request_summary_marker_and_md5() -> None:
    out = count_state({"requests": [compacted("A"), compacted("A"), compacted("B")]}).to_json()
    assert out["reboots"] == 2
    assert out["requests"] == 3
    assert out["reboot_events"] == [
        {"request": 0, "summary": 0, "marker": DONE, "md5": "7fc56270e7a70fa81a5935b72eacbe29"},
        {"request": 2, "summary": 0, "marker": DONE, "md5": "9d5ed678fe57bcca610140957afab571"},
    ]
    assert [d["request"] for d in out["duplicates"]] == [1]


def test_out1_md5_of_utf8_bytes() -> None:
    # md5("é") over UTF-8 bytes c3 a9, computed independently with `printf 'é' | md5sum`.
    assert md5_hex("é") == "66ddcd97cfdeabb2f6fb8a999b4bc76f"
