"""The time-stamp shortcut of core/instants.py equals `datetime.fromisoformat`'s reading.

pi (PIA-5) and the Copilot CLI (CPL-6) order a copy's events by their time stamps. The readers
keep a stamp of Node's `toISOString` shape as text and compare texts, and read any other stamp
with `datetime`; these tests hold that shortcut to the definition it replaces: a string is an
instant exactly when `fromisoformat` reads it as an aware one, and two stamps compare as those
instants do, whatever mix of text and parsed stamps they are.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import example, given
from hypothesis import strategies as st

from rebootspec.reference.core.instants import SHAPE, before, canonical, instant


def definition(value: object) -> datetime | None:
    """The readers' reading before the shortcut: an aware `fromisoformat` result, else None."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


# Strings near the shape: each position a digit (ASCII, other scripts' decimal digits, or a
# digit out of range), its separator, or any character; other lengths by cutting or adding.
DIGIT = st.sampled_from("0123456789")
ODD_DIGIT = st.sampled_from("٣۵७๙０𝟗")  # Unicode decimal digits (`\d`, not ASCII)


def position(char: str) -> st.SearchStrategy[str]:
    if char == "0":
        return st.one_of(DIGIT, DIGIT, DIGIT, DIGIT, ODD_DIGIT, st.characters())
    return st.one_of(st.just(char), st.just(char), st.just(char), st.characters())


NEAR_SHAPE = st.tuples(*(position(char) for char in SHAPE)).map("".join)
# The shape itself with any ASCII digits: mostly dates and times out of range.
ASCII_SHAPE = st.tuples(*(DIGIT if char == "0" else st.just(char) for char in SHAPE)).map("".join)
STAMPS = st.one_of(
    ASCII_SHAPE,
    NEAR_SHAPE,
    NEAR_SHAPE.map(lambda text: text[:-1] + "+00:00"),  # an offset instead of Z
    NEAR_SHAPE.map(lambda text: text[:19]),  # no fraction, no offset: not an instant
    NEAR_SHAPE.map(lambda text: text[:-5] + "Z"),  # no fraction
    st.builds(
        lambda moment: moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        st.datetimes(timezones=st.just(UTC)),
    ),
    st.text(max_size=30),
)


@given(STAMPS)
@example("2024-02-29T12:00:00.000Z")  # a leap day
@example("2023-02-29T12:00:00.000Z")  # not one
@example("1900-02-29T12:00:00.000Z")  # a century is no leap year
@example("2000-02-29T12:00:00.000Z")  # unless a fourth one
@example("0000-01-01T00:00:00.000Z")  # before year 1
@example("2026-03-01T24:00:00.000Z")
@example("2026-03-01T23:60:00.000Z")
@example("2026-03-01T23:59:60.000Z")
@example("2026-04-31T00:00:00.000Z")
@example("2026-00-10T00:00:00.000Z")
@example("2026-03-00T00:00:00.000Z")
@example("2026-03-01T10:00:00.000z")
@example("２０２６-03-01T10:00:00.000Z")
def test_a_stamp_is_an_instant_exactly_when_fromisoformat_says(text: str) -> None:
    got = instant(text)
    wanted = definition(text)
    assert (got is None) == (wanted is None), text
    if canonical(text):
        assert wanted is not None, text  # the shortcut keeps only real instants
        assert got == text
    elif got is not None:
        assert got == wanted


@given(STAMPS, STAMPS)
def test_two_stamps_compare_as_their_instants(first: str, second: str) -> None:
    a, b = instant(first), instant(second)
    x, y = definition(first), definition(second)
    if a is None or b is None:
        return
    assert x is not None and y is not None
    assert before(a, b) == (x < y), (first, second)
    assert before(b, a) == (y < x), (first, second)


@given(st.datetimes(), st.datetimes())
def test_canonical_stamps_of_any_two_moments_compare_as_they_do(
    first: datetime, second: datetime
) -> None:
    """Every pair of real moments, written as Node writes them (millisecond precision)."""
    texts = [
        moment.replace(microsecond=moment.microsecond // 1000 * 1000).isoformat(
            timespec="milliseconds"
        )
        + "Z"
        for moment in (first, second)
    ]
    a, b = instant(texts[0]), instant(texts[1])
    assert isinstance(a, str) and isinstance(b, str)
    assert before(a, b) == (definition(texts[0]) < definition(texts[1]))  # type: ignore[operator]


def test_not_a_string_is_no_instant() -> None:
    for value in (None, 1, 1.5, ["2026-03-01T10:00:00.000Z"], {"t": 1}):
        assert instant(value) is None


def test_the_shortcut_keeps_every_real_instant_of_the_shape() -> None:
    """Leap days and the ends of ranges stay text (no `datetime` import for them)."""
    for text in (
        "2000-02-29T00:00:00.000Z",
        "2024-02-29T23:59:59.999Z",
        "0001-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z",
        "2026-04-30T12:00:00.000Z",
    ):
        assert canonical(text) and instant(text) == text
