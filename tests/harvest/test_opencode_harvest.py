"""opencode's harvest without npm: what the scripted model calls a compaction, the directives
the opencode scenarios use, the store copied out of the sandbox, and a store as a case."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.harvest import corpus, sanitize, script
from rebootspec.generators.harvest.hosts import opencode
from rebootspec.generators.harvest.server import serving


def _chat(*messages: tuple[str, str], tools: tuple[str, ...] = ()) -> script.Request:
    body: dict[str, Any] = {
        "model": "harvest-model",
        "messages": [{"role": role, "content": text} for role, text in messages],
        "tools": [{"type": "function", "function": {"name": name}} for name in tools],
    }
    return script.parse("chat", body)


CONVERSATION = (("user", "Turn 1. report 200000 input tokens"), ("assistant", "harvest reply"))


@pytest.mark.parametrize(
    ("system", "last_user"),
    [
        # 1.0.x: the compaction agent's system prompt, and its closing request
        (
            "You are a helpful AI assistant tasked with summarizing conversations. Be brief.",
            "Provide a detailed but concise summary of our conversation above. Keep file names.",
        ),
        # 1.1 and 1.2: another closing request under the same system prompt
        (
            "You are a helpful AI assistant tasked with summarizing conversations.",
            "Provide a detailed prompt for continuing our conversation above. Keep file names.",
        ),
        # 1.14: an anchored summary, created or updated
        (
            "You are an anchored context summarization assistant for coding sessions.",
            "Update the anchored summary below using the conversation history above.",
        ),
        # 1.18: the conversation quoted inside the last user message
        (
            "You are a context summarization agent. You are given a conversation.",
            "Here is the conversation so far: <conversation>[User]: Turn 1.</conversation> "
            "Create a new anchored summary from the conversation history above.",
        ),
    ],
)
def test_each_opencode_summary_request_is_a_summary(system: str, last_user: str) -> None:
    request = _chat(("system", system), *CONVERSATION, ("user", last_user))
    assert script.is_summary_request(request)
    assert script.decide(request).kind == "summary"


def test_opencode_title_and_turn_requests_are_not_summaries() -> None:
    # The title agent asks to "summarize" a text too; it is no compaction and must not count.
    title = _chat(
        ("system", "You are a title generator. You output ONLY a thread title."),
        ("user", "The following is the text to summarize: <text>Turn 1.</text>"),
    )
    turn = _chat(("system", "You are opencode, an interactive CLI tool."), *CONVERSATION)
    for request in (title, turn):
        assert not script.is_summary_request(request)
        assert script.decide(request).kind == "text"


def test_a_refused_summary_is_a_400_and_a_failed_one_a_500() -> None:
    summary = ("user", "Provide a detailed but concise summary of our conversation above.")
    refused = script.decide(_chat(("user", "Turn 1. refuse the summary"), summary))
    failed = script.decide(_chat(("user", "Turn 1. fail the summary"), summary))
    assert (refused.kind, refused.status) == ("error", 400)
    assert (failed.kind, failed.status) == ("error", 500)
    # Without the directive the same summary request succeeds.
    assert script.decide(_chat(("user", "Turn 1."), summary)).kind == "summary"


def test_the_task_directive_calls_opencodes_task_tool_once() -> None:
    turn = ("user", "Turn 3. spawn a task subagent")
    first = script.decide(_chat(turn, tools=("bash", "task")))
    assert (first.kind, first.tool) == ("tool", "task")
    assert first.arguments["prompt"] == script.SUBAGENT_PROMPT
    assert first.arguments["subagent_type"] == "general"
    after = script.decide(_chat(turn, ("tool", "the subagent's answer"), tools=("bash", "task")))
    assert after.kind == "text"
    # A host without a task tool gets a plain answer, never a call it cannot make.
    assert script.decide(_chat(turn, tools=("bash",))).kind == "text"


def _post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_cut_short_summary_streams_its_first_chunk_only(tmp_path: Path) -> None:
    body = {
        "model": "harvest-model",
        "stream": True,
        "messages": [
            {"role": "system", "content": "tasked with summarizing conversations"},
            {"role": "user", "content": "Turn 1. cut the summary short"},
            {
                "role": "user",
                "content": "Provide a detailed prompt for continuing our conversation above.",
            },
        ],
    }
    with serving(max_requests=5, max_seconds=30, log_path=tmp_path / "log.jsonl") as server:
        status, raw = _post(server.base_url + "/chat/completions", body)
        whole = {**body, "messages": body["messages"][:1] + body["messages"][2:]}
        _, complete = _post(server.base_url + "/chat/completions", whole)
        entries = [e.classification for e in server.entries]
    assert status == 200
    assert b"HARVEST-SUMMARY" in raw  # the summary text arrived ...
    assert b'"finish_reason":"stop"' not in raw and b"[DONE]" not in raw  # ... cut short
    assert b'"finish_reason":"stop"' in complete and b"[DONE]" in complete
    assert entries == ["summary-cut", "summary"]
    assert opencode.compactions([*entries, "turn", "summary-failed"]) == 2


def test_a_store_on_disk_is_scanned_file_by_file(tmp_path: Path) -> None:
    store = tmp_path / "storage"
    (store / "message" / "ses_a").mkdir(parents=True)
    (store / "message" / "ses_a" / "msg_1.json").write_text('{"cwd":"/home/dev/project"}')
    (store / "session").mkdir()
    (store / "session" / "ses_a.json").write_text('{"directory":"/home/alice/work"}')
    listed = sanitize.files([store])
    assert [p.name for p in listed] == ["msg_1.json", "ses_a.json"]
    patterns = {"home": sanitize.re.compile(r"/home/alice(?![\w.-])")}
    assert [(leak.path.name, leak.what) for leak in sanitize.scan(listed, patterns)] == [
        ("ses_a.json", "home")
    ]


def test_the_config_points_opencode_at_loopback_only(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(opencode, "HOME", tmp_path)
    opencode.write_config("http://127.0.0.1:4321/v1")
    config = json.loads((tmp_path / ".config" / "opencode" / "opencode.json").read_text())
    provider = config["provider"]["harvest"]
    assert provider["options"]["baseURL"] == "http://127.0.0.1:4321/v1"
    assert provider["npm"] == "@ai-sdk/openai-compatible"
    limit = provider["models"]["harvest-model"]["limit"]
    # The scenario's usage is over the threshold and the small usage is under it.
    assert limit["context"] - limit["output"] < 200000
    assert limit["context"] - limit["output"] > script.SMALL_USAGE
    assert config["model"] == "harvest/harvest-model" and config["autoupdate"] is False


def test_storage_eras_by_version() -> None:
    assert not opencode.sqlite_era("1.0.98") and not opencode.sqlite_era("1.1.65")
    assert opencode.sqlite_era("1.2.1") and opencode.sqlite_era("1.18.33")


def test_the_cache_version_is_read_from_the_binary(tmp_path: Path) -> None:
    program = tmp_path / "opencode"
    program.write_bytes(b'\x00junk var CACHE_VERSION = "9";\nmore\x00')
    assert opencode._cache_version(program) == "9"
    program.write_bytes(b"\x00no marker here\x00")
    assert opencode._cache_version(program) is None


def _wal_database(folder: Path) -> Path:
    """A database in WAL mode whose rows are still in its -wal file (as opencode leaves it)."""
    path = folder / "opencode.db"
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE message (id TEXT, data TEXT)")
    writer.executemany("INSERT INTO message VALUES (?, ?)", [("m1", "{}"), ("m2", "{}")])
    writer.commit()
    # Copy while the writer is open: the rows live in the -wal only, like a killed opencode.
    raw = folder / "raw"
    raw.mkdir()
    for name in ("opencode.db", "opencode.db-wal"):
        (raw / name).write_bytes((folder / name).read_bytes())
    writer.close()
    return raw / "opencode.db"


def test_the_checkpointed_copy_keeps_every_row_and_leaves_the_raw_pair(tmp_path: Path) -> None:
    raw = _wal_database(tmp_path)
    wal = raw.with_name("opencode.db-wal")
    before = (raw.read_bytes(), wal.read_bytes())
    assert len(before[1]) > 0
    target = tmp_path / "case" / "opencode.db"
    target.parent.mkdir()
    opencode.checkpoint(raw, target)
    assert sorted(p.name for p in target.parent.iterdir()) == ["opencode.db"]
    rows = sqlite3.connect(f"file:{target}?immutable=1", uri=True).execute(
        "SELECT id FROM message ORDER BY id"
    )
    assert [r[0] for r in rows] == ["m1", "m2"]
    assert (raw.read_bytes(), wal.read_bytes()) == before  # the host's pair is untouched


def _store_item(tmp_path: Path, **entry: Any) -> corpus.Harvested:
    base = {
        "host": "opencode",
        "version": "1.2.1",
        "scenario": "manual",
        "role": "own",
        "file": "opencode-1.2.1-manual",
        "input": "opencode.db",
        "session": "ses_abc",
        "era": "O2",
        "expected": 2,
        "records": 2,
        "provenance": "harvest:opencode@1.2.1/manual",
        "what": "two manual compactions (POST /session/{id}/summarize).",
        "licence": "MIT (opencode-ai)",
    }
    files = {"opencode.db": b"SQLite format 3\x00rest"}
    return corpus.Harvested("k", {**base, **entry}, b"", files)


def test_a_store_entry_becomes_a_multi_file_case(tmp_path: Path) -> None:
    table = corpus.case_table(_store_item(tmp_path), "ZZZZ")
    assert table["container"] == "sqlite"
    assert (table["input"], table["session"]) == ("opencode.db", "ses_abc")
    assert table["provenance"] == "harvest:opencode@1.2.1/manual"
    assert table["expect"] == {"outcome": "count", "reboots": 2}
    assert table["host"] == "opencode" and "harvested" in table["tags"]
    storage = corpus.case_table(_store_item(tmp_path, input="storage", era="O1"), "ZZZZ")
    assert storage["container"] == "storage" and storage["input"] == "storage"
    # FIXTURES.md's order: container, then input and session, then provenance.
    keys = list(table)
    assert keys.index("container") < keys.index("input") < keys.index("session")
    assert keys.index("session") < keys.index("provenance")


def test_a_fork_case_counts_its_own_compactions_not_its_copies(tmp_path: Path) -> None:
    fork = _store_item(tmp_path, scenario="fork", role="fork", expected=1, records=2)
    table = corpus.case_table(fork, "ZZZZ")
    assert table["expect"] == {"outcome": "count", "reboots": 1}
    assert "OPC-9" in table["rules"]


def test_the_input_folder_holds_exactly_the_store(tmp_path: Path) -> None:
    inputs = tmp_path / "input"
    inputs.mkdir()
    (inputs / "stale.json").write_text("{}")
    files = {"storage/session/global/ses_a.json": b"{}", "storage/message/ses_a/m.json": b"{}"}
    corpus.write_input(inputs, files)
    assert corpus.folder_files(inputs) == files


def test_a_shell_call_fills_what_the_tool_requires_and_long_calls_print_a_lot() -> None:
    schema = {"type": "object", "required": ["command", "description"]}
    tools = [{"type": "function", "function": {"name": "bash", "parameters": schema}}]
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "answer with 2 long shell tool calls"}],
        "tools": tools,
    }
    reply = script.decide(script.parse("chat", body))
    # opencode refuses a bash call without a description; pi's bash has no such argument.
    assert reply.arguments["description"] == "harvest step 1"
    assert f"head -c {script.LONG_OUTPUT}" in reply.arguments["command"]
    plain = _chat(("user", "answer with 1 shell tool calls"), tools=("bash",))
    assert script.decide(plain).arguments == {"command": "echo harvest-step-1"}


def test_the_drift_check_reaches_a_binary_the_wrapper_has_not_caught_up_with(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Nov 2026: ``opencode-linux-x64`` is at 1.18.34, ``opencode-ai`` still at 1.18.33.

    ``--latest`` must run the newer binary (users of opencode's installer get it), and the
    install must take the binary package alone, since no wrapper of that version exists."""
    newest = {opencode.PACKAGE: "1.18.33", opencode.BINARY: "1.18.34"}
    monkeypatch.setattr(opencode, "latest", lambda package: newest[package])
    monkeypatch.setattr(opencode, "published", lambda package, version: newest[package] == version)
    monkeypatch.setattr(opencode, "cache_root", lambda: tmp_path)
    assert opencode.newest() == "1.18.34"
    assert opencode.package("1.18.34") == opencode.BINARY
    assert opencode.package("1.18.33") == opencode.PACKAGE
    newest[opencode.BINARY] = "1.9.0"  # compared as versions, not as text
    assert opencode.newest() == "1.18.33"


def test_a_cached_install_says_its_package_without_the_registry(
    tmp_path: Path, monkeypatch: Any
) -> None:
    def offline(package: str, version: str) -> bool:
        raise AssertionError("asked the registry")

    monkeypatch.setattr(opencode, "published", offline)
    monkeypatch.setattr(opencode, "cache_root", lambda: tmp_path)
    (tmp_path / f"{opencode.BINARY}@1.18.34").mkdir()
    (tmp_path / f"{opencode.BINARY}@1.18.34" / ".complete").write_text("1.18.34\n")
    assert opencode.package("1.18.34") == opencode.BINARY
