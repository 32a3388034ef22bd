"""The Copilot CLI reader of the reference (spec/hosts/copilot-cli.md, CPL-*).

Each input is a handful of hand-written events whose count a person reads off the test; the
shapes are those the CLI 1.0.102 wrote offline (generators/harvest), cut down.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.core.errors import Notice
from rebootspec.reference.core.jsonvalues import iter_values
from rebootspec.reference.core.registry import detect
from rebootspec.reference.hosts.copilot_cli import HOST
from rebootspec.reference.hosts.copilot_cli.reader import CopilotCount, count_records

SOURCE = "16eea47d-7829-4601-9884-bc0803cac6bb"
FORK = "b983eead-8430-4ea3-8cb8-3f866c337c97"
AGENT = "18d03acc-063f-421b-bb58-c1ce58ea3e95"


class Writer:
    """Events with ids, parent links and a clock one second apart."""

    def __init__(self, start: int = 0) -> None:
        self.second = start
        self.last: str | None = None
        self.serial = 0

    def event(self, kind: str, data: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        self.serial += 1
        ident = f"00000000-0000-4000-8000-{self.serial:012d}"
        stamp = f"2026-11-27T03:{self.second // 60:02d}:{self.second % 60:02d}.000Z"
        self.second += 1
        value: dict[str, Any] = {
            "type": kind,
            "data": {} if data is None else data,
            "id": ident,
            "timestamp": stamp,
            "parentId": self.last,
        }
        value.update(extra)
        self.last = ident
        return value

    def start(self, session: str = SOURCE, version: str = "1.0.102") -> dict[str, Any]:
        data = {"sessionId": session, "version": 1, "producer": "copilot-agent"}
        return self.event("session.start", {**data, "copilotVersion": version})

    def applied(self, trigger: str = "manual", **extra: Any) -> dict[str, Any]:
        data = {"success": True, "outcome": "applied", "trigger": trigger}
        data["summaryContent"] = "the summary"
        return self.event("session.compaction_complete", data, **extra)


def count(values: list[Any]) -> CopilotCount:
    notices: list[Notice] = []
    data = b"\n".join(orjson.dumps(v) for v in values) + b"\n"
    result = count_records(iter_values(io.BytesIO(data), notices))
    result.notices[:0] = notices
    return result


def test_applied_completes_of_the_main_agent_count() -> None:
    w = Writer()
    events = [
        w.start(),
        w.event("user.message", {"content": "fix the parser"}),
        w.event("session.compaction_start", {"trigger": "manual"}),
        w.applied(),
        w.event("session.compaction_start", {"trigger": "threshold"}),
        w.applied("threshold"),
    ]
    result = count(events)
    assert result.reboots == 2  # CPL-3
    assert [e["line"] for e in result.events] == [4, 6]
    assert [e["trigger"] for e in result.events] == ["manual", "threshold"]  # CPL-9
    assert result.era == "P2" and result.host_version == "1.0.102"


def test_failed_cancelled_empty_and_lone_starts_do_not_count() -> None:
    w = Writer()
    failed = {"success": False, "outcome": "failed", "error": "500", "statusCode": 500}
    cancelled = {"success": False, "outcome": "cancelled"}
    events = [
        w.start(),
        w.event("session.compaction_start"),
        w.event("session.compaction_complete", failed),
        w.event("session.compaction_start"),
        w.event("session.compaction_complete", cancelled),
        w.event("session.compaction_start"),  # a pass the process never finished
        w.event("session.compaction_complete", {"success": True, "summaryContent": ""}),
        w.event("session.compaction_complete", {"success": "true", "summaryContent": "x"}),
        w.event("session.truncation", {"messagesRemovedDuringTruncation": 4}),
    ]
    result = count(events)
    assert result.reboots == 0  # CPL-3, CPL-4
    assert result.companions == 8


def test_a_complete_without_outcome_is_era_p1() -> None:
    w = Writer()
    events = [w.start(version="0.0.400"), w.event("session.compaction_start")]
    events.append(w.event("session.compaction_complete", {"success": True, "summaryContent": "s"}))
    result = count(events)
    assert result.reboots == 1
    assert result.era == "P1"  # CPL-2


def test_a_file_of_a_release_that_could_not_compact_is_p0_with_zero() -> None:
    w = Writer()
    result = count([w.start(version="0.0.372"), w.event("user.message", {"content": "hi"})])
    assert result.reboots == 0 and result.era == "P0"  # CPL-2, RBT-5: not unmeasurable


def test_sub_agent_compactions_are_not_the_main_agents() -> None:
    w = Writer()
    events = [
        w.start(),
        w.event("subagent.started", {"agentName": "task"}, agentId=AGENT),
        w.event("session.compaction_start", {"trigger": "threshold"}, agentId=AGENT),
        w.applied("threshold", agentId=AGENT),
        w.event("subagent.completed", {"agentName": "task"}, agentId=AGENT),
        w.applied(agentId=None),  # a null agentId is the main agent's
    ]
    result = count(events)
    assert result.reboots == 1  # CPL-5
    assert result.subagent == [4]
    assert result.to_json()["subagent"] == [4]


def fork_file() -> list[dict[str, Any]]:
    """A fork: the source's events copied under their times, the fork's start and mark later."""
    source = Writer()
    copied = [
        source.start(),
        source.event("user.message", {"content": "hello"}),
        source.event("session.compaction_start"),
        source.applied(),
    ]
    fork = Writer(start=120)
    head = fork.start(FORK)
    head["id"] = copied[0]["id"]  # the copy keeps the source's event ids
    mark = fork.event("session.info", {"infoType": "fork", "message": "Forked from ..."})
    own = [fork.event("user.message", {"content": "go on"}), fork.applied()]
    return [head, *copied[1:], mark, *own]


def test_a_forks_copied_prefix_is_inherited() -> None:
    result = count(fork_file())
    assert result.reboots == 1  # CPL-6, RBT-3: only the fork's own
    assert result.inherited == [4]
    assert [e["line"] for e in result.events] == [7]


def test_the_sources_fork_note_marks_no_copy() -> None:
    w = Writer()
    events = [
        w.start(),
        w.applied(),
        w.event("session.info", {"infoType": "fork", "message": "Forked this session into ..."}),
        w.applied(),
    ]
    result = count(events)
    assert result.reboots == 2 and result.inherited == []  # CPL-6


def test_older_events_without_a_fork_mark_are_the_files_own() -> None:
    events = fork_file()
    del events[4]  # the mark: the run of older events ends at the fork's own user message
    result = count(events)
    assert result.reboots == 2 and result.inherited == []


def test_a_fork_that_ends_inside_the_run_has_no_copy() -> None:
    result = count(fork_file()[:4])
    assert result.reboots == 1 and result.inherited == []


def test_a_fork_of_a_fork_inherits_through_its_own_mark() -> None:
    first = fork_file()
    second = Writer(start=600)
    head = second.start("c0ffee00-0000-4000-8000-000000000000")
    mark = second.event("session.info", {"infoType": "fork", "message": "Forked from ..."})
    own = second.applied()
    result = count([head, *first[1:], mark, own])
    assert result.reboots == 1  # only the second fork's own
    assert result.inherited == [4, 7]


def test_a_rewound_file_counts_what_it_holds_and_warns() -> None:
    w = Writer()
    events = [
        w.start(),
        w.applied(),
        w.event("session.resume", {"eventCount": 33}),
        w.event("session.info", {"infoType": "rewind", "message": "Rewound the conversation."}),
        w.applied(),
    ]
    result = count(events)
    assert result.reboots == 2  # CPL-8: a lower bound, still the answer
    assert [(n.code, n.line) for n in result.notices] == [("W-REWOUND", 4)]


def test_a_rewind_note_copied_into_a_fork_is_the_sources() -> None:
    events = fork_file()
    note = {"infoType": "rewind", "message": "Rewound the conversation."}
    rewind = dict(events[2], type="session.info", data=note)
    events[2] = rewind
    result = count(events)
    assert result.notices == []


def test_the_title_is_the_first_main_message_and_the_workspace(tmp_path: Path) -> None:
    """The title for `sessions`: the main agent's first message (a sub-agent's is not), and the
    working folder of the `workspace.yaml` beside the file (a VS Code workspace, CPL-11)."""
    w = Writer()
    events = [
        w.start(),
        w.event("user.message", {"content": "sub task"}, agentId=AGENT),
        w.event("user.message", {"content": "fix the parser"}),
    ]
    folder = tmp_path / SOURCE
    folder.mkdir()
    path = folder / "events.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(v) for v in events) + b"\n")
    assert HOST.count(str(path), with_title=True).title == "fix the parser"
    (folder / "workspace.yaml").write_text(f"id: {SOURCE}\ncwd: /home/me/project\n")
    assert HOST.count(str(path), with_title=True).title == "fix the parser [/home/me/project]"


def test_damage_is_skipped_and_odd_values_ignored() -> None:
    w = Writer()
    data = b"\n".join(
        [
            orjson.dumps(w.start()),
            b"{not json",
            b"[1, 2]",
            orjson.dumps(w.applied()) + orjson.dumps(w.applied()),  # glued (JSV-1)
            orjson.dumps({"type": "session.compaction_complete", "data": [1]}),
            b'{"type": "session.compaction_complete", "data": {"succ',  # torn tail (JSV-2)
        ]
    )
    notices: list[Notice] = []
    result = count_records(iter_values(io.BytesIO(data), notices))
    assert result.reboots == 2  # CPL-10
    assert [n.code for n in notices] == ["W-SKIPPED", "W-TORN-TAIL"]


def test_a_copilot_cli_file_is_detected_and_counted_by_content(tmp_path: Path) -> None:
    """HST-2, CPL-1: the first event decides, whatever the file is called."""
    w = Writer()
    path = tmp_path / "anything.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(v) for v in [w.start(), w.applied()]) + b"\n")
    assert detect(path).key == "copilot-cli"
    result = count_path(path)
    assert result.to_json()["host"] == "copilot-cli" and result.reboots == 1


def test_other_hosts_first_values_are_not_copilots(tmp_path: Path) -> None:
    """HST-2: Codex's envelope has `payload`; pi's header `type` has no dot."""
    codex = {"timestamp": "t", "type": "session.start", "payload": {}}
    pi = {"type": "session", "version": 3, "id": "x", "timestamp": "t", "cwd": "/", "data": {}}
    for first, host in ((codex, "codex"), (pi, "pi")):
        path = tmp_path / f"{host}.jsonl"
        path.write_bytes(orjson.dumps(first) + b"\n")
        assert detect(path).key == host


@pytest.mark.parametrize(
    ("first", "missing"),
    [
        ({"type": "session.start", "data": [1]}, "`data` is not an object"),
        ({"type": "session.start", "data": {"sessionId": "s"}}, "`data.producer`"),
        ({"type": "session.created", "data": {"producer": "copilot-agent"}}, "`session.start`"),
    ],
)
def test_another_writers_session_events_are_nobodys(
    tmp_path: Path, first: dict[str, Any], missing: str
) -> None:
    """HST-2, CPL-1, HST-4: `session.*` types and a `data` object are not the Copilot runtime's
    marks; its `session.start` naming `producer` `copilot-agent` is. The E-HOST line says what
    the nearest row missed."""
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(orjson.dumps(first) + b"\n")
    with pytest.raises(Rejection) as caught:
        detect(odd)
    assert caught.value.code == "E-HOST"
    assert f"nearest: copilot-cli ({missing}" in caught.value.reason
