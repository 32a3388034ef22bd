"""The anonymizer's promises on random sessions (issue 7).

1. The anonymized file gives the same reference result as the original: the count, the reboot
   event and phantom request indices, the warnings, or the same rejection at the same line;
   and that result is the one the plan expects.
2. No private string of 6+ characters survives anywhere in the output.
3. Structure survives byte for byte: with every string literal emptied, both files are equal.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rebootspec.generators.anonymize.command import anonymize_bytes
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import load_flat, replay_bytes
from tests.anonymize.anon_sessions import (
    BAD_BYTES,
    BASE_TIME,
    TABLE,
    Session,
    broken_line,
    expected_phantoms,
    expected_reboots,
    sessions,
    write_flat,
    write_log,
)

SECRET = bytes(range(32))
_LITERAL = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.S)


def outcome(data: bytes, container: str) -> dict[str, Any]:
    """The reference's answer, reduced to what the issue names (codes, indices, the count)."""
    try:
        replay = load_flat(data) if container == ".json" else replay_bytes(data)
        result = count_state(replay.state)
    except Rejection as rejection:
        return {"reject": rejection.code, "line": rejection.line}
    return {
        "reboots": result.reboots,
        "events": [e.request for e in result.events if e.reboot],
        "phantoms": [(v.index, v.phantom_reason) for v in result.phantoms],
        "warnings": [n.code for n in replay.notices + result.notices],
    }


def skeleton(data: bytes) -> list[bytes]:
    """Each line with every string literal's content removed: what must not change.

    Line by line, as the log is read (a string never continues onto the next line).
    """
    return [_LITERAL.sub(b'""', line) for line in data.split(b"\n")]


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for item in value.values() for s in _strings(item)}
    if isinstance(value, list):
        return {s for item in value for s in _strings(item)}
    return set()


# Text a private string may legitimately coincide with: the era table, the builder's keys and
# kinds, and its numbers.
ALLOWED = "\n".join(
    [
        *_strings(TABLE),
        "version creationDate initialLocation customTitle requests requestId timestamp message "
        "text response result metadata summaries summary toolCallRoundId outcome success "
        "timings totalElapsed slashCommand name description value uris $mid path kind content "
        "progress progressMessage inputState inputText panel",
        *(str(BASE_TIME + 60_000 * i) for i in range(10)),
        "1500.0",
    ]
)


def written_forms(text: str, session: Session) -> set[bytes]:
    """How a string can appear in the file: raw or as the writer escaped it."""
    forms = set()
    for ascii_only in (True, False):
        body = json.dumps(text, ensure_ascii=ascii_only)[1:-1]
        forms.add(body.encode("utf-8", "surrogatepass"))
    forms.add(text.encode("utf-8", "surrogatepass"))
    if session.bad_bytes:
        for char, raw in BAD_BYTES.items():
            forms = {form.replace(char.encode("utf-8"), raw) for form in forms}
    return forms


def leaks(session: Session, output: bytes) -> list[str]:
    found = []
    for text in session.private:
        if len(text) < 6 or text in ALLOWED:
            continue
        if any(form in output for form in written_forms(text, session)):
            found.append(text)
    return found


@given(sessions())
def test_a_log_keeps_its_reference_result_and_leaks_nothing(session: Session) -> None:
    original = write_log(session)
    anonymized = anonymize_bytes(original, ".jsonl", SECRET)
    before = outcome(original, ".jsonl")
    line = broken_line(session)
    if line is not None:
        assert before == {"reject": "E-JSON", "line": line}
    else:
        assert before["reboots"] == expected_reboots(session)
        assert before["phantoms"] == expected_phantoms(session)
        assert ("W-TORN-TAIL" in before["warnings"]) == (session.torn_tail is not None)
    assert outcome(anonymized, ".jsonl") == before
    assert leaks(session, anonymized) == []
    assert skeleton(anonymized) == skeleton(original)


@given(sessions(allow_broken=False))
def test_a_flat_json_keeps_its_reference_result_and_leaks_nothing(session: Session) -> None:
    original = write_flat(session)
    anonymized = anonymize_bytes(original, ".json", SECRET)
    before = outcome(original, ".json")
    assert before["reboots"] == expected_reboots(session)
    assert before["phantoms"] == expected_phantoms(session)
    assert outcome(anonymized, ".json") == before
    assert leaks(session, anonymized) == []
    assert skeleton(anonymized) == skeleton(original)


@given(sessions(), st.binary(min_size=1, max_size=32))
def test_the_secret_alone_decides_the_pseudonyms(session: Session, other: bytes) -> None:
    original = write_log(session)
    first = anonymize_bytes(original, ".jsonl", SECRET)
    assert anonymize_bytes(original, ".jsonl", SECRET) == first
    if other != SECRET and any(len(text) >= 8 for text in session.private):
        assert anonymize_bytes(original, ".jsonl", other) != first


@given(sessions())
def test_line_count_and_line_ends_are_kept(session: Session) -> None:
    original = write_log(session)
    anonymized = anonymize_bytes(original, ".jsonl", SECRET)
    assert anonymized.count(b"\n") == original.count(b"\n")
    assert anonymized.count(b"\r\n") == original.count(b"\r\n")
    assert anonymized.endswith(b"\n") == original.endswith(b"\n")
    lengths = [len(line) for line in original.split(b"\n")]
    assert [len(line) == 0 for line in anonymized.split(b"\n")] == [n == 0 for n in lengths]
