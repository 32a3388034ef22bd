"""Real hosts write what the script caused (needs npm: REBOOTSPEC_HARVEST=1, tox -e harvest).

The expectation is the server log; the file's records are counted here by their top-level
type, never by the reference, so this checks the harvest itself, not a counter.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebootspec.generators.harvest import sanitize
from rebootspec.generators.harvest.hosts.whoami import answer_line
from rebootspec.generators.harvest.run import harvest_one

RECORD = {"codex": "compacted", "pi": "compaction"}


def _records(path: Path, host: str) -> int:
    count = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and json.loads(line).get("type") == RECORD[host]:
            count += 1
    return count


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("host", "version", "scenario", "expected"),
    [
        ("codex", "0.130.0", "auto-pre-turn", 2),
        ("codex", "0.130.0", "auto-mid-turn", 3),
        ("codex", "0.150.1", "failure", 0),
        ("pi", "0.73.1", "auto-pre-turn", 2),
        ("pi", "0.50.7", "manual", 2),
    ],
)
def test_a_run_writes_the_compactions_the_script_caused(
    tmp_path: Path, host: str, version: str, scenario: str, expected: int
) -> None:
    result = harvest_one(host, version, scenario, tmp_path / "run")
    assert not result.error, result.error
    (own,) = [t for t in result.data["threads"] if t["role"] == "own"]
    assert own["caused"] == expected
    path = tmp_path / "run" / own["file"]
    assert _records(path, host) == expected
    log = (tmp_path / "run" / "server-log.jsonl").read_text().splitlines()
    assert log, "the server log is the evidence and must exist"
    assert sanitize.scan([path]) == []
    assert '"/home/dev/project"' in path.read_text() or "/home/dev" in path.read_text()


@pytest.mark.harvest
def test_a_codex_fork_copies_the_parent_and_adds_its_own(tmp_path: Path) -> None:
    result = harvest_one("codex", "0.150.1", "fork", tmp_path / "run")
    assert not result.error, result.error
    roles = {t["role"]: t for t in result.data["threads"]}
    assert roles["own"]["caused"] == 2 and roles["fork"]["caused"] == 1
    fork = tmp_path / "run" / roles["fork"]["file"]
    assert _records(fork, "codex") == 3  # 2 copied from the parent + 1 of its own
    first = json.loads(fork.read_text().splitlines()[0])
    assert first["payload"]["forked_from_id"] == roles["own"]["thread"]


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("version", "scenario", "expected"),
    [
        ("1.0.0", "auto", 2),
        ("1.2.1", "failure", 0),
        ("1.18.33", "manual", 2),
        ("1.18.34", "auto", 2),
    ],
)
def test_opencode_stores_what_the_script_caused(
    tmp_path: Path, version: str, scenario: str, expected: int
) -> None:
    import opencode_store

    result = harvest_one("opencode", version, scenario, tmp_path / "run")
    assert not result.error, result.error
    (own,) = [t for t in result.data["threads"] if t["role"] == "own"]
    assert own["caused"] == expected
    store = tmp_path / "run" / own["file"]
    records = opencode_store.records(store, own["thread"])
    # A failed compaction leaves its pair (errored); otherwise one record per compaction.
    assert records == (1 if scenario == "failure" else expected)
    assert sanitize.scan(sanitize.files([store])) == []


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("host", "version", "named"),
    [
        ("codex", "0.169.0", True),
        ("codex", "0.171.0", True),
        ("pi", "0.82.0", True),
        ("pi", "1.5.2", True),
        ("pi", "1.6.0", True),
    ],
)
def test_whoami_in_the_hosts_own_shell_after_each_compaction(
    tmp_path: Path, host: str, version: str, named: bool
) -> None:
    """Issue #34: the host's shell tool runs `rebootspec whoami --json` after each compaction;
    every output equals the compactions the server log shows before it (the driver's check).
    So does the file the shipped after-compaction hook writes (Codex's PostCompact running
    `rebootspec hook`, pi's extension), read after every turn."""
    result = harvest_one(host, version, "whoami", tmp_path / "run")
    assert not result.error, result.error
    notes = " ".join(result.data.get("notes") or [])
    assert "WHOAMI WRONG" not in notes, notes
    assert "whoami: 2 answer(s)" in notes, notes
    hook = {"codex": "PostCompact hook: after each", "pi": "extension: after each"}[host]
    assert hook in notes, notes  # the after-compaction hook's file held the count at each turn
    log = [json.loads(line) for line in (tmp_path / "run" / "server-log.jsonl").open()]
    answers = [json.loads(entry["whoami"].splitlines()[-1]) for entry in log if "whoami" in entry]
    assert [answer["reboots"] for answer in answers] == [1, 2]


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("host", "version"),
    [("opencode", "1.18.33"), ("gemini", "0.61.0"), ("codex", "0.94.0"), ("pi", "0.73.1")],
)
def test_whoami_refuses_in_a_shell_that_names_no_session(
    tmp_path: Path, host: str, version: str
) -> None:
    """opencode's bash tool and Gemini CLI's shell tool give no session id (nor do Codex before
    0.95.0 and pi before 0.82.0): every `rebootspec whoami` there exits with the refusal."""
    result = harvest_one(host, version, "whoami", tmp_path / "run")
    assert not result.error, result.error
    notes = " ".join(result.data.get("notes") or [])
    assert "WRONG" not in notes and "each the refusal (no session variable)" in notes, notes
    log = [json.loads(line) for line in (tmp_path / "run" / "server-log.jsonl").open()]
    outputs = [entry["whoami"] for entry in log if "whoami" in entry]
    assert outputs and all("no session id in the environment" in out for out in outputs)


def _qwen_compressions(path: Path) -> tuple[int, int]:
    """A Qwen Code transcript read on its own: completed `chat_compression` records (status 1),
    and how many of them a fork copied (`forkedFrom`)."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    done = [
        r
        for r in records
        if r.get("type") == "system"
        and r.get("subtype") == "chat_compression"
        and r["systemPayload"]["info"].get("compressionStatus") == 1
    ]
    return len(done), sum(1 for r in done if "forkedFrom" in r)


def _cline_summaries(folder: Path) -> int:
    """CLN-4 read on its own: `summarizeTask` tool rows in a task folder's ui_messages.json."""
    rows = json.loads((folder / "ui_messages.json").read_text(encoding="utf-8"))
    return sum(
        1
        for row in rows
        if row.get("say") == "tool" and '"tool":"summarizeTask"' in (row.get("text") or "")
    )


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("version", "scenario", "expected"),
    [
        ("0.5.2", "auto", 1),
        ("0.8.2", "resume", 2),
        ("0.15.10", "failure", 0),
        ("0.24.4", "twice", 2),
    ],
)
def test_qwen_code_records_each_compression_whose_summary_reached_the_model(
    tmp_path: Path, version: str, scenario: str, expected: int
) -> None:
    """The server log's count (summaries a later request carried) is the file's records."""
    result = harvest_one("qwen-code", version, scenario, tmp_path / "run")
    assert not result.error, result.error
    (own,) = [t for t in result.data["threads"] if t["role"] == "own"]
    assert own["caused"] == expected
    path = tmp_path / "run" / own["file"]
    assert _qwen_compressions(path) == (expected, 0)
    assert sanitize.scan([path]) == []


@pytest.mark.harvest
def test_a_qwen_code_fork_copies_its_source_s_compression_and_adds_its_own(
    tmp_path: Path,
) -> None:
    result = harvest_one("qwen-code", "0.24.4", "fork", tmp_path / "run")
    assert not result.error, result.error
    roles = {t["role"]: t for t in result.data["threads"]}
    assert roles["own"]["caused"] == 1 and roles["fork"]["caused"] == 1
    assert _qwen_compressions(tmp_path / "run" / roles["fork"]["file"]) == (2, 1)
    assert _qwen_compressions(tmp_path / "run" / roles["own"]["file"]) == (1, 0)


@pytest.mark.harvest
@pytest.mark.parametrize(("version", "named"), [("0.21.10", True), ("0.24.4", True)])
def test_whoami_in_qwen_code_s_shell_tool(tmp_path: Path, version: str, named: bool) -> None:
    """From 0.21 Qwen Code's shell tool gets QWEN_CODE_SESSION_ID: `rebootspec whoami` run
    after each compression says the count so far and the file (before 0.21, the refusal: seen
    once on 0.15.10, whose five-run scenario outlived the server's 240 s on a loaded machine)."""
    result = harvest_one("qwen-code", version, "whoami", tmp_path / "run")
    assert not result.error, result.error
    notes = " ".join(result.data.get("notes") or [])
    assert "WRONG" not in notes and "whoami: 2 answer(s)" in notes, notes
    log = [json.loads(line) for line in (tmp_path / "run" / "server-log.jsonl").open()]
    outputs = [entry["whoami"] for entry in log if "whoami" in entry]
    if named:
        answers = [json.loads(answer_line(out)) for out in outputs]
        assert [answer["reboots"] for answer in answers] == [1, 2]
    else:
        assert all("no session id in the environment" in out for out in outputs)


@pytest.mark.harvest
@pytest.mark.parametrize(
    ("version", "scenario", "expected"),
    [("1.0.10", "auto-twice", 2), ("1.0.10", "failure", 0), ("2.18.0", "auto", 1)],
)
def test_cline_writes_the_summaries_the_script_caused(
    tmp_path: Path, version: str, scenario: str, expected: int
) -> None:
    result = harvest_one("cline", version, scenario, tmp_path / "run")
    assert not result.error, result.error
    (own,) = result.data["threads"]
    assert own["caused"] == expected
    folder = tmp_path / "run" / own["file"]
    assert _cline_summaries(folder) == expected
    assert sanitize.scan(sanitize.files([folder])) == []
