"""Each harvested case's expectation, re-derived from its run's own record (default `pytest`).

A harvested case expects what the scripted model caused, not what anyone read in the file. This
file reads that record again, on its own, and checks every harvested case's case.toml against
it (the manifest's `expected` is a transcription of the same record, checked too):

- the server log (`server-log.jsonl`, one line per request the host sent the scripted model,
  `generators/harvest/server.py`): a compaction is a `summary` request (a failed one is
  `summary-failed`, it compacted nothing). Codex sends one summary request per compaction; pi
  and Gemini CLI may send two back to back for one (pi's split turn, Gemini's verification
  pass), so there a run of consecutive summary requests is one compaction.
  A thread's own compactions are the summaries logged under its id when the host names its
  thread in every summary request (Codex up to 0.111); otherwise a run that drives several
  threads (a fork, a subagent, a revert's second file) gives the total only, and the threads'
  counts must add up to it (copies are never counted, so each compaction is one thread's), less
  the compactions an entry names as no file's (`others`: a Copilot CLI sub-agent's, or one a
  rewind removed from the file).
  Qwen Code may answer a summary and then drop it (0.8-0.15 refuse an "inflated" compression):
  there a compaction is a `summary` answered 200 whose digest a later request `carries` (the
  server logs the scripted summaries each request holds), the harvest's count of record.
- Cline (`generators/harvest/cline_script.py`): a compaction is a `summary` answered 200 that
  a later `continued` request carries on to the model (before the next summary), or a `/smol`
  summary the user accepted (`condense-accepted`); a `/smol` answered with feedback
  (`condense-feedback`) and a summary that failed on every retry are none.
- the stub log of basic-agent-chat-loop (`stub-log.jsonl`, `chat_loop_stub.py`): a `restore`
  request names the session it restores (`parent`); the session it starts is named by the
  second it started (`<agent>_<YYYYmmdd_HHMMSS>`, UTC in the sandbox), so the restorations are
  links child -> parent, and a file's count is the restorations along its chain (BCL-4); a link
  to itself (a file overwritten within its second) cannot be walked (E-CHAIN, BCL-6).

A run without a log says why in its entry (`no_log`); nothing else is let through.
"""

from __future__ import annotations

import json
import time
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.harvest import corpus

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
RUNS_OF_SUMMARIES = {"pi", "gemini-cli"}  # one compaction may send two summary requests
REACHED = {"qwen-code"}  # a compaction is a summary a later request carries
STUB_AGENT = "harvest"  # chat_loop_stub.py's agent name: session ids are harvest_<time>

pytestmark = pytest.mark.skipif(not corpus.available(), reason="no harvested/ (not a checkout)")


def _entries() -> list[dict[str, Any]]:
    return corpus.entries() if corpus.available() else []


def _run(entry: dict[str, Any]) -> Path:
    """The run's folder in harvested/: the first part of the entry's `file`."""
    return corpus.HARVESTED / Path(str(entry["file"])).parts[0]


def _expectation(entry: dict[str, Any]) -> dict[str, Any]:
    """What the corpus case says (its case.toml), never the manifest's number."""
    with (FIXTURES / str(entry["case"]) / "case.toml").open("rb") as handle:
        expect: dict[str, Any] = tomllib.load(handle)["expect"]
    return expect


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def compactions(log: list[dict[str, Any]], runs: bool) -> int:
    """Compactions in a stretch of a server log: summary requests, or runs of them."""
    count, previous = 0, ""
    for entry in log:
        kind = entry["classification"]
        if kind == "summary" and not (runs and previous == "summary"):
            count += 1
        previous = kind
    return count


def reached(log: list[dict[str, Any]]) -> int:
    """Summaries answered 200 whose digest a later request of the log carries."""
    count = 0
    for index, entry in enumerate(log):
        if entry["classification"] == "summary" and entry["status"] == 200:
            later = log[index + 1 :]
            count += any(entry["digest"] in other.get("carries", []) for other in later)
    return count


def _caused(log: list[dict[str, Any]], host: str) -> int:
    """A stretch of a host's log: its compactions, read the way that host's runs need."""
    return reached(log) if host in REACHED else compactions(log, host in RUNS_OF_SUMMARIES)


def cline_compactions(log: list[dict[str, Any]]) -> int:
    """A Cline run's compactions: summaries carried on to the model, and accepted /smols."""
    count, pending = 0, False
    for entry in log:
        kind = entry["classification"]
        if kind == "summary" and entry["status"] == 200:
            pending = True
        elif kind == "continued" and pending:
            count, pending = count + 1, False
        elif kind == "condense-accepted":
            count += 1
    return count


def chain_count(stub_log: list[dict[str, Any]], session: str) -> int | str:
    """The restorations along `session`'s chain, per the stub log alone; E-CHAIN on a loop."""
    parent_of = {}
    for call in stub_log:
        if call["kind"] == "restore":
            started = time.strftime("%Y%m%d_%H%M%S", time.gmtime(int(call["time"])))
            parent_of[f"{STUB_AGENT}_{started}"] = str(call["parent"])
    seen: set[str] = set()
    hops = 0
    while session in parent_of:
        if session in seen or parent_of[session] == session:
            return "E-CHAIN"
        seen.add(session)
        session = parent_of[session]
        hops += 1
    return hops


def _by_run(host_filter: set[str]) -> dict[Path, list[dict[str, Any]]]:
    runs: dict[Path, list[dict[str, Any]]] = defaultdict(list)
    for entry in _entries():
        if entry["host"] in host_filter and "no_log" not in entry:
            runs[_run(entry)].append(entry)
    return dict(runs)


SERVER_RUNS = _by_run({"codex", "pi", "gemini-cli", "copilot-cli", "kilo", "opencode", "qwen-code"})
CLINE_RUNS = _by_run({"cline"})
CHAT_LOOP = [e for e in _entries() if e["host"] == "basic-agent-chat-loop" and "no_log" not in e]


def test_every_entry_has_its_runs_log_or_says_why_not() -> None:
    for entry in _entries():
        name = "stub-log.jsonl" if entry["host"] == "basic-agent-chat-loop" else "server-log.jsonl"
        has_log = (_run(entry) / name).is_file()
        assert has_log != ("no_log" in entry), entry["file"]
        assert "case" in entry, entry["file"]  # every harvested file is a corpus case


@pytest.mark.parametrize("run", sorted(SERVER_RUNS), ids=lambda p: p.name)
def test_a_server_logs_compactions_are_its_cases_counts(run: Path) -> None:
    entries = SERVER_RUNS[run]
    log = _lines(run / "server-log.jsonl")
    host = str(entries[0]["host"])
    summaries = [e for e in log if e["classification"].startswith("summary")]
    named = all(e.get("thread") for e in summaries)
    derived = {}
    for entry in entries:
        own = [e for e in log if e.get("thread") == entry.get("thread")] if named else log
        derived[entry["case"]] = _caused(own, host)
    if not named:  # one total for the run: each compaction is one thread's
        # `others`: the run's compactions that no file counts, each named in its entry: a
        # Copilot CLI sub-agent's (CPL-5), one a rewind removed from the file (CPL-8).
        others = sum(int(e.get("others", 0)) for e in entries)
        total = _caused(log, host) - others
        assert sum(int(e["expected"]) for e in entries) == total, run.name
        if len(entries) == 1:
            assert entries[0]["expected"] == total
    for entry in entries:
        caused = int(entry["expected"])
        expect = _expectation(entry)
        if expect["outcome"] == "count":
            assert expect["reboots"] == caused, entry["case"]
        else:  # RBT-5: the host compacted and its era recorded none
            assert expect["error"] == "E-UNMEASURABLE" and caused > 0, entry["case"]
    if named:
        assert {e["case"]: int(e["expected"]) for e in entries} == derived


@pytest.mark.parametrize("run", sorted(CLINE_RUNS), ids=lambda p: p.name)
def test_a_cline_runs_log_gives_its_cases_count(run: Path) -> None:
    (entry,) = CLINE_RUNS[run]  # one task (or SDK session) a run
    caused = cline_compactions(_lines(run / "server-log.jsonl"))
    assert entry["expected"] == caused, entry["file"]
    expect = _expectation(entry)
    if expect["outcome"] == "count":
        assert expect["reboots"] == caused, entry["case"]
    else:  # an SDK session with a compaction file, whatever the log says (CLN-12, RBT-5)
        assert expect["error"] == "E-UNMEASURABLE" and entry["era"] == "S1", entry["case"]


@pytest.mark.parametrize("entry", CHAT_LOOP, ids=lambda e: str(e["file"]))
def test_a_stub_logs_restorations_are_the_chat_loop_cases_counts(entry: dict[str, Any]) -> None:
    derived = chain_count(_lines(_run(entry) / "stub-log.jsonl"), Path(str(entry["file"])).stem)
    expect = _expectation(entry)
    if expect["outcome"] == "count":
        assert expect["reboots"] == derived == entry["expected"]
    else:
        assert expect["error"] == derived == entry["reject"]


def test_every_run_with_a_log_was_checked() -> None:
    checked = {e["case"] for entries in SERVER_RUNS.values() for e in entries}
    checked |= {e["case"] for e in CHAT_LOOP}
    checked |= {e["case"] for entries in CLINE_RUNS.values() for e in entries}
    assert checked == {e["case"] for e in _entries() if "no_log" not in e}
    assert len(checked) >= 50


def test_the_chain_reading_walks_links_and_stops_at_a_loop() -> None:
    """The stub-log reading on its own: a -> b -> c, and a file overwritten within its second."""

    def restore(second: int, parent: str) -> dict[str, Any]:
        start = 1795564800  # 2026-11-25T00:00:00Z
        return {"kind": "restore", "time": start + second + 0.4, "parent": parent}

    log = [restore(2, "harvest_20261125_000001"), restore(4, "harvest_20261125_000002")]
    assert chain_count(log, "harvest_20261125_000004") == 2
    assert chain_count(log, "harvest_20261125_000002") == 1
    assert chain_count(log, "harvest_20261125_000001") == 0
    assert chain_count([restore(9, "harvest_20261125_000009")], "harvest_20261125_000009") == (
        "E-CHAIN"
    )


def test_a_cline_summary_counts_once_carried_on_and_a_smol_once_accepted() -> None:
    def log(*kinds: str, status: int = 200) -> list[dict[str, Any]]:
        return [{"classification": k, "status": status} for k in kinds]

    assert cline_compactions(log("tool-call", "summary", "continued", "continued")) == 1
    assert cline_compactions(log("summary", "turn")) == 0
    assert cline_compactions(log("condense", "condense-feedback", "turn")) == 0
    assert cline_compactions(log("condense", "condense-accepted", "summary", "continued")) == 2


def test_runs_of_summary_requests_are_one_compaction_where_the_host_asks_twice() -> None:
    log = [{"classification": c} for c in ("turn", "summary", "summary", "turn", "summary")]
    assert compactions(log, runs=True) == 2
    assert compactions(log, runs=False) == 3
    failed = [{"classification": c} for c in ("turn", "summary-failed", "turn")]
    assert compactions(failed, runs=False) == 0


def test_a_summary_counts_only_once_a_later_request_carries_it() -> None:
    """Qwen Code 0.8-0.15 drop an "inflated" compression after the model answered it: that
    summary reaches no later request and is no compaction; a failed one never counts."""

    def entry(kind: str, digest: str, status: int = 200, *carries: str) -> dict[str, Any]:
        return {"classification": kind, "digest": digest, "status": status, "carries": carries}

    log = [
        entry("turn", "t1"),
        entry("summary", "s1"),  # dropped: nothing later carries it
        entry("turn", "t2"),
        entry("summary", "s2"),
        entry("turn", "t3", 200, "s2"),
        entry("summary-failed", "s3", 500),
        entry("turn", "t4", 200, "s2", "s3"),
    ]
    assert reached(log) == 1
    assert compactions(log, runs=False) == 2
    assert reached(log[:4]) == 0  # a summary carried by no request yet is not one
