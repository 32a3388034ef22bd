"""Tiny hand-written corpora for the runner's own tests (the real corpus is written elsewhere).

Each session here is small enough to check by eye; the expected counts are stated by hand
from the spec's rules, never computed by a counter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

MARKER = {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}


def request(*, marker: bool = True, summary: str | None = None, rid: str = "r1") -> dict[str, Any]:
    """A request with (optionally) a completed marker and a singular summary."""
    req: dict[str, Any] = {"requestId": rid, "message": {"text": "hi"}, "response": []}
    if marker:
        req["response"].append(MARKER)
    if summary is not None:
        req["result"] = {"metadata": {"summary": {"toolCallRoundId": "t", "text": summary}}}
    return req


def line(entry: dict[str, Any]) -> bytes:
    return orjson.dumps(entry) + b"\n"


def initial(*requests: dict[str, Any]) -> bytes:
    return line({"kind": 0, "v": {"version": 3, "requests": list(requests)}})


# name -> (tags, container, bytes, expect): counts by hand from CNT-2 / SUM-4 / ERR-1.
SESSIONS: dict[str, tuple[list[str], str, bytes, dict[str, Any]]] = {
    "snapshot": (
        ["initial-only", "singular-summary"],
        "jsonl",
        initial(request(summary="A")),
        {"outcome": "count", "reboots": 1},
    ),
    "push": (
        ["push-append", "singular-summary"],
        "jsonl",
        initial(request(summary="A"))
        + line({"kind": 2, "k": ["requests"], "v": [request(summary="B", rid="r2")]}),
        {"outcome": "count", "reboots": 2},
    ),
    "phantom": (
        ["initial-only", "phantom"],
        "jsonl",
        initial(request()),
        {"outcome": "count", "reboots": 0},
    ),
    "reject": (["rejection"], "jsonl", b"", {"outcome": "reject", "error": "E-EMPTY", "line": 0}),
    "legacy": (
        ["legacy-json", "singular-summary"],
        "json",
        json.dumps({"version": 3, "requests": [request(summary="A")]}).encode(),
        {"outcome": "count", "reboots": 1},
    ),
    "aba": (
        ["aba", "initial-only", "singular-summary"],
        "jsonl",
        initial(
            request(summary="A"), request(summary="B", rid="r2"), request(summary="A", rid="r3")
        ),
        {"outcome": "count", "reboots": 3},
    ),
}

IDS = {
    "snapshot": "SNAP",
    "push": "PUSH",
    "phantom": "PHAN",
    "reject": "REJX",
    "legacy": "LEGA",
    "aba": "ABA3",
}


def write_case(
    root: Path, case_id: str, tags: list[str], container: str, data: bytes, expect: dict[str, Any]
) -> Path:
    folder = root / case_id
    folder.mkdir(parents=True)
    (folder / f"session.{container}").write_bytes(data)
    expect_lines = [f'outcome = "{expect["outcome"]}"']
    for key in ("reboots", "line"):
        if key in expect:
            expect_lines.append(f"{key} = {expect[key]}")
    if "error" in expect:
        expect_lines.append(f'error = "{expect["error"]}"')
    (folder / "case.toml").write_text(
        "\n".join(
            [
                f'id = "{case_id}"',
                f'title = "hand-written runner test case {case_id}"',
                'rules = ["CNT-2"]',
                f"tags = {json.dumps(tags)}",
                'era = "compacted"',
                f'container = "{container}"',
                'provenance = "author:conformance-tests"',
                "",
                "[expect]",
                *expect_lines,
                "",
            ]
        ),
        encoding="utf-8",
    )
    return folder


def write_corpus(root: Path, names: list[str] | None = None) -> dict[str, str]:
    """Write the named sessions (default: all) as cases; returns name -> case ID."""
    chosen = names or list(SESSIONS)
    for name in chosen:
        tags, container, data, expect = SESSIONS[name]
        write_case(root, IDS[name], tags, container, data, expect)
    return {name: IDS[name] for name in chosen}


def write_snapshots(root: Path, corpus: Path) -> None:
    """Pin every case of `corpus` by hand (what --snapshot-update would write from case.toml)."""
    import tomllib

    folder = root / "test_expectations"
    folder.mkdir(parents=True, exist_ok=True)
    for meta in sorted(corpus.glob("*/case.toml")):
        case = tomllib.loads(meta.read_text(encoding="utf-8"))
        expect = case["expect"]
        pinned = (
            {"outcome": "count", "reboots": expect["reboots"]}
            if expect["outcome"] == "count"
            else {"outcome": "reject"}
        )
        (folder / f"test_expectation[{case['id']}].json").write_text(
            json.dumps(pinned, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
