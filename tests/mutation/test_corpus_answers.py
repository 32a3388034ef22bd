"""The corpus as a test of the reference, in process: the test `tox -e mutation` mutates against.

Each case's input must give the outcome its case.toml states (a person's or a plan's answer):
the count, or the rejection code and line. This is what the conformance run checks for the
in-process reference, without the runner around it, so that a mutation tester can run it once
per mutant: a mutant of `reference/` that no case notices is a rule the corpus cannot tell from
its mistake (tests/mutation/equivalent.toml lists the ones that cannot change any answer).
"""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path

import pytest

# Under mutmut the code under test is its mutated copy in mutants/, importable only by the bare
# name `reference` (mutmut puts mutants/ first on sys.path); everywhere else it is the installed
# rebootspec.reference. The reference imports only itself (relatively), so both work.
PACKAGE = "reference" if "MUTANT_UNDER_TEST" in os.environ else "rebootspec.reference"
count_path = importlib.import_module(PACKAGE).count_path
Rejection = importlib.import_module(PACKAGE + ".core.errors").Rejection
eras = importlib.import_module(PACKAGE + ".hosts.vscode.eras")
registry = importlib.import_module(PACKAGE + ".core.registry")
records = importlib.import_module(PACKAGE + ".core.records")

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CASES = sorted(path.parent for path in FIXTURES.glob("*/case.toml"))


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    """Each case starts as a fresh `rebootspec count` does: with the host table loaded again
    from spec/hosts.toml and the era vocabulary built again. A table cached by an earlier case
    (or by mutmut's parent process, before the mutant was switched on) would run the case
    without the mutant of `registry._load` or of the era code, and hide it."""
    registry._HOSTS = None
    eras.clear_caches()


@pytest.mark.parametrize("folder", CASES, ids=[folder.name for folder in CASES])
def test_case_answer(folder: Path) -> None:
    case = tomllib.loads((folder / "case.toml").read_text("utf-8"))
    expect = case["expect"]
    path = _input(folder, case)
    try:
        answer = count_path(path, readable=True, session=case.get("session"))
        got: tuple[object, ...] = ("count", answer.reboots, answer.host)
    except Rejection as rejection:
        got = ("reject", rejection.code, rejection.line)
    if expect["outcome"] == "count":  # the host too (HST-2): a family member's own name
        assert got == ("count", expect["reboots"], case.get("host", "vscode"))
    else:
        assert got == ("reject", expect["error"], expect["line"])


@pytest.mark.parametrize("folder", CASES, ids=[folder.name for folder in CASES])
def test_case_answer_fast(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same outcome as a plain `rebootspec count` gives a big file: the hosts' fast paths
    may answer first (each host's `count` chooses it; from FAST_FROM_BYTES, here from 0 bytes),
    and when one is not certain the readable path answers (tests/reference/test_fastpath*.py)."""
    monkeypatch.setattr(records, "FAST_FROM_BYTES", 0)
    case = _case(folder)
    expect = case["expect"]
    assert isinstance(expect, dict)
    try:
        answer = count_path(_input(folder, case), session=case.get("session"))
        got: tuple[object, ...] = ("count", answer.reboots)
    except Rejection as rejection:
        got = ("reject", rejection.code, rejection.line)
    if expect["outcome"] == "count":
        assert got == ("count", expect["reboots"])
    else:
        assert got == ("reject", expect["error"], expect["line"])


def _input(folder: Path, case: dict[str, object]) -> Path:
    """What the candidate is given: ``session.<container>``, or ``input/<input>`` for a folder
    container (spec/FIXTURES.md, "Inputs of several files")."""
    rel = case.get("input")
    if isinstance(rel, str):
        return folder / "input" if rel == "." else folder / "input" / rel
    return folder / f"session.{case['container']}"


def _case(folder: Path) -> dict[str, object]:
    return tomllib.loads((folder / "case.toml").read_text("utf-8"))


def _first_count_case_of_each_host() -> list[Path]:
    seen: dict[str, Path] = {}
    for folder in CASES:
        case = _case(folder)
        expect = case["expect"]
        if isinstance(expect, dict) and expect["outcome"] == "count":
            seen.setdefault(str(case.get("host", "vscode")), folder)
    return sorted(seen.values())


@pytest.mark.parametrize("folder", _first_count_case_of_each_host(), ids=lambda f: f.name)
def test_case_answer_with_its_host_named(folder: Path) -> None:
    """`count --host` (HST-3) gives the count content detection gives: the registry finds the
    host by its key, and the case's expectation holds with it named. The title is asked for
    too, as `sessions` asks for it: noting it on the same pass changes no count."""
    case = _case(folder)
    key = str(case.get("host", "vscode"))
    session = case.get("session")
    path = _input(folder, case)
    named = count_path(path, readable=True, host=key, session=session)
    assert named.reboots == case["expect"]["reboots"]  # type: ignore[index]
    titled = registry.get(key).count(str(path), session=session, readable=True, with_title=True)
    assert titled.reboots == case["expect"]["reboots"]  # type: ignore[index]


# The Cline family (spec/hosts.toml rows read by reference/hosts/cline's reader, CLN-2).
FAMILY = ("cline", "roo-code", "kilo-code")
OTHER_HOSTS_LOGS = [
    folder
    for folder in _first_count_case_of_each_host()
    if str(_case(folder).get("host", "vscode")) not in FAMILY
]


@pytest.mark.parametrize("key", FAMILY)
@pytest.mark.parametrize("folder", OTHER_HOSTS_LOGS, ids=lambda f: f.name)
def test_a_named_family_host_rejects_another_hosts_log(key: str, folder: Path) -> None:
    """CLN-13: a `--host` of the Cline family (HST-3) given an input that is not the family's
    (another host's log, which CLN-1 does not fit) is E-HOST at line 0 (HST-4), never a count:
    naming the wrong host must not read a Codex rollout as an empty task folder."""
    case = _case(folder)
    with pytest.raises(Rejection) as caught:
        count_path(_input(folder, case), readable=True, host=key, session=case.get("session"))
    assert (caught.value.code, caught.value.line) == ("E-HOST", 0)


def test_an_unknown_host_is_e_host_on_line_0() -> None:
    """HST-3: a host name of no row of spec/hosts.toml is E-HOST (ERR-13), line 0."""
    folder = _first_count_case_of_each_host()[0]
    with pytest.raises(Rejection) as caught:
        count_path(_input(folder, _case(folder)), host="no-such-host")
    assert (caught.value.code, caught.value.line) == ("E-HOST", 0)


STORE_CASES = [folder for folder in CASES if "session" in _case(folder)]


@pytest.mark.parametrize("folder", STORE_CASES, ids=[folder.name for folder in STORE_CASES])
def test_store_listing_answer(folder: Path) -> None:
    """`sessions` reads a store once and lists each of its sessions with its answer
    (Host.count_store, OPC-11): the case's session is listed with the case's outcome, and
    `Host.sessions_in` (what `count --session` searches) names it. A session the store does not
    hold (E-SESSION) is not listed; a store that cannot be read is rejected as a whole."""
    case = _case(folder)
    expect = case["expect"]
    assert isinstance(expect, dict)
    host = registry.get(str(case["host"]))
    path = str(_input(folder, case))
    try:
        rows = {ident: answer for ident, _title, answer in host.count_store(path)}
    except Rejection as rejection:
        assert ("reject", rejection.code, rejection.line) == (
            "reject",
            expect.get("error"),
            expect.get("line"),
        )
        return
    listed = [ident for ident, _title in host.sessions_in(path)]
    assert sorted(listed) == sorted(rows)
    session = case["session"]
    if expect["outcome"] == "reject" and expect["error"] == "E-SESSION":
        assert session not in rows
        return
    answer = rows[session]
    if expect["outcome"] == "count":
        assert not isinstance(answer, Exception)
        assert answer.reboots == expect["reboots"]
    else:
        assert isinstance(answer, Rejection)
        assert (answer.code, answer.line) == (expect["error"], expect["line"])


def test_a_gemini_chat_answers_to_its_full_id() -> None:
    """`count --session` finds a Gemini CLI chat by the full `sessionId` of its metadata record
    (GEM-1), not only by the 8 hex digits of its file name. Case 29EA's first record reads
    sessionId 1fe2197f-1fa8-432f-a556-1e841f679583 (a person's reading of the file)."""
    host = registry.get("gemini-cli")
    path = str(FIXTURES / "29EA" / "session.jsonl")
    assert host.session_ids(path, "1fe2197f") == (
        "1fe2197f-1fa8-432f-a556-1e841f679583",
        "1fe2197f",
    )
    full = "1fe2197f-1fa8-432f-a556-1e841f679583"
    assert host.session_ids(path, full) == (full,)
