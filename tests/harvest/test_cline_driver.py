"""The Cline CLI driver's own pieces, without npm: versions, plans, scrubbing, the SDK's events."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rebootspec.generators.harvest import cline_script
from rebootspec.generators.harvest.hosts import cline


def test_each_program_runs_its_own_scenarios_from_its_own_package() -> None:
    assert cline.supports("1.0.10", "smol") and cline.supports("2.18.0", "resume")
    assert not cline.supports("2.18.0", "smol")  # a resumed /smol never reached the model
    assert not cline.supports("2.18.0", "sdk-auto") and not cline.supports("3.0.65", "smol")
    assert cline.supports("3.0.65", "sdk-auto") and cline.supports("3.0.65", "sdk-failure")
    assert not cline.supports("0.8.2", "auto")
    assert (cline.package("2.18.0"), cline.package("3.0.65")) == ("cline", "@cline/cli-linux-x64")


def test_plans_push_the_turns_they_name_over_the_threshold() -> None:
    over = [t for t in cline.turns("auto-twice") if cline.OVER in t]
    assert len(over) == 2 and all(t.startswith(cline_script.TURN) for t in over)
    assert "/smol" in cline.turns("smol") and "ACCEPT" in cline.turns("smol")
    assert "ACCEPT" not in cline.turns("smol-feedback")
    assert any("fail the summary" in t for t in cline.turns("failure"))
    assert "RESUME" in cline.turns("resume")


def test_scrub_replaces_the_kernel_release_and_nothing_else(tmp_path: Path) -> None:
    release = os.uname().release
    meta = tmp_path / "task" / "task_metadata.json"
    meta.parent.mkdir()
    meta.write_text(json.dumps({"os_version": release, "host_name": "Cline CLI"}), "utf-8")
    (tmp_path / "task" / "ui_messages.json").write_text("[]", "utf-8")
    assert cline.scrub(tmp_path) == ["task_metadata.json"]
    assert json.loads(meta.read_text("utf-8")) == {
        "os_version": cline.GENERIC_RELEASE,
        "host_name": "Cline CLI",
    }


def test_the_sdk_events_keep_the_compactions_and_drop_the_telemetry_ids() -> None:
    event = {
        "time": "2026-11-27T21:01:28.340Z",
        "event": "task.compaction_executed",
        "properties": {"ulid": "s1", "strategy": "agentic", "mode": "auto", "distinct_id": "d"},
    }
    other = {"event": "task.tokens", "properties": {"ulid": "s1"}}
    log = "\n".join([json.dumps(other), json.dumps(event), "not json", json.dumps(event)])
    kept = [json.loads(line) for line in cline.compaction_events(log)]
    assert len(kept) == 2
    assert kept[0]["ulid"] == "s1" and kept[0]["strategy"] == "agentic"
    assert "distinct_id" not in json.dumps(kept)
