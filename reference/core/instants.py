"""Time stamps as instants, for the rules that order a copy's events by time (PIA-5, CPL-6).

Why not `datetime.fromisoformat` on every stamp: `datetime` (with `math` and `operator`) costs
a few milliseconds to import, as much as counting a small file, and pi's and the Copilot CLI's
writers (Node's `Date.prototype.toISOString`) write every stamp in one shape,
`YYYY-MM-DDTHH:MM:SS.mmmZ`. Two stamps of that shape, each a real date and time, are in the
same order as text as they are in time (fixed width, most significant first, both UTC). So a
stamp of that shape is kept as its text; any other string is read by `datetime` (imported then,
on first need), exactly as before. `before` compares two either way.

Which strings are instants is `datetime.fromisoformat`'s decision (an aware result; None for
anything it refuses or a time without an offset); the shortcut only accepts what it accepts.
`tests/properties/test_instants.py` proves both with Hypothesis: every string the shortcut keeps
is one `fromisoformat` reads as an aware instant, and two of them compare as their instants do.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    Instant = str | datetime  # the canonical text, or the parsed instant

# Node's toISOString shape: the positions of the separators; every other one is an ASCII digit.
SHAPE = "0000-00-00T00:00:00.000Z"
SEPARATORS = {i: c for i, c in enumerate(SHAPE) if c != "0"}
DIGITS = "0123456789"
# Days per month (February's 29 checked against the leap-year rule below).
MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def instant(value: Any) -> Instant | None:
    """`value` as an instant: its text when it has the canonical shape, else the aware
    `datetime` it is; None when it is no string or no instant with an offset."""
    if not isinstance(value, str):
        return None
    if canonical(value):
        return value
    return _parsed(value)


def before(earlier: Instant, later: Instant) -> bool:
    """Whether `earlier` is strictly before `later` in time."""
    if isinstance(earlier, str) and isinstance(later, str):
        return earlier < later  # both canonical (see the module's docstring)
    return _aware(earlier) < _aware(later)


def canonical(text: str) -> bool:
    """Whether `text` is `YYYY-MM-DDTHH:MM:SS.mmmZ` in ASCII digits and names a real instant
    (year 1 or later, a day its month has, hours to 23, minutes and seconds to 59)."""
    if len(text) != len(SHAPE):
        return False
    for index, char in enumerate(text):
        wanted = SEPARATORS.get(index)
        if (char not in DIGITS) if wanted is None else (char != wanted):
            return False
    year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
    if year < 1 or not 1 <= month <= 12 or day < 1 or day > MONTH_DAYS[month - 1]:
        return False
    if month == 2 and day == 29 and not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
        return False
    return int(text[11:13]) <= 23 and int(text[14:16]) <= 59 and int(text[17:19]) <= 59


def _parsed(text: str) -> datetime | None:
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _aware(moment: Instant) -> datetime:
    if isinstance(moment, str):
        parsed = _parsed(moment)
        assert parsed is not None  # only canonical text is kept as text
        return parsed
    return moment
