"""The Codex and pi writer models (generators/hosts) and the cases built from them.

The expected counts come from the plans; these tests check the bytes against the plans with a
small reading of their own (by JSON value, JSV-1), written here and nowhere else, and never by
running the reference. Where a plan holds a copy, the reading checks where the copy sits (the
copy marks of CDX-5 and PIA-5), not the count the generator computed.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from rebootspec.generators.corpus import cases
from rebootspec.generators.corpus.cases import Case
from rebootspec.generators.hosts.big import (
    write_big_claude,
    write_big_codex,
    write_big_gemini,
    write_big_pi,
)
from rebootspec.generators.hosts.codex import writer as codex
from rebootspec.generators.hosts.codex.plan import CodexPlan, codex_all_compactions
from rebootspec.generators.hosts.pi import writer as pi
from rebootspec.generators.hosts.pi.plan import PiPlan

# Every host's model but VS Code's and opencode's stores (which have their own tests).
LOG_HOSTS = cases.scenario_hosts() - {"vscode", "opencode", "kilo"}
CASES = cases.all_cases(hosts=LOG_HOSTS)
IDS = [case.key for case in CASES]


def values(data: bytes) -> Iterator[tuple[int, Any]]:
    """(line, value) of every value that parses, by value not by line; bad pieces skipped."""
    decoder = json.JSONDecoder()
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        position = 0
        while position < len(raw):
            while position < len(raw) and raw[position] in " \t\r":
                position += 1
            if position == len(raw):
                break
            try:
                value, position = decoder.raw_decode(raw, position)
            except (ValueError, RecursionError):
                break
            yield number, value


def primaries(data: bytes) -> list[tuple[int, dict[str, Any]]]:
    """Top-level `compacted` records with an object payload, and pi `compaction` entries."""
    found = []
    for number, value in values(data):
        if not isinstance(value, dict):
            continue
        if (value.get("type") == "compacted" and isinstance(value.get("payload"), dict)) or (
            value.get("type") == "compaction" and "payload" not in value
        ):
            found.append((number, value))
    return found


def plan(case: Case) -> CodexPlan | PiPlan | None:
    the_plan: CodexPlan | PiPlan | None = case.plan
    return the_plan


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_there_are_host_cases_of_every_era() -> None:
    eras = {(case.scenario.host, case.era) for case in CASES}
    for era in ("C0", "C1", "C2", "C3", "C4", "C5"):
        assert ("codex", era) in eras
    for era in ("v1", "v2", "v3"):
        assert ("pi", era) in eras
    for era in ("J0", "G0", "G1"):
        assert ("gemini-cli", era) in eras


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_build_is_deterministic_and_small(case: Case) -> None:
    again = cases.generate(case.scenario, case.era, case.id)
    assert again.data == case.data
    assert again.toml() == case.toml()
    assert len(case.data) <= 200_000


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_no_machine_path_or_name_leaks(case: Case) -> None:
    text = case.data.decode("utf-8", "replace") + case.toml()
    for leak in ("/work/", "/root", "/tmp/", "/Users/", "wt-gen", "C:\\\\"):
        assert leak not in text


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_toml_names_the_host_right_after_the_title(case: Case) -> None:
    lines = case.toml().splitlines()
    meta = tomllib.loads(case.toml())
    if case.scenario.host is None:
        assert "host" not in meta and meta["era"] == "none"
    else:
        assert lines[3] == f'host = "{case.scenario.host}"'
        assert lines[2].startswith("title = ")
    whole_file = (case.scenario.host, case.era) in (  # GEM-1, QWN-1: a whole-file .json chat
        ("gemini-cli", "J0"),
        ("qwen-code", "Q0"),
    )
    whole_file |= case.scenario.host is None and case.scenario.options == "json"  # a near miss
    if case.scenario.host == "basic-agent-chat-loop":  # BCL-4: a folder of session files
        assert meta["container"] == "markdown"
        assert f"input/{meta['input']}" in case.files()
    elif case.scenario.host in ("cline", "roo-code", "kilo-code"):  # CLN-1: a task folder
        assert meta["container"] == "folder"
        given = f"input/{meta['input']}"  # the folder, or its ui_messages.json (CLN-1)
        assert any(name == given or name.startswith(f"{given}/") for name in case.files())
    else:
        assert meta["container"] == ("json" if whole_file else "jsonl")
    assert meta["provenance"].startswith(f"generator:{case.scenario.name}/")


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.expect["outcome"] == "count" and c.scenario.host in ("codex", "pi")],
    ids=lambda c: c.key,
)
def test_the_bytes_hold_what_the_plan_says(case: Case) -> None:
    """Without a copy, the primary records in the bytes are exactly the plan's own ones.
    (Claude Code's cases are read by tests/generators/test_claude_code.py.)"""
    the_plan = plan(case)
    assert the_plan is not None
    found = primaries(case.data)
    if the_plan.copy is None:
        assert len(found) == case.expect["reboots"]
    elif isinstance(the_plan, CodexPlan) and case.era != "C5":
        # C1-C4 copy the parent's whole history, its own copies included.
        assert len(found) == codex_all_compactions(the_plan)


def _codex_records(data: bytes) -> list[tuple[int, dict[str, Any]]]:
    return [(n, v) for n, v in values(data) if isinstance(v, dict) and "payload" in v]


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if isinstance(plan(c), CodexPlan) and plan(c).copy],  # type: ignore[union-attr]
    ids=lambda c: c.key,
)
def test_a_codex_copy_carries_the_marks_of_cdx_5(case: Case) -> None:
    """C1-C4: a second session_meta starts one burst within a second; the thread's own
    compactions come after it. C5: ordinals below the start ordinal, or history_base."""
    records = _codex_records(case.data)
    meta = records[0][1]["payload"]
    own = case.expect["reboots"]
    if case.era == "C5":
        if "history_base" in meta:
            assert len(primaries(case.data)) == own
            return
        start = meta["subagent_history_start_ordinal"]
        mine = [v for _, v in records if v["type"] == "compacted" and v["ordinal"] >= start]
        assert len(mine) == own
        return
    metas = [i for i, (_, v) in enumerate(records) if v["type"] == "session_meta"]
    assert len(metas) >= 2
    copied = records[metas[1]][1]["timestamp"][:19]
    end = metas[1]
    while end + 1 < len(records) and records[end + 1][1]["timestamp"][:19] == copied:
        end += 1
    later = [v for _, v in records[end + 1 :] if v["type"] == "compacted"]
    assert len(later) == own
    assert records[0][1]["timestamp"][:19] == copied


@pytest.mark.parametrize(
    "case", [c for c in CASES if isinstance(plan(c), PiPlan) and plan(c).copy], ids=lambda c: c.key
)
def test_a_pi_copy_keeps_earlier_time_stamps(case: Case) -> None:
    """PIA-5: copied entries precede the first entry not earlier than the header."""
    found = list(values(case.data))
    header = found[0][1]
    assert "parentSession" in header or "branchedFrom" in header
    since = instant(header["timestamp"])
    entries = [v for _, v in found[1:]]
    first_own = next(
        (i for i, v in enumerate(entries) if instant(v["timestamp"]) >= since), len(entries)
    )
    own = [v for v in entries[first_own:] if v.get("type") == "compaction"]
    assert len(own) == case.expect["reboots"]
    assert any(v.get("type") == "compaction" for v in entries[:first_own])


def test_c0_rollouts_hold_no_compacted_record_and_the_right_first_line() -> None:
    c0 = [case for case in CASES if case.era == "C0"]
    assert len(c0) == 4
    for case in c0:
        assert primaries(case.data) == []
        first = next(values(case.data))[1]
        if case.scenario.name == "codex-legacy":
            assert "type" not in first and {"id", "timestamp"} <= set(first)
            assert any(v == {"record_type": "state"} for _, v in values(case.data))
        else:
            assert first["type"] == "session_meta"
            version = first["payload"].get("cli_version")
            assert version is None or tuple(map(int, version.split("."))) < (0, 36, 0)
            # CDX-8: nothing a CLI of 0.36.0 or later writes (the table's marks)
            kinds = {v.get("type") for _, v in values(case.data) if isinstance(v, dict)}
            items = {
                v["payload"].get("type")
                for _, v in values(case.data)
                if isinstance(v, dict) and isinstance(v.get("payload"), dict)
            }
            assert kinds <= {"session_meta", "response_item", "event_msg"}
            assert not items & {"ghost_snapshot", "context_compacted", "thread_rolled_back"}


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.expect.get("error") == "E-LIMIT"], ids=lambda c: c.key
)
def test_the_deep_value_is_on_the_line_the_case_names(case: Case) -> None:
    line = case.data.split(b"\n")[case.expect["line"] - 1]
    assert b"[" * 1025 in line
    assert all(b"[" * 1025 not in other for other in case.data.split(b"\n") if other != line)


def test_damage_is_where_the_plans_put_it() -> None:
    by_name = {case.key: case for case in CASES}
    for key in ("codex-torn-tail/C4", "pi-torn-tail/v3"):
        assert not by_name[key].data.endswith(b"\n")
    for key in ("codex-glued/C4", "pi-glued/v1", "pi-glued/v3"):
        lines = by_name[key].data.split(b"\n")
        glued = [line for line in lines if len(list(values(line))) > 1]
        assert len(glued) == 1 and b'"compact' in glued[0]
    odd = [
        v for _, v in values(by_name["codex-odd-payload/C4"].data) if v.get("type") == "compacted"
    ]
    assert sorted(type(v["payload"]).__name__ for v in odd) == ["dict", "list", "str"]


def test_pi_migration_adds_ids_after_the_other_members() -> None:
    session = pi.play(
        PiPlan(
            "v3",
            next(c.plan for c in CASES if c.key == "pi-migrated/v3").steps,
            migrated=True,
        )
    )  # type: ignore[union-attr]
    assert session.header["version"] == 3
    for entry in session.entries:
        assert list(entry)[-2:] in (["id", "parentId"], ["parentId", "firstKeptEntryId"])
        assert "firstKeptEntryIndex" not in entry


def test_codex_builds_write_their_companions_in_their_order() -> None:
    def around(version: str) -> list[str]:
        the_plan = CodexPlan("C4", (codex.Turn(2, (codex.Compact(),)),), version=version)
        kinds = [
            v["type"] if v["type"] != "event_msg" else v["payload"]["type"]
            for _, v in values(codex.play(the_plan).bytes())
        ]
        at = kinds.index("compacted")
        return kinds[at : at + 3]

    assert around("0.104.0") == ["compacted", "context_compacted", "turn_context"]
    assert around("0.111.0") == ["compacted", "turn_context", "context_compacted"]


def test_big_files_count_what_they_planned(tmp_path: Any) -> None:
    rollout, session = tmp_path / "big.jsonl", tmp_path / "big-pi.jsonl"
    expected = write_big_codex(rollout, 2)
    assert rollout.stat().st_size >= 2_000_000
    assert len(primaries(rollout.read_bytes())) == expected > 0
    expected = write_big_pi(session, 1)
    assert len(primaries(session.read_bytes())) == expected > 0


def test_big_claude_and_gemini_files_count_what_they_planned(tmp_path: Any) -> None:
    """The bench's Claude Code and Gemini CLI files hold one primary record per planned
    compaction, read without the reference: boundaries (CLC-3), and `$set.messages` whose
    history holds a snapshot id not seen before (GEM-3, GEM-4)."""
    transcript, chat = tmp_path / "big-cc.jsonl", tmp_path / "big-gem.jsonl"
    expected = write_big_claude(transcript, 1)
    assert transcript.stat().st_size >= 1_000_000
    boundaries = [
        v
        for _, v in values(transcript.read_bytes())
        if isinstance(v, dict) and v.get("subtype") == "compact_boundary"
    ]
    assert len(boundaries) == expected > 0
    expected = write_big_gemini(chat, 1)
    snapshots = set()
    for _, v in values(chat.read_bytes()):
        update = v.get("$set") if isinstance(v, dict) else None
        for message in update.get("messages", []) if isinstance(update, dict) else []:
            if "<state_snapshot>" in json.dumps(message.get("content")):
                snapshots.add(message["id"])
    assert len(snapshots) == expected > 0
