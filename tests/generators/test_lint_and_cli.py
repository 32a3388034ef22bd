"""The corpus lint finds the mistakes a person makes when adding a case; the CLI's small tools."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

from rebootspec.generators.corpus import ids, lint

ROOT = Path(__file__).resolve().parents[2]
GOOD = """id = "{id}"
name = "vscode/aba/{lower}"
title = "a hand-written case for the lint test"
rules = ["CNT-2"]
tags = ["aba"]
era = "compacted"
container = "jsonl"
provenance = "author:test"

[expect]
outcome = "count"
reboots = 3
"""


def make_case(fixtures: Path, case_id: str, text: str, file: str = "session.jsonl") -> None:
    folder = fixtures / case_id
    folder.mkdir(parents=True)
    (folder / "case.toml").write_text(text.format(id=case_id, lower=case_id.lower()), "utf-8")
    (folder / file).write_bytes(b'{"kind":0,"v":{}}\n')


def errors(fixtures: Path) -> list[str]:
    checker = lint.Lint(fixtures, ROOT / "spec")
    checker.run()
    return checker.errors


def test_a_good_case_has_no_errors(tmp_path: Path) -> None:
    make_case(tmp_path, "ZZ22", GOOD)
    assert errors(tmp_path) == []


def test_mistakes_are_named(tmp_path: Path) -> None:
    make_case(tmp_path, "ZZ23", GOOD.replace('id = "{id}"', 'id = "ZZ24"'))
    make_case(tmp_path, "ZZ25", GOOD.replace('"aba"', '"no-such-tag"'))
    make_case(tmp_path, "ZZ26", GOOD.replace('"CNT-2"', '"CNT-99"'))
    make_case(tmp_path, "ZZ27", GOOD.replace("reboots = 3", 'error = "E-JSON"'))
    make_case(tmp_path, "ZZ28", GOOD, file="session.json")
    make_case(tmp_path, "OOPS", GOOD)
    (tmp_path / "retired.txt").write_text("ZZ22\nZZ29\n", "utf-8")
    make_case(tmp_path, "ZZ29", GOOD)
    found = "\n".join(errors(tmp_path))
    assert "fixtures/ZZ23/case.toml: id 'ZZ24' differs from the folder name" in found
    assert "fixtures/ZZ25/case.toml: unknown tag 'no-such-tag'" in found
    assert "fixtures/ZZ26/case.toml: rule CNT-99 does not exist in the spec" in found
    assert "fixtures/ZZ27/case.toml: expect" in found
    assert "fixtures/ZZ28: expected exactly session.jsonl" in found
    assert "fixtures/OOPS: the folder name is not an ID" in found
    assert "fixtures/ZZ29: the ID is retired" in found


def test_two_cases_with_one_name_are_named_and_a_case_without_one_too(tmp_path: Path) -> None:
    """spec/FIXTURES.md "Names": a name selects a case (-k), so no two cases share one."""
    make_case(tmp_path, "ZZ22", GOOD.replace("aba/{lower}", "aba/same"))
    make_case(tmp_path, "ZZ23", GOOD.replace("aba/{lower}", "aba/same"))
    make_case(tmp_path, "ZZ24", GOOD.replace('name = "vscode/aba/{lower}"\n', ""))
    found = "\n".join(errors(tmp_path))
    assert "fixtures/ZZ23/case.toml: name 'vscode/aba/same' is already the name of ZZ22" in found
    assert "fixtures/ZZ24/case.toml: no name" in found


def test_coverage_fails_when_a_rule_or_tag_has_no_case(tmp_path: Path) -> None:
    make_case(tmp_path, "ZZ22", GOOD)
    out = io.StringIO()
    assert lint.main(tmp_path, ROOT / "spec", out) == 1
    text = out.getvalue()
    assert "RPL-1    -- no case --" in text
    assert "error: rule RPL-1 has no case" in text
    assert "error: tag 'crlf' of spec/tags.toml is used by no case" in text


def test_lint_fails_without_spec_md(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", spec)
    (spec / "SPEC.md").unlink()
    out = io.StringIO()
    assert lint.main(ROOT / "fixtures", spec, out) == 1
    assert "spec/SPEC.md is missing" in out.getvalue()


def test_new_ids_are_well_formed_and_unused() -> None:
    used = ids.taken()
    fresh = {ids.new_id(used) for _ in range(50)}
    assert all(ids.is_id(x) for x in fresh)
    assert not fresh & used


def test_registry_ids_are_unique_and_not_retired() -> None:
    table = ids.registry()
    assert len(set(table.values())) == len(table)
    assert not set(table.values()) & set(ids.retired())


def test_build_check_of_one_case() -> None:
    case_id = next(iter(ids.registry().values()))
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.generators", "build", "--check", "--only", case_id],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "1 generated cases match a fresh build\n"
