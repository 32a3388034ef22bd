"""Every committed fixture, anonymized, still has the outcome its case.toml expects.

The corpus holds the hard shapes (rejections, torn tails, CRLF, BOM, invalid UTF-8, holes,
legacy `.json`), each with an expectation written by a person or a plan: an anonymizer that
damages any of them fails here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rebootspec.conformance.commands.contribute import reference_view
from rebootspec.generators.anonymize.command import anonymize_bytes, comparable
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import load_flat, replay_bytes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _vscode(case_toml: Path) -> bool:
    """The anonymizer reads VS Code sessions (hosts/vscode.md): other hosts' cases, and the
    files of no host (E-HOST), are not its input."""
    with case_toml.open("rb") as handle:
        meta = tomllib.load(handle)
    return "host" not in meta and meta["expect"].get("error") != "E-HOST"


CASES = sorted(p.parent for p in FIXTURES.glob("*/case.toml") if _vscode(p))


def expected(case: Path) -> dict[str, object]:
    with (case / "case.toml").open("rb") as handle:
        expect: dict[str, object] = tomllib.load(handle)["expect"]
    return expect


def answer(data: bytes, container: str) -> dict[str, object]:
    try:
        replay = load_flat(data) if container == ".json" else replay_bytes(data)
    except Rejection as rejection:
        return {"outcome": "reject", "error": rejection.code, "line": rejection.line}
    try:
        return {"outcome": "count", "reboots": count_state(replay.state).reboots}
    except Rejection as rejection:
        return {"outcome": "reject", "error": rejection.code, "line": rejection.line}


@pytest.mark.skipif(not CASES, reason="no fixtures yet")
@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_an_anonymized_fixture_keeps_its_expected_outcome(case: Path) -> None:
    (session,) = case.glob("session.*")
    original = session.read_bytes()
    anonymized = anonymize_bytes(original, session.suffix, b"corpus-test")
    assert answer(anonymized, session.suffix) == expected(case)
    assert len(anonymized.split(b"\n")) == len(original.split(b"\n"))


@pytest.mark.skipif(not CASES, reason="no fixtures yet")
@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_an_anonymized_fixture_passes_the_anonymizers_own_check(case: Path, tmp_path: Path) -> None:
    """`rebootspec anonymize` deletes its output (exit 3) when the reference's answer differs in
    anything but message texts: events, phantoms, warnings (W-TRUNCATED of UNC-8 too). A
    contributor's valid log must never be refused, so no fixture may trip that check."""
    (session,) = case.glob("session.*")
    target = tmp_path / f"anonymized{session.suffix}"
    target.write_bytes(anonymize_bytes(session.read_bytes(), session.suffix, b"corpus-test"))
    before, _ = reference_view(session)
    after, _ = reference_view(target)
    assert comparable(after) == comparable(before)
