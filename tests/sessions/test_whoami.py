"""`rebootspec whoami` and `rebootspec hook` as an agent's shell or a host's hook runs them (WHO-*).

Each test builds a fake home with the stores of the hosts, then the environment a host gives its
child (its variables, from spec/STORES.md's table of who sets what) or the JSON a hook gets on
stdin. The expected counts are the corpus cases' own (`case.toml`), never the reference's.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_homes import (
    CLAUDE_CASE,
    CODEX_CASE,
    GEMINI_CASE,
    PI_CASE,
    PLATFORMS,
    QWEN_CASE,
    FakeHome,
    expected,
    make_home,
    subprocess_env,
    use,
)

from rebootspec.conformance.commands.whoami import hook, whoami

CODEX_ID = "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b"
CODEX_PARENT = "019c0000-1111-7222-8333-444455556666"
CODEX_TWO = "4PU9"  # a Codex case with 2 reboots (the subagent's, unlike its parent's 1)
PI_ID = "7eb0cddb-8209-448f-8553-6181b3013229"
CLAUDE_ID = "5d2f7a10-1b2c-4d3e-8f40-123456789abc"
GEMINI_ID8 = "a1b2c3d4"


def run(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = whoami(argv, out=out, err=err, env=env)
    return code, out.getvalue(), err.getvalue()


def run_hook(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = hook(argv, out=out, err=err, env=env, stdin=io.BytesIO(stdin))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(params=PLATFORMS)
def home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> FakeHome:
    fake = make_home(tmp_path, request.param)
    use(fake, monkeypatch)
    return fake


@pytest.fixture
def linux(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHome:
    fake = make_home(tmp_path, "linux")
    use(fake, monkeypatch)
    return fake


def reboots(case: str) -> int:
    return int(str(expected(case)["reboots"]))


# --- WHO-1: the variable a host sets names the session --------------------------------------


def test_codex_thread_id_names_its_rollout(home: FakeHome) -> None:
    path = home.add_codex(CODEX_ID)
    code, out, err = run([], {**home.env, "CODEX_THREAD_ID": CODEX_ID})
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["reboots"] == reboots(CODEX_CASE)
    assert (answer["host"], answer["id"], answer["source"]) == (
        "codex",
        CODEX_ID,
        "env:CODEX_THREAD_ID",
    )
    assert Path(answer["file"]) == path


def test_codex_subagent_counts_its_own_thread_not_the_parents(linux: FakeHome) -> None:
    """Inside a subagent, CODEX_SESSION_ID is the parent's id: the child's own file answers."""
    linux.add_codex(CODEX_PARENT)
    child = linux.add_codex(CODEX_ID, case=CODEX_TWO)
    env = {**linux.env, "CODEX_THREAD_ID": CODEX_ID, "CODEX_SESSION_ID": CODEX_PARENT}
    code, out, _ = run([], env)
    assert code == 0
    answer = json.loads(out)
    assert answer["reboots"] == reboots(CODEX_TWO) != reboots(CODEX_CASE)
    assert Path(answer["file"]) == child


def test_codex_session_id_alone_is_refused(linux: FakeHome) -> None:
    linux.add_codex(CODEX_PARENT)
    code, out, err = run([], {**linux.env, "CODEX_SESSION_ID": CODEX_PARENT})
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert "CODEX_SESSION_ID" in first and "CODEX_THREAD_ID" in first
    assert "0.95.0" in err  # how to make it work: the release that sets the right variable


def test_pi_session_file_is_counted_without_a_lookup(tmp_path: Path, linux: FakeHome) -> None:
    """PI_SESSION_FILE names the file being written, wherever it is (`--session-dir` too)."""
    elsewhere = tmp_path / "custom" / f"2026-03-02T10-00-04-000Z_{PI_ID}.jsonl"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes((Path(__file__).parents[2] / "fixtures" / PI_CASE / "session.jsonl")
                          .read_bytes())  # fmt: skip
    code, out, _ = run([], {**linux.env, "PI_SESSION_FILE": str(elsewhere)})
    assert code == 0
    answer = json.loads(out)
    assert answer["reboots"] == reboots(PI_CASE)
    assert (answer["host"], answer["id"], answer["source"]) == ("pi", PI_ID, "env:PI_SESSION_FILE")


def test_pi_session_file_wins_over_pi_session_id(linux: FakeHome) -> None:
    fork = linux.add_pi(PI_ID, case="47LX")
    linux.add_pi("11111111-2222-4333-8444-555555555555")
    env = {
        **linux.env,
        "PI_SESSION_FILE": str(fork),
        "PI_SESSION_ID": "11111111-2222-4333-8444-555555555555",
    }
    code, out, _ = run(["--field", "reboots"], env)
    assert (code, out) == (0, f"{reboots('47LX')}\n")


def test_pi_session_id_alone_is_looked_up(home: FakeHome) -> None:
    path = home.add_pi(PI_ID)
    code, out, _ = run([], {**home.env, "PI_SESSION_ID": PI_ID})
    assert code == 0
    answer = json.loads(out)
    assert Path(answer["file"]) == path and answer["source"] == "env:PI_SESSION_ID"


def test_pi_session_file_that_is_missing_is_refused(linux: FakeHome) -> None:
    code, _, err = run([], {**linux.env, "PI_SESSION_FILE": "/nonexistent/x.jsonl"})
    assert code == 2 and "PI_SESSION_FILE" in err.splitlines()[0]


def test_claude_code_session_id(home: FakeHome) -> None:
    path = home.add_claude(CLAUDE_ID)
    code, out, _ = run([], {**home.env, "CLAUDE_CODE_SESSION_ID": CLAUDE_ID})
    assert code == 0
    answer = json.loads(out)
    assert answer["reboots"] == reboots(CLAUDE_CASE)
    assert (answer["host"], answer["id"]) == ("claude-code", CLAUDE_ID)
    assert Path(answer["file"]) == path


def test_field_reboots_is_the_bare_number(linux: FakeHome) -> None:
    linux.add_claude(CLAUDE_ID, case="4JN4")
    code, out, _ = run(["--field", "reboots"], {**linux.env, "CLAUDE_CODE_SESSION_ID": CLAUDE_ID})
    assert (code, out) == (0, "2\n")


def test_field_unknown_is_a_usage_error(linux: FakeHome) -> None:
    linux.add_claude(CLAUDE_ID)
    env = {**linux.env, "CLAUDE_CODE_SESSION_ID": CLAUDE_ID}
    code, out, err = run(["--field", "patch"], env)
    assert (code, out) == (2, "") and "reboots" in err


# --- WHO-1, WHO-2: hosts that give no id, and ids that name no file or several ----------------


@pytest.mark.parametrize(
    ("marker", "host"), [("OPENCODE", "opencode"), ("GEMINI_CLI", "gemini-cli")]
)
def test_hosts_without_an_id_are_refused_with_advice(
    linux: FakeHome, marker: str, host: str
) -> None:
    """opencode's bash tool and Gemini CLI's shell tool set only a marker: no guess is made,
    even with a session of theirs on the machine."""
    linux.add_opencode()
    linux.add_gemini(GEMINI_ID8)
    code, out, err = run([], {**linux.env, marker: "1"})
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0].startswith("error: whoami: no session id in the environment")
    assert "CODEX_THREAD_ID" in lines[0] and "PI_SESSION_FILE" in lines[0]
    advice = next(line for line in lines[1:] if line.strip().startswith(f"{host}:"))
    assert "no session id" in advice and ("plugin" in advice or "hook" in advice)


def test_host_option_names_what_that_host_needs(linux: FakeHome) -> None:
    code, _, err = run(["--host", "opencode"], {**linux.env, "CODEX_THREAD_ID": CODEX_ID})
    assert code == 2
    assert [line.split(":")[0].strip() for line in err.splitlines()[1:]] == ["opencode"]


def test_id_matching_no_session_is_refused(linux: FakeHome) -> None:
    linux.add_codex(CODEX_ID)
    code, out, err = run([], {**linux.env, "CODEX_THREAD_ID": CODEX_ID[:13]})
    assert (code, out) == (2, "")  # a prefix is not the id: whoami never takes "the one like it"
    assert "no session with this id" in err and "CODEX_HOME" in err


def test_a_hook_id_matching_nothing_names_each_folder_once(linux: FakeHome) -> None:
    """Every host's stores are searched for a hook's id with no transcript of that name; the
    refusal lists each folder once (VS Code's four roots were listed four times each)."""
    code, out, err = run_hook([], f'{{"session_id": "{CODEX_ID}"}}'.encode(), dict(linux.env))
    assert (code, out) == (2, "") and "no session with this id" in err
    listed = err.splitlines()[0].split("no session with this id in ", 1)[1].split(", ")
    assert len(listed) == len(set(listed)) > 1, listed


def test_id_matching_two_files_is_refused(linux: FakeHome) -> None:
    linux.add_codex(CODEX_ID)
    linux.add_codex(CODEX_ID, archived=True)
    code, out, err = run([], {**linux.env, "CODEX_THREAD_ID": CODEX_ID})
    assert (code, out) == (2, "")
    assert "2 session files" in err.splitlines()[0] and "archived_sessions" in err


# --- WHO-3: a host started inside another's shell ---------------------------------------------


def test_two_hosts_ids_are_refused_unless_host_says(linux: FakeHome) -> None:
    linux.add_codex(CODEX_ID)
    pi = linux.add_pi(PI_ID, case="47LX")
    env = {**linux.env, "CODEX_THREAD_ID": CODEX_ID, "PI_SESSION_FILE": str(pi)}
    code, out, err = run([], env)
    assert (code, out) == (2, "")
    assert "CODEX_THREAD_ID" in err and "PI_SESSION_FILE" in err and "--host" in err
    code, out, _ = run(["--host", "pi", "--field", "reboots"], env)
    assert (code, out) == (0, f"{reboots('47LX')}\n")
    code, out, _ = run(["--host", "codex", "--field", "reboots"], env)
    assert (code, out) == (0, f"{reboots(CODEX_CASE)}\n")


# --- WHO-5: the guess, only when asked ----------------------------------------------------------


def test_no_guess_without_the_flag(linux: FakeHome) -> None:
    linux.add_codex(CODEX_ID)
    code, out, _ = run([], dict(linux.env))
    assert (code, out) == (2, "")


def test_guess_takes_the_newest_and_marks_it(linux: FakeHome) -> None:
    old = linux.add_codex(CODEX_PARENT)
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    new = linux.add_pi(PI_ID)
    code, out, _ = run(["--guess"], dict(linux.env))
    assert code == 0
    answer = json.loads(out)
    assert Path(answer["file"]) == new
    assert "W-GUESSED" in [w["code"] for w in answer["warnings"]]


def test_guess_refuses_two_sessions_written_together(linux: FakeHome) -> None:
    linux.add_codex(CODEX_PARENT)
    linux.add_codex(CODEX_ID)  # a subagent's rollout beside its parent's
    code, out, err = run(["--guess"], dict(linux.env))
    assert (code, out) == (2, "") and "2 sessions" in err


def test_guess_never_replaces_an_id_that_names_nothing(linux: FakeHome) -> None:
    """--guess is for an environment without an id; a wrong id is refused all the same."""
    linux.add_codex(CODEX_PARENT)
    code, out, err = run(["--guess"], {**linux.env, "CODEX_THREAD_ID": CODEX_ID})
    assert (code, out) == (2, "") and "no session with this id" in err


# --- WHO-4: hooks -----------------------------------------------------------------------------


def hook_json(**members: object) -> bytes:
    return json.dumps({"hook_event_name": "PostCompact", "cwd": "/x", **members}).encode()


def test_codex_hook_transcript_path(linux: FakeHome) -> None:
    path = linux.add_codex(CODEX_ID, case=CODEX_TWO)
    stdin = hook_json(session_id=CODEX_ID, transcript_path=str(path))
    code, out, _ = run_hook([], stdin, dict(linux.env))
    assert code == 0
    answer = json.loads(out)
    assert answer["reboots"] == reboots(CODEX_TWO)
    assert (answer["source"], answer["id"]) == ("hook:transcript_path", CODEX_ID)


def test_claude_hook_session_id_when_transcript_is_missing(home: FakeHome) -> None:
    path = home.add_claude(CLAUDE_ID)
    stdin = hook_json(session_id=CLAUDE_ID, transcript_path=str(path) + ".gone")
    code, out, _ = run_hook([], stdin, dict(home.env))
    assert code == 0
    answer = json.loads(out)
    assert Path(answer["file"]) == path and answer["source"] == "hook:session_id"


def test_hook_transcript_of_another_session_is_not_taken(linux: FakeHome) -> None:
    """A transcript whose name does not carry the hook's session id (Claude Code before
    2.1.72 after a resume) is not counted: the id is looked up instead."""
    mine = linux.add_claude(CLAUDE_ID, case="4JN4")
    other = linux.add_claude("99999999-2222-4333-8444-555555555555")
    stdin = hook_json(session_id=CLAUDE_ID, transcript_path=str(other))
    code, out, _ = run_hook(["--field", "file"], stdin, dict(linux.env))
    assert (code, Path(out.strip())) == (0, mine)


def test_gemini_hook_transcript_path(linux: FakeHome) -> None:
    path = linux.add_gemini(GEMINI_ID8)
    stdin = hook_json(session_id=f"{GEMINI_ID8}-0000-4000-8000-000000000000",
                      transcript_path=str(path))  # fmt: skip
    code, out, _ = run_hook(["--field", "reboots"], stdin, dict(linux.env))
    assert (code, out) == (0, f"{reboots(GEMINI_CASE)}\n")


def test_opencode_plugin_session_id(linux: FakeHome) -> None:
    """The plugin sends the session id only: the session inside opencode's store."""
    _store, sid = linux.add_opencode()
    code, out, _ = run_hook([], json.dumps({"session_id": sid}).encode(), dict(linux.env))
    assert code == 0
    answer = json.loads(out)
    assert answer["reboots"] == reboots("6RUU") and answer["id"] == sid


def test_hook_out_writes_the_file(tmp_path: Path, linux: FakeHome) -> None:
    path = linux.add_codex(CODEX_ID, case=CODEX_TWO)
    target = tmp_path / "patch"
    target.write_text("stale\n")
    stdin = hook_json(session_id=CODEX_ID, transcript_path=str(path))
    code, out, _ = run_hook(["--out", str(target), "--field", "reboots"], stdin, dict(linux.env))
    assert (code, out) == (0, "")
    assert target.read_text() == f"{reboots(CODEX_TWO)}\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".rebootspec-")] == []


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        (b"", "stdin is empty"),
        (b"not json", "E-JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"session_id": 7}', "no session_id"),
        (b'{"transcript_path": "/nonexistent.jsonl"}', "no session_id"),
        (b'{"session_id": "../../etc"}', "not a session id"),
        (b"{" * 5000 + b"}" * 5000, "E-"),
    ],
)
def test_hook_bad_stdin_is_one_line_and_exit_2(linux: FakeHome, stdin: bytes, words: str) -> None:
    code, out, err = run_hook([], stdin, dict(linux.env))
    assert (code, out) == (2, "")
    assert words in err.splitlines()[0] and "Traceback" not in err


def test_hook_stdin_too_long(linux: FakeHome) -> None:
    code, _, err = run_hook([], b" " * (2 << 20), dict(linux.env))
    assert code == 2 and "longer than" in err


# --- the installed command ------------------------------------------------------------------


def test_installed_whoami_in_a_shell(linux: FakeHome) -> None:
    linux.add_codex(CODEX_ID, case=CODEX_TWO)
    env = {**subprocess_env(linux), "CODEX_THREAD_ID": CODEX_ID}
    for name in ("PI_SESSION_FILE", "PI_SESSION_ID", "CLAUDE_CODE_SESSION_ID"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "whoami", "--field", "reboots"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{reboots(CODEX_TWO)}\n", "")


def test_escape_of_a_hostile_variable(linux: FakeHome) -> None:
    code, _, err = run([], {**linux.env, "PI_SESSION_FILE": "/x/\x1b[2J.jsonl"})
    assert code == 2 and "\x1b" not in err


QWEN_ID = "3b9e2c71-0d4a-4f6b-9c8e-5a1d2f3e4b6c"


def test_qwen_code_shell_variable_on_every_platform(home: FakeHome) -> None:
    """Qwen Code 0.21+ gives its shell tool QWEN_CODE_SESSION_ID: the `<id>.jsonl` of the
    project's chats folder."""
    path = home.add_qwen(QWEN_ID)
    code, out, _ = run([], {**home.env, "QWEN_CODE_SESSION_ID": QWEN_ID})
    assert code == 0
    answer = json.loads(out)
    assert (answer["host"], answer["reboots"], answer["source"]) == (
        "qwen-code",
        reboots(QWEN_CASE),
        "env:QWEN_CODE_SESSION_ID",
    )
    assert Path(answer["file"]) == path


def test_qwen_code_runtime_dir_moves_the_store(linux: FakeHome, tmp_path: Path) -> None:
    """QWEN_RUNTIME_DIR moves the projects folder (0.15+); whoami finds the session there."""
    linux.env["QWEN_RUNTIME_DIR"] = str(tmp_path / "runtime")
    path = linux.add_qwen(QWEN_ID)
    code, out, _ = run(["--field", "file"], {**linux.env, "QWEN_CODE_SESSION_ID": QWEN_ID})
    assert (code, Path(out.strip())) == (0, path)


def test_qwen_code_hook_transcript_path(linux: FakeHome) -> None:
    path = linux.add_qwen(QWEN_ID)
    stdin = hook_json(session_id=QWEN_ID, transcript_path=str(path), hook_event_name="PostCompact")
    code, out, _ = run_hook(["--field", "reboots"], stdin, dict(linux.env))
    assert (code, out) == (0, f"{reboots(QWEN_CASE)}\n")
