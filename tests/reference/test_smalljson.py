"""`core/smalljson` (a small log's JSON without orjson) is the definition's reading, or silent.

The definition is `jsontext.parse_defined` (orjson, and the standard library's JSON.parse rules
where orjson refuses) and, line by line, `jsonvalues.iter_values` with orjson; the readable
path of every host goes through them. `smalljson.loads` may answer only with exactly the value
they give (same types, same float bits, same key order) and must say UNDECIDED wherever they
reject; `smalljson.dumps` may write only what `orjson.dumps` writes byte for byte. Hypothesis
drives both over JSON texts and the hostile ones: NaN and Infinity, integers past 64 bits and
past the double range, lone surrogates (escaped, and as bytes that are not UTF-8), duplicate
keys, nesting around ERR-8's bound, glued values, torn and trailing bytes, odd whitespace.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rebootspec.reference import count_path
from rebootspec.reference.core import jsonvalues, printable, smalljson
from rebootspec.reference.core.errors import Notice, Rejection
from rebootspec.reference.core.jsontext import parse_defined


def same(a: Any, b: Any) -> bool:
    """Equal as a reader sees values: same types, floats by their bits (-0.0, NaN), objects
    with the same keys in the same order (iterative: the texts nest past the stack)."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, float):
            if math.copysign(1, x) != math.copysign(1, y) or not (x == y or (x != x and y != y)):
                return False
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y, strict=True))
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            pending.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def defined(raw: bytes) -> tuple[str, Any]:
    try:
        return ("value", parse_defined(raw, 1))
    except Rejection as rejection:
        return ("rejected", (rejection.code, rejection.reason))


def check(raw: bytes) -> None:
    quick = smalljson.decide(raw)
    kind, value = defined(raw)
    if quick is smalljson.UNDECIDED:
        return
    assert kind == "value", f"smalljson accepted what the definition rejects: {raw!r}"
    assert same(quick, value), (raw, quick, value)


# JSON texts, hostile ones included ------------------------------------------------------------

NUMBER = st.from_regex(r"\A-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?\Z")
EDGE_NUMBERS = (
    *("01", "1.", ".5", "+1", "1e", "-", "--1", "1e+", "0x10", "1_000", "NaN", "Infinity"),
    *("-Infinity", "nan", "inf", "1e400", "-1e400", "2.5e-324", "1e-400", "-0", "-0.0"),
    *(str(2**63), str(2**63 - 1), str(-(2**63)), str(-(2**63) - 1), str(2**64 - 1), str(2**64)),
    *("9" * 309, "1" + "0" * 400, "1" * 4001, "1" * 4400, "1E2", "0.1e1", "1.0", "5e-324"),
)
BAD_NUMBER = st.sampled_from(EDGE_NUMBERS)
STRING_BODY = st.text(alphabet=st.characters(codec=None), max_size=12)
EDGE_ESCAPES = (
    *("\\ud800", "\\udfff", "\\ud83d\\ude00", "\\ud83d", "\\u0000", "\\n", "\\/", "\\x41"),
    *("\\u00e9", "\\uDC80", "\\", '\\"', "\\u12", "\\ud800\\u0041", "\\udc00\\ud800"),
)
ESCAPE = st.sampled_from(EDGE_ESCAPES)


@st.composite
def json_string(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(STRING_BODY.map(_escaped), ESCAPE), max_size=4))
    return '"' + "".join(parts) + '"'


def _escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


WHITESPACE = st.sampled_from(["", " ", "\n", "\t", "\r\n", "  ", "\x0c", "\xa0", "\u2028"])


def texts() -> st.SearchStrategy[str]:
    scalar = st.one_of(
        NUMBER, BAD_NUMBER, json_string(), st.sampled_from(["true", "false", "null", "tru"])
    )

    def containers(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        items = st.lists(st.tuples(WHITESPACE, children), max_size=4)
        keys = st.one_of(json_string(), st.sampled_from(['"a"', '"a"', '"b"', "1", "a"]))
        members = st.lists(st.tuples(keys, WHITESPACE, children), max_size=4)
        array = items.map(lambda xs: "[" + ",".join(w + x for w, x in xs) + "]")
        obj = members.map(lambda ms: "{" + ",".join(f"{k}:{w}{v}" for k, w, v in ms) + "}")
        return st.one_of(array, obj)

    return st.recursive(scalar, containers, max_leaves=12)


@st.composite
def hostile_bytes(draw: st.DrawFn) -> bytes:
    text = draw(WHITESPACE) + draw(texts()) + draw(WHITESPACE)
    shape = draw(st.sampled_from(["as is", "glued", "trailing", "bom", "cut", "surrogate bytes"]))
    if shape == "glued":
        text += draw(texts())
    elif shape == "trailing":
        text += draw(st.sampled_from([",", "]", "}", "x", "\x00", "//"]))
    elif shape == "bom":
        text = "\ufeff" + text
    raw = text.encode("utf-8", "surrogatepass")
    if shape == "cut" and raw:
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    if shape == "surrogate bytes":  # an unescaped lone surrogate, and bytes that are not UTF-8
        raw = raw.replace(b'"', b'"\xed\xa0\x80', 1).replace(b"e", b"\xff", 1)
    return raw


@given(hostile_bytes())
@example(b'{"a":1,"b":2,"a":3}')
@example(b'"\\ud800"')
@example(b"NaN")
@example(b"[1e400, -0, -0.0, 18446744073709551616, 123456789012345678901234567890]")
@example(b'"\xed\xa0\x80"')
@example(b"\xef\xbb\xbf{}")
@example(b"{} {}")
def test_loads_is_the_definition_or_undecided(raw: bytes) -> None:
    check(raw)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(), c, max_size=4),
        max_leaves=15,
    )
)
def test_loads_answers_what_json_writes(value: Any) -> None:
    """Every text `json` writes (NaN, Infinity and big integers included) is read as the
    definition reads it; ordinary values are answered (not left UNDECIDED)."""
    for raw in (
        json.dumps(value).encode(),
        json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"),
    ):
        check(raw)
    try:
        plain = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return
    assert smalljson.decide(plain) is not smalljson.UNDECIDED or _has_big_int(value)


def _has_big_int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -(2**63) <= value <= 2**64 - 1
    if isinstance(value, list):
        return any(_has_big_int(v) for v in value)
    if isinstance(value, dict):
        return any(_has_big_int(v) for v in value.values())
    return False


@pytest.mark.parametrize("number", EDGE_NUMBERS)
def test_each_edge_number(number: str) -> None:
    """orjson's range (-2**63..2**64-1; doubles past it), the double range, int()'s digit
    guard, negative zero: alone, in an array and as a member."""
    for text in (number, f"[{number}]", f'{{"n": {number}}}', f"[{number},{number}]"):
        check(text.encode())


@pytest.mark.parametrize("escape", EDGE_ESCAPES)
def test_each_edge_escape(escape: str) -> None:
    for text in (f'"{escape}"', f'["{escape}"]', f'{{"{escape}": 1}}', f'"a{escape}b"'):
        check(text.encode())


@pytest.mark.parametrize("depth", [1, 500, 999, 1000, 1001, 1023, 1024, 1025, 1030, 4000])
@pytest.mark.parametrize("limit", [1000, 5000])
def test_depth_around_the_bound(depth: int, limit: int) -> None:
    """ERR-8: nesting past 1024 levels is the definition's E-LIMIT, however high the
    interpreter's recursion limit is where it is read."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        for opener, closer in (("[", "]"), ('{"a":', "}")):
            check((opener * depth + "1" + closer * depth).encode())
    finally:
        sys.setrecursionlimit(before)


BROKEN = (b'{"a":"x', b"[1,", b'{"a" 1}', b"[1 2]", b'"\\q"', b"{,}", b"-", b'{"a":tru}')


def test_broken_texts_before_json_is_imported() -> None:
    """A count imports no `json`; the C scanner's errors then reach us without their exception
    (Python 3.11 looks json.decoder up in sys.modules only): still UNDECIDED, never a crash."""
    probe = (
        "import sys\n"
        "from rebootspec.reference.core import smalljson\n"
        "assert 'json.decoder' not in sys.modules, 'json was imported'\n"
        f"texts = {BROKEN!r}\n"
        "print(all(smalljson.decide(t) is smalljson.UNDECIDED for t in texts))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr[-2000:]


def test_loads_keeps_to_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smalljson, "_left", 10)
    assert smalljson.loads(b"[1,2,3]") == [1, 2, 3]
    assert smalljson.loads(b"[1,2,3]") is smalljson.UNDECIDED  # 7 + 7 > 10: orjson's turn
    assert smalljson.left() == 0
    assert smalljson.loads(b"1") is smalljson.UNDECIDED


def test_a_big_stream_goes_to_orjson_from_its_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A stream bigger than what is left is read by orjson from its first line, not switched
    to it halfway; one of unknown size (decompressed) too."""
    monkeypatch.setattr(smalljson, "_left", 100)
    assert smalljson.expect(io.BytesIO(b"[1]\n" * 25))  # 100 bytes: within the budget
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"[1]\n" * 26)
    with open(path, "rb") as stream:
        assert not smalljson.expect(stream)
    assert smalljson.left() == 0
    monkeypatch.setattr(smalljson, "_left", 100)
    assert not smalljson.expect(object())  # no size: not this module's


# Line by line: iter_values with and without it ------------------------------------------------


def values_of(data: bytes, small: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    monkeypatch.setattr(smalljson, "_left", smalljson.BUDGET if small else 0)
    notices: list[Notice] = []
    try:
        found = list(jsonvalues.iter_values(io.BytesIO(data), notices))
    except Rejection as rejection:
        return ("rejected", rejection.line, rejection.code, rejection.reason)
    return ("values", found, [(n.code, n.line, n.message) for n in notices])


@given(
    st.lists(
        st.one_of(hostile_bytes(), st.sampled_from([b"", b"  ", b"{}{}", b"[1]"])), max_size=6
    ),
    st.booleans(),
)
def test_iter_values_reads_the_same_lines(lines: list[bytes], terminated: bool) -> None:
    """JSV-1..JSV-4: the same values on the same lines, the same skipped lines and torn tail."""
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + (b"\n" if terminated else b"")
    with pytest.MonkeyPatch.context() as patch:
        quick = values_of(data, True, patch)
        slow = values_of(data, False, patch)
    assert quick[0] == slow[0]
    if quick[0] == "values":
        assert quick[2] == slow[2]
        assert len(quick[1]) == len(slow[1])
        for (line_a, a), (line_b, b) in zip(quick[1], slow[1], strict=True):
            assert line_a == line_b and same(a, b)
    else:
        assert quick == slow


# Writing: dumps ---------------------------------------------------------------------------------

ANSWERISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec=None))
    | st.sampled_from(["\ud800", "a\udcff", "\x00\x1f\x7f\u2028\U0001f600"]),
    lambda c: (
        st.lists(c, max_size=4)
        | st.tuples(c, c)
        | st.dictionaries(st.text() | st.integers() | st.sampled_from(["\udc80"]), c, max_size=4)
    ),
    max_leaves=15,
)


@given(ANSWERISH)
@example({"reboots": 1, "file": "a\udcffb", "warnings": [{"code": "W", "line": 2**64}]})
@example({"n": -(2**63), "m": 2**64 - 1, "t": (1, "x"), "f": 0.5})
def test_dumps_is_orjson_or_nothing(value: Any) -> None:
    quick = smalljson.dumps(value)
    try:
        expected = orjson.dumps(value).decode()
    except (orjson.JSONEncodeError, TypeError):
        assert quick is None
        return
    assert quick is None or quick == expected


def test_dumps_writes_an_answer() -> None:
    """What a count prints (strings, integers, booleans, null, lists, objects) is written here,
    so a small log's count never imports orjson."""
    answer = {"reboots": 2, "host": "vscode", "ok": True, "none": None, "list": [1, "é\n"]}
    assert smalljson.dumps(answer) == orjson.dumps(answer).decode()


# The corpus: every case's answer with it and without it -----------------------------------------


def _corpus() -> list[Any]:
    from rebootspec.conformance.runner.corpus import load_corpus

    return load_corpus(Path(__file__).resolve().parents[2] / "fixtures")


def _outcome(case: Any, small: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    monkeypatch.setattr(smalljson, "_left", smalljson.BUDGET if small else 0)
    if not small:
        monkeypatch.setattr(printable, "small_dumps", lambda value: None)
    try:
        result = count_path(case.input, session=case.session)
    except Rejection as rejection:
        return ("rejected", rejection.line, rejection.code, rejection.reason)
    return ("count", printable.dumps(result.to_json()), result.timeline())


def test_the_corpus_reads_the_same() -> None:
    """Every answer of the corpus (614 cases, every host) is the same, byte for byte as
    printed, read through smalljson or through orjson alone."""
    cases = _corpus()
    assert len(cases) >= 600
    differ = []
    for case in cases:
        with pytest.MonkeyPatch.context() as patch:
            quick = _outcome(case, True, patch)
        with pytest.MonkeyPatch.context() as patch:
            slow = _outcome(case, False, patch)
        if quick != slow:
            differ.append(case.id)
    assert differ == []
