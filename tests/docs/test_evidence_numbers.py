"""The numbers of docs/evidence.md are the corpus's: hand counts, harvested cases per host.

Why: the evidence page is where a reader checks a claim ("the reference agrees on all 43"); a
number that drifted from the corpus (the page said 26 harvested Codex and pi cases when the
corpus held 30) makes the whole page doubtful. The expected numbers come from the cases'
own case.toml (their hand-worked expectation and their provenance), never from the reference.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = " ".join((ROOT / "docs" / "evidence.md").read_text("utf-8").split())
CASES = {
    path.parent.name: tomllib.loads(path.read_text("utf-8"))
    for path in (ROOT / "fixtures").glob("*/case.toml")
}


def harvested(*hosts: str) -> int:
    """Cases whose provenance is a harvest of one of `hosts` (harvest:HOST@VERSION/...)."""
    return sum(
        1
        for case in CASES.values()
        if re.match(r"harvest:([^@]+)@", case.get("provenance", ""))
        and case["provenance"].split(":", 1)[1].split("@", 1)[0] in hosts
    )


# A sentence of the page -> the hosts whose harvested cases it counts.
SENTENCES = {
    r"Written by the hosts themselves\.\*\* (\d+) cases \(tag `harvested`": ("codex", "pi"),
    r"and (\d+) cases hold a run's session files": ("basic-agent-chat-loop",),
    r"`--resume <id> -p`: (\d+) cases from": ("qwen-code",),
    r"The reference agrees on all (\d+)\.": ("qwen-code",),
}


@pytest.mark.parametrize("sentence", SENTENCES)
def test_each_harvest_count_is_the_corpuss(sentence: str) -> None:
    said = re.search(sentence, PAGE)
    assert said, f"docs/evidence.md no longer says {sentence!r}"
    assert int(said.group(1)) == harvested(*SENTENCES[sentence])


def test_the_hand_counts_of_the_real_logs_are_the_cases_expectations() -> None:
    text = (ROOT / "docs" / "evidence.md").read_text("utf-8")
    rows = re.findall(r"^\| `(realworld-[a-z0-9-]+)` \|[^|]*\|[^|]*\| (\d+) \|", text, re.M)
    assert len(rows) >= 8, rows
    for case, reboots in rows:
        assert CASES[case]["expect"]["reboots"] == int(reboots), case


def test_the_gallery_count_is_the_gallerys() -> None:
    """ "N mistakes: 25 of VS Code readers ... and 5 for the Cline family": the total is the
    gallery's size (tests/gallery/wrong_counters.py), and the groups named add up to it."""
    import importlib.util
    import sys

    gallery = ROOT / "tests" / "gallery"
    sys.path.insert(0, str(gallery))
    try:
        spec = importlib.util.spec_from_file_location(
            "wrong_counters", gallery / "wrong_counters.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(gallery))
    said = re.search(r"SPEC\.md §10 — (\d+) mistakes: (\d+) of VS Code", PAGE)
    assert said, "the gallery paragraph is gone"
    assert int(said.group(1)) == len(module.GALLERY)
    paragraph = PAGE[said.start() : PAGE.index("as one compaction.", said.start())]
    groups = [int(said.group(2)), *map(int, re.findall(r"\band (\d+) for\b", paragraph))]
    assert sum(groups) == len(module.GALLERY), groups


WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def provenance_count(prefix: str, hosts: tuple[str, ...] = ()) -> int:
    """Cases whose provenance starts with `prefix` (and whose host is one of `hosts`)."""
    return sum(
        1
        for case in CASES.values()
        if case.get("provenance", "").startswith(prefix)
        and (not hosts or case.get("host") in hosts)
    )


# A sentence of the page -> the provenance prefix (and hosts) of the cases it counts.
PROVENANCES = {
    r"The (\d+) generated cases of the family": ("generator:", ("cline", "roo-code", "kilo-code")),
    r"(\w+) 1\.0\.102 cases come from it": ("harvest:copilot-cli@1.0.102/", ()),
    r"and (\w+) of 1\.0\.85 \(era `P1`": ("harvest:copilot-cli@1.0.85/", ()),
}


@pytest.mark.parametrize("sentence", PROVENANCES)
def test_each_count_by_provenance_is_the_corpuss(sentence: str) -> None:
    said = re.search(sentence, PAGE)
    assert said, f"docs/evidence.md no longer says {sentence!r}"
    word = said.group(1)
    number = int(word) if word.isdigit() else WORDS[word.lower()]
    assert number == provenance_count(*PROVENANCES[sentence])
