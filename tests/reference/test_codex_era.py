"""Codex era C0 is read from the records, not from the version string (CDX-8, issue #38).

Each input is a handful of hand-written records; whether it is measurable, and its count, is
read off the test by a person from CDX-8's rule and table. The version strings are the ones seen
in the wild: a `git describe` of a checkout (a published December 2025 rollout), the IDE
extension's bundled pre-release, a build from source.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.cli import main
from rebootspec.reference.core.answer import RecordCount

ROOT = Path(__file__).resolve().parents[2]
REAL_034 = ROOT / "fixtures" / "UYY5"  # the real 0.34.0 manual run (harvest:codex@0.34.0)
DESCRIBED = "0.2.0-alpha.2-1673-gb519267d"


def write(tmp_path: Path, records: list[Any]) -> Path:
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def rec(kind: str, payload: Any, **outer: Any) -> dict[str, Any]:
    return {"timestamp": "2025-12-06T10:00:00.000Z", **outer, "type": kind, "payload": payload}


def header(version: Any = DESCRIBED, **extra: Any) -> dict[str, Any]:
    payload = {"id": "019af2c1-0000-7000-8000-000000000001", "originator": "codex_cli_rs"}
    if version is not None:
        payload["cli_version"] = version
    return rec("session_meta", payload | extra)


# What 0.34.0 already wrote: no mark (CDX-8's "not marks").
OLD_TURN = [
    rec("response_item", {"type": "message", "role": "user", "content": []}),
    rec("event_msg", {"type": "user_message", "message": "fix it"}),
    rec("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": "c"}),
    rec("response_item", {"type": "custom_tool_call_output", "call_id": "c", "output": "ok"}),
    rec("event_msg", {"type": "token_count", "info": None}),
    rec("event_msg", {"type": "task_complete", "last_agent_message": "done"}),
]
GHOST = rec("response_item", {"type": "ghost_snapshot", "ghost_commit": {"id": "a" * 40}})
TURN_CONTEXT = rec("turn_context", {"cwd": "/p", "model": "gpt-5-codex"})
COMPACTED = rec("compacted", {"message": "summary"})


def measured(path: Path) -> int:
    """The count of both paths, which must agree (the fast path is the readable one's twin)."""
    fast = count_path(path)
    readable = count_path(path, readable=True)
    assert isinstance(fast, RecordCount) and isinstance(readable, RecordCount)
    assert fast.reboots == readable.reboots
    return fast.reboots


def unmeasurable(path: Path) -> bool:
    outcomes = []
    for readable in (False, True):
        try:
            count_path(path, readable=readable)
            outcomes.append(False)
        except Rejection as rejection:
            assert (rejection.code, rejection.line) == ("E-UNMEASURABLE", 0)
            outcomes.append(True)
    assert outcomes[0] == outcomes[1]
    return outcomes[0]


def test_a_modern_rollout_stamped_with_a_git_describe_counts_zero(tmp_path: Path) -> None:
    records = [header(), TURN_CONTEXT, *OLD_TURN[:2], GHOST, *OLD_TURN[2:]]
    assert measured(write(tmp_path, records)) == 0


def test_a_modern_rollout_stamped_with_a_git_describe_counts_its_compactions(
    tmp_path: Path,
) -> None:
    records = [header(), TURN_CONTEXT, *OLD_TURN, COMPACTED, TURN_CONTEXT, *OLD_TURN, COMPACTED]
    assert measured(write(tmp_path, records)) == 2


def test_the_real_034_rollout_is_still_unmeasurable(tmp_path: Path) -> None:
    rollout = REAL_034 / "session.jsonl"
    copy = tmp_path / rollout.name
    shutil.copyfile(rollout, copy)
    assert unmeasurable(copy)
    err = io.StringIO()
    assert main(["count", str(copy)], io.StringIO(), err) == 1
    assert f"{copy}:0: E-UNMEASURABLE:" in err.getvalue()


@pytest.mark.parametrize("version", ["0.34.0", "0.30.0", "0.1.2505172129", None])
def test_an_old_release_without_marks_is_unmeasurable(tmp_path: Path, version: Any) -> None:
    """Free-form tool calls and token counts are no mark: 0.34.0 wrote them (CDX-8)."""
    assert unmeasurable(write(tmp_path, [header(version), *OLD_TURN, *OLD_TURN]))


MARKS = {
    "turn_context": [TURN_CONTEXT],
    "world_state": [rec("world_state", {})],
    "token_usage_record": [rec("token_usage_record", {})],
    "ghost_snapshot": [GHOST],
    "context_compacted": [rec("event_msg", {"type": "context_compacted"})],
    "thread_rolled_back": [rec("event_msg", {"type": "thread_rolled_back", "num_turns": 1})],
    "ordinal": [rec("event_msg", {"type": "task_started"}, ordinal=1)],
}


@pytest.mark.parametrize("mark", sorted(MARKS))
def test_one_mark_makes_an_old_release_measurable(tmp_path: Path, mark: str) -> None:
    records = [header("0.34.0"), *OLD_TURN, *MARKS[mark]]
    assert measured(write(tmp_path, records)) == 0


@pytest.mark.parametrize(
    "member", ["forked_from_id", "history_base", "subagent_history_start_ordinal"]
)
def test_a_later_session_meta_member_is_a_mark(tmp_path: Path, member: str) -> None:
    records = [header("0.34.0", **{member: 7}), *OLD_TURN]
    assert measured(write(tmp_path, records)) == 0


def test_a_mark_in_a_copied_header_is_no_mark_of_this_file(tmp_path: Path) -> None:
    """Only the thread's own (first) session_meta speaks for the file's writer."""
    records = [header("0.34.0"), *OLD_TURN, header("0.34.0", forked_from_id="x"), *OLD_TURN]
    assert unmeasurable(write(tmp_path, records))


@pytest.mark.parametrize(
    "version",
    [
        DESCRIBED,
        "0.30.0-alpha.1",
        "0.42.0-alpha.3",
        "0.0.0",
        "0.0.0.dev",
        "0.34",
        "0.34.0.1",
        "v0.34.0",
        "0.34.0+deb1",
        " 0.34.0",
        "0.３4.0",
        34,
        ["0.34.0"],
    ],
)
def test_a_version_that_is_no_plain_release_says_nothing(tmp_path: Path, version: Any) -> None:
    assert measured(write(tmp_path, [header(version), *OLD_TURN])) == 0


def test_a_plain_release_of_the_recording_era_without_records_is_zero(tmp_path: Path) -> None:
    assert measured(write(tmp_path, [header("0.36.0"), *OLD_TURN])) == 0
