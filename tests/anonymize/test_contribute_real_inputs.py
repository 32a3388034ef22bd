"""`anonymize` and `add-fixture` on every host's real inputs (issue 43, defect 8).

Each test is one bullet of the issue, run as a contributor would. Expected counts are the corpus
cases' own (`case.toml`: a harvest's record or a person's reading) or counted by hand here.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import stat
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from rebootspec.conformance.commands.contribute import add_fixture, anonymize
from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Rejection

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
HEX = ["--secret-hex", "5eed"]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = anonymize(argv)
    return code, out.getvalue(), err.getvalue()


def meta(case: str) -> dict[str, object]:
    with (FIXTURES / case / "case.toml").open("rb") as handle:
        return tomllib.load(handle)


def reboots(case: str) -> int:
    return int(meta(case)["expect"]["reboots"])  # type: ignore[index]


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


# --- a chat-loop chain: every file named by its new id, the chain still walks ----------------


def test_a_harvested_chat_loop_chain_anonymizes_under_its_own_names(tmp_path: Path) -> None:
    """The issue's run: OUT named as the input. Every file of the chain is named by the id its
    text now holds, the newest counts as the harvest recorded, and no old id is in any name."""
    source = FIXTURES / "2QKE" / "input" / str(meta("2QKE")["input"])
    out = tmp_path / "out"
    out.mkdir()
    code, stdout, stderr = run([str(source), str(out / source.name), *HEX])
    assert code == 0, stderr
    files = sorted(out.iterdir())
    assert len(files) == 3  # the asked file and the two it was restored from
    for path in files:
        (sid,) = re.findall(r"^\*\*Session ID:\*\* (\S+)$", path.read_text("utf-8"), re.M)
        assert path.name == f"{sid}.md"
    originals = {p.stem for p in (FIXTURES / "2QKE" / "input").iterdir()}
    assert not {p.stem for p in files} & originals
    (newest,) = [p for p in files if p.stem.endswith(source.stem[-15:])]
    assert f"wrote {newest}:" in stdout
    assert count_path(newest).reboots == reboots("2QKE")


def test_a_chain_with_a_huge_earlier_file_is_refused_at_once(tmp_path: Path) -> None:
    """The harvested chain with its oldest file made a 1 GiB sparse file: the chain's files
    are held to one case's bound on their sizes, before any is read (it read the file whole)."""
    chain = tmp_path / "chain"
    shutil.copytree(FIXTURES / "2QKE" / "input", chain)
    source = chain / str(meta("2QKE")["input"])
    oldest = min(chain.iterdir(), key=lambda path: path.name)
    assert oldest != source
    with oldest.open("r+b") as handle:  # its header (and link) kept, then NULs to 1 GiB
        handle.truncate(2**30)
    out = tmp_path / "out"
    out.mkdir()
    started = time.perf_counter()
    code, _, stderr = run([str(source), str(out / source.name), *HEX])
    assert time.perf_counter() - started < 10
    errors = [line for line in stderr.splitlines() if not line.startswith("warning: ")]
    assert code == 2 and len(errors) == 1 and "bytes in 3 files" in errors[0], stderr
    assert list(out.iterdir()) == []


def test_a_storage_session_with_a_huge_part_is_refused_at_once(tmp_path: Path) -> None:
    """An opencode storage folder (case 2NSB) whose session has a part file of 1 GiB (sparse):
    the session's files are held to one case's bound before any is read (a MemoryError)."""
    storage = tmp_path / "storage"
    shutil.copytree(FIXTURES / "2NSB" / "input" / "storage", storage)
    part = min((storage / "part").rglob("*.json"))
    with part.open("r+b") as handle:
        handle.truncate(2**30)
    out = tmp_path / "out"
    out.mkdir()
    session = str(meta("2NSB")["session"])
    code, _, stderr = run([str(storage), str(out / "one"), "--session", session, *HEX])
    errors = [line for line in stderr.splitlines() if not line.startswith("warning: ")]
    assert code == 2 and len(errors) == 1 and "bytes in 21 files" in errors[0], stderr
    assert list(out.iterdir()) == []


# --- a store without the asked session ------------------------------------------------------


def test_a_session_the_store_does_not_hold_is_e_session_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    source = FIXTURES / "6ANK" / "input" / "opencode.db"
    code, stdout, stderr = run([str(source), str(out / "one.db"), "--session", "ses_nope"])
    assert code != 0 and "E-SESSION" in stderr and "wrote" not in stdout
    assert list(out.iterdir()) == []


# --- numbers that are a person's data -------------------------------------------------------

UUIDS = [f"5d2f7a10-1b2c-4d3e-8f40-12345678{n:04d}" for n in range(4)]
SID = UUIDS[3]
TOOL_RESULT = {
    "type": "tool_result",
    "tool_use_id": "toolu_1",
    "content": "ok",
}
TOOL_USE = {"type": "tool_use", "id": "toolu_2", "name": "pay", "input": {"amount": 987654321}}
RECORDS = [
    {
        "type": "user",
        "uuid": UUIDS[0],
        "sessionId": SID,
        "userType": "external",  # CLC-1: Claude Code's own mark (HST-2)
        "timestamp": "2026-03-01T10:00:00.000Z",
        "message": {"role": "user", "content": [TOOL_RESULT]},
        "toolUseResult": {"card": 4111111111111111, "id": 5500000000000004, "rows": [{"t": 7.5}]},
    },
    {
        "type": "assistant",
        "uuid": UUIDS[1],
        "sessionId": SID,
        "timestamp": "2026-03-01T10:00:00.500Z",
        "message": {"role": "assistant", "content": [TOOL_USE]},
    },
    {
        "type": "system",
        "subtype": "compact_boundary",
        "uuid": UUIDS[2],
        "sessionId": SID,
        "timestamp": "2026-03-01T10:00:01.000Z",
        "compactMetadata": {"trigger": "manual", "preTokens": 123456789},
    },
]
CLAUDE = b"".join(orjson.dumps(record) + b"\n" for record in RECORDS)


def test_numbers_in_a_claude_code_tool_result_are_replaced(tmp_path: Path) -> None:
    """A tool's result and input are the tool's JSON: a card number, an id of the tool's own
    and an amount go; the schema's numbers (the compaction's token count) stay. One manual
    compaction: one reboot, by hand (CLC-3)."""
    source = tmp_path / f"{SID}.jsonl"
    source.write_bytes(CLAUDE)
    out = tmp_path / "out"
    out.mkdir()
    code, _, stderr = run([str(source), str(out / "a.jsonl"), *HEX])
    assert code == 0, stderr
    data = (out / "a.jsonl").read_bytes()
    for private in (b"4111111111111111", b"5500000000000004", b"987654321", b"7.5"):
        assert private not in data
    assert b'"preTokens":123456789' in data
    assert count_path(out / "a.jsonl").reboots == 1


# --- --no-check, big inputs, FIFOs, modes ---------------------------------------------------


def test_no_check_never_says_it_checked_the_count(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    source = FIXTURES / "V8MB" / "session.jsonl"
    code, stdout, _ = run([str(source), str(out / "a.jsonl"), "--no-check"])
    assert code == 0
    assert "checked: same count" not in stdout and "not checked" in stdout


def test_a_huge_input_is_refused_at_once(tmp_path: Path) -> None:
    """1 GiB of NULs (a sparse file): refused before it is read, nothing written."""
    source = tmp_path / "zeros.jsonl"
    with source.open("wb") as handle:
        handle.truncate(2**30)
    out = tmp_path / "out"
    out.mkdir()
    started = time.perf_counter()
    code, _, stderr = run([str(source), str(out / "z.jsonl")])
    assert time.perf_counter() - started < 10
    assert code == 2 and len(stderr.splitlines()) == 1 and "bytes" in stderr
    assert list(out.iterdir()) == []


def test_a_run_of_nuls_under_the_bound_is_rewritten_quickly(tmp_path: Path) -> None:
    """24 MB of NULs after a log's first entry (what a crash leaves of a file's unwritten
    blocks) took about 30 s a character at a time; masked by runs, a scan. (A file of NULs
    alone is no log of any host and is refused: test_a_file_that_is_no_log_is_refused.)"""
    source = tmp_path / "zeros.jsonl"
    source.write_bytes(b'{"kind":0,"v":{}}\n' + b"\0" * 24_000_000)
    out = tmp_path / "out"
    out.mkdir()
    started = time.perf_counter()
    code, _, stderr = run([str(source), str(out / "z.jsonl"), "--no-check"])
    assert code == 0, stderr
    assert time.perf_counter() - started < 10
    assert (out / "z.jsonl").read_bytes() == source.read_bytes()  # control bytes stay


@pytest.mark.parametrize(
    "data",
    [b"not a session of any host\n", b"\0" * 1000, b"\n \n", b"[1,2]\n", b"\xef\xbb\xbf\x00\n"],
)
def test_a_file_that_is_no_log_is_refused(tmp_path: Path, data: bytes) -> None:
    """A file whose first bytes are no JSON object holds no record any host wrote (every log
    and document begins with one): exit 2, one line naming the file, nothing written. A torn
    first entry still begins with one and is rewritten (test above: a run of NULs after it)."""
    source = tmp_path / "junk\x1b[31m.jsonl"
    source.write_bytes(data)
    out = tmp_path / "out"
    out.mkdir()
    code, _, stderr = run([str(source), str(out / "z.jsonl")])
    assert code == 2 and len(stderr.splitlines()) == 1, stderr
    assert "junk\\x1b[31m.jsonl: " in stderr and "no log of any host" in stderr
    assert list(out.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_force_never_replaces_a_fifo_output(tmp_path: Path) -> None:
    """`--force` overwrites a file, never a FIFO (it was renamed over): one line, exit 2, the
    FIFO left a FIFO."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"kind":0,"v":{"requests":[]}}\n')
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    code, _, stderr = run([str(source), str(fifo), "--force", "--no-check"])
    assert code == 2 and len(stderr.splitlines()) == 1 and "not a regular file" in stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_is_refused_as_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    out = tmp_path / "out"
    out.mkdir()
    code, _, stderr = run([str(fifo), str(out / "p.jsonl")])
    assert code == 2 and "not a regular file" in stderr and "no such file" not in stderr
    assert list(out.iterdir()) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
@pytest.mark.parametrize(
    "case", ["CRJG", "V8MB", "WVNH", "S782", "8K9K", "KS9Z", "2QKE"]
)  # VS Code, Codex, pi, Claude Code, Gemini CLI, Copilot CLI, chat-loop
def test_every_host_s_output_has_the_one_mode(tmp_path: Path, case: str) -> None:
    """One mode for everything rebootspec writes: a shell's `>` (0666 less the umask)."""
    info = meta(case)
    source = (
        FIXTURES / case / "input" / str(info["input"])
        if "input" in info
        else FIXTURES / case / "session.jsonl"
    )
    out = tmp_path / "out"
    out.mkdir()
    with umask(0o022):
        code, _, stderr = run([str(source), str(out / f"a{source.suffix}")])
    assert code == 0, stderr
    modes = {stat.S_IMODE(path.stat().st_mode) for path in out.iterdir()}
    assert modes == {0o644}


# --- add-fixture: every host's eras ---------------------------------------------------------


def _host_cases() -> list[tuple[str, str, str]]:
    """(host, era, case) of one single-file counted corpus case of each host of the registry
    but VS Code (whose eras are spec/eras.toml's), with the era its case.toml names."""
    with (ROOT / "spec" / "hosts.toml").open("rb") as handle:
        hosts = [key for key, row in tomllib.load(handle).items() if row.get("eras")]
    found: dict[str, tuple[str, str, str]] = {}
    for folder in sorted(FIXTURES.iterdir()):
        toml = folder / "case.toml"
        if not toml.is_file() or not (folder / "session.jsonl").is_file():
            continue
        table = tomllib.loads(toml.read_text("utf-8"))
        host, era = table.get("host"), table.get("era")
        counted = table["expect"].get("outcome") == "count"
        if host in hosts and host not in found and era not in (None, "none") and counted:
            found[str(host)] = (str(host), str(era), folder.name)
    return sorted(found.values())


HOST_CASES = _host_cases()


def test_the_host_cases_cover_the_issue_s_eras() -> None:
    assert {"codex", "pi", "claude-code", "gemini-cli"} <= {host for host, _, _ in HOST_CASES}


@pytest.mark.parametrize(("host", "era", "case"), HOST_CASES)
def test_add_fixture_takes_the_era_of_the_file_s_host(
    tmp_path: Path, host: str, era: str, case: str
) -> None:
    session = tmp_path / "s.jsonl"
    shutil.copyfile(FIXTURES / case / "session.jsonl", session)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(session), "--title", f"a {host} session of era {era}", "--rules", "RBT-1"]
    argv += ["--tags", "harvested", "--era", era, "--hand-written", "--fixtures", str(fixtures)]
    argv += ["--expect-reboots", str(reboots(case))]
    with contextlib.redirect_stdout(io.StringIO()):
        assert add_fixture(argv) == 0
    (written,) = fixtures.iterdir()
    table = tomllib.loads((written / "case.toml").read_text("utf-8"))
    assert (table["host"], table["era"]) == (host, era)


def test_add_fixture_refuses_another_host_s_era(tmp_path: Path) -> None:
    """C5 is Codex's: a pi session (PIA-1) of era C5 is refused, nothing written."""
    session = tmp_path / "s.jsonl"
    shutil.copyfile(FIXTURES / "WVNH" / "session.jsonl", session)
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(session), "--title", "a pi session", "--rules", "RBT-1", "--tags", "harvested"]
    argv += ["--era", "C5", "--hand-written", "--fixtures", str(fixtures)]
    argv += ["--expect-reboots", str(reboots("WVNH"))]
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert add_fixture(argv) == 2
    assert "pi" in err.getvalue() and list(fixtures.iterdir()) == []


def test_an_era_of_no_host_is_refused_naming_every_host_s(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    shutil.copyfile(FIXTURES / "V8MB" / "session.jsonl", session)
    argv = [str(session), "--title", "t", "--rules", "RBT-1", "--tags", "harvested"]
    argv += ["--era", "Z9", "--expect-reboots", "1", "--fixtures", str(tmp_path)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert add_fixture(argv) == 2
    assert "codex: C0" in err.getvalue() and "vscode:" in err.getvalue()


def test_the_rejected_count_is_never_a_number(tmp_path: Path) -> None:
    """Guard: the anonymized copy of a file with no record is rejected as the original is."""
    source = tmp_path / "g.jsonl"
    source.write_bytes(b"not json\n")
    with pytest.raises(Rejection):
        count_path(source)
