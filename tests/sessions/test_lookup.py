"""`count --session ID` and `explain --session ID` on fake homes: what a user sees."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from fake_homes import (
    PI_REJECTED,
    PLATFORMS,
    FakeHome,
    expected,
    make_home,
    subprocess_env,
    use,
)

from rebootspec.reference import cli, count_path

VS_ID = "634638ae-5f0e-4c1b-9a57-0d3e1c2b7a10"
CODEX_ID = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
PI_ID = "7eb0cddb-8209-448f-8553-6181b3013229"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out=out, err=err, prog="rebootspec")
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(params=PLATFORMS)
def home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> FakeHome:
    fake = make_home(tmp_path, request.param)
    use(fake, monkeypatch)
    return fake


@pytest.mark.parametrize("host", ["vscode", "codex", "pi"])
def test_found_by_full_id_on_every_platform(home: FakeHome, host: str) -> None:
    path = {"vscode": home.add_vscode, "codex": home.add_codex, "pi": home.add_pi}[host](
        {"vscode": VS_ID, "codex": CODEX_ID, "pi": PI_ID}[host]
    )
    ident = {"vscode": VS_ID, "codex": CODEX_ID, "pi": PI_ID}[host]
    code, out, err = run("count", "--session", ident)
    assert (code, err) == (0, "")
    answer = orjson.loads(out)
    assert answer["file"] == str(path)
    assert answer["session"] == ident
    assert answer["host"] == host
    assert answer["reboots"] == 1


def test_a_unique_prefix_is_enough(home: FakeHome) -> None:
    home.add_vscode(VS_ID)
    home.add_codex(CODEX_ID)
    code, out, _ = run("count", "--session", "6346")
    assert code == 0
    assert orjson.loads(out)["session"] == VS_ID


def test_an_ambiguous_prefix_lists_the_sessions_and_exits_2(home: FakeHome) -> None:
    first = home.add_vscode("63aa0000-0000-0000-0000-000000000001")
    second = home.add_codex("63aa0000-0000-0000-0000-000000000002")
    code, out, err = run("count", "--session", "63AA")
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == "error: session '63AA': 2 sessions match; give more of the id:"
    assert f"63aa0000-0000-0000-0000-000000000001  {first}" in err
    assert f"63aa0000-0000-0000-0000-000000000002  {second}" in err


def test_no_match_says_where_it_looked(home: FakeHome) -> None:
    home.add_pi(PI_ID)
    code, out, err = run("count", "--session", "ffff")
    assert (code, out) == (2, "")
    assert err.startswith("error: session 'ffff': no session with this id; looked in:\n")
    assert f"{home.appdata / 'Code'}  (not there)" in err
    assert f"{home.home / '.pi' / 'agent'}\n" in err  # it exists: no "(not there)"
    assert "CODEX_HOME" in err and "REBOOTSPEC_VSCODE_USER_DATA_DIR" in err


@pytest.mark.parametrize("product", ["Code - Insiders", "VSCodium", "Code - OSS"])
def test_other_vscode_builds_and_the_empty_window_store(home: FakeHome, product: str) -> None:
    path = home.add_vscode(VS_ID, product=product, workspace=None)
    code, out, _ = run("count", "--session", VS_ID[:8])
    assert code == 0
    assert orjson.loads(out)["file"] == str(path)
    assert "emptyWindowChatSessions" in str(path)


def test_archived_codex_rollouts_are_found(home: FakeHome) -> None:
    path = home.add_codex(CODEX_ID, archived=True)
    code, out, _ = run("count", "--session", CODEX_ID)
    assert (code, orjson.loads(out)["file"]) == (0, str(path))


def test_a_plain_rollout_beats_its_compressed_copy_and_a_log_beats_its_json(
    home: FakeHome,
) -> None:
    plain = home.add_codex(CODEX_ID)
    home.add_codex(CODEX_ID, suffix=".jsonl.zst")
    log = home.add_vscode(VS_ID)
    home.add_vscode(VS_ID, suffix=".json")
    assert orjson.loads(run("count", "--session", CODEX_ID)[1])["file"] == str(plain)
    assert orjson.loads(run("count", "--session", VS_ID)[1])["file"] == str(log)


def test_a_compressed_rollout_alone_is_counted(home: FakeHome) -> None:
    path = home.add_codex(CODEX_ID, suffix=".jsonl.zst")
    code, out, err = run("count", "--session", CODEX_ID)
    answer = orjson.loads(out)
    assert (code, err) == (0, "")
    assert (answer["file"], answer["host"]) == (str(path), "codex")


def test_a_full_id_wins_over_longer_ids_it_prefixes(home: FakeHome) -> None:
    short = home.add_pi("abcd1234")
    home.add_pi("abcd1234-0002", cwd="--other--")
    code, out, _ = run("count", "--session", "abcd1234")
    assert (code, orjson.loads(out)["file"]) == (0, str(short))


def test_a_rejected_session_found_by_id_is_a_rejection(home: FakeHome) -> None:
    path = home.add_pi(PI_ID, case=PI_REJECTED)
    code, out, err = run("count", "--session", PI_ID)
    want = expected(PI_REJECTED)
    assert (code, out) == (1, "")
    assert err == f"error: {path}:{want['line']}: {want['error']}: " + err.split(": ", 3)[3]


def test_explain_names_the_file_on_its_first_line(home: FakeHome) -> None:
    path = home.add_codex(CODEX_ID)
    code, out, _ = run("explain", "--session", "0199")
    assert code == 0
    assert out.splitlines()[0] == f"file: {path}  (session {CODEX_ID})"
    assert out.splitlines()[-1] == "reboots: 1"


def test_count_path_is_unchanged(home: FakeHome) -> None:
    path = home.add_codex(CODEX_ID)
    code, out, _ = run("count", str(path))
    assert code == 0
    assert orjson.loads(out) == count_path(path).to_json()  # no "file", no "session"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count"], "give a session file or --session ID"),
        # with a path, --session names the session inside it (an opencode store, ERR-15)
        (["count", "x.jsonl", "--session", "ab"], "x.jsonl: cannot read: no such file"),
        (["count", "--session", "../x.jsonl"], "give a session id or a prefix of it"),
        (["count", "--session", ""], "give a session id or a prefix of it"),
    ],
)
def test_usage_errors_are_one_line(home: FakeHome, argv: list[str], message: str) -> None:
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and message in err


def test_as_a_user_runs_it(tmp_path: Path) -> None:
    """A subprocess that sees only the fake home: the id in, the count and the file out; and
    `count PATH` never loads the lookup (the import budget of the conformance protocol)."""
    home = make_home(tmp_path)
    path = home.add_vscode(VS_ID)
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "count", "--session", VS_ID[:6]],
        capture_output=True,
        text=True,
        timeout=60,
        env=subprocess_env(home),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert orjson.loads(done.stdout)["file"] == str(path)
    probe = (
        "import sys; from rebootspec.conformance.cli import main; main(['count', sys.argv[1]]);"
        "print(sorted(m for m in sys.modules if m.startswith('rebootspec.')"
        " and m.endswith(('finder', 'stores', 'lookup'))),"
        " file=sys.stderr)"
    )
    lean = subprocess.run(
        [sys.executable, "-c", probe, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=subprocess_env(home),
    )
    assert lean.stderr.splitlines()[-1] == "[]"


CLAUDE_ID = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"


def test_a_claude_code_transcript_is_found_by_its_id(home: FakeHome) -> None:
    path = home.add_claude(CLAUDE_ID)
    code, out, err = run("count", "--session", "ae4a77f8")
    answer = orjson.loads(out)
    assert (code, err) == (0, "")
    assert (answer["file"], answer["host"], answer["reboots"]) == (str(path), "claude-code", 1)


def test_a_claude_code_side_file_is_not_a_session(home: FakeHome) -> None:
    transcript = home.add_claude(CLAUDE_ID)
    side = transcript.parent / CLAUDE_ID / "subagents" / "agent-acompact-70d8e7.jsonl"
    side.parent.mkdir(parents=True)
    side.write_bytes(transcript.read_bytes())
    code, out, _ = run("count", "--session", CLAUDE_ID)
    assert (code, orjson.loads(out)["file"]) == (0, str(transcript))


def test_a_gemini_chat_is_found_by_the_id_its_name_carries(home: FakeHome) -> None:
    path = home.add_gemini("9f3b6c21")
    home.add_gemini("0a0a0a0a").with_name("checkpoint-mine.json").write_text("{}")
    code, out, err = run("count", "--session", "9f3b")
    answer = orjson.loads(out)
    assert (code, err) == (0, "")
    assert (answer["file"], answer["host"], answer["reboots"]) == (str(path), "gemini-cli", 2)
