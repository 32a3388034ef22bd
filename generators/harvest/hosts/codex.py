"""OpenAI Codex CLI (``@openai/codex``, Apache-2.0) driven against the scripted model.

Runs inside the harvest sandbox (private ``/home/dev``, loopback only). ``exec`` and ``exec
resume`` drive automatic compactions; ``app-server`` (JSON-RPC on stdio) drives manual
compaction, fork, subagents and rollback on the versions that have those methods. Which thread
caused which compaction is known step by step: each step drives one thread, and the summary
requests the server logged during that step belong to it (a subagent's are told apart by its
prompt's directive, see ``SUBAGENT_PROMPT``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from ..server import ScriptedServer
from .common import HOME, HarvestError, Install, RpcPipe, base_env, run, version_key
from .result import Outcome, Thread
from .whoami import check_hook_file, check_whoami, hook_file_value

PACKAGE = "@openai/codex"
LICENCE = "Apache-2.0"
CODEX_HOME = HOME / ".codex"
OVER = "report 60000 input tokens"  # over model_auto_compact_token_limit = 50000
SCENARIOS = (
    "auto-pre-turn",
    "auto-mid-turn",
    "manual",
    "fork",
    "subagent",
    "rollback",
    "failure",
    "whoami",
)
# CODEX_THREAD_ID reaches the shell tool from 0.95.0: `whoami` answers; before, it refuses.
THREAD_ID_FROM = (0, 95, 0)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def supports(version: str, scenario: str) -> bool:
    """Whether this version has what the scenario needs (measured; see real-writers.md)."""
    key = version_key(version)
    if scenario in ("auto-pre-turn", "auto-mid-turn", "failure", "whoami"):
        return True
    if scenario == "manual":  # 0.111+: app-server; up to 0.40 ``codex proto`` (gone by 0.58)
        return key >= (0, 111, 0) or key <= (0, 40, 0)
    if scenario in ("fork", "subagent"):
        return key >= (0, 111, 0)
    if scenario == "rollback":  # thread/rollback 0.111-0.165, thread/revert from 0.166
        return key >= (0, 111, 0)
    return False


def write_config(base_url: str, version: str, scenario: str) -> None:
    """``$CODEX_HOME/config.toml``: the scripted provider, low compaction limit, no sandbox."""
    CODEX_HOME.mkdir(parents=True, exist_ok=True)
    features = []
    if version_key(version) >= (0, 160, 0):
        features += ["plugins = false", "apps = false", "remote_plugin = false"]
    if scenario == "subagent":
        features.append("multi_agent = true")
    if scenario == "whoami" and version_key(version) >= POST_COMPACT_FROM:
        features.append("codex_hooks = true")
        write_hooks(version)
    text = "\n".join(
        [
            'model = "harvest-model"',
            'model_provider = "harvest"',
            "model_context_window = 200000",
            "model_auto_compact_token_limit = 50000",
            'approval_policy = "never"',
            'sandbox_mode = "danger-full-access"',
            "",
            "[model_providers.harvest]",
            'name = "harvest"',
            f'base_url = "{base_url}"',
            'wire_api = "responses"',
            "request_max_retries = 0",
            "stream_max_retries = 0",
            "",
            "[features]",
            *features,
            "",
        ]
    )
    (CODEX_HOME / "config.toml").write_text(text, encoding="utf-8")


def _env() -> dict[str, str]:
    return {**base_env(), "CODEX_HOME": str(CODEX_HOME), "RUST_LOG": "error"}


def rollouts() -> list[Path]:
    """Every rollout file the run has written so far, oldest name first."""
    return sorted((CODEX_HOME / "sessions").rglob("rollout-*.jsonl"))


def _thread_of(path: Path) -> str:
    found = _UUID.findall(path.name)
    return found[-1] if found else ""


def _file_of(thread: str) -> Path:
    for path in rollouts():
        if _thread_of(path) == thread:
            return path
    raise HarvestError(f"no rollout file was written for thread {thread}")


class _Steps:
    """Attributes the server's summary requests to the thread each step drives."""

    def __init__(self, server: ScriptedServer) -> None:
        self.server = server
        self.caused: dict[str, int] = {}

    def mark(self) -> int:
        return len(self.server.entries)

    def credit(self, thread: str, since: int) -> int:
        entries = self.server.entries[since:]
        done = sum(1 for entry in entries if entry.classification == "summary")
        self.caused[thread] = self.caused.get(thread, 0) + done
        return done


def _exec(codex: Path, prompt: str, resume: str | None = None, hooks: bool = False) -> str:
    argv = [str(codex), "exec", "--skip-git-repo-check", "--json"]
    if hooks:  # the private home's own hook: no one is there to review and trust it
        argv.append("--dangerously-bypass-hook-trust")
    if resume:
        argv += ["resume", resume]
    result = run([*argv, prompt], _env())
    return f"exec rc={result.returncode}" if result.returncode else ""


# Issue #34: a PostCompact command hook in the private home runs `rebootspec hook`.
PATCH_FILE = HOME / "patch.json"
POST_COMPACT_FROM = (0, 169, 0)  # measured there (PR #19905, 2026-05); older: not configured


def _patch() -> object:
    return hook_file_value(PATCH_FILE)


def write_hooks(version: str) -> None:
    """`$CODEX_HOME/hooks.json`: on PostCompact, `rebootspec hook` writes the count."""
    command = f'"$REBOOTSPEC_BIN" hook --out {PATCH_FILE}'
    hook = {"hooks": [{"type": "command", "command": command, "timeout": 60}]}
    (CODEX_HOME / "hooks.json").write_text(
        json.dumps({"hooks": {"PostCompact": [hook]}}, indent=2), encoding="utf-8"
    )


def _summaries(classifications: list[str]) -> int:
    """Codex sends one summary request per compaction."""
    return sum(1 for kind in classifications if kind == "summary")


def _exec_scenario(
    codex: Path, server: ScriptedServer, scenario: str, turns: int, version: str = ""
) -> Outcome:
    steps = _Steps(server)
    notes: list[str] = []
    start = steps.mark()
    if scenario == "auto-mid-turn":
        note = _exec(codex, f"Work in three steps. answer with 3 shell tool calls; {OVER}")
        notes += [note] if note else []
    elif scenario == "whoami":  # after each compaction the shell tool runs `rebootspec whoami`
        ask = "answer with 1 whoami shell tool calls"
        hooks = version_key(version) >= POST_COMPACT_FROM
        note = _exec(codex, f"Turn 1. {OVER}", hooks=hooks)
        files = rollouts()
        if not files:
            raise HarvestError("codex exec wrote no rollout file")
        written = [(_summaries([e.classification for e in server.entries]), _patch())]
        for prompt in (f"Turn 2. {ask}", f"Turn 3. {OVER}", f"Turn 4. {ask}"):
            note = _exec(codex, prompt, resume=_thread_of(files[0]), hooks=hooks)
            notes += [f"{prompt[:7]}: {note}"] if note else []
            written.append((_summaries([e.classification for e in server.entries]), _patch()))
        if hooks:
            notes.append(check_hook_file(written, "PostCompact hook"))
    else:
        fail = "; fail the summary" if scenario == "failure" else ""
        note = _exec(codex, f"Turn 1. {OVER}{fail}")
        notes += [note] if note else []
        files = rollouts()
        if not files:
            raise HarvestError("codex exec wrote no rollout file")
        thread = _thread_of(files[0])
        for number in range(2, turns + 2):
            last = number == turns + 1
            prompt = f"Turn {number}." if last else f"Turn {number}. {OVER}{fail}"
            note = _exec(codex, prompt, resume=thread)
            notes += [f"turn {number}: {note}"] if note else []
    files = rollouts()
    if not files:
        raise HarvestError("codex exec wrote no rollout file")
    thread = _thread_of(files[0])
    steps.credit(thread, start)
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    if scenario == "whoami":
        named = version_key(version) >= THREAD_ID_FROM
        notes += check_whoami(server, files[0], named, _summaries, "Codex's shell tool")
    return Outcome(
        threads=[Thread(thread, "own", files[0], steps.caused.get(thread, 0))],
        notes=notes,
    )


class _AppServer:
    """``codex app-server``: initialize, then thread/turn methods, one at a time."""

    def __init__(self, codex: Path, stderr: Path) -> None:
        self.pipe = RpcPipe([str(codex), "app-server"], _env(), stderr)
        self.call("initialize", {"clientInfo": {"name": "harvest", "version": "1.0.0"}})
        self.pipe.send({"method": "initialized"})

    def call(self, method: str, params: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        ident = self.pipe.next_id()
        self.pipe.send({"id": ident, "method": method, "params": params})
        answer = self.pipe.wait_for(lambda m: m.get("id") == ident and "method" not in m, timeout)
        if "error" in answer:
            message = answer["error"].get("message", answer["error"])
            raise HarvestError(f"codex app-server {method}: {message}")
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    def start_thread(self) -> str:
        result = self.call("thread/start", {"cwd": str(HOME / "project")})
        return str(result["thread"]["id"])

    def wait_turn(self, thread: str, timeout: float = 90) -> None:
        self.pipe.wait_for(
            lambda m: (
                m.get("method") == "turn/completed"
                and (m.get("params") or {}).get("threadId") == thread
            ),
            timeout,
        )

    def turn(self, thread: str, text: str) -> str:
        """Run one turn to its end; its id."""
        started = self.call(
            "turn/start", {"threadId": thread, "input": [{"type": "text", "text": text}]}
        )
        self.wait_turn(thread)
        return str((started.get("turn") or {}).get("id", ""))

    def close(self) -> None:
        self.pipe.close()


def _quiet(server: ScriptedServer, seconds: float = 3.0, limit: float = 60.0) -> None:
    """Wait until the server has had no request for ``seconds`` (background agents settle)."""
    deadline = time.monotonic() + limit
    seen, since = len(server.entries), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        if len(server.entries) != seen:
            seen, since = len(server.entries), time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def _app_scenario(
    codex: Path, server: ScriptedServer, version: str, scenario: str, logs: Path
) -> Outcome:
    steps = _Steps(server)
    app = _AppServer(codex, logs / "app-server.stderr")
    notes: list[str] = []
    try:
        parent = app.start_thread()
        threads: list[Thread] = []
        if scenario == "manual":
            mark = steps.mark()
            app.turn(parent, "Turn 1.")
            for _ in range(2):
                app.call("thread/compact/start", {"threadId": parent})
                app.wait_turn(parent)
            app.turn(parent, "Turn 2.")
            steps.credit(parent, mark)
        elif scenario in ("fork", "rollback"):
            mark = steps.mark()
            app.turn(parent, f"Turn 1. {OVER}")
            if scenario == "fork":
                app.turn(parent, f"Turn 2. {OVER}")
            last = app.turn(parent, "Turn 3.")  # compacts before it: two in all (fork)
            steps.credit(parent, mark)
            if scenario == "rollback":
                revert = version_key(version) >= (0, 166, 0)
                if revert:
                    app.call("thread/revert", {"threadId": parent, "beforeTurnId": last})
                else:
                    app.call("thread/rollback", {"threadId": parent, "numTurns": 1})
                mark = steps.mark()
                app.turn(parent, "Turn 4.")
                method = "thread/revert" if revert else "thread/rollback"
                notes.append(f"{method} removed the turn that compacted before it")
                # 0.166's revert starts rollout-<time>-<thread>_<new id>.jsonl for the thread.
                later = [p for p in rollouts() if parent in p.name and _thread_of(p) != parent]
                if later:
                    after = steps.credit("revert", mark)
                    threads.extend(Thread(parent, "revert", p, after) for p in later)
                else:
                    steps.credit(parent, mark)
            else:
                forked = app.call("thread/fork", {"threadId": parent})
                child = str(forked["thread"]["id"])
                mark = steps.mark()
                app.turn(child, f"Fork turn 1. {OVER}")
                app.turn(child, "Fork turn 2.")  # one compaction of the fork's own
                steps.credit(child, mark)
                threads.append(Thread(child, "fork", _file_of(child), steps.caused[child]))
        elif scenario == "subagent":
            mark = steps.mark()
            app.turn(parent, f"Turn 1. {OVER}")
            app.turn(parent, "Turn 2.")  # one compaction before it, in the parent
            steps.credit(parent, mark)
            mark = steps.mark()
            app.turn(parent, "Turn 3. spawn a forked subagent")
            _quiet(server)
            sub_summaries = steps.credit("subagent", mark)
            known = {parent}
            for path in rollouts():
                thread = _thread_of(path)
                if thread not in known:
                    threads.append(Thread(thread, "subagent", path, sub_summaries))
                    known.add(thread)
            if not any(t.role == "subagent" for t in threads):
                notes.append("no subagent file was written")
        threads.insert(0, Thread(parent, "own", _file_of(parent), steps.caused.get(parent, 0)))
    finally:
        app.close()
    return Outcome(threads=threads, notes=notes)


def _proto_manual(codex: Path, server: ScriptedServer, logs: Path) -> Outcome:
    """Manual compaction through ``codex proto`` (submissions as JSON lines on stdin)."""
    steps = _Steps(server)
    pipe = RpcPipe([str(codex), "proto"], _env(), logs / "proto.stderr")
    mark = steps.mark()
    try:
        ops: list[dict[str, Any]] = [
            {"type": "user_input", "items": [{"type": "text", "text": "Turn 1."}]},
            {"type": "compact"},
            {"type": "user_input", "items": [{"type": "text", "text": "Turn 2."}]},
            {"type": "compact"},
            {"type": "user_input", "items": [{"type": "text", "text": "Turn 3."}]},
        ]
        for number, op in enumerate(ops, 1):
            pipe.send({"id": str(number), "op": op})
            pipe.wait_for(
                lambda m, n=number: (
                    (m.get("msg") or {}).get("type") == "task_complete" and m.get("id") == str(n)
                ),
                60,
            )
    finally:
        pipe.close()
    files = rollouts()
    if not files:
        raise HarvestError("codex proto wrote no rollout file")
    thread = _thread_of(files[0])
    steps.credit(thread, mark)
    return Outcome([Thread(thread, "own", files[0], steps.caused.get(thread, 0))], [])


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with Codex ``version`` against ``server``; the rollouts stay in HOME."""
    if not supports(version, scenario):
        raise HarvestError(f"codex {version} cannot do the {scenario} scenario")
    codex = install.bin("codex")
    write_config(server.base_url, version, scenario)
    (HOME / "project").mkdir(parents=True, exist_ok=True)
    if scenario in ("auto-pre-turn", "auto-mid-turn", "failure", "whoami"):
        turns = 2 if scenario != "failure" else 1
        return _exec_scenario(codex, server, scenario, turns, version)
    if scenario == "manual" and version_key(version) < (0, 111, 0):
        return _proto_manual(codex, server, logs)
    return _app_scenario(codex, server, version, scenario, logs)
