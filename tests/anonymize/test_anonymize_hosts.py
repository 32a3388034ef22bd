"""`rebootspec anonymize` on every host (issue #33): real and harvested inputs, planted secrets.

The expected counts come from the cases' `case.toml` (a person's hand count for the real logs,
the harvest's server log, a generator's plan), never from the reference run on the original;
the secrets are planted by the test, in message texts, summaries, tool output, paths and keys,
and must be found nowhere in what `anonymize` wrote (bytes and file names alike).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebootspec.conformance.commands.contribute import anonymize
from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Rejection

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared" / "realworld-hosts"
SECRET = "Zq7SECRETplantedXw9"
HEX = ["--secret-hex", "00ff"]


def meta_of(case: Path) -> dict[str, Any]:
    with (case / "case.toml").open("rb") as handle:
        return tomllib.load(handle)


def real_cases() -> list[Path]:
    """Every fixture whose input a host wrote (provenance realworld or harvest)."""
    return sorted(
        p.parent
        for p in FIXTURES.glob("*/case.toml")
        if meta_of(p.parent)["provenance"].split(":")[0] in ("realworld", "harvest")
    )


REAL = real_cases()


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = anonymize(argv)
    return code, out.getvalue(), err.getvalue()


def outcome(path: Path, session: str | None) -> dict[str, Any]:
    try:
        return {"outcome": "count", "reboots": count_path(path, session=session).reboots}
    except Rejection as rejection:
        return {"outcome": "reject", "error": rejection.code, "line": rejection.line}


def copy_input(case: Path, tmp_path: Path) -> tuple[Path, str | None, dict[str, Any]]:
    """The case's input copied into `tmp_path` (the original stays read-only in the corpus)."""
    meta = meta_of(case)
    if (case / "input").is_dir():
        shutil.copytree(case / "input", tmp_path / "input")
        return tmp_path / "input" / meta["input"], meta.get("session"), meta
    (session,) = case.glob("session.*")
    target = tmp_path / session.name
    shutil.copyfile(session, target)
    return target, None, meta


def output_for(source: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    if source.is_dir() or source.suffix == ".db":
        return out / "store"
    return out / f"anonymized{source.suffix}"


def written(stdout: str) -> Path:
    """The file `anonymize` says it wrote (`wrote PATH: ...`)."""
    (line,) = [row for row in stdout.splitlines() if row.startswith("wrote ")]
    return Path(line.removeprefix("wrote ").split(": ")[0])


def new_session(stdout: str) -> str | None:
    for row in stdout.splitlines():
        if row.startswith("session: "):
            return row.split()[1]
    return None


def every_file(folder: Path) -> Iterator[tuple[str, bytes]]:
    for path in sorted(folder.rglob("*")):
        yield str(path.relative_to(folder)), str(path.relative_to(folder)).encode()
        if path.is_file():
            yield str(path), path.read_bytes()


def skeleton(path: Path) -> list[Any]:
    """What a person calls the structure: per record, its member names and its type, subtype
    and role; per markdown line, its label; per store, its files' or rows' records."""
    if path.is_dir():
        shapes = [_shape(json.loads(p.read_bytes())) for p in path.rglob("*.json")]
        try:
            return sorted(shapes)
        except TypeError:  # a Cline task folder mixes array files and object files
            return sorted(shapes, key=repr)
    if path.suffix == ".md":
        return [_label(row) for row in _lines(path)]
    if path.read_bytes()[:16] == b"SQLite format 3\x00":
        return _rows(path)
    shapes: list[Any] = []
    for row in _lines(path):
        try:
            value = json.loads(row)
        except ValueError:
            shapes.append("not json")
            continue
        shapes.append(_shape(value))
    return shapes


# The labels basic-agent-chat-loop writes (the agent's own name labels its answers: replaced).
LABELS = {
    "Session ID",
    "Date",
    "Agent",
    "Agent Path",
    "Total Queries",
    "Resumed From",
    "You",
    "Context",
    "Previous Session",
    "Background Context",
    "Current Session Summary",
}


def _label(row: str) -> str:
    label = row[2:].split(":**")[0] if row.startswith("**") else ""
    if label in LABELS:
        return label
    return row[:2] if row[:2] in ("# ", "##", "- ", "**", "<!", "--", "*T") else "text" * bool(row)


def _storage(folder: Path, session: str | None) -> list[Any]:
    """The shapes of one session's files of a storage folder (info, messages, their parts)."""
    files = list(folder.glob(f"session/*/{session}.json"))
    messages = list(folder.glob(f"message/{session}/*.json"))
    files += messages + [p for m in messages for p in folder.glob(f"part/{m.stem}/*.json")]
    return sorted(_shape(json.loads(p.read_bytes())) for p in files)


def _shape(value: Any) -> Any:
    if not isinstance(value, dict):
        return type(value).__name__
    return (len(value), [value.get(m) for m in ("type", "subtype", "role") if m in value])


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8", "replace").split("\n")


def _rows(path: Path, session: str | None = None) -> list[Any]:
    """The message and part records of a database (of one session), read from a copy (with
    its WAL, where opencode's last rows may be)."""
    copy = path.with_name(path.name + ".copy")
    shutil.copyfile(path, copy)
    if Path(f"{path}-wal").exists():
        shutil.copyfile(f"{path}-wal", f"{copy}-wal")
    where = "" if session is None else " WHERE session_id = ?"
    arguments = () if session is None else (session,)
    connection = sqlite3.connect(copy)
    try:
        return [
            _shape(json.loads(data))
            for table in ("message", "part")
            for (data,) in connection.execute(f"SELECT data FROM {table}{where}", arguments)
        ]
    finally:
        connection.close()
        copy.unlink()
        Path(f"{copy}-wal").unlink(missing_ok=True)


@pytest.mark.skipif(not REAL, reason="no real or harvested fixtures")
@pytest.mark.parametrize("case", REAL, ids=[p.name for p in REAL])
def test_a_real_or_harvested_input_keeps_its_count_and_its_structure(
    case: Path, tmp_path: Path
) -> None:
    source, session, meta = copy_input(case, tmp_path)
    target = output_for(source, tmp_path)
    argv = [str(source), str(target), *HEX] + (["--session", session] if session else [])
    code, stdout, stderr = run(argv)
    assert code == 0, stderr
    asked = new_session(stdout) if session else None
    if source.suffix == ".md":  # a chat-loop file is named by its new session id (BCL-1)
        target = written(stdout)
    expect = meta["expect"]
    got = outcome(target, asked)
    assert got["outcome"] == expect["outcome"]
    if expect["outcome"] == "count":
        assert got["reboots"] == expect["reboots"]
    else:
        assert (got["error"], got["line"]) == (expect["error"], expect["line"])
    if "host" in meta and meta["container"] != "sqlite":
        if meta["container"] != "storage":
            assert skeleton(target) == skeleton(source)
        else:  # the session's own files alone, each the same shape
            assert skeleton(target) == _storage(source, session)
    elif meta["container"] == "sqlite":  # the session's rows alone, each the same shape
        assert sorted(_rows(target)) == sorted(_rows(source, session))


# -- the seven hosts with a secret planted in a message (issue #33's "done when") ------------


def plant_in_records(path: Path) -> None:
    """The secret at the start of the first message text that begins with no markup (a
    Gemini CLI context or snapshot element must stay first, GEM-3)."""
    data = path.read_bytes()
    for marker in (b'"text":"', b'"text": "', b'"message":"', b'"content":"'):
        at = 0
        while (at := data.find(marker, at)) >= 0:
            start = at + len(marker)
            if data[start : start + 1] not in (b"<", b"\\", b'"', b" ", b""):
                path.write_bytes(data[:start] + SECRET.encode() + b" " + data[start:])
                return
            at = start
    raise AssertionError(f"no message text in {path}")


def plant_in_markdown(path: Path) -> None:
    data = path.read_bytes()
    at = data.index(b"**You:** ") + len(b"**You:** ")
    path.write_bytes(data[:at] + SECRET.encode() + b" " + data[at:])


def plant_in_database(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE part SET data = json_set(data, '$.text', ? || ' ' || json_extract(data, "
            "'$.text')) WHERE json_extract(data, '$.type') = 'text'",
            (SECRET,),
        )


def one_per_host() -> list[Path]:
    chosen: dict[str, Path] = {}
    for case in REAL:
        meta = meta_of(case)
        host = meta.get("host", "vscode")
        if host in chosen or meta["expect"]["outcome"] != "count":
            continue
        if meta["container"] == "storage" or (host != "vscode" and meta["container"] == "json"):
            continue
        chosen[host] = case
    return [chosen[h] for h in sorted(chosen)]


ONE_PER_HOST = one_per_host()


def test_there_is_a_real_or_harvested_input_of_every_host() -> None:
    hosts = {meta_of(case).get("host", "vscode") for case in ONE_PER_HOST}
    assert hosts == {
        "vscode",
        "codex",
        "pi",
        "claude-code",
        "gemini-cli",
        "opencode",
        "basic-agent-chat-loop",
        "copilot-cli",
        "qwen-code",  # the harvested Qwen Code runs (issue 42)
        "cline",  # the harvested Cline CLI runs (issue 44)
        "kilo",  # the harvested Kilo Code CLI runs (issue 42)
    }


@pytest.mark.parametrize("case", ONE_PER_HOST, ids=[p.name for p in ONE_PER_HOST])
def test_a_planted_secret_is_gone_and_the_count_stays(case: Path, tmp_path: Path) -> None:
    source, session, meta = copy_input(case, tmp_path)
    if meta["container"] == "sqlite":
        plant_in_database(source)
    elif meta["container"] == "markdown":
        plant_in_markdown(source)
    elif source.is_dir():  # a Cline task folder: its ui records
        plant_in_records(source / "ui_messages.json")
    else:
        plant_in_records(source)
    assert any(SECRET.encode() in data for _, data in every_file(source.parent))
    target = output_for(source, tmp_path)
    code, stdout, stderr = run(
        [str(source), str(target)] + (["--session", session] if session else [])
    )
    assert code == 0, stderr
    if source.suffix == ".md":  # a chat-loop file is named by its new session id (BCL-1)
        target = written(stdout)
    assert outcome(target, new_session(stdout))["reboots"] == meta["expect"]["reboots"]
    for where, data in every_file(target.parent):
        assert SECRET.encode() not in data, where


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is not here (CI)")
@pytest.mark.parametrize("host", ["codex", "pi", "claude-code"])
def test_the_shared_real_logs_keep_their_hand_counts(host: str, tmp_path: Path) -> None:
    """README's hand-read counts of the three real logs of other hosts: one reboot each."""
    (original,) = (SHARED / host).glob("*.jsonl")
    source = tmp_path / "real.jsonl"
    shutil.copyfile(original, source)
    plant_in_records(source)
    target = tmp_path / "out.jsonl"
    code, _, stderr = run([str(source), str(target)])
    assert code == 0, stderr
    assert outcome(target, None) == {"outcome": "count", "reboots": 1}
    assert SECRET.encode() not in target.read_bytes()
    assert skeleton(target) == skeleton(source)
