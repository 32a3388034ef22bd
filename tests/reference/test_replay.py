"""Replay rules (RPL-*) and rejections (ERR-*) on small hand-written logs.

Each expectation was worked out by hand from the rule it names; none comes from running the code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.replay import HOLE_LIMIT, load_flat, load_path, replay_bytes


def log(*entries: Any, end: bytes = b"\n") -> bytes:
    """A log with one compact JSON line per entry (raw bytes are passed through)."""
    lines = [
        e if isinstance(e, bytes) else json.dumps(e, separators=(",", ":")).encode()
        for e in entries
    ]
    return end.join(lines) + end


def state(data: bytes) -> dict[str, Any]:
    return replay_bytes(data).state


def rejected(data: bytes) -> tuple[int, str]:
    with pytest.raises(Rejection) as caught:
        replay_bytes(data)
    return caught.value.line, caught.value.code


INIT = {"kind": 0, "v": {"requests": [], "inputState": {"inputText": "x"}}}


# RPL-1 lines
def test_rpl1_empty_lines_are_skipped_but_numbered() -> None:
    data = b"\n" + log(INIT) + b"\n\n" + log({"kind": 9})
    assert rejected(data) == (5, "E-ENTRY")


def test_rpl1_a_line_holding_only_cr_is_an_entry_and_fails() -> None:
    assert rejected(log(INIT) + b"\r\n") == (2, "E-JSON")


# RPL-2 decoding
def test_rpl2_crlf_line_ends_parse() -> None:
    data = log(INIT, {"kind": 1, "k": ["title"], "v": "t"}, end=b"\r\n")
    assert state(data)["title"] == "t"


def test_rpl2_leading_bom_is_dropped() -> None:
    assert state(b"\xef\xbb\xbf" + log(INIT))["requests"] == []


def test_rpl2_invalid_utf8_is_replaced_not_rejected() -> None:
    data = log(INIT) + b'{"kind":1,"k":["title"],"v":"a\xffb"}\n'
    assert state(data)["title"] == "a\ufffdb"


def test_rpl2_numbers_beyond_double_range_and_lone_surrogates_parse() -> None:
    data = log(INIT) + b'{"kind":1,"k":["n"],"v":[1e400,"\\ud800"]}\n'
    assert state(data)["n"][0] == float("inf")


def test_rpl2_duplicate_members_keep_the_last_value() -> None:
    assert state(log(INIT) + b'{"kind":1,"k":["t"],"v":1,"v":2}\n')["t"] == 2


# RPL-3 entries
@pytest.mark.parametrize("kind", ['"1"', "true", "null", "4", "-1", "1.5"])
def test_rpl3_kind_must_be_the_number_0_to_3(kind: str) -> None:
    data = log(INIT) + b'{"kind":' + kind.encode() + b',"k":["t"],"v":1}\n'
    assert rejected(data) == (2, "E-ENTRY")


def test_rpl3_kind_written_as_float_is_the_same_number() -> None:
    assert state(log(INIT) + b'{"kind":1.0,"k":["t"],"v":1,"extra":true}\n')["t"] == 1


# RPL-4 initial
def test_rpl4_a_later_initial_replaces_everything() -> None:
    data = log(INIT, {"kind": 1, "k": ["a"], "v": 1}, {"kind": 0, "v": {"b": 2}})
    assert state(data) == {"b": 2}


@pytest.mark.parametrize("v", [[], 3, None, "s"])
def test_rpl4_initial_value_must_be_an_object(v: Any) -> None:
    assert rejected(log({"kind": 0, "v": v})) == (1, "E-STATE")


def test_rpl4_initial_without_v_is_rejected() -> None:
    assert rejected(log({"kind": 0})) == (1, "E-STATE")


# RPL-5 paths
def test_rpl5_walk_creates_nothing() -> None:
    assert rejected(log(INIT, {"kind": 1, "k": ["missing", "x"], "v": 1})) == (2, "E-PATH")


def test_rpl5_walk_through_null_is_rejected() -> None:
    data = log({"kind": 0, "v": {"a": None}}, {"kind": 1, "k": ["a", "x"], "v": 1})
    assert rejected(data) == (2, "E-PATH")


def test_rpl5_walk_through_a_string_is_rejected() -> None:
    data = log({"kind": 0, "v": {"a": "abc"}}, {"kind": 1, "k": ["a", 0], "v": 1})
    assert rejected(data) == (2, "E-PATH")


@pytest.mark.parametrize("key", ["0", -1, 1.5, True, None])
def test_rpl5_array_needs_a_non_negative_integer_key(key: Any) -> None:
    data = log({"kind": 0, "v": {"a": [1, 2]}}, {"kind": 1, "k": ["a", key], "v": 9})
    assert rejected(data) == (2, "E-PATH")


def test_rpl5_integer_key_on_an_object_is_rejected() -> None:
    data = log({"kind": 0, "v": {"a": {"0": 1}}}, {"kind": 1, "k": ["a", 0], "v": 9})
    assert rejected(data) == (2, "E-PATH")


def test_rpl5_index_written_as_float_addresses_the_element() -> None:
    data = log({"kind": 0, "v": {"a": [1, 2]}}, {"kind": 1, "k": ["a", 1.0], "v": 9})
    assert state(data)["a"] == [1, 9]


@pytest.mark.parametrize("k", ["requests", None, {"a": 1}])
def test_rpl5_k_must_be_an_array(k: Any) -> None:
    assert rejected(log(INIT, {"kind": 1, "k": k, "v": 1})) == (2, "E-ENTRY")


def test_rpl5_k_missing_is_rejected() -> None:
    assert rejected(log(INIT, {"kind": 3})) == (2, "E-ENTRY")


# RPL-6 set
def test_rpl6_set_assigns_a_whole_value() -> None:
    data = log(INIT, {"kind": 1, "k": ["inputState"], "v": {"mode": "agent"}})
    assert state(data)["inputState"] == {"mode": "agent"}


def test_rpl6_set_without_v_removes_the_key() -> None:
    data = log({"kind": 0, "v": {"hasPendingEdits": True}}, {"kind": 1, "k": ["hasPendingEdits"]})
    assert state(data) == {}


def test_rpl6_set_with_null_keeps_the_key_as_null() -> None:
    data = log({"kind": 0, "v": {"a": 1}}, {"kind": 1, "k": ["a"], "v": None})
    assert state(data) == {"a": None}


def test_rpl6_set_with_empty_path_does_nothing() -> None:
    data = log(INIT, {"kind": 1, "k": [], "v": {"other": 1}})
    assert state(data) == INIT["v"]


def test_rpl6_set_without_v_in_an_array_leaves_null() -> None:
    data = log({"kind": 0, "v": {"a": [1, 2, 3]}}, {"kind": 1, "k": ["a", 1]})
    assert state(data)["a"] == [1, None, 3]


# RPL-7 push
def test_rpl7_push_appends() -> None:
    data = log({"kind": 0, "v": {"a": [1]}}, {"kind": 2, "k": ["a"], "v": [2, 3]})
    assert state(data)["a"] == [1, 2, 3]


def test_rpl7_push_with_i_rewrites_from_that_position() -> None:
    data = log({"kind": 0, "v": {"a": [1, 2, 3]}}, {"kind": 2, "k": ["a"], "v": [9], "i": 1})
    assert state(data)["a"] == [1, 9]


def test_rpl7_push_with_only_i_truncates() -> None:
    data = log({"kind": 0, "v": {"a": [1, 2, 3]}}, {"kind": 2, "k": ["a"], "i": 0})
    assert state(data)["a"] == []


def test_rpl7_push_onto_missing_or_null_starts_an_empty_array() -> None:
    data = log(
        {"kind": 0, "v": {"n": None}},
        {"kind": 2, "k": ["n"], "v": [1]},
        {"kind": 2, "k": ["m"], "v": [2]},
    )
    assert state(data) == {"n": [1], "m": [2]}


def test_rpl7_push_with_v_null_appends_nothing() -> None:
    data = log({"kind": 0, "v": {"a": [1, 2]}}, {"kind": 2, "k": ["a"], "v": None, "i": 1})
    assert state(data)["a"] == [1]


def test_rpl7_push_with_i_beyond_the_end_pads_with_holes() -> None:
    data = log({"kind": 0, "v": {"a": [1]}}, {"kind": 2, "k": ["a"], "v": [5], "i": 3})
    assert state(data)["a"] == [1, None, None, 5]


@pytest.mark.parametrize("i", [-1, 1.5, "1", None, True])
def test_rpl7_bad_i_is_rejected(i: Any) -> None:
    data = log({"kind": 0, "v": {"a": [1]}}, {"kind": 2, "k": ["a"], "i": i})
    assert rejected(data) == (2, "E-ENTRY")


@pytest.mark.parametrize("v", ["abc", {"x": 1}, 3])
def test_rpl7_push_v_must_be_an_array(v: Any) -> None:
    data = log({"kind": 0, "v": {"a": []}}, {"kind": 2, "k": ["a"], "v": v})
    assert rejected(data) == (2, "E-ENTRY")


@pytest.mark.parametrize("target", [{"x": 1}, "s", 0, False])
def test_rpl7_push_onto_a_non_array_is_rejected(target: Any) -> None:
    data = log({"kind": 0, "v": {"a": target}}, {"kind": 2, "k": ["a"], "v": [1]})
    assert rejected(data) == (2, "E-PUSH")


def test_rpl7_push_with_an_empty_path_is_rejected() -> None:
    assert rejected(log(INIT, {"kind": 2, "k": [], "v": [1]})) == (2, "E-PATH")


def test_rpl7_pushed_request_replacement_drops_the_old_requests() -> None:
    data = log(
        {"kind": 0, "v": {"requests": [{"requestId": "a"}, {"requestId": "b"}]}},
        {"kind": 2, "k": ["requests"], "v": [{"requestId": "c"}], "i": 1},
    )
    assert [r["requestId"] for r in state(data)["requests"]] == ["a", "c"]


# RPL-8 delete
def test_rpl8_delete_removes_the_key() -> None:
    assert "inputState" not in state(log(INIT, {"kind": 3, "k": ["inputState"]}))


def test_rpl8_delete_of_an_absent_key_is_harmless() -> None:
    assert state(log(INIT, {"kind": 3, "k": ["nothing"]})) == INIT["v"]


def test_rpl8_delete_with_an_empty_path_does_nothing() -> None:
    assert state(log(INIT, {"kind": 3, "k": []})) == INIT["v"]


# RPL-9 holes
def test_rpl9_set_past_the_end_pads_with_holes() -> None:
    data = log({"kind": 0, "v": {"a": [1]}}, {"kind": 1, "k": ["a", 3], "v": 4})
    assert state(data)["a"] == [1, None, None, 4]


def test_rpl9_set_at_the_end_appends() -> None:
    data = log({"kind": 0, "v": {"a": [1]}}, {"kind": 1, "k": ["a", 1], "v": 2})
    assert state(data)["a"] == [1, 2]


# ERR-1 .. ERR-2
@pytest.mark.parametrize("data", [b"", b"\n", b"\n\n\n"])
def test_err1_empty_log_is_rejected_at_line_0(data: bytes) -> None:
    assert rejected(data) == (0, "E-EMPTY")


def test_err1_only_a_torn_tail_is_an_empty_log() -> None:
    assert rejected(b'{"kind":0,"v":{') == (0, "E-EMPTY")


@pytest.mark.parametrize("kind", [1, 2, 3])
def test_err2_mutation_before_initial_is_rejected(kind: int) -> None:
    assert rejected(log({"kind": kind, "k": ["a"], "v": [1]}, INIT)) == (1, "E-NO-INITIAL")


# ERR-3, ERR-4
@pytest.mark.parametrize("line", [b"{", b"not json", b"{'kind':0}", b"[NaN]", b" "])
def test_err3_terminated_unparsable_line_is_rejected(line: bytes) -> None:
    assert rejected(log(INIT, line, {"kind": 1, "k": ["a"], "v": 1})) == (2, "E-JSON")


def test_err3_unparsable_line_in_the_middle_is_rejected_even_at_the_end_of_file() -> None:
    assert rejected(log(INIT, b"{bad") + b'{"kind":1,"k":["a"],"v":1}') == (2, "E-JSON")


@pytest.mark.parametrize("line", [b"5", b"null", b'"s"', b"[1]"])
def test_err4_a_line_that_is_not_an_object_is_rejected(line: bytes) -> None:
    assert rejected(log(INIT, line)) == (2, "E-ENTRY")


def test_err4_missing_kind_is_rejected() -> None:
    assert rejected(log(INIT, {"k": ["a"], "v": 1})) == (2, "E-ENTRY")


# ERR-8 bounds
def test_err8_deep_nesting_is_a_bounded_rejection() -> None:
    deep = b'{"kind":1,"k":["a"],"v":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert rejected(log(INIT, deep)) == (2, "E-LIMIT")


def test_err8_nesting_up_to_the_bound_is_accepted() -> None:
    v = b"[" * 1000 + b"]" * 1000
    data = log(INIT, b'{"kind":1,"k":["a"],"v":' + v + b"}")
    assert isinstance(state(data)["a"], list)


def test_err8_huge_i_is_rejected_not_allocated() -> None:
    data = log({"kind": 0, "v": {"a": []}}, {"kind": 2, "k": ["a"], "i": 10**9})
    assert rejected(data) == (2, "E-LIMIT")


def test_err8_huge_index_is_rejected_not_allocated() -> None:
    data = log({"kind": 0, "v": {"a": []}}, {"kind": 1, "k": ["a", 10**9], "v": 1})
    assert rejected(data) == (2, "E-LIMIT")


def test_err8_hole_budget_counts_across_the_whole_file() -> None:
    half = HOLE_LIMIT // 2 + 1
    entries = [{"kind": 0, "v": {"a": [], "b": []}}]
    entries += [{"kind": 2, "k": ["a"], "i": half}, {"kind": 2, "k": ["b"], "i": half}]
    assert rejected(log(*entries)) == (3, "E-LIMIT")


# ERR-9 torn tail
def test_err9_unterminated_unparsable_final_line_is_ignored_with_a_warning() -> None:
    replay = replay_bytes(log(INIT) + b'{"kind":1,"k":["inputState","inp')
    assert replay.state == INIT["v"]
    assert [(n.code, n.line) for n in replay.notices] == [("W-TORN-TAIL", 2)]


def test_err9_unterminated_final_line_that_parses_is_applied() -> None:
    replay = replay_bytes(log(INIT) + b'{"kind":1,"k":["t"],"v":1}')
    assert replay.state["t"] == 1
    assert replay.notices == []


def test_err9_unterminated_final_line_that_parses_but_fails_to_apply_is_rejected() -> None:
    assert rejected(log(INIT) + b'{"kind":1,"k":["no","x"],"v":1}') == (2, "E-PATH")


# LEG-1, LEG-3: a .json is a session or an export, else E-STATE on line 1
def test_leg1_flat_session_is_its_own_state() -> None:
    data = b'{\n  "version": 3,\n  "requests": []\n}\n'
    assert load_flat(data).state == {"version": 3, "requests": []}


@pytest.mark.parametrize(
    "document",
    [
        pytest.param({"sessionId": "s1"}, id="sessionId"),
        pytest.param({"version": 3}, id="version-int"),
        pytest.param({"version": 3.5}, id="version-float"),
        pytest.param({"version": 0}, id="version-0"),
        pytest.param({"sessionId": "s1", "requests": {}}, id="session-whatever-requests"),
        pytest.param({"requests": [], "responderUsername": "GitHub Copilot"}, id="export"),
        pytest.param({"requests": [], "responderUsername": ""}, id="export-empty-name"),
        pytest.param(
            {"requests": [], "responderUsername": "x", "version": "3"}, id="export-string-version"
        ),
    ],
)
def test_leg1_leg3_sessions_and_exports_are_accepted(document: dict[str, Any]) -> None:
    assert load_flat(json.dumps(document).encode()).state == document


@pytest.mark.parametrize(
    "document",
    [
        pytest.param({}, id="empty-object"),
        pytest.param({"requests": []}, id="requests-only"),
        pytest.param({"version": "3", "requests": []}, id="version-string"),
        pytest.param({"version": True, "requests": []}, id="version-bool"),
        pytest.param({"version": None, "requests": []}, id="version-null"),
        pytest.param({"sessionId": 5, "requests": []}, id="sessionId-number"),
        pytest.param({"responderUsername": "x"}, id="export-without-requests"),
        pytest.param({"requests": {}, "responderUsername": "x"}, id="export-requests-object"),
        pytest.param({"requests": None, "responderUsername": "x"}, id="export-requests-null"),
        pytest.param({"requests": [], "responderUsername": 5}, id="export-name-number"),
        pytest.param({"requests": [], "requesterUsername": "x"}, id="requester-only"),
    ],
)
def test_leg1_a_json_of_neither_shape_is_e_state_on_line_1(document: dict[str, Any]) -> None:
    data = json.dumps(document, indent=2).encode()
    with pytest.raises(Rejection) as caught:
        load_flat(data)
    assert (caught.value.line, caught.value.code) == (1, "E-STATE")


def test_leg1_flat_json_error_names_the_line() -> None:
    with pytest.raises(Rejection) as caught:
        load_flat(b'{\n  "requests": [\n  }\n')
    assert (caught.value.line, caught.value.code) == (3, "E-JSON")


@pytest.mark.parametrize("data", [b"[]", b'[{"version": 3}]', b"3", b"null", b'"s"'])
def test_leg1_flat_json_must_be_an_object(data: bytes) -> None:
    with pytest.raises(Rejection) as caught:
        load_flat(data)
    assert (caught.value.line, caught.value.code) == (1, "E-STATE")


@pytest.mark.parametrize("data", [b"", b"  \n"])
def test_leg1_empty_flat_json_is_rejected(data: bytes) -> None:
    with pytest.raises(Rejection) as caught:
        load_flat(data)
    assert caught.value.code == "E-EMPTY"


def test_leg1_a_vertical_tab_is_not_json_whitespace() -> None:
    with pytest.raises(Rejection) as caught:
        load_flat(b"\x0b")
    assert caught.value.code == "E-JSON"


def test_leg1_the_extension_chooses_the_container(tmp_path: Path) -> None:
    # The same object: as a .json it is a session; as a .jsonl it is a log entry without a
    # `kind`, which no log accepts.
    document = b'{"version": 3, "requests": []}'
    (tmp_path / "s.json").write_bytes(document)
    (tmp_path / "s.jsonl").write_bytes(document + b"\n")
    assert load_path(tmp_path / "s.json").state == {"version": 3, "requests": []}
    with pytest.raises(Rejection):
        load_path(tmp_path / "s.jsonl")


def test_leg3_export_and_session_of_the_same_requests_count_the_same(tmp_path: Path) -> None:
    marker = {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}
    requests = [
        {"response": [marker], "result": {"metadata": {"summary": {"text": t}}}}
        for t in ("A", "B", "A")
    ]
    session = {"version": 3, "sessionId": "s1", "requests": requests}
    export = {
        "responderUsername": "GitHub Copilot",
        "initialLocation": "panel",
        "requests": requests,
    }
    (tmp_path / "session.json").write_text(json.dumps(session, indent=2))
    (tmp_path / "export.json").write_text(json.dumps(export, indent=2))
    assert count_path(tmp_path / "session.json").reboots == 3
    assert count_path(tmp_path / "export.json").reboots == 3
