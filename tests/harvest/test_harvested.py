"""The curated harvested files agree with their manifest and carry nothing of the machine.

Each file is kept once, in the corpus case its entry names (`case`); harvested/ keeps the runs'
logs and the manifest (harvested/README.md).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import opencode_store
import pytest

from rebootspec.generators.corpus import casefile
from rebootspec.generators.harvest import corpus, sanitize

FOLDER = corpus.HARVESTED
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
pytestmark = pytest.mark.skipif(not corpus.available(), reason="no harvested/ (not a checkout)")
RECORD = {"codex": "compacted", "pi": "compaction"}
# Codex before 0.36.0 compacts but writes no record (C0): the files prove it, expected stays
# what the script caused.
NO_RECORDS = {
    ("codex", "0.29.0"),
    ("codex", "0.34.0"),
    ("gemini-cli", "0.38.2"),  # J0 (GEM-7)
    ("gemini-cli", "0.39.1"),  # G0 (GEM-7)
    ("qwen-code", "0.1.4"),  # Q0, the whole-file chat (QWN-9)
}


def _entries() -> list[dict[str, object]]:
    return corpus.entries()


def _path(entry: dict[str, object]) -> Path:
    """The entry's bytes: the file (or store folder) in its corpus case."""
    return corpus.source(entry, FIXTURES)


def _restored_on_chain(path: Path) -> int:
    """BCL-3/BCL-4 read on their own: restored files (a Resumed From header line) on the chain."""
    seen: set[str] = set()
    count = 0
    while path.exists() and path.name not in seen:
        seen.add(path.name)
        header = path.read_text(encoding="utf-8").split("\n---\n")[0]
        match = re.search(r"^\*\*Resumed From:\*\* (.+)$", header, re.MULTILINE)
        if not match:
            break
        count += 1
        path = path.with_name(match.group(1).strip() + ".md")
    return count


def _records(path: Path, host: str) -> int:
    if host == "basic-agent-chat-loop":
        return _restored_on_chain(path)
    if host == "gemini-cli":
        return _gemini_snapshots(path)
    if host == "copilot-cli":
        return _copilot_applied(path)
    if host == "qwen-code":
        return _qwen_compressions(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for line in lines if line.strip() and json.loads(line).get("type") == RECORD[host])


def _copilot_applied(path: Path) -> int:
    """CPL-3/CPL-5 read on their own: applied `session.compaction_complete` events of the main
    agent (no `agentId`), a fork's copies included."""
    count = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        data = value.get("data") or {}
        if (
            value.get("type") == "session.compaction_complete"
            and "agentId" not in value
            and data.get("success") is True
            and data.get("summaryContent")
        ):
            count += 1
    return count


def _qwen_compressions(path: Path) -> int:
    """QWN-3 read on its own: `system`/`chat_compression` records with `compressionStatus` 1,
    a fork's copies included; a 0.1.x whole-file chat (Q0) has none."""
    if path.suffix == ".json":
        return 0
    count = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        if value.get("type") == "system" and value.get("subtype") == "chat_compression":
            count += value["systemPayload"]["info"].get("compressionStatus") == 1
    return count


def _gemini_snapshots(path: Path) -> int:
    """GEM-3/GEM-4 read on their own: distinct ids of snapshot messages in `$set.messages`."""
    if path.suffix == ".json":
        return 0  # J0: one document, no history sync
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        update = json.loads(line).get("$set")
        for message in (update or {}).get("messages") or []:
            parts = message.get("content") or []
            text = "".join(p.get("text", "") for p in parts if isinstance(p, dict))
            if message.get("type") == "user" and "<state_snapshot>" in text:
                ids.add(message["id"])
    return len(ids)


STORE_HOSTS = ("opencode", "kilo")  # opencode's family: a store of many sessions


def _stores() -> list[dict[str, object]]:
    """The entries of opencode's family (opencode, Kilo): a curated folder holding one store
    of many sessions."""
    return [entry for entry in _entries() if entry["host"] in STORE_HOSTS]


def test_every_entry_names_the_case_that_holds_its_file() -> None:
    for entry in _entries():
        folder = FIXTURES / str(entry["case"])
        assert casefile.provenance(folder) == entry["provenance"], entry["case"]
        assert _path(entry).exists(), entry["case"]
        inputs = entry.get("inputs", [])
        assert isinstance(inputs, list)
        assert not inputs or entry["file"] in inputs, entry["file"]


def test_harvested_keeps_logs_and_evidence_and_no_copy_of_a_case_file() -> None:
    """A case's file is kept once, in the corpus; harvested/ holds what no case holds: the runs'
    logs and the chat loop's .index.json (a hidden file, evidence of the sessions listed)."""
    kept = [
        p for p in FOLDER.rglob("*") if p.is_file() and p.name not in ("manifest.toml", "README.md")
    ]
    # compaction-events.jsonl: the Cline SDK's own compaction events, from its data folder's
    # logs/cline.log (the session folder cannot say how many there were, CLN-12)
    evidence = {"server-log.jsonl", "stub-log.jsonl", ".index.json", "compaction-events.jsonl"}
    assert {p.name for p in kept} <= evidence
    inputs = {
        hashlib.sha256(p.read_bytes()).digest()
        for p in FIXTURES.glob("*/*")
        if p.is_file() and p.name != casefile.CASE_FILE
    }
    assert not [p for p in kept if hashlib.sha256(p.read_bytes()).digest() in inputs]


def test_every_opencode_entry_holds_its_store() -> None:
    for entry in _stores():
        store = _path(entry) / str(entry["input"])
        if entry["input"] == "storage":
            # The session the case asks about is in the store, under its own id.
            assert list((store / "session").glob(f"*/{entry['session']}.json")), entry["file"]
        else:
            assert store.read_bytes()[:16] == b"SQLite format 3\x00", entry["file"]


def test_each_opencode_session_holds_the_records_the_manifest_says() -> None:
    for entry in _stores():
        store = _path(entry) / str(entry["input"])
        records = opencode_store.records(store, str(entry["session"]))
        assert records == entry["records"], (entry["file"], entry["role"])
        if entry["scenario"] == "failure":
            # Every summary request failed: the compaction's pair is there, errored.
            assert (records, entry["expected"]) == (1, 0), entry["file"]
            failed = opencode_store.messages(store, str(entry["session"]))
            assert all(m.info.get("error") for m in failed if m.summary), entry["file"]
        elif entry["role"] == "fork":
            # The fork holds copies of its source's records besides its own.
            assert records > entry["expected"], entry["file"]
        else:
            assert records == entry["expected"], (entry["file"], entry["role"])


def test_records_in_each_file_are_what_the_manifest_says() -> None:
    for entry in _entries():
        if entry["host"] in (*STORE_HOSTS, "cline"):
            continue  # a store, read above
        host, version = str(entry["host"]), str(entry["version"])
        records = _records(_path(entry), host)
        assert records == entry["records"], entry["file"]
        if (host, version) in NO_RECORDS:
            assert records == 0
        elif entry["role"] in ("own", "revert"):
            # A thread's own file holds exactly the compactions the script caused in it.
            assert records == entry["expected"], entry["file"]
        else:
            # A fork or subagent holds its own plus what it copied from its parent.
            assert records >= entry["expected"], entry["file"]


def _session_files() -> list[Path]:
    """Every harvested session file but opencode's stores: its case's input files."""
    files: set[Path] = set()
    for entry in _entries():
        if entry["host"] in (*STORE_HOSTS, "cline"):
            continue
        path = _path(entry)
        files |= set(path.parent.iterdir()) if "inputs" in entry else {path}
    return sorted(files)


# Qwen Code's runs (issue 42) have their own budget: about forty small transcripts and their
# logs, each about 10 KB, kept apart from the 2 MB the eight first hosts' runs already fill.
OWN_BUDGET = {"qwen-code": 1_000_000}


def test_curated_files_are_under_two_megabytes_and_sanitised() -> None:
    # Cline's runs (their folders and logs) have a budget of their own, below.
    kept = [p for p in FOLDER.rglob("*") if p.is_file() and not p.parent.name.startswith("cline-")]
    files = sorted({*_session_files(), *kept})
    apart = {host: _host_files(host) for host in OWN_BUDGET}
    for host, budget in OWN_BUDGET.items():
        assert sum(path.stat().st_size for path in apart[host]) < budget, host
    rest = [path for path in files if not any(path in own for own in apart.values())]
    # With Kilo's 20 server logs, and the Nov 2026 drift check's newest releases (Codex 0.171.0
    # and pi 1.6.0, an auto and a manual run each: about 200 KB, Codex's prompts most of it).
    assert sum(path.stat().st_size for path in rest) < 2_300_000
    text = [path for path in files if path.suffix in (".jsonl", ".json", ".md")]
    assert sanitize.scan(text) == []


def _host_files(host: str) -> set[Path]:
    """A host's session files (in the corpus) and its runs' logs (here)."""
    entries = [entry for entry in _entries() if entry["host"] == host]
    runs = {FOLDER / Path(str(entry["file"])).parts[0] for entry in entries}
    logs = {p for run in runs for p in run.rglob("*") if p.is_file()}
    return {_path(entry) for entry in entries} | logs


def test_a_chat_loop_file_names_its_parent_by_the_private_homes_path() -> None:
    """The absolute Previous Session path is the sandbox's generic one, never this machine's."""
    restored = 0
    for path in (p for p in _session_files() if p.suffix == ".md"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("**Previous Session:** "):
                restored += 1
                assert line.startswith("**Previous Session:** /home/dev/project/.chat-sessions/")
    assert restored >= 20


def test_a_chat_loop_rejection_points_at_the_asked_files_own_link() -> None:
    """BCL-6: E-CHAIN is reported at the asked file's **Resumed From:** line."""
    rejected = [entry for entry in _entries() if entry.get("reject") == "E-CHAIN"]
    assert rejected
    for entry in rejected:
        lines = _path(entry).read_text(encoding="utf-8").split("\n")
        line = entry["line"]
        assert isinstance(line, int)
        assert lines[line - 1].startswith("**Resumed From:** "), entry["file"]


# The sum of each host's stores: Kilo 7.7's databases are about 300 KB each (its migrations
# leave free pages: never vacuumed), which compress about 20 times in git and in the wheel.
STORES_IN_ALL = {"opencode": 3_000_000, "kilo": 6_500_000}


def test_opencode_stores_are_small_and_sanitised() -> None:
    """A few hundred KB a store (the bytes the host wrote: never vacuumed), a few MB in all."""
    sizes: dict[str, dict[str, int]] = {}
    for entry in _stores():
        folder = _path(entry)
        files = sanitize.files([folder])
        size = sum(path.stat().st_size for path in files)
        sizes.setdefault(str(entry["host"]), {})[folder.parent.name] = size
        assert sanitize.scan(files) == [], folder.parent.name
    for host, by_case in sizes.items():
        assert max(by_case.values()) < 500_000, by_case
        assert sum(by_case.values()) < STORES_IN_ALL[host], host


def _cline() -> list[dict[str, object]]:
    """The Cline entries: a folder holding one task folder (or one SDK session folder)."""
    return [entry for entry in _entries() if entry["host"] == "cline"]


def _cline_records(folder: Path) -> int:
    """CLN-4/CLN-5/CLN-12 read on their own: a task folder's `summarizeTask` tool rows in
    `ui_messages.json` plus its accepted `/smol` results in `api_conversation_history.json`;
    an SDK session folder's compaction files."""
    if not (folder / "ui_messages.json").exists():
        return len(list(folder.glob("*.compaction.json")))
    rows = json.loads((folder / "ui_messages.json").read_text(encoding="utf-8"))
    count = 0
    for row in rows:
        if row.get("say") == "tool" and '"tool":"summarizeTask"' in (row.get("text") or ""):
            count += 1
    history = json.loads((folder / "api_conversation_history.json").read_text(encoding="utf-8"))
    for message in history:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"text": content}]
        text = " ".join(str(b.get("text") or b.get("content") or "") for b in blocks)
        if (
            message.get("role") == "user"
            and "[condense] Result:" in text
            and "has accepted" in text
        ):
            count += 1
    return count


def test_each_cline_folder_holds_the_records_the_manifest_says() -> None:
    entries = _cline()
    for entry in entries:
        folder = _path(entry) / str(entry["input"])
        assert folder.is_dir(), entry["file"]
        records = _cline_records(folder)
        assert records == entry["records"], entry["file"]
        if entry["era"] == "S1":  # the latest projection only, however many compactions,
            # and a basic one (no summary: the SDK's fallback when every summary fails) alike
            assert records == 1, entry["file"]
        else:
            assert records == entry["expected"], entry["file"]


def test_cline_folders_are_small_and_sanitised() -> None:
    sizes = {}
    for entry in _cline():
        logs = [p for p in (FOLDER / Path(str(entry["file"])).parts[0]).iterdir() if p.is_file()]
        files = sanitize.files([_path(entry), *logs])
        sizes[str(entry["file"])] = sum(path.stat().st_size for path in files)
        assert sanitize.scan(files) == [], entry["file"]
    assert not sizes or max(sizes.values()) < 300_000, sizes
    assert sum(sizes.values()) < 2_000_000
