"""Each plain file-name matcher of core/namematch.py equals its store row's regular expression.

The store table's patterns (each host's `stores.py`, cited by spec/STORES.md) are the fact; a
lookup by id matches names with plain functions so that `whoami` never imports `re`. Here each
function is held to `re.fullmatch(pattern, name)["id"]` (None where that does not match) on:
names drawn from the pattern itself (`from_regex`), those names mutated one to three times (a
character cut, added, replaced, the case of one changed), names glued from the pieces the
patterns are made of, and arbitrary text; with Unicode digits (`\\d` matches every Unicode
decimal digit, `[0-9]` only ASCII's), newlines (`.` matches none), slashes and backslashes.
And every row of the table has a matcher, so no lookup falls back to `re`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebootspec.reference.core.namematch import MATCHERS
from rebootspec.reference.sessions.stores import all_stores

PATTERNS = sorted(MATCHERS)

# Characters the patterns treat specially, and their near misses.
SPECIAL = [*"0123456789-_.:TZzt/\\\naAfFgG", "٣", "０", "𝟗", "²", "Ⅻ", "é", "\r", " "]
# The fixed parts of the patterns, and pieces near them.
PIECES = [
    "rollout-",
    "session-",
    "2026-03-01T10-00-00-",
    "2026-03-02T10-00-04-000Z_",
    "2026-03-01T10:00:00.000Z",
    "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b",
    "0C1D2E3F",
    "abc",
    "_20261125_034841",
    ".jsonl",
    ".json",
    ".jsonl.zst",
    ".zst",
    ".md",
    ".db",
    ".messages",
    "opencode",
    "kilo",
    "storage",
    "events",
    "ui_messages",
    "-",
    "_",
    "T",
    "Z",
    "/",
    "\\",
    "\n",
    "٣",
]


def expected(pattern: str, name: str) -> str | None:
    match = re.fullmatch(pattern, name)
    return None if match is None else match["id"]


@st.composite
def mutated(draw: st.DrawFn, pattern: str) -> str:
    """A name of the pattern, changed in one to three places."""
    name = draw(st.from_regex(pattern, fullmatch=True))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(name)))
        how = draw(st.sampled_from(["cut", "add", "replace", "case"]))
        char = draw(st.sampled_from(SPECIAL))
        if how == "cut" and at < len(name):
            name = name[:at] + name[at + 1 :]
        elif how == "add":
            name = name[:at] + char + name[at:]
        elif how == "replace" and at < len(name):
            name = name[:at] + char + name[at + 1 :]
        elif at < len(name):
            name = name[:at] + name[at].swapcase() + name[at + 1 :]
    return name


def names(pattern: str) -> st.SearchStrategy[str]:
    return st.one_of(
        st.from_regex(pattern, fullmatch=True),
        mutated(pattern),
        st.lists(st.sampled_from(PIECES), max_size=6).map("".join),
        st.text(st.sampled_from(SPECIAL), max_size=40),
        st.text(max_size=40),
    )


@pytest.mark.parametrize("pattern", PATTERNS)
@given(data=st.data())
def test_the_matcher_equals_its_pattern(pattern: str, data: st.DataObject) -> None:
    name = data.draw(names(pattern))
    assert MATCHERS[pattern](name) == expected(pattern, name), (pattern, name)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_matcher_equals_its_pattern_on_its_own_names(pattern: str) -> None:
    """The names the rows were written for, and their closest misses, every run."""
    for name in KNOWN:
        assert MATCHERS[pattern](name) == expected(pattern, name), (pattern, name)


KNOWN = [
    "",
    "rollout-2026-03-01T10-00-00-019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
    "rollout-2026-03-01T10-00-00-019c1a2b.jsonl.zst",
    "rollout-٢٠٢٦-03-01T10-00-00-x.jsonl",  # Arabic-Indic digits are `\d`
    "rollout-2026-03-01T10-00-00-.jsonl",  # no id
    "rollout-2026-03-01T10-00-00-a\nb.jsonl",  # `.` takes no newline
    "rollout-2026-03-01T10-00-00-a.jsonl.zst.jsonl",
    "2026-03-02T10-00-04-000Z_7eb0cddb-8209-448f-8553-6181b3013229.jsonl",
    "2026-03-02T10-00-04-000_x.jsonl",
    "2026-03-02T10-00-04-000ZZ_x.jsonl",
    "2026-03-02T_x.jsonl",
    "2026-03-02T1_.jsonl",
    "2026-03-02T1__.jsonl",
    "2026-03-02T1Z__x.jsonl",
    "2026-03-02T١٠_x.jsonl",  # `[0-9]` is ASCII only
    "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
    "019C1A2B-3C4D-7E5F-8A9B-0C1D2E3F4A5B.jsonl",
    "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5g.jsonl",
    "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b.json",
    "a/b.jsonl",
    "a\\b.json",
    "a\nb.json",
    ".jsonl",
    "x.jsonl",
    "x.json",
    "x.messages.json",
    ".messages.json",
    "session-2026-03-01T10-00-0c1d2e3f.jsonl",
    "session-2026-03-01T10:00:00.000Z-0c1d2e3f.json",  # no Z in `[0-9T:.-]`
    "session-2026-03-01T10:00-0C1D2E3F.json",
    "session--0c1d2e3f.json",
    "session-0c1d2e3f.json",
    "session-x-0c1d2e3f.json",
    "opencode.db",
    "opencode-.db",
    "opencode-a.db",
    "opencode-.db.db",
    "opencode-a/b.db",
    "opencodex.db",
    "kilo.db",
    "kilo-dev.db",
    "kilo-.db",
    "storage",
    "storage.db",
    "harvest_20261125_034841.md",
    "_20261125_034841.md",
    "a/b_20261125_034841.md",
    "a\nb_20261125_034841.md",
    "x_٢٠٢٦١١٢٥_034841.md",
    "x_2026112_034841.md",
    "events.jsonl",
    "events.json",
    "ui_messages.json",
    "ui_messages.jsonl",
]


def edits(name: str) -> Iterator[str]:
    """Every name one edit away from `name`: a character cut, replaced or added (from
    SPECIAL), or its case changed."""
    for at in range(len(name) + 1):
        for char in SPECIAL:
            yield name[:at] + char + name[at:]
        if at < len(name):
            yield name[:at] + name[at + 1 :]
            yield name[:at] + name[at].swapcase() + name[at + 1 :]
            for char in SPECIAL:
                yield name[:at] + char + name[at + 1 :]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_matcher_equals_its_pattern_one_edit_from_its_names(pattern: str) -> None:
    """Every near miss of every known name of the pattern (and of one drawn from it), every
    run, whatever the Hypothesis profile: the boundaries where a hand-written matcher slips."""
    own = [name for name in KNOWN if expected(pattern, name) is not None]
    assert own, f"no name of {pattern!r} in KNOWN"
    matcher = MATCHERS[pattern]
    for name in own:
        for near in edits(name):
            assert matcher(near) == expected(pattern, near), (pattern, near)


def test_every_row_of_the_table_has_a_plain_matcher() -> None:
    """A row whose pattern has none would be matched by `re`: right, but `whoami` pays for it."""
    rows = {store.pattern for store in all_stores()}
    assert rows - set(MATCHERS) == set(), "add a matcher to core/namematch.py for these"
    assert set(MATCHERS) - rows == set(), "a matcher no row uses"


def test_store_fullmatch_gives_the_group_id() -> None:
    """`Store.fullmatch`: {"id": the group} for a name of the row, None for another."""
    for store in all_stores():
        for name in KNOWN:
            match = store.fullmatch(name)
            wanted = expected(store.pattern, name)
            assert (match is None) == (wanted is None), (store.pattern, name)
            assert match is None or match["id"] == wanted
