"""The runner's answer readers on hostile stdout: an answer or a reason, never an exception.

A candidate's stdout is untrusted input to the runner. Whatever it prints — random text, JSON
nested thousands deep, huge or negative numbers, floats, lone surrogates, NUL bytes — each
reader returns either a non-negative count or a one-line reason, and the informative reader a
dict; nothing raises. The `nightly` Hypothesis profile explores much more.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from rebootspec.conformance.runner.answers import (
    JsonPointerReader,
    LastIntegerReader,
    PatternReader,
    read_informative,
)

READERS = [
    JsonPointerReader("/reboots"),
    JsonPointerReader.for_key("patch"),
    JsonPointerReader("/a/0/~1b"),
    LastIntegerReader(),
    PatternReader(r"Patch = (\d+)"),
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def stdouts() -> st.SearchStrategy[str]:
    as_json = json_values.map(lambda v: json.dumps(v))
    wrapped = json_values.map(lambda v: json.dumps({"reboots": v, "patch": v}))
    deep = st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n + "]" * n)
    digits = st.integers(min_value=1, max_value=6000).map(lambda n: '{"reboots": ' + "9" * n + "}")
    return st.one_of(st.text(), as_json, wrapped, deep, digits, st.just("\ud800 Patch = 3\x00"))


@given(stdouts())
def test_every_reader_answers_or_explains(stdout: str) -> None:
    for reader in READERS:
        count, reason = reader.read(stdout)
        if count is None:
            assert isinstance(reason, str) and reason
            assert "\n" not in reason
        else:
            assert isinstance(count, int) and count >= 0
        assert isinstance(read_informative(stdout, reader), dict)
