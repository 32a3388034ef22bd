"""The writer produces the lines VS Code's ObjectMutationLog would, for changes a person can follow.

Every expected line below is written out by hand from the rules of VS Code's objectMutationLog.ts
(restated in spec/SPEC.md as RPL-6 to RPL-8 and REW): Set of whole values, Push with `i` at the
first changed position, Push with only `i` for removals, Delete, Set without `v`, sealed requests
skipped, one Initial line after more than 1024 entries.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from rebootspec.generators.hosts.vscode.model import REQUEST, SESSION, extract
from rebootspec.generators.hosts.vscode.writer import LogWriter, flat_json


def md(text: str) -> dict[str, Any]:
    return {"value": text, "supportThemeIcons": False, "supportHtml": False}


def request(request_id: str, *parts: dict[str, Any], state: int = 0) -> dict[str, Any]:
    return {
        "requestId": request_id,
        "timestamp": 1,
        "message": {"text": "hi", "parts": [{"text": "hi"}]},
        "response": list(parts),
        "modelState": {"value": state},
    }


def session(*requests: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"version": 3, "sessionId": "s", "requests": list(requests), **extra}


def lines_after(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The lines the second save appends."""
    writer = LogWriter()
    writer.save(before)
    start = len(writer.bytes())
    writer.save(after)
    return writer.bytes()[start:].decode().splitlines()


def test_first_save_is_one_initial_line_in_extraction_order() -> None:
    writer = LogWriter()
    writer.save({"requests": [], "sessionId": "s", "version": 3, "inputState": {"inputText": "x"}})
    assert writer.bytes() == (
        b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[],"inputState":{"inputText":"x"}}}\n'
    )


def test_request_members_ordered_key_values_arrays_objects() -> None:
    stored = extract(
        REQUEST, {"message": {"text": "t"}, "response": [], "result": {}, "requestId": "r"}
    )
    assert list(stored) == ["requestId", "result", "response", "message"]


def test_grown_markdown_is_pushed_again_from_its_index() -> None:
    before = session(request("r1", md("Let me"), {"kind": "progressMessage", "content": {}}))
    after = session(request("r1", md("Let me look"), {"kind": "progressMessage", "content": {}}))
    assert lines_after(before, after) == [
        '{"kind":2,"k":["requests",0,"response"],"v":[{"value":"Let me look",'
        '"supportThemeIcons":false,"supportHtml":false},'
        '{"kind":"progressMessage","content":{}}],"i":0}'
    ]


def test_new_parts_are_appended_without_i() -> None:
    before = session(request("r1", md("a")))
    after = session(request("r1", md("a"), {"kind": "undoStop", "id": "u"}))
    assert lines_after(before, after) == [
        '{"kind":2,"k":["requests",0,"response"],"v":[{"kind":"undoStop","id":"u"}]}'
    ]


def test_a_completed_marker_replaces_the_in_progress_one() -> None:
    running = {"kind": "progressTaskSerialized", "content": {"value": "Compacting conversation..."}}
    done = {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}
    lines = lines_after(
        session(request("r1", md("x"), running)), session(request("r1", md("x"), done))
    )
    assert lines == [
        '{"kind":2,"k":["requests",0,"response"],"v":[{"kind":"progressTaskSerialized",'
        '"content":{"value":"Compacted conversation"}}],"i":1}'
    ]


def test_removing_the_last_request_is_a_push_with_only_i() -> None:
    before = session(request("r1", state=1), request("r2", state=1))
    after = session(request("r1", state=1))
    assert lines_after(before, after) == ['{"kind":2,"k":["requests"],"i":1}']


def test_a_replaced_request_is_pushed_with_v_then_i() -> None:
    before = session(request("r1", state=1), request("r2", state=1))
    after = session(request("r1", state=1), request("r3"))
    (line,) = lines_after(before, after)
    assert line.startswith('{"kind":2,"k":["requests"],"v":[{"requestId":"r3",')
    assert line.endswith('}],"i":1}')


def test_cleared_input_is_a_delete_and_an_undefined_value_a_set_without_v() -> None:
    before = session(inputState={"inputText": "fix"}, hasPendingEdits=True)
    after = session()
    assert lines_after(before, after) == [
        '{"kind":1,"k":["hasPendingEdits"]}',
        '{"kind":3,"k":["inputState"]}',
    ]


def test_value_fields_are_set_whole() -> None:
    before = session(request("r1"))
    finished = request("r1", state=1)
    finished["result"] = {"metadata": {"summary": {"text": "A"}}}
    assert lines_after(before, session(finished)) == [
        '{"kind":1,"k":["requests",0,"result"],"v":{"metadata":{"summary":{"text":"A"}}}}',
        '{"kind":1,"k":["requests",0,"modelState"],"v":{"value":1}}',
    ]


def test_a_sealed_request_is_never_diffed_again() -> None:
    before = session(request("r1", md("done"), state=1))
    after = copy.deepcopy(before)
    after["requests"][0]["vote"] = 1
    after["requests"][0]["response"].append(md("late"))
    assert lines_after(before, after) == []


def test_more_than_1024_entries_then_the_next_save_replaces_the_file() -> None:
    writer = LogWriter()
    state = session(inputState={"inputText": ""})
    writer.save(state)
    for n in range(1023):
        state["inputState"] = {"inputText": str(n)}
        writer.save(state)
    assert writer.bytes().count(b"\n") == 1024  # the counter counts the Initial line too
    state["inputState"] = {"inputText": "last"}
    writer.save(state)
    assert writer.bytes().count(b"\n") == 1025  # 1024 is not more than 1024: still appended
    state["inputState"] = {"inputText": "after"}
    writer.save(state)
    assert writer.bytes() == (
        b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[],"inputState":{"inputText":"after"}}}\n'
    )
    assert writer.rewrites == 1


def test_flat_json_looks_like_json_stringify_with_two_spaces() -> None:
    data = flat_json({"a": [], "b": {}, "c": [1, {"d": "é\n"}], "e": True})
    assert data.decode() == (
        '{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "d": "é\\n"\n    }\n  ],\n'
        '  "e": true\n}'
    )


def test_extraction_copies_values() -> None:
    live = session(request("r1"))
    stored = extract(SESSION, live)
    live["requests"][0]["modelState"]["value"] = 1
    assert stored["requests"][0]["modelState"] == {"value": 0}
    assert orjson.dumps(stored).startswith(b'{"version":3')
