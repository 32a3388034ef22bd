"""The corpus catches every known wrong counter (SPEC.md §10 and tests/gallery/wrong_counters.py).

For each row of §10 there is a counter making exactly that mistake. The corpus must fail each of
them on at least one case, and every tag the row names must be carried by a case it fails: the
table then says truthfully what the mistake gets wrong. A row without a counter, a counter without
a row, or a counter the corpus lets through (for instance after the one fixture that caught it was
deleted) fails here.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.gallery.wrong_counters import GALLERY, answer

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `([a-z0-9-]+)` \|.*\|([^|]*)\|\s*$", re.M)
TAGS = re.compile(r"`([a-z0-9-]+)`")


def spec_rows(text: str) -> dict[str, list[str]]:
    """§10's rows: mistake name -> the tags of its last column."""
    section = text[text.index("## 10. Known divergences") : text.index("## Changes")]
    return {match[1]: TAGS.findall(match[2]) for match in ROW.finditer(section)}


ROWS = spec_rows((ROOT / "spec" / "SPEC.md").read_text("utf-8"))


@cache
def corpus() -> list[tuple[str, str, tuple[str, Any], frozenset[str]]]:
    """(id, input path, expected answer, tags) for every case."""
    cases = []
    for meta in sorted((ROOT / "fixtures").glob("*/case.toml")):
        case = tomllib.loads(meta.read_text("utf-8"))
        expect = case["expect"]
        wanted: tuple[str, Any] = (
            ("count", expect["reboots"])
            if expect["outcome"] == "count"
            else ("reject", expect["error"])
        )
        session = meta.parent / f"session.{case['container']}"
        cases.append((case["id"], str(session), wanted, frozenset(case["tags"])))
    return cases


def test_every_row_has_a_counter_and_every_counter_a_row() -> None:
    assert len(ROWS) >= 20
    assert sorted(ROWS) == sorted(GALLERY)


def test_the_row_parser_reads_names_and_tags() -> None:
    text = (
        "## 10. Known divergences\n\n| mistake | a | b |\n| --- | --- | --- |\n"
        "| `x-y` | reads `i` badly | loses (`push-index`, `delete`) |\n\n## Changes\n"
    )
    assert spec_rows(text) == {"x-y": ["push-index", "delete"]}


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_the_corpus_catches_the_mistake_where_the_spec_says(name: str) -> None:
    failing = [
        (case_id, tags)
        for case_id, path, wanted, tags in corpus()
        if answer(GALLERY[name], path) != wanted
    ]
    assert failing, f"{name}: no case of the corpus tells this mistake from the spec"
    seen = frozenset().union(*(tags for _, tags in failing))
    missing = [tag for tag in ROWS.get(name, []) if tag not in seen]
    assert not missing, f"{name}: §10 names {missing}, but no failing case carries them"


def test_the_reference_itself_passes_every_case() -> None:
    """The gallery's judge is honest: the unbent reference gives every expected answer."""
    from rebootspec.reference import count_path

    wrong = [
        case_id
        for case_id, path, wanted, _ in corpus()
        if answer(lambda p: count_path(p).reboots, path) != wanted
    ]
    assert wrong == []
