"""Broken input stays broken the same way: on mangled logs the reference's verdict is unchanged.

The corpus needs real broken files as rejection cases (issue 7), so for any bytes at all the
anonymized file must be rejected with the same code at the same line, or counted the same,
with the same warnings.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from rebootspec.generators.anonymize.command import anonymize_bytes
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import load_flat, replay_bytes

SEED_LINES = [
    b'{"kind":0,"v":{"version":3,"requests":[]}}',
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"r\\u00e9","message":{"text":"/compact now"},'
    b'"response":[{"kind":"progressTaskSerialized","content":{"value":"Compacted conversation"}},'
    b'{"value":"Compacted conversation."}],"result":{"metadata":{"summaries":[{"text":"A\\"B"},'
    b'{"text":""}]}}}]}',
    b'{"kind":1,"k":["requests",0,"slashCommand"],"v":{"name":"compact"}}',
    b'{"kind":2,"k":["requests",0,"response"],"i":1,"v":[{"kind":"progressTask","content":'
    b'{"value":"Summarized conversation history"}}]}',
    b'{"kind":1,"k":["requests",0,"result"],"v":{"metadata":{"summary":{"text":"x\\ud800"}}}}',
    b'{"kind":3,"k":["inputState"]}',
    b'{"kind":1,"k":["customTitle"],"v":"caf\xc3\xa9 \xff\xfe"}',
]
NOISE = st.sampled_from(
    [
        b'"',
        b"\\",
        b"{",
        b"}",
        b"[",
        b"]",
        b":",
        b",",
        b"\n",
        b"\r",
        b"\t",
        b"\xff",
        b"\xc3",
        b"x",
        b"1",
        b"-",
        b"e",
        b"u",
        b"\x00",
        b" ",
        b"null",
    ]
)


def verdict(data: bytes, container: str) -> object:
    try:
        replay = load_flat(data) if container == ".json" else replay_bytes(data)
        result = count_state(replay.state)
    except Rejection as rejection:
        return (rejection.code, rejection.line)
    return (
        result.reboots,
        [(e.request, e.source, e.reboot) for e in result.events],
        [(v.index, v.phantom_reason) for v in result.phantoms],
        [(n.code, n.line, n.request) for n in replay.notices + result.notices],
    )


@st.composite
def mangled(draw: st.DrawFn) -> bytes:
    """Seed lines in random order, some cut, some with noise spliced in, random line ends."""
    lines = draw(st.lists(st.sampled_from(SEED_LINES), min_size=1, max_size=6))
    out = []
    for line in lines:
        if draw(st.integers(0, 3)) == 0:
            cut = draw(st.integers(0, len(line)))
            line = line[:cut] + draw(NOISE) + line[cut + draw(st.integers(0, 3)) :]
        out.append(line + draw(st.sampled_from([b"\n", b"\r\n", b"\n\n"])))
    data = b"".join(out)
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return data


@given(mangled())
def test_a_mangled_log_gets_the_same_verdict(data: bytes) -> None:
    out = anonymize_bytes(data, ".jsonl", b"fuzz")
    assert verdict(out, ".jsonl") == verdict(data, ".jsonl")
    assert out.count(b"\n") == data.count(b"\n")


@given(mangled())
def test_a_mangled_flat_json_gets_the_same_verdict(data: bytes) -> None:
    flat = data.replace(b"\n", b"\n  ")
    out = anonymize_bytes(flat, ".json", b"fuzz")
    assert verdict(out, ".json") == verdict(flat, ".json")


@given(st.binary(max_size=200))
@example(b"\x0b")  # not JSON whitespace, but the reference reads such a flat file as empty
@example(b'{"kind":0,"v":{}}\n{"kind":1,"k":["a"],"v":tru')
def test_any_bytes_get_the_same_verdict(data: bytes) -> None:
    for container in (".jsonl", ".json"):
        out = anonymize_bytes(data, container, b"fuzz")
        assert verdict(out, container) == verdict(data, container)
