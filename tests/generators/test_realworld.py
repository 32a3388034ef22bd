"""Real-log fixtures (spec/FIXTURES.md, "Real logs"): the reduction step and the full-file count.

The full originals are not in the repository: each case's `[source]` says where to fetch one
(repository, path, commit) and its sha256. Point REBOOTSPEC_REALWORLD at a directory holding the
originals and a `LICENSE-<owner>-<repo>` per source to run the tests that compare against them;
without that directory those tests are skipped (reason: the directory is absent), and the checks
on the committed fixtures alone still run. A case's expectation is the count a person derived by
hand (its `notes`); the reference is only the thing being checked.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.corpus.realworld import THRESHOLD, cli, reduce_export
from rebootspec.reference import count_path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
# The originals sit in ../shared beside the project root (the project's shared research folder).
SHARED = ROOT.parent / "shared"
REALWORLD = Path(os.environ.get("REBOOTSPEC_REALWORLD", str(SHARED / "realworld")))
ALL_CASES = sorted(p for p in FIXTURES.glob("realworld-*") if (p / "case.toml").is_file())
BYTE_EXACT = "none: byte-exact"
# Spec 3.0: real rollouts and sessions of the other hosts (HST-1) are kept byte-exact beside
# the VS Code exports; the reduction and the export checks below are VS Code's.
HOSTS = Path(os.environ.get("REBOOTSPEC_REALWORLD_HOSTS", str(SHARED / "realworld-hosts")))


def host_of(case: Path) -> str:
    with (case / "case.toml").open("rb") as handle:
        return str(tomllib.load(handle).get("host", "vscode"))


CASES = [case for case in ALL_CASES if host_of(case) == "vscode"]
HOST_CASES = [case for case in ALL_CASES if host_of(case) != "vscode"]
ORIGINALS = sorted(REALWORLD.glob("*.json")) if REALWORLD.is_dir() else []

needs_originals = pytest.mark.skipif(not REALWORLD.is_dir(), reason=f"{REALWORLD} is absent")


def meta(case: Path) -> dict[str, Any]:
    with (case / "case.toml").open("rb") as handle:
        return tomllib.load(handle)


def original(case: Path) -> Path:
    """The original export of a case, found by the sha256 its `[source]` records."""
    wanted = meta(case)["source"]["sha256"]
    for path in ORIGINALS:
        if hashlib.sha256(path.read_bytes()).hexdigest() == wanted:
            return path
    raise AssertionError(f"no file in {REALWORLD} has the sha256 {wanted} of {case.name}")


def threshold_of(reduction: str, case: Path) -> float:
    """The threshold of the documented command (which must write this case's session.json)."""
    words = shlex.split(reduction)
    assert words[:4] == ["python", "-m", "rebootspec.generators.corpus.realworld", "reduce"], (
        reduction
    )
    assert words[5] == f"fixtures/{case.name}/session.json", reduction
    rest = words[6:]
    if not rest:
        return THRESHOLD
    assert rest[0] == "--threshold" and len(rest) == 2, reduction
    return float(rest[1])


def read_members(data: bytes) -> dict[str, Any]:
    """Every member a counter reads (spec 2.0: walk, flags, events, markers, /compact, errors)."""
    document = json.loads(data)
    top = {key: value for key, value in document.items() if key != "requests"}
    requests = []
    for request in document.get("requests", []):
        if not isinstance(request, dict):
            requests.append(("not an object", request))
            continue
        read = {
            key: request.get(key, "<absent>")
            for key in (
                "requestId",
                "responseId",
                "message",
                "slashCommand",
                "modelState",
                "isCanceled",
                "shouldBeRemovedOnSend",
                "isHidden",
            )
        }
        parts = request.get("response")
        read["parts"] = (
            [
                (part.get("kind", "<absent>"), part.get("content", "<absent>"))
                if isinstance(part, dict)
                else ("not an object", part)
                for part in parts
            ]
            if isinstance(parts, list)
            else parts
        )
        result = request.get("result", "<absent>")
        if isinstance(result, dict):
            read["errorDetails"] = result.get("errorDetails", "<absent>")
            metadata = result.get("metadata", "<absent>")
            if isinstance(metadata, dict):
                read["summary"] = metadata.get("summary", "<absent>")
                read["summaries"] = metadata.get("summaries", "<absent>")
                rounds = metadata.get("toolCallRounds", "<absent>")
                read["rounds"] = (
                    [
                        {key: item.get(key, "<absent>") for key in ("id", "summary", "compaction")}
                        if isinstance(item, dict)
                        else ("not an object", item)
                        for item in rounds
                    ]
                    if isinstance(rounds, list)
                    else rounds
                )
            else:
                read["metadata"] = metadata
        else:
            read["result"] = result
        requests.append(read)
    return {"top": top, "requests": requests}


def test_there_are_five_real_exports_and_three_logs_of_other_hosts() -> None:
    assert [case.name for case in CASES] == [
        "realworld-abusyahmie-nrf52dk",
        "realworld-epics-p47",
        "realworld-oocx-027",
        "realworld-oocx-043",
        "realworld-oocx-website-chat1",
    ]
    assert [(case.name, host_of(case)) for case in HOST_CASES] == [
        ("realworld-claude-code-spotter", "claude-code"),
        ("realworld-codex-localpush", "codex"),
        ("realworld-pi-mono-session", "pi"),
    ]


@pytest.mark.parametrize("case", HOST_CASES, ids=[p.name for p in HOST_CASES])
def test_a_real_log_of_another_host_is_byte_exact_with_its_licence_and_reading(
    case: Path,
) -> None:
    data = meta(case)
    assert data["id"] == case.name
    assert data["container"] == "jsonl"
    assert "realworld" in data["tags"]
    assert sorted(p.name for p in case.iterdir()) == ["LICENSE", "case.toml", "session.jsonl"]
    source = data["source"]
    assert "copilot" not in source and source["host_version"]
    assert source["reduction"] == BYTE_EXACT
    where = f"{source['repo']}/{source['path']}@{source['commit']}"
    assert data["provenance"] == f"realworld:{where}"
    session = (case / "session.jsonl").read_bytes()
    assert len(session) == source["size"]
    assert hashlib.sha256(session).hexdigest() == source["sha256"]
    blob = hashlib.sha1(b"blob %d\0" % len(session) + session).hexdigest()
    assert blob == source["blob"]
    assert data["expect"]["outcome"] == "count"
    assert f"Count: {data['expect']['reboots']}" in data["notes"]


@pytest.mark.skipif(not HOSTS.is_dir(), reason=f"{HOSTS} is absent")
@pytest.mark.parametrize("case", HOST_CASES, ids=[p.name for p in HOST_CASES])
def test_a_real_log_of_another_host_is_the_original_and_its_licence(case: Path) -> None:
    wanted = meta(case)["source"]["sha256"]
    originals = [p for p in HOSTS.rglob("*.jsonl") if p.is_file()]
    found = [p for p in originals if hashlib.sha256(p.read_bytes()).hexdigest() == wanted]
    assert found, f"no file under {HOSTS} has the sha256 of {case.name}"
    licences = {p.read_bytes() for p in found[0].parent.iterdir() if p.suffix != ".jsonl"}
    assert (case / "LICENSE").read_bytes() in licences


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_a_case_is_a_small_export_with_its_licence_and_derivation(case: Path) -> None:
    data = meta(case)
    assert data["id"] == case.name
    assert data["container"] == "json"
    assert {"realworld", "export"} <= set(data["tags"])
    assert sorted(p.name for p in case.iterdir()) == ["LICENSE", "case.toml", "session.json"]
    session = (case / "session.json").read_bytes()
    assert len(session) < 1_000_000
    document = json.loads(session)
    assert isinstance(document["requests"], list)
    assert isinstance(document["responderUsername"], str)
    assert "version" not in document and "sessionId" not in document
    source = data["source"]
    where = f"{source['repo']}/{source['path']}@{source['commit']}"
    assert data["provenance"] == f"realworld:{where}"
    assert f"Spec 2.0 count: {data['expect']['reboots']}." in data["notes"]
    if source["reduction"] == BYTE_EXACT:
        assert len(session) == source["size"]
        assert hashlib.sha256(session).hexdigest() == source["sha256"]
    else:
        threshold_of(source["reduction"], case)


@needs_originals
@pytest.mark.parametrize("path", ORIGINALS, ids=[p.name for p in ORIGINALS])
def test_an_infinite_threshold_gives_back_the_original_bytes(path: Path) -> None:
    data = path.read_bytes()
    assert reduce_export(data, math.inf) == data


@needs_originals
@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_the_fixture_is_the_documented_reduction_of_the_original(case: Path) -> None:
    source = meta(case)["source"]
    data = original(case).read_bytes()
    assert hashlib.sha256(data).hexdigest() == source["sha256"]
    assert len(data) == source["size"]
    session = (case / "session.json").read_bytes()
    if source["reduction"] == BYTE_EXACT:
        assert session == data
    else:
        assert session == reduce_export(data, threshold_of(source["reduction"], case))
    owner, repo = source["repo"].split("/")
    licence = REALWORLD / f"LICENSE-{owner}-{repo}"
    assert (case / "LICENSE").read_bytes() == licence.read_bytes()


@needs_originals
@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_every_member_a_counter_reads_is_unchanged(case: Path) -> None:
    full = read_members(original(case).read_bytes())
    assert read_members((case / "session.json").read_bytes()) == full
    assert len(full["requests"]) > 0


@needs_originals
@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_the_reference_gives_the_hand_count_on_the_full_file(case: Path) -> None:
    expect = meta(case)["expect"]
    assert expect["outcome"] == "count"
    assert count_path(original(case)).reboots == expect["reboots"]


def _export(**request: Any) -> dict[str, Any]:
    return {
        "responderUsername": "GitHub Copilot",
        "initialLocation": "panel",
        "requests": [request],
    }


def test_only_long_unread_values_are_shortened() -> None:
    long = "x" * 1500
    document = _export(
        requestId="request_1",
        message={"text": long},
        response=[
            {
                "kind": "progressTaskSerialized",
                "content": {"value": "Summarized conversation history"},
            },
            {"value": long},
            {"kind": "toolInvocationSerialized", "toolSpecificData": {"output": ["y" * 600] * 2}},
        ],
        result={
            "errorDetails": {"message": long},
            "metadata": {
                "summary": {"toolCallRoundId": "r1", "text": long},
                "toolCallRounds": [{"id": "r1", "summary": long, "thinking": {"text": long}}],
                "toolCallResults": {"call": {"content": [long]}},
                "short": "kept",
            },
        },
    )
    reduced = json.loads(reduce_export(json.dumps(document, indent=2).encode()))
    request = reduced["requests"][0]
    assert request["message"] == {"text": long}
    assert request["response"][0] == document["requests"][0]["response"][0]
    assert request["response"][1]["value"] == "x" * 200 + " [rebootspec: reduced, 1500 chars]"
    tool_data = request["response"][2]["toolSpecificData"]
    assert isinstance(tool_data, str) and tool_data.startswith('{"output":["yyy')
    assert tool_data.endswith(" [rebootspec: reduced, 1218 chars]")
    result = request["result"]
    assert result["errorDetails"] == {"message": long}
    assert result["metadata"]["summary"] == {"toolCallRoundId": "r1", "text": long}
    assert result["metadata"]["toolCallRounds"][0]["summary"] == long
    assert result["metadata"]["toolCallRounds"][0]["thinking"].endswith("1511 chars]")
    assert result["metadata"]["toolCallResults"].endswith("chars]")
    assert result["metadata"]["short"] == "kept"


def test_the_output_is_written_as_json_stringify_writes_it() -> None:
    text = (
        '{\n  "requests": [\n    {\n      "a": 1.0,\n      "b": 1e-7,\n      "c": [],\n'
        '      "d": {},\n      "e": "\\ud800 \\u0001 \\t é \\" \\\\ /",\n      "f": null,\n'
        '      "g": [\n        true,\n        false\n      ]\n    }\n  ]\n}\n\n'
    )
    data = text.encode()
    assert reduce_export(data, math.inf) == data
    assert reduce_export(data) == data


def test_the_command_line_writes_the_reduction(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_bytes(json.dumps(_export(requestId="r", note="z" * 5000), indent=2).encode())
    out = tmp_path / "out.json"
    assert cli(["reduce", str(source), str(out)]) == 0
    assert out.read_bytes() == reduce_export(source.read_bytes())
    assert cli(["reduce", str(source), str(out), "--threshold", "inf"]) == 0
    assert out.read_bytes() == source.read_bytes()
