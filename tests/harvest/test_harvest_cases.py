"""The curated harvest as corpus cases: the expectation is the run's own record (issue 23)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.harvest import corpus

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def item(**entry: Any) -> corpus.Harvested:
    base = {"host": "codex", "version": "0.40.0", "scenario": "manual", "role": "own"}
    return corpus.Harvested("k", {**base, **entry}, b'{"timestamp":"t","type":"session_meta"}\n')


def test_the_corpus_holds_every_harvested_file_as_converted() -> None:
    assert corpus.differences(FIXTURES) == []


def test_compactions_caused_and_recorded_are_the_count() -> None:
    assert corpus.expectation(item(expected=3, records=3)) == {"outcome": "count", "reboots": 3}


def test_a_fork_counts_its_own_not_the_copies_it_holds() -> None:
    own = item(role="fork", expected=1, records=3)
    assert corpus.expectation(own) == {"outcome": "count", "reboots": 1}


def test_compactions_the_host_did_not_record_make_the_file_unmeasurable() -> None:
    c0 = item(version="0.34.0", expected=2, records=0)
    assert corpus.expectation(c0) == {"outcome": "reject", "error": "E-UNMEASURABLE", "line": 0}


def test_a_failed_compaction_that_wrote_nothing_is_zero() -> None:
    failed = item(scenario="failure", expected=0, records=0)
    assert corpus.expectation(failed) == {"outcome": "count", "reboots": 0}


def test_every_harvested_case_names_its_provenance_and_host() -> None:
    for harvested in corpus.load():
        table = corpus.case_table(harvested, "ZZZZ")
        assert table["provenance"].startswith(f"harvest:{harvested.host}@")
        assert table["host"] == harvested.host
        assert "harvested" in table["tags"]


def test_a_host_that_records_a_compaction_its_failed_summary_meant_to_stop_is_flagged(
    tmp_path: Path,
) -> None:
    from rebootspec.generators.harvest import cli

    session = tmp_path / "s.jsonl"
    session.write_text('{"type":"session"}\n{"type":"compaction","summary":"No prior history."}\n')
    thread = {"role": "own", "caused": 0, "file": "s.jsonl"}
    data = {"failed_summaries": 3}
    recorded = cli.compaction_records(session)
    assert recorded == 1
    assert cli._host_differs(thread, data, recorded, "1")
    # A reference that answered otherwise is a plain disagreement, never excused.
    assert not cli._host_differs(thread, data, recorded, "0")
    # Without failed summaries there is nothing the host did differently: a disagreement.
    assert not cli._host_differs(thread, {"failed_summaries": 0}, recorded, "1")


def chat_loop_item(**entry: Any) -> corpus.Harvested:
    base = {
        "host": "basic-agent-chat-loop",
        "version": "1.10.0",
        "scenario": "compact",
        "role": "own",
        "container": "markdown",
        "file": "chatloop-1.10.0-compact/b.md",
        "inputs": ["chatloop-1.10.0-compact/a.md", "chatloop-1.10.0-compact/b.md"],
        "expected": 1,
        "records": 1,
        "era": "M1",
        "rules": ["RBT-1", "BCL-3"],
        "tags": ["harvested", "chatloop-compact"],
        "provenance": "harvest:basic-agent-chat-loop@1.10.0/compact",
        "what": "a compaction.",
        "licence": "MIT (basic-agent-chat-loop)",
    }
    inputs = {"a.md": b"# harvest Conversation\n", "b.md": b"# harvest Conversation\n\n"}
    return corpus.Harvested("k", {**base, **entry}, inputs["b.md"], inputs)


def test_a_multi_file_case_gets_its_folder_and_names_the_file_asked_about() -> None:
    harvested = chat_loop_item()
    table = corpus.case_table(harvested, "ZZZZ")
    assert table["container"] == "markdown" and table["input"] == "b.md"
    assert table["era"] == "M1" and table["rules"] == ["RBT-1", "BCL-3"]
    assert table["expect"] == {"outcome": "count", "reboots": 1}
    assert table["provenance"] == "harvest:basic-agent-chat-loop@1.10.0/compact"
    assert set(corpus.input_files(harvested)) == {"input/a.md", "input/b.md"}
    # Single-file cases keep their one session file.
    single = item(expected=0, records=0, file="codex-0.40.0-manual/rollout.jsonl")
    assert set(corpus.input_files(single)) == {"session.jsonl"}


def test_a_record_that_leaves_the_count_unknown_is_the_spec_s_rejection() -> None:
    collided = chat_loop_item(scenario="collision", reject="E-CHAIN", line=13)
    table = corpus.case_table(collided, "ZZZZ")
    assert table["expect"] == {"outcome": "reject", "error": "E-CHAIN", "line": 13}
    assert "E-CHAIN" in table["title"] and "basic-agent-chat-loop" in table["title"]


def test_the_sweep_expects_unmeasurable_where_a_gemini_file_recorded_no_compression() -> None:
    """A sweep row's expectation is the server log's count, or E-UNMEASURABLE when the host's
    file records none of the compressions it made (RBT-5, GEM-7): the real 0.39.1 chat (G0)
    holds no `$set.messages` snapshot, the real 0.44.0 chat (G1) holds one per compression."""
    from rebootspec.generators.harvest import cli

    chats = {
        str(entry["version"]): corpus.source(entry, FIXTURES)
        for entry in corpus.entries()
        if entry["host"] == "gemini-cli"
    }
    g0, g1 = chats["0.39.1"], chats["0.44.0"]
    assert cli.compaction_records(g0) == 0
    assert cli.compaction_records(g1) >= 3  # resumes write the last snapshot again
    assert cli.expected_answer(3, cli.compaction_records(g0)) == "reject:E-UNMEASURABLE"
    assert cli.expected_answer(3, cli.compaction_records(g1)) == "3"
    # A run that caused nothing expects 0, whatever the file holds.
    assert cli.expected_answer(0, 0) == "0"


def test_without_the_harvested_data_the_check_says_so_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed wheel carries no harvested/ (data of the checkout): nothing to convert."""
    import io

    monkeypatch.setattr(corpus, "MANIFEST", tmp_path / "absent" / "manifest.toml")
    out = io.StringIO()
    assert corpus.main(["--check"], out) == 0
    assert "no harvested data" in out.getvalue()
    assert corpus.main([], io.StringIO()) == 2  # writing the corpus needs the checkout's data


def qwen_item(file: str, **entry: Any) -> corpus.Harvested:
    base = {
        "host": "qwen-code",
        "version": "0.24.4",
        "scenario": "fork",
        "role": "own",
        "file": file,
        "provenance": "harvest:qwen-code@0.24.4/fork",
        "what": "A run.",
        "licence": "Apache-2.0 (@qwen-code/qwen-code)",
    }
    return corpus.Harvested("k", {**base, **entry}, b'{"type":"user"}\n')


def test_a_qwen_code_case_is_of_its_era_and_a_fork_cites_the_copy_rule() -> None:
    """Q1 for a transcript, Q0 (E-UNMEASURABLE, QWN-9) for a 0.1.x chat that recorded none of
    the compressions its run caused; a fork's file cites RBT-3/QWN-6 for the copies it holds."""
    own = qwen_item("run/a.jsonl", expected=1, records=1)
    table = corpus.case_table(own, "ZZZZ")
    assert (table["era"], table["container"], table["expect"]["reboots"]) == ("Q1", "jsonl", 1)
    assert "RBT-3" not in table["rules"] and "qwen-fork" not in table["tags"]
    fork = corpus.case_table(qwen_item("run/b.jsonl", role="fork", expected=1, records=2), "Z")
    assert fork["expect"] == {"outcome": "count", "reboots": 1}
    assert {"RBT-3", "QWN-6"} <= set(fork["rules"]) and "qwen-fork" in fork["tags"]
    chat = qwen_item("run/session-x.json", version="0.1.4", scenario="auto", expected=2, records=0)
    q0 = corpus.case_table(chat, "ZZZZ")
    assert (q0["era"], q0["container"]) == ("Q0", "json")
    assert q0["expect"] == {"outcome": "reject", "error": "E-UNMEASURABLE", "line": 0}
    assert "QWN-9" in q0["rules"] and "qwen-q0" in q0["tags"]
    assert q0["title"].startswith("real Qwen Code 0.1.4 auto run")
