"""`casefile`, the one owner of case.toml, tags and rules, says what the spec says.

The spec's own documents are read here independently (headings of SPEC.md, the committed
corpus), so the tag table and the rule list are checked against the text a person edits, not
against the module's own parsing.
"""

from __future__ import annotations

import io
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from rebootspec.generators.corpus import casefile, lint
from rebootspec.generators.hosts.vscode.shapes import SHAPE_RULES
from rebootspec.reference.core.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SPEC_TEXT = (SPEC / "SPEC.md").read_text("utf-8")
# The core and every host chapter (spec 3.0: one core, one chapter per host).
ALL_SPEC_TEXT = "\n".join(
    path.read_text("utf-8") for path in [SPEC / "SPEC.md", *sorted((SPEC / "hosts").glob("*.md"))]
)
SPEC_RULES = set(re.findall(r"^### ([A-Z]{3}-\d+) ", ALL_SPEC_TEXT, re.M))
GOOD = """id = "{id}"
name = "vscode/aba/hand-written-casefile-test"
title = "a hand-written case for the casefile test"
rules = ["CNT-2"]
tags = ["aba"]
era = "compacted"
container = "jsonl"
provenance = "author:test"

[expect]
outcome = "count"
reboots = 3
"""


def make_case(root: Path, text: str, case_id: str = "ZZ22") -> Path:
    folder = root / case_id
    folder.mkdir()
    (folder / "case.toml").write_text(text.format(id=case_id), "utf-8")
    (folder / "session.jsonl").write_bytes(b'{"kind":0,"v":{}}\n')
    return folder


def one_line_naming(error: casefile.CaseFileError, path: Path) -> str:
    text = str(error)
    assert "\n" not in text
    assert text.startswith(f"{path}: ")
    return text


def test_a_good_case_reads_and_validates(tmp_path: Path) -> None:
    folder = make_case(tmp_path, GOOD)
    case = casefile.load_case(folder)
    assert (case.id, case.tags, case.expect["reboots"]) == ("ZZ22", ("aba",), 3)
    assert case.input == folder / "session.jsonl"
    assert casefile.validate(folder)["title"].startswith("a hand-written")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (GOOD.replace("[expect]", "[expect"), "not TOML"),
        (GOOD.replace('id = "{id}"', 'id = "ZZ23"'), "does not match the folder name"),
        (GOOD.replace('outcome = "count"', 'outcome = "maybe"'), "is not count or reject"),
        (GOOD.replace("reboots = 3", "reboots = -1"), "non-negative"),
        (GOOD.replace('container = "jsonl"', 'container = "json"'), "session.json is missing"),
        (GOOD.replace('title = "a hand-written case for the casefile test"\n', ""), "title"),
    ],
)
def test_a_bad_case_toml_is_one_line_naming_the_file(
    tmp_path: Path, text: str, reason: str
) -> None:
    folder = make_case(tmp_path, text)
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.load_case(folder)
    assert reason in one_line_naming(caught.value, folder / "case.toml")


def test_a_missing_case_toml_is_one_line_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.load_case(tmp_path)
    assert "cannot read" in one_line_naming(caught.value, tmp_path / "case.toml")


def test_the_schema_check_names_the_file_and_the_field(tmp_path: Path) -> None:
    folder = make_case(tmp_path, GOOD.replace("reboots = 3", 'error = "E-NOPE"\nline = 1'))
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.validate(folder)
    assert "expect" in one_line_naming(caught.value, folder / "case.toml")


def test_render_writes_what_tomllib_reads_back() -> None:
    table = {
        "id": "ZZ22",
        "name": "vscode/aba/quotes",
        "title": 'quotes " and \\ backslashes, a tab\there, ünïcode',
        "rules": ["CNT-2", "SUM-1"],
        "tags": ["aba"],
        "era": "compacted",
        "container": "jsonl",
        "provenance": "author:test",
        "comment": "line one\nline two",
        "expect": {"outcome": "reject", "error": "E-JSON", "line": 0},
    }
    assert tomllib.loads(casefile.render(table)) == table


def test_a_table_without_a_name_is_written_with_a_readable_one_after_its_id() -> None:
    """spec/FIXTURES.md "Names": what a generated case's name is made of."""
    table = {
        "id": "ZZ22",
        "title": "a fork that inherits a compaction; one reboot",
        "host": "codex",
        "rules": ["CNT-2"],
        "tags": ["codex-fork-copy"],
        "era": "C4",
        "container": "jsonl",
        "provenance": "generator:codex-fork-inherited/era=C4/seed=1",
        "expect": {"outcome": "count", "reboots": 1},
    }
    text = casefile.render(table)
    assert text.splitlines()[:2] == ['id = "ZZ22"', 'name = "codex/fork-inherited/c4"']
    hand = table | {"provenance": "author:test"}
    assert casefile.case_name(hand) == "codex/fork-copy/fork-inherits-compaction"


def test_a_bad_name_is_one_line_naming_the_file(tmp_path: Path) -> None:
    folder = make_case(tmp_path, GOOD.replace("vscode/aba/hand", "VS Code/aba/hand"))
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.load_case(folder)
    assert "not a path-like case name" in one_line_naming(caught.value, folder / "case.toml")


def test_every_rule_a_tag_lists_is_a_rule_of_spec_md() -> None:
    for tag, rules in casefile.tag_rules(SPEC).items():
        assert set(rules) <= SPEC_RULES, tag


def test_the_tag_table_is_the_closed_list_the_corpus_uses() -> None:
    used = set()
    for path in (ROOT / "fixtures").glob("*/case.toml"):
        used |= set(tomllib.loads(path.read_text("utf-8"))["tags"])
    assert set(casefile.known_tags(SPEC)) == used


def test_a_shape_tag_lists_the_rule_the_generator_cites_for_it() -> None:
    """build cites SHAPE_RULES for the byte shapes it detects; the table must agree."""
    table = casefile.tag_rules(SPEC)
    for tag, rule in SHAPE_RULES.items():
        assert rule in table[tag], tag


def test_error_codes_are_the_codes_of_the_err_headings() -> None:
    named = re.findall(r"^### ERR-\d+ .*`(E-[A-Z-]+)`", SPEC_TEXT, re.M)
    assert casefile.error_codes(SPEC) == tuple(named)
    assert set(casefile.error_codes(SPEC)) == set(ERROR_CODES)


def test_citable_rules_include_the_protocol() -> None:
    rules = casefile.citable_rules(SPEC)
    assert rules >= SPEC_RULES
    assert {"PRO-1", "PRO-2", "PRO-3", "PRO-4"} <= rules


def test_a_broken_tag_row_is_one_line_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "tags.toml").write_text('[aba]\ndescription = "A,B,A"\n', "utf-8")
    with pytest.raises(casefile.CaseFileError) as caught:
        casefile.tag_table(tmp_path)
    assert "[aba]" in one_line_naming(caught.value, tmp_path / "tags.toml")


def test_lint_rejects_a_tag_that_lists_a_rule_the_spec_lacks(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(SPEC, spec)
    tags = spec / "tags.toml"
    text = tags.read_text("utf-8")
    row = '[aba]\ndescription = "summary texts A,B,A"\nrules = '
    edited = text.replace(row + '["CNT-1", "CNT-2"]', row + '["CNT-2", "CNT-99", "RPL-9"]')
    assert edited != text
    tags.write_text(edited, "utf-8")
    out = io.StringIO()
    assert lint.main(ROOT / "fixtures", spec, out) == 1
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error:")]
    assert errors == [
        "error: spec/tags.toml: [aba] lists CNT-99, not a rule of spec/SPEC.md",
        "error: spec/tags.toml: [aba] lists RPL-9, which no case with the tag cites",
    ]
