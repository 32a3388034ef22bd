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

from tests.gallery.wrong_counters import GALLERY, CaseInput, answer, session_of

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `([a-z0-9-]+)` \|.*\|([^|]*)\|\s*$", re.M)
TAGS = re.compile(r"`([a-z0-9-]+)`")


def spec_rows(text: str) -> dict[str, list[str]]:
    """§10's rows: mistake name -> the tags of its last column."""
    section = text[text.index("## 10. Known divergences") : text.index("## Changes")]
    return {match[1]: TAGS.findall(match[2]) for match in ROW.finditer(section)}


SPEC_TEXT = (ROOT / "spec" / "SPEC.md").read_text("utf-8")
ROWS = spec_rows(SPEC_TEXT)
# The rows of the "Other hosts" group (spec 3.0): mistakes of Codex, pi, Claude Code and Gemini
# CLI readers.
HOST_ROWS = spec_rows(
    "## 10. Known divergences\n" + SPEC_TEXT[SPEC_TEXT.index("**Other hosts**") :]
)


@cache
def corpus() -> list[tuple[str, str, tuple[str, Any], frozenset[str]]]:
    """(id, input path, expected answer, tags) for every case, of every host."""
    cases = []
    for meta in sorted((ROOT / "fixtures").glob("*/case.toml")):
        case = tomllib.loads(meta.read_text("utf-8"))
        expect = case["expect"]
        wanted: tuple[str, Any] = (
            ("count", expect["reboots"])
            if expect["outcome"] == "count"
            else ("reject", expect["error"])
        )
        if "input" in case:  # a folder container: the input under input/, and its session
            path = str(meta.parent / "input" / case["input"])
        else:
            path = str(meta.parent / f"session.{case['container']}")
        cases.append(
            (case["id"], CaseInput.of(path, case.get("session")), wanted, frozenset(case["tags"]))
        )
    return cases


@cache
def hosts() -> dict[str, str]:
    """case id -> its host (HST-1; absent means vscode, and a file of no host is no host's)."""
    found = {}
    for meta in (ROOT / "fixtures").glob("*/case.toml"):
        case = tomllib.loads(meta.read_text("utf-8"))
        no_host = "unknown-host" in case["tags"]
        found[case["id"]] = "none" if no_host else case.get("host", "vscode")
    return found


def test_every_row_has_a_counter_and_every_counter_a_row() -> None:
    assert len(ROWS) >= 20
    assert sorted(ROWS) == sorted(GALLERY)


@pytest.mark.slow
def test_the_other_hosts_have_their_own_rows() -> None:
    """Spec 3.0's hosts each have mistakes of their own in the gallery, not only VS Code's."""
    assert len(HOST_ROWS) >= 12
    assert set(HOST_ROWS) <= set(ROWS)
    caught_on = {
        hosts()[case_id]
        for name in HOST_ROWS
        for case_id, path, wanted, _ in corpus()
        if answer(GALLERY[name], path) != wanted
    }
    assert {"codex", "pi", "claude-code", "gemini-cli"} <= caught_on


@pytest.mark.slow
def test_claude_code_and_gemini_rows_are_caught_on_their_own_hosts() -> None:
    """Each `claude-*` and `gemini-*` row is caught on a case of the host it names: the mistake
    is in that host's reading, not a side effect on another host's files."""
    prefixes = {"claude-": "claude-code", "gemini-": "gemini-cli"}
    for name in HOST_ROWS:
        host = next((h for p, h in prefixes.items() if name.startswith(p)), None)
        if host is None:
            continue
        caught = [
            case_id
            for case_id, path, wanted, _ in corpus()
            if hosts()[case_id] == host and answer(GALLERY[name], path) != wanted
        ]
        assert caught, f"{name}: no {host} case tells this mistake from the spec"


def test_every_row_names_tags_of_the_corpus() -> None:
    known = set(tomllib.loads((ROOT / "spec" / "tags.toml").read_text("utf-8")))
    unknown = {name: [t for t in tags if t not in known] for name, tags in ROWS.items()}
    assert {name: tags for name, tags in unknown.items() if tags} == {}
    assert all(ROWS.values()), "every row names at least one tag"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(HOST_ROWS) - {"greps-compact"}))
def test_a_host_mistake_is_only_that_mistake(name: str) -> None:
    """A host row's counter bends one rule of Codex or pi reading: on every VS Code case it gives
    the expected answer, so what the corpus catches is the mistake its row names."""
    wrong = [
        case_id
        for case_id, path, wanted, _ in corpus()
        if hosts()[case_id] == "vscode" and answer(GALLERY[name], path) != wanted
    ]
    assert wrong == []


def test_the_row_parser_reads_names_and_tags() -> None:
    text = (
        "## 10. Known divergences\n\n| mistake | a | b |\n| --- | --- | --- |\n"
        "| `x-y` | reads `i` badly | loses (`push-index`, `delete`) |\n\n## Changes\n"
    )
    assert spec_rows(text) == {"x-y": ["push-index", "delete"]}


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_reference_itself_passes_every_case() -> None:
    """The gallery's judge is honest: the unbent reference gives every expected answer."""
    from rebootspec.reference import count_path

    wrong = [
        case_id
        for case_id, path, wanted, _ in corpus()
        if answer(lambda p: count_path(p, session=session_of(p)).reboots, path) != wanted
    ]
    assert wrong == []
