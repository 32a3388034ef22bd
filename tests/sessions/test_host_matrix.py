"""Every host of the registry x every command: one session of each, the same count everywhere.

Why: each command used to wire the hosts in by hand, and one always forgot a host (`sessions`
counted Claude Code and Gemini CLI chats with pi's reader and listed a made-up 0). Here a fake
home holds one session of every host in its store; `count PATH`, `explain PATH`,
`count --session ID`, `sessions --json` and `smoke`'s picks must all give the count the case's
`case.toml` gives (a plan's or a person's, never the reference's own output). A host added to
spec/hosts.toml without a place here fails `test_every_registered_host_is_in_the_matrix`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import orjson
import pytest

from rebootspec.conformance.commands import sessions as sessions_command
from rebootspec.reference import cli
from rebootspec.reference.core import registry
from tests.sessions.fake_homes import (
    CHAT_LOOP_CASE,
    CLAUDE_CASE,
    CLINE_CASE,
    CODEX_CASE,
    COPILOT_CASE,
    GEMINI_CASE,
    KILO_CASE,
    KILO_CODE_CASE,
    OPENCODE_CASE,
    PI_CASE,
    QWEN_CASE,
    ROO_CASE,
    VSCODE_CASE,
    FakeHome,
    expected,
    make_home,
    use,
)

GEMINI_FULL_ID = "6045c513-a994-47e8-9f00-2b6e4f3a1c55"


def _gemini_with_full_id(path: Path) -> None:
    """The chat's metadata record names its whole session id (GEM-1), as Gemini CLI writes it;
    the file name carries only its first 8 hex digits."""
    lines = path.read_bytes().split(b"\n")
    first = orjson.loads(lines[0])
    first["sessionId"] = GEMINI_FULL_ID
    path.write_bytes(b"\n".join([orjson.dumps(first), *lines[1:]]))


def build(home: FakeHome, cwd: Path) -> dict[str, tuple[Path, str, str, int]]:
    """host key -> (the input path, the session id, the store's session argument or "", the
    expected count)."""
    cases: dict[str, tuple[Path, str, str, int]] = {}

    def reboots(case: str) -> int:
        return int(expected(case)["reboots"])  # type: ignore[call-overload]

    sid = "5d8a0c1e-7b2f-4c3a-9e1d-0f2a3b4c5d6e"
    cases["vscode"] = (home.add_vscode_profile(sid), sid, "", reboots(VSCODE_CASE))
    sid = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"
    cases["codex"] = (home.add_codex(sid), sid, "", reboots(CODEX_CASE))
    sid = "0b6a1f4e-2c3d-4e5f-8a9b-1c2d3e4f5a6b"
    cases["pi"] = (home.add_pi(sid), sid, "", reboots(PI_CASE))
    sid = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
    cases["claude-code"] = (home.add_claude(sid), sid, "", reboots(CLAUDE_CASE))
    gemini = home.add_gemini(GEMINI_FULL_ID[:8])
    _gemini_with_full_id(gemini)
    cases["gemini-cli"] = (gemini, GEMINI_FULL_ID, "", reboots(GEMINI_CASE))
    store, session = home.add_opencode()
    cases["opencode"] = (store, session, session, reboots(OPENCODE_CASE))
    store, session = home.add_kilo()
    cases["kilo"] = (store, session, session, reboots(KILO_CASE))
    chain, chat = home.add_chat_loop(cwd)
    cases["basic-agent-chat-loop"] = (chain, chat, "", reboots(CHAT_LOOP_CASE))
    sid = "c0b1a2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d"
    cases["copilot-cli"] = (home.add_copilot(sid), sid, "", reboots(COPILOT_CASE))
    sid = "7e3c1a9b-5d2f-4e8a-b6c4-2f1e0d9c8b7a"
    cases["qwen-code"] = (home.add_qwen(sid), sid, "", reboots(QWEN_CASE))
    sid = "1764300000001"  # a Cline task id: the folder's name, a millisecond time
    cases["cline"] = (home.add_cline_task(sid), sid, "", reboots(CLINE_CASE))
    sid = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
    task = home.add_extension_task("roo-code", sid, ROO_CASE)
    cases["roo-code"] = (task, sid, "", reboots(ROO_CASE))
    sid = "8d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a"
    task = home.add_extension_task("kilo-code", sid, KILO_CODE_CASE, profile="-4a1b2c3d")
    cases["kilo-code"] = (task, sid, "", reboots(KILO_CODE_CASE))
    return cases


@pytest.fixture
def matrix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, tuple[Path, str, str, int]]:
    home = make_home(tmp_path)
    cwd = tmp_path / "project"
    cwd.mkdir()
    cases = build(home, cwd)
    use(home, monkeypatch)
    monkeypatch.chdir(cwd)
    return cases


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_every_registered_host_is_in_the_matrix(
    matrix: dict[str, tuple[Path, str, str, int]],
) -> None:
    assert sorted(matrix) == sorted(registry.host_keys())


@pytest.mark.parametrize("host", registry.host_keys())
def test_count_explain_and_count_session_agree(
    matrix: dict[str, tuple[Path, str, str, int]], host: str
) -> None:
    path, ident, in_store, reboots = matrix[host]
    extra = [in_store] if in_store else []
    code, out, err = _run(["count", str(path), *extra])
    assert (code, err) == (0, "")
    answer = orjson.loads(out)
    assert (answer["host"], answer["reboots"]) == (host, reboots)
    code, out, err = _run(["explain", str(path), *extra])
    assert (code, err) == (0, "")
    assert out.rstrip().splitlines()[-1].startswith(f"reboots: {reboots}")
    code, out, err = _run(["count", "--session", ident])
    assert (code, err) == (0, ""), err
    found = orjson.loads(out)
    assert (found["host"], found["reboots"], found["session"]) == (host, reboots, ident)


def test_sessions_lists_every_host_with_counts_counts_gives(
    matrix: dict[str, tuple[Path, str, str, int]],
) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert sessions_command.cli(["--json", "--jobs", "1"], out, err) == 0
    rows = [orjson.loads(line) for line in out.getvalue().splitlines()]
    by_host: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_host.setdefault(str(row["host"]), []).append(row)
    for host, (path, ident, _, reboots) in matrix.items():
        mine = [r for r in by_host.get(host, []) if str(r["id"]) in (ident, path.stem)]
        assert mine, f"{host}: not listed ({by_host.get(host)})"
        assert mine[0]["reboots"] == reboots, (host, mine[0])
        assert mine[0]["title"] or host in ("opencode", "kilo"), (host, "no title")


def test_smoke_picks_one_count_of_every_host() -> None:
    from rebootspec.conformance.runner.corpus import load_corpus
    from rebootspec.conformance.runner.smoke import choose

    cases = load_corpus(Path(__file__).resolve().parents[2] / "fixtures")
    picked = {case.host for _, case in choose(cases) if case is not None}
    assert picked == set(registry.host_keys())


def test_the_hint_names_every_hosts_variable(
    matrix: dict[str, tuple[Path, str, str, int]],
) -> None:
    code, _, err = _run(["count", "--session", "nothing-has-this-id"])
    assert code == 2
    for host in registry.hosts():
        for name in host.store_variables:
            assert name in err, name
    assert os.environ.get("HOME")  # the fake home, never the real one


def test_every_id_sessions_shows_is_found_by_count_session(
    matrix: dict[str, tuple[Path, str, str, int]],
) -> None:
    """Whatever id a row shows (a Gemini CLI chat's is the one inside the file, even when its
    file name was given other hex digits), `count --session` finds that row's file."""
    gemini = matrix["gemini-cli"][0]
    renamed = gemini.with_name(gemini.name.replace(GEMINI_FULL_ID[:8], "0badf00d"))
    gemini.rename(renamed)
    out, err = io.StringIO(), io.StringIO()
    assert sessions_command.cli(["--json", "--jobs", "1", "--no-cache"], out, err) == 0
    for line in out.getvalue().splitlines():
        row = orjson.loads(line)
        code, answer, err_text = _run(["count", "--session", str(row["id"])])
        assert code == 0, (row["id"], err_text)
        assert orjson.loads(answer)["reboots"] == row["reboots"]
    assert str(renamed) in out.getvalue()
