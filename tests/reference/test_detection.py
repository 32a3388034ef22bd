"""HST-2 claims by marks, HST-4 for the rest: every row is asked, and a file that no row's marks
fit, or two rows' marks fit, is E-HOST whose line names what the nearest rows missed.

The first values below are written the way each host's own program writes its first record
(the chapters' CLC-1, CDX-1, PIA-1, GEM-1, CPL-1, RPL-3, LEG-1); each test then takes one mark
away and expects the host to let the file go. The corpus test at the end holds every case of
the corpus to the host its case.toml names (a person's or a plan's word, never the reference's).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rebootspec.reference import Rejection
from rebootspec.reference.core import registry
from rebootspec.reference.core.host import Host
from rebootspec.reference.core.peek import PEEK, prefix_view
from rebootspec.reference.core.registry import detect

ROOT = Path(__file__).resolve().parents[2]

CLAUDE = {
    "parentUuid": None,
    "isSidechain": False,
    "userType": "external",
    "cwd": "/home/dev/project",
    "sessionId": "5f0c3a52-7d1e-4e8b-9a43-2b6f1c9d0e71",
    "version": "2.1.39",
    "gitBranch": "main",
    "type": "user",
    "message": {"role": "user", "content": "fix the parser"},
    "uuid": "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
    "timestamp": "2026-02-10T09:00:00.000Z",
}
QWEN = {  # Qwen Code 0.5+: Claude Code's threading, Gemini's Content, no userType
    "uuid": "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
    "parentUuid": None,
    "sessionId": "5f0c3a52-7d1e-4e8b-9a43-2b6f1c9d0e71",
    "timestamp": "2026-11-20T10:00:00.000Z",
    "type": "user",
    "cwd": "/home/dev/project",
    "version": "0.15.10",
    "gitBranch": "main",
    "message": {"role": "user", "parts": [{"text": "fix the parser"}]},
}
CODEX = {"timestamp": "2026-03-01T10:00:00.000Z", "type": "session_meta", "payload": {"id": "x"}}
CODEX_C0 = {"id": "x", "timestamp": "2025-08-01T00:00:00Z", "instructions": None, "git": {}}
PI = {"type": "session", "version": 3, "id": "x", "timestamp": "t", "cwd": "/home/dev/project"}
GEMINI = {"sessionId": "s", "projectHash": "ab" * 32, "startTime": "t", "lastUpdated": "t"}
COPILOT = {
    "type": "session.start",
    "data": {
        "sessionId": "s",
        "version": 1,
        "producer": "copilot-agent",
        "copilotVersion": "1.0.102",
    },
    "id": "d0f5212e-3d7e-434e-98b2-f3b28f6e71a0",
    "timestamp": "2026-11-20T09:03:40.189Z",
    "parentId": None,
}
VSCODE = {"kind": 0, "v": {"version": 3, "sessionId": "s", "requests": []}}


def lines(tmp_path: Path, *values: Any, name: str = "session.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(json.dumps(v).encode() + b"\n" for v in values))
    return path


def document(tmp_path: Path, value: Any, name: str = "session.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=2))
    return path


def rejected(path: Path) -> str:
    """The E-HOST line's reason (failing when the file is not E-HOST at line 0)."""
    with pytest.raises(Rejection) as caught:
        detect(path)
    assert (caught.value.code, caught.value.line) == ("E-HOST", 0), caught.value.reason
    return caught.value.reason


@pytest.mark.parametrize(
    ("first", "host"),
    [
        (CLAUDE, "claude-code"),
        (CODEX, "codex"),
        (CODEX_C0, "codex"),
        (PI, "pi"),
        (GEMINI, "gemini-cli"),
        ({**GEMINI, "kind": "main"}, "gemini-cli"),
        (COPILOT, "copilot-cli"),
        (VSCODE, "vscode"),
    ],
)
def test_each_hosts_first_record_carries_its_marks(tmp_path: Path, first: Any, host: str) -> None:
    assert detect(lines(tmp_path, first)).key == host


@pytest.mark.parametrize(
    ("first", "nearest"),
    [
        pytest.param(
            {**CLAUDE, "userType": None}, "claude-code (no string `userType`", id="claude"
        ),
        pytest.param({**CODEX, "source": "cli"}, "codex (members outside the envelope", id="codex"),
        pytest.param(
            {**CODEX_C0, "model": "gpt"}, "codex (members outside the C0 header", id="codex-c0"
        ),
        pytest.param({**PI, "id": None}, "pi (no string `id`", id="pi"),
        pytest.param(
            {**COPILOT, "data": {"sessionId": "s"}}, "copilot-cli (`data.producer`", id="copilot"
        ),
        pytest.param(
            {**COPILOT, "type": "session.resume"},
            "copilot-cli (`session.start` is not first",
            id="resume",
        ),
        pytest.param({"kind": "0", "v": {}}, "vscode (`kind` is not a number", id="vscode"),
    ],
)
def test_a_record_without_its_hosts_marks_is_e_host_naming_the_nearest(
    tmp_path: Path, first: dict[str, Any], nearest: str
) -> None:
    """HST-4: the reason says which known host the file came nearest and what it lacked."""
    reason = rejected(lines(tmp_path, first))
    assert reason.startswith("not a session of a known host (vscode, codex, pi, ")
    assert f"nearest: {nearest}" in reason or f", {nearest}" in reason


def test_two_rows_that_fit_are_e_host_naming_both(tmp_path: Path) -> None:
    """HST-2 asks every row: a value with Gemini CLI's metadata and VS Code's number `kind` fits
    both, and neither is chosen by order."""
    reason = rejected(lines(tmp_path, {**GEMINI, "kind": 0}))
    assert "more than one host fit: gemini-cli and vscode" in reason


def test_every_row_is_asked_not_the_first_that_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row added last that also fits a Claude Code record takes nothing away silently: the
    file becomes E-HOST naming both, whatever the ranks say."""

    class Greedy(Host):
        key = "greedy"
        rank = 99

        def claims_value(self, value: dict[str, Any]) -> bool:
            return "uuid" in value

    monkeypatch.setattr(registry, "_HOSTS", (*registry.hosts(), Greedy()))
    assert "claude-code and greedy" in rejected(lines(tmp_path, CLAUDE))


# .json documents (LEG-1, GEM-1) ---------------------------------------------------------------

FLAT = {
    "version": 3,
    "requesterUsername": "dev",
    "responderUsername": "GitHub Copilot",
    "requests": [],
}
EXPORT = {"responderUsername": "GitHub Copilot", "initialLocation": "panel", "requests": []}
J0 = {
    **GEMINI,
    "messages": [
        {"id": "u1", "timestamp": "t", "type": "user", "content": [{"text": "fix it"}]},
        {
            "id": "g1",
            "timestamp": "t",
            "type": "gemini",
            "content": "done",
            "model": "gemini-2.5-pro",
        },
    ],
}


@pytest.mark.parametrize(
    ("value", "host"),
    [
        (FLAT, "vscode"),
        ({"sessionId": "s", "requests": []}, "vscode"),
        ({"version": 1, "requests": []}, "vscode"),
        (EXPORT, "vscode"),
        (J0, "gemini-cli"),
    ],
)
def test_a_json_document_of_a_hosts_shape(tmp_path: Path, value: Any, host: str) -> None:
    assert detect(document(tmp_path, value)).key == host


@pytest.mark.parametrize(
    ("value", "nearest"),
    [
        pytest.param(
            {"version": 1, "sessionId": "s", "messages": [], "system_prompt": "p"},
            "vscode (no array `requests`",
            id="cline-sdk-messages",
        ),
        pytest.param(
            {"requests": [], "requesterUsername": "dev"}, "vscode (no number", id="requests"
        ),
    ],
)
def test_a_json_document_of_no_hosts_shape_is_e_host(
    tmp_path: Path, value: Any, nearest: str | None
) -> None:
    """LEG-1, HST-4: any `.json` is no longer VS Code's; a document without a row's marks is no
    known host's, and never gets a VS Code error."""
    reason = rejected(document(tmp_path, value))
    assert (
        (f"nearest: {nearest}" in reason or f", {nearest}" in reason)
        if nearest
        else "array" in reason
    )


@pytest.mark.parametrize(
    ("data", "code", "line"),
    [
        (b"", "E-EMPTY", 0),
        (b'{"version": 1, "sessionId": "s", "x": NaN, "requests": []}', "E-JSON", 1),
        (b'{"sessionId": "s", "projectHash": "p", "messages": [', "E-JSON", 1),
        (b"[" * 2000 + b"]" * 2000, "E-LIMIT", 1),
    ],
)
def test_a_json_that_is_no_json_keeps_vscodes_rejection(
    tmp_path: Path, data: bytes, code: str, line: int
) -> None:
    """HST-2's last row: a `.json` whose prefix shows it is no JSON document is rejected by VS
    Code's rules with the code and line spec 2.0 gave (ERR-1, ERR-3, ERR-8), whatever its
    members look like."""
    from rebootspec.reference import count_path

    path = tmp_path / "session.json"
    path.write_bytes(data)
    with pytest.raises(Rejection) as caught:
        count_path(path)
    assert (caught.value.code, caught.value.line) == (code, line)


def test_a_json_session_past_the_peek_is_judged_by_what_the_prefix_shows(tmp_path: Path) -> None:
    """HST-2: a VS Code session of many megabytes is VS Code's from its first 64 KiB; a
    document whose marks lie past them is no known host's."""
    big = [{"requestId": f"r{i}", "message": {"text": "x" * 200}} for i in range(2000)]
    assert detect(document(tmp_path, {**FLAT, "requests": big})).key == "vscode"
    late = {"requests": big, "sessionId": "s"}  # VS Code writes `version` and names first
    assert "nearest: vscode" in rejected(document(tmp_path, late, name="late.json"))


def test_the_prefix_view_opens_two_levels_and_stops_at_the_cut() -> None:
    text = json.dumps({"a": 1, "messages": [{"type": "user"}, {"type": "gemini", "x": "y" * 99}]})
    view = prefix_view(text[: text.index('"x"') + 3].encode(), whole=False)
    assert view.state == "partial"
    assert view.value == {"a": 1, "messages": [{"type": "user"}, {"type": "gemini"}]}
    assert prefix_view(b'{"a": 1} x', whole=False).state == "broken"
    assert prefix_view(b'{"a": 1}  ', whole=False).state == "whole"
    assert prefix_view(b"  \n", whole=True).state == "empty"
    assert len(b"x" * PEEK) == PEEK


# The corpus: no case changes host -------------------------------------------------------------

# The codes of HST-2's last row: a file that is no host's JSON at all is rejected by VS Code's
# rules (ERR-1, ERR-3, ERR-4, ERR-8, ERR-12).
FALLBACK_CODES = {"E-EMPTY", "E-JSON", "E-ENTRY", "E-LIMIT", "E-READ"}


def corpus() -> list[tuple[str, Path, str, dict[str, Any]]]:
    found = []
    for meta in sorted((ROOT / "fixtures").glob("*/case.toml")):
        case = tomllib.loads(meta.read_text("utf-8"))
        if "input" in case:
            path = meta.parent / "input" / case["input"]
        elif case["container"] in ("json", "jsonl"):
            path = meta.parent / f"session.{case['container']}"
        else:
            path = meta.parent / "input"
        found.append((case["id"], path, case.get("host", "vscode"), case["expect"]))
    return found


@pytest.mark.parametrize(("case_id", "path", "host", "expect"), corpus(), ids=lambda v: str(v)[:20])
def test_every_corpus_case_is_detected_as_its_host(
    case_id: str, path: Path, host: str, expect: dict[str, Any]
) -> None:
    """The host the case names (its plan's or its author's) is the one detection picks; a case
    expecting E-HOST is no known host's; a rejection of HST-2's last row may come from VS Code's
    rules (an empty file, a file that is no JSON)."""
    if expect.get("error") == "E-HOST":
        try:
            found = detect(path).key
        except Rejection as rejection:
            assert rejection.code == "E-HOST"
            return
        assert found == host  # a reader that rejects what detection let through (BCL-1, OPC-1)
        return
    try:
        found = detect(path).key
    except Rejection as rejection:
        raise AssertionError(f"{case_id}: {rejection.code} {rejection.reason}") from None
    if found != host:
        assert found == registry.fallback().key and expect.get("error") in FALLBACK_CODES, (
            f"{case_id}: {host} case detected as {found}"
        )


def test_a_record_hosts_file_is_told_without_the_json_prefix_reader(tmp_path: Path) -> None:
    """Detection runs on every count: a record host's file is told from its first value, and
    the `.json` rows' prefix view (a parse of up to 64 KiB) is never computed for it."""
    path = lines(tmp_path, CLAUDE)
    probe = (
        "import sys; from rebootspec.reference.core import peek;"
        "from rebootspec.reference.core.registry import detect;"
        "print(detect(sys.argv[1]).key, peek._last is None, peek._DECODER is None)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["claude-code", "True", "True"], done.stderr
