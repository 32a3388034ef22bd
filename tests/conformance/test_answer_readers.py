"""Output adapters: where a count is read from, and what is never a count."""

from __future__ import annotations

import pytest

from rebootspec.conformance.runner.answers import (
    JsonPointerReader,
    LastIntegerReader,
    PatternReader,
    pointer_tokens,
)


def test_key_and_pointer() -> None:
    stdout = '{"patch": 4, "a/b": {"c~d": [7, 8]}, "reboots": 1}'
    assert JsonPointerReader().read(stdout) == (1, None)
    assert JsonPointerReader.for_key("patch").read(stdout) == (4, None)
    assert JsonPointerReader("/a~1b/c~0d/1").read(stdout) == (8, None)
    assert JsonPointerReader.for_key("a/b").read(stdout)[0] is None


def test_pointer_to_a_missing_place_says_so() -> None:
    count, reason = JsonPointerReader("/x/0").read('{"x": []}')
    assert count is None and reason is not None and "/x/0" in reason


def test_pointer_must_start_with_a_slash() -> None:
    with pytest.raises(ValueError):
        pointer_tokens("reboots")
    assert pointer_tokens("") == []


@pytest.mark.parametrize(
    ("stdout", "count"),
    [
        ("Patch = 35\n", 35),
        ("counted 2 of 3 requests: 2", 2),
        ("date 2026-02-19 total 7", 7),
        ("ends with a date 2026-02-19", 19),
        ("no digits here", None),
        ("value -4", None),
        ("huge 99999999999999999999999", None),
        ("", None),
    ],
)
def test_last_integer(stdout: str, count: int | None) -> None:
    assert LastIntegerReader().read(stdout)[0] == count


def test_pattern_takes_the_last_match() -> None:
    reader = PatternReader(r"^Patch = (\d+)\s*$")
    assert reader.read("Patch = 1\nnoise 9\nPatch = 3\r\n") == (3, None)
    assert reader.read("patch: 3")[0] is None
