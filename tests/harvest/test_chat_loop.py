"""The basic-agent-chat-loop harvest without PyPI: the stub agent, its log, the ledger.

The stub's log is the evidence of what a run caused, and the ledger ties each restoration to
the file it produced; both decide the harvested cases' expectations, so each is checked here
against hand-written logs and folders.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from pathlib import Path

import pytest

from rebootspec.generators.harvest.hosts import chat_loop, chat_loop_stub
from rebootspec.generators.harvest.hosts.chat_loop import Call, Ledger

# Prompts shaped like the ones basic-agent-chat-loop 1.10.0 sends (abridged).
SUMMARY = (
    "Generate a progressive session summary:\n\n**Current Session:**\n"
    "## Query 1\n**You:** Turn 1.\n\nCreate a structured summary:\n"
)
FAILING = SUMMARY.replace("Turn 1.", "Turn 2; fail the summary.")
AFTER_FAILED = (
    "Generate a progressive session summary:\n\n**Background Context:** Condense this previous "
    "summary to 1-2 sentences:\nthe user once wrote: fail the summary\n\n**Current Session:**\n"
    "## Query 1\n**You:** Turn 3.\n"
)
RESTORE = (
    "CONTEXT RESTORATION: You are continuing a previous conversation from harvest_20261125_0101"
    "01.\n\nPrevious session summary (Session ID: harvest_20261125_010101, 1 queries, 121):\n\n"
)


def test_the_stub_tells_its_prompts_apart() -> None:
    assert chat_loop_stub.classify("Turn 1.") == "turn"
    assert chat_loop_stub.classify(SUMMARY) == "summary"
    assert chat_loop_stub.classify(FAILING) == "summary-failed"
    assert chat_loop_stub.classify(RESTORE) == "restore"
    # Only this session's text fails a summary, not a directive quoted in an earlier summary.
    assert chat_loop_stub.classify(AFTER_FAILED) == "summary"


def test_a_summary_carries_both_markers_and_a_failed_one_neither() -> None:
    good = chat_loop_stub.reply(SUMMARY)
    assert good.startswith(chat_loop_stub.START) and good.endswith(chat_loop_stub.END)
    bad = chat_loop_stub.reply(FAILING)
    assert chat_loop_stub.START not in bad and chat_loop_stub.END not in bad
    assert chat_loop_stub.reply(SUMMARY) == good  # the same prompt, the same words


def test_the_stub_streams_text_then_usage_and_logs_the_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "stub.jsonl"
    monkeypatch.setenv("HARVEST_STUB_LOG", str(log))

    async def collect(prompt: str) -> list[object]:
        return [event async for event in chat_loop_stub.root_agent.stream_async(prompt)]

    events = asyncio.run(collect(RESTORE))
    assert isinstance(events[0], str) and "harvest_20261125_010101" in events[0]
    last = events[-1]
    assert isinstance(last, dict) and last["usage"]["input_tokens"] > 0
    (entry,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert entry["kind"] == "restore" and entry["parent"] == "harvest_20261125_010101"
    assert entry["pid"] == os.getpid()
    assert chat_loop.read_log(log) == [Call("restore", os.getpid(), "harvest_20261125_010101")]


def test_a_restore_right_after_a_summary_is_a_compaction_else_a_resume() -> None:
    calls = [
        Call("turn", 1, None),
        Call("summary", 1, None),
        Call("restore", 1, "a"),  # #compact
        Call("summary", 1, None),  # the save at exit: restores nothing
        Call("restore", 2, "b"),  # --resume in the next process
        Call("summary-failed", 2, None),
        Call("turn", 2, None),
        Call("restore", 2, "c"),  # #resume N
    ]
    found = chat_loop.restorations(calls)
    assert [(r.kind, r.parent) for r in found] == [
        ("compaction", "a"),
        ("resume", "b"),
        ("resume", "c"),
    ]


def test_a_summary_of_another_process_does_not_make_a_compaction() -> None:
    calls = [Call("summary", 1, None), Call("restore", 2, "a")]
    assert [r.kind for r in chat_loop.restorations(calls)] == ["resume"]


def test_a_chain_counts_its_restorations_and_a_loop_is_walked_once() -> None:
    links = {"c": "b", "b": "a", "self": "self", "orphan": "gone"}
    counts = chat_loop.chain_counts(links, ["a", "b", "c", "self", "orphan"])
    assert counts == {"a": 0, "b": 1, "c": 2, "self": 1, "orphan": 1}


def _write(folder: Path, name: str, text: str) -> None:
    path = folder / f"{name}.md"
    path.write_text(text)
    stamp = time.time_ns() + len(list(folder.iterdir())) * 1_000_000
    os.utime(path, ns=(stamp, stamp))


def test_the_ledger_links_the_file_written_after_a_restoration(tmp_path: Path) -> None:
    """1.10.0: #compact saves A then restores; the next turn's save writes B."""
    ledger = Ledger(tmp_path)
    calls = [Call("turn", 1, None)]
    _write(tmp_path, "A", "turn 1")
    ledger.record(calls, 0)
    _write(tmp_path, "A", "turn 1 + summary")
    calls += [Call("summary", 1, None), Call("restore", 1, "A")]
    ledger.record(calls, 1)  # the compaction step: A's write is before the restoration
    assert ledger.links == {}
    _write(tmp_path, "B", "restored + turn 2")
    calls += [Call("turn", 1, None)]
    ledger.record(calls, 3)
    assert ledger.links == {"B": "A"} and ledger.kinds == {"B": "compaction"}


def test_the_ledger_links_a_session_first_saved_when_compacted_again(tmp_path: Path) -> None:
    """1.6.0 saves only on #compact and at exit: B's first write comes with the next compaction."""
    ledger = Ledger(tmp_path)
    _write(tmp_path, "A", "turn 1 + summary")
    calls = [Call("turn", 1, None), Call("summary", 1, None), Call("restore", 1, "A")]
    ledger.record(calls, 0)
    calls += [Call("turn", 1, None)]
    ledger.record(calls, 3)  # nothing saved after the turn
    _write(tmp_path, "B", "restored + turn 2 + summary")
    calls += [Call("summary", 1, None), Call("restore", 1, "B")]
    ledger.record(calls, 4)
    _write(tmp_path, "C", "restored + turn 3 + summary")
    calls += [Call("turn", 1, None), Call("summary", 1, None)]
    ledger.record(calls, 6)
    assert ledger.links == {"B": "A", "C": "B"}
    assert chat_loop.chain_counts(ledger.links, ["A", "B", "C"]) == {"A": 0, "B": 1, "C": 2}


def test_a_child_written_under_its_parents_id_is_a_self_link(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    _write(tmp_path, "A", "turn 1 + summary")
    calls = [Call("turn", 1, None), Call("summary", 1, None), Call("restore", 1, "A")]
    ledger.record(calls, 0)
    _write(tmp_path, "A", "restored from A + turn 2")
    calls += [Call("turn", 1, None)]
    ledger.record(calls, 3)
    assert ledger.links == {"A": "A"}
    assert any("same second" in note for note in ledger.notes)


def test_versions_before_1_6_only_run_the_plain_scenario() -> None:
    assert chat_loop.supports("1.5.1", "plain")
    assert not chat_loop.supports("1.5.1", "compact")
    assert chat_loop.supports("1.6.0", "compact") and not chat_loop.supports("1.6.0", "plain")
    assert not chat_loop.supports("1.10.0", "nope")
    assert chat_loop.sessions_dir("1.5.1").name == "agent-conversations"
    assert chat_loop.sessions_dir("1.10.0").name == ".chat-sessions"


def test_a_chain_that_loops_or_leaves_the_folder_is_the_spec_s_rejection() -> None:
    links = {"b": "a", "self": "self", "orphan": "gone"}
    names = ["a", "b", "self", "orphan"]
    assert chat_loop.chain_answer(links, names, "b") == "1"
    assert chat_loop.chain_answer(links, names, "a") == "0"
    assert chat_loop.chain_answer(links, names, "self") == "reject:E-CHAIN"
    assert chat_loop.chain_answer(links, names, "orphan") == "reject:E-CHAIN"


@pytest.mark.harvest
def test_a_real_chat_loop_writes_the_chain_its_stub_log_records(tmp_path: Path) -> None:
    """basic-agent-chat-loop 1.10.0 from PyPI, two compactions: three files, each naming one."""
    from rebootspec.generators.harvest import sanitize
    from rebootspec.generators.harvest.run import harvest_one

    result = harvest_one("chat-loop", "1.10.0", "compact-twice", tmp_path / "run")
    assert not result.error, result.error
    calls = chat_loop.read_log(tmp_path / "run" / "stub-log.jsonl")
    assert [r.kind for r in chat_loop.restorations(calls)] == ["compaction", "compaction"]
    threads = sorted(result.data["threads"], key=lambda t: t["file"])
    assert [t["caused"] for t in threads] == [0, 1, 2]
    for older, newer in itertools.pairwise(threads):
        text = (tmp_path / "run" / newer["file"]).read_text()
        assert f"**Resumed From:** {older['thread']}\n" in text
        assert f"/home/dev/project/.chat-sessions/{older['file']}\n" in text
    assert sanitize.scan([tmp_path / "run" / t["file"] for t in threads]) == []
