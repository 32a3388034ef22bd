"""`add-fixture`: a contributed session becomes a case, and only with an expectation that holds."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

from rebootspec.conformance.commands.contribute import add_fixture as cli
from rebootspec.generators.corpus.ids import ALPHABET

ROOT = Path(__file__).resolve().parents[2]
# One compaction request with summary "A" and one with "B": two reboots (CNT-2), by hand.
TWO_REBOOTS = (
    b'{"kind":0,"v":{"version":3,"requests":[]}}\n'
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"Qx1","response":[{"kind":'
    b'"progressTaskSerialized","content":{"value":"Compacted conversation"}}],'
    b'"result":{"metadata":{"summaries":[{"text":"Ab3"}]}}}]}\n'
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"Qx2","response":[{"kind":'
    b'"progressTaskSerialized","content":{"value":"Compacted conversation"}}],'
    b'"result":{"metadata":{"summaries":[{"text":"Zz9"}]}}}]}\n'
)
ARGS = ["--title", "two compactions with different summaries; two reboots", "--rules"]


def run(tmp_path: Path, data: bytes, *extra: str, name: str = "s.jsonl") -> tuple[int, Path]:
    session = tmp_path / name
    session.write_bytes(data)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir(exist_ok=True)
    argv = [str(session), *ARGS, "CNT-2,SUM-1", "--tags", "summaries-array", "--era"]
    argv += ["compacted-summaries", "--fixtures", str(fixtures), *extra]
    return cli(argv), fixtures


def cases(fixtures: Path) -> list[Path]:
    return sorted(p for p in fixtures.iterdir() if p.is_dir())


def test_a_matching_expectation_writes_a_valid_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, fixtures = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "2", "--author", "Ana")
    assert code == 0
    (case,) = cases(fixtures)
    assert len(case.name) == 4 and set(case.name) <= set(ALPHABET)
    assert (case / "session.jsonl").read_bytes() == TWO_REBOOTS
    table = tomllib.loads((case / "case.toml").read_text("utf-8"))
    schema = json.loads((ROOT / "spec" / "case.schema.json").read_text("utf-8"))
    jsonschema.validate(table, schema)
    assert table["id"] == case.name
    assert table["provenance"] == "anonymized:Ana"
    assert table["expect"] == {"outcome": "count", "reboots": 2}
    out = capsys.readouterr().out
    assert "REBOOT" in out and "snapshot-update" in out


def test_a_wrong_expectation_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    code, fixtures = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "1")
    assert code == 3
    assert cases(fixtures) == []


def test_force_writes_a_disputed_case(tmp_path: Path) -> None:
    code, fixtures = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "1", "--force")
    assert code == 0
    (case,) = cases(fixtures)
    assert tomllib.loads((case / "case.toml").read_text("utf-8"))["expect"]["reboots"] == 1


def test_a_rejection_case_names_its_code_and_line(tmp_path: Path) -> None:
    broken = TWO_REBOOTS + b'{"kind":9}\n'
    code, fixtures = run(tmp_path, broken, "--expect-reject", "E-ENTRY", "--line", "4")
    assert code == 0
    (case,) = cases(fixtures)
    table = tomllib.loads((case / "case.toml").read_text("utf-8"))
    assert table["expect"] == {"outcome": "reject", "error": "E-ENTRY", "line": 4}


def test_a_file_with_private_paths_is_refused(tmp_path: Path) -> None:
    private = TWO_REBOOTS.replace(b'"Ab3"', b'"see /home/ana/notes.md"')
    code, fixtures = run(tmp_path, private, "--expect-reboots", "2")
    assert code == 3 and cases(fixtures) == []
    code, fixtures = run(tmp_path, private, "--expect-reboots", "2", "--hand-written")
    assert code == 0


@pytest.mark.parametrize(
    "extra",
    [
        ["--expect-reboots", "2", "--tags", "no-such-tag"],
        ["--expect-reject", "E-ENTRY"],
        ["--expect-reject", "E-NOPE", "--line", "1"],
        ["--expect-reboots", "2", "--era", "no-such-era"],
        ["--expect-reboots", "2", "--rules", "XYZ-99"],
    ],
)
def test_bad_metadata_is_a_usage_error(tmp_path: Path, extra: list[str]) -> None:
    code, fixtures = run(tmp_path, TWO_REBOOTS, *extra)
    assert code == 2 and cases(fixtures) == []


def test_used_and_retired_ids_are_never_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The random source first offers a retired ID, then a used one, then a free one."""
    letters = iter("AAAA" + "BBBB" + "CCCC")

    class Scripted:
        def choice(self, alphabet: str) -> str:
            return next(letters)

    monkeypatch.setattr("rebootspec.generators.corpus.ids.random.SystemRandom", Scripted)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "retired.txt").write_text("AAAA\n", encoding="utf-8")
    (fixtures / "BBBB").mkdir()
    code, _ = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "2")
    assert code == 0
    assert {p.name for p in cases(fixtures)} == {"BBBB", "CCCC"}


def test_a_legacy_json_session_keeps_its_extension(tmp_path: Path) -> None:
    flat = (
        b'{\n  "version": 3,\n  "requests": [\n    {\n      "message": "/compact",\n'
        b'      "response": [\n        {\n          "value": "Compacted conversation."\n'
        b'        }\n      ],\n      "result": {"metadata": {"summary": {"text": "Q"}}}\n'
        b"    }\n  ]\n}"
    )
    code, fixtures = run(tmp_path, flat, "--expect-reboots", "1", name="s.json")
    assert code == 0
    (case,) = cases(fixtures)
    assert (case / "session.json").read_bytes() == flat
    assert tomllib.loads((case / "case.toml").read_text("utf-8"))["container"] == "json"


def test_an_installed_copy_refuses_in_one_line_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wheel's corpus lives in site-packages, with no pyproject.toml beside it: a case written
    there is lost with the next install and leaves `rebootspec run` with an unpinned case."""
    from rebootspec.generators.corpus import add_fixture

    package = tmp_path / "site-packages" / "rebootspec"
    corpus = package / "fixtures"
    corpus.mkdir(parents=True)
    monkeypatch.setattr(add_fixture, "CORPUS_DIR", corpus)
    session = tmp_path / "s.jsonl"
    session.write_bytes(TWO_REBOOTS)
    argv = [str(session), *ARGS, "CNT-2,SUM-1", "--tags", "summaries-array", "--era"]
    code = cli([*argv, "compacted-summaries", "--expect-reboots", "2"])
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "run this in a rebootspec checkout" in err
    assert list(package.rglob("*")) == [corpus]


def test_the_checkout_s_own_corpus_is_a_checkout() -> None:
    from rebootspec.fixtures import CORPUS_DIR
    from rebootspec.generators.corpus.add_fixture import in_checkout

    assert in_checkout(CORPUS_DIR) == (ROOT / "pyproject.toml").is_file()


def test_the_same_bytes_twice_are_refused_naming_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, fixtures = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "2")
    assert code == 0
    (first,) = cases(fixtures)
    capsys.readouterr()
    code, _ = run(tmp_path, TWO_REBOOTS, "--expect-reboots", "2", name="again.jsonl")
    assert code == 3
    assert f"case {first.name}" in capsys.readouterr().err
    assert cases(fixtures) == [first]


def test_a_session_of_another_host_names_its_host(tmp_path: Path) -> None:
    """A pi session (PIA-1) with one compaction, counted by hand: one reboot."""
    pi_session = (
        b'{"type":"session","version":3,"id":"5e0c9a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b",'
        b'"timestamp":"2026-03-01T10:00:00.000Z","cwd":"/p"}\n'
        b'{"type":"compaction","id":"b2c3d4e5","parentId":null,'
        b'"timestamp":"2026-03-01T10:00:02.000Z","summary":"Xy"}\n'
    )
    session = tmp_path / "pi.jsonl"
    session.write_bytes(pi_session)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(session), "--title", "one pi compaction; one reboot", "--rules", "PIA-3"]
    argv += ["--tags", "harvested", "--era", "none", "--expect-reboots", "1"]
    assert cli([*argv, "--fixtures", str(fixtures)]) == 0
    (case,) = cases(fixtures)
    table = tomllib.loads((case / "case.toml").read_text("utf-8"))
    assert list(table)[:4] == ["id", "name", "title", "host"] and table["host"] == "pi"
    assert table["name"].startswith("pi/")  # spec/FIXTURES.md "Names": the host comes first


def anonymized_chain(tmp_path: Path) -> Path:
    """A real basic-agent-chat-loop chain (harvested: two restorations, by the stub's log),
    anonymized; returns the asked file, its earlier files beside it."""
    from rebootspec.conformance.commands.contribute import anonymize

    source = ROOT / "fixtures" / "2QKE" / "input" / "harvest_20261125_034841.md"
    (tmp_path / "chain").mkdir()
    assert anonymize([str(source), str(tmp_path / "chain")]) == 0
    (asked,) = (tmp_path / "chain").glob("*_034841.md")  # named by its new id, time kept
    return asked


def test_a_chat_loop_chain_becomes_a_markdown_case_with_its_files(tmp_path: Path) -> None:
    asked = anonymized_chain(tmp_path)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(asked), "--title", "a resumed session resumed again; two reboots"]
    argv += ["--rules", "BCL-3,BCL-4", "--tags", "chatloop-chain", "--era", "none"]
    argv += ["--expect-reboots", "2", "--fixtures", str(fixtures)]
    assert cli(argv) == 0
    (case,) = cases(fixtures)
    table = tomllib.loads((case / "case.toml").read_text("utf-8"))
    assert (table["host"], table["container"], table["input"]) == (
        "basic-agent-chat-loop",
        "markdown",
        asked.name,
    )
    names = sorted(p.name for p in (case / "input").iterdir())
    assert names == sorted(p.name for p in asked.parent.iterdir())
    assert cli(argv) == 3  # the same chain again: refused
    assert cases(fixtures) == [case]


def test_an_opencode_database_becomes_a_sqlite_case(tmp_path: Path) -> None:
    """A harvested opencode 1.2.1 run with every summary failed: 0 reboots (its server log)."""
    from rebootspec.conformance.commands.contribute import anonymize

    source = ROOT / "fixtures" / "6ANK" / "input" / "opencode.db"
    (tmp_path / "db").mkdir()
    target = tmp_path / "db" / "one.db"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert anonymize([str(source), str(target)]) == 0
    session = next(r.split()[1] for r in out.getvalue().splitlines() if r.startswith("session"))
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(target), "--session", session, "--title", "failed summaries; no reboot"]
    argv += ["--rules", "OPC-6", "--tags", "opencode-database", "--era", "none"]
    argv += ["--expect-reboots", "0", "--fixtures", str(fixtures)]
    assert cli(argv) == 0
    (case,) = cases(fixtures)
    table = tomllib.loads((case / "case.toml").read_text("utf-8"))
    assert (table["container"], table["input"], table["session"]) == (
        "sqlite",
        "opencode.db",
        session,
    )
    assert (case / "input" / "opencode.db").read_bytes() == target.read_bytes()


def test_a_corpus_input_is_refused_naming_its_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bytes of a harvested case, offered again: the corpus has them as case 29EA."""
    fixtures = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures" / "29EA", fixtures / "29EA")
    session = tmp_path / "again.jsonl"
    shutil.copyfile(ROOT / "fixtures" / "29EA" / "session.jsonl", session)
    argv = [str(session), "--title", "again", "--rules", "GEM-3", "--tags", "harvested"]
    argv += ["--era", "none", "--expect-reboots", "3", "--fixtures", str(fixtures)]
    assert cli([*argv, "--hand-written"]) == 3
    assert "case 29EA" in capsys.readouterr().err
