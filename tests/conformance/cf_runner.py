"""Helpers to run the plugin in a pytester subprocess against a tiny corpus."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import cf_kit as kit
import pytest

FAKE = Path(__file__).with_name("fake_candidate.py")


def corpus(
    tmp_path: Path, names: list[str] | None = None, *, pin: bool = True
) -> tuple[Path, Path, dict[str, str]]:
    """A corpus (and, if `pin`, its snapshots); returns (corpus, snapshots, name -> ID)."""
    root, snaps = tmp_path / "fixtures", tmp_path / "snaps"
    ids = kit.write_corpus(root, names)
    if pin:
        kit.write_snapshots(snaps, root)
    return root, snaps, ids


def fake(
    tmp_path: Path, behaviour: dict[str, dict[str, Any]], default: dict[str, Any] | None = None
) -> str:
    """A candidate command whose behaviour per kit session name is given by `behaviour`."""
    plan: dict[str, Any] = {}
    for name, step in behaviour.items():
        plan[hashlib.sha256(kit.SESSIONS[name][2]).hexdigest()] = step
    if default is not None:
        plan["*"] = default
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    return f"{sys.executable} {FAKE} {path}"


def right_answers(tmp_path: Path) -> dict[str, dict[str, Any]]:
    """The hand-written answers of every kit session, as fake-candidate steps."""
    steps: dict[str, dict[str, Any]] = {}
    for name, (_, _, _, expect) in kit.SESSIONS.items():
        steps[name] = (
            {"do": "count", "n": expect["reboots"]}
            if expect["outcome"] == "count"
            else {"do": "reject"}
        )
    return steps


def run(pytester: pytest.Pytester, root: Path, snaps: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "--conformance",
        "-p",
        "no:cacheprovider",
        # These runs have no property tests, and Hypothesis's plugin costs about 1.7 s a start
        # here (its terminal summary imports the whole package); `rebootspec run` leaves it out
        # too (conformance/suite/pytest.ini).
        "-p",
        "no:hypothesispytest",
        "--conformance-corpus",
        str(root),
        "--conformance-snapshots",
        str(snaps),
        *args,
    )


def report(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return data


def outcomes(data: dict[str, Any]) -> dict[str, str]:
    return {case["id"]: case["outcome"] for case in data["cases"]}
