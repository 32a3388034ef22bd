"""pi coding agent (``@mariozechner/pi-coding-agent`` up to 0.73.1, then
``@earendil-works/pi-coding-agent``; MIT) driven against the scripted model.

pi speaks Chat Completions to a custom provider from ``models.json``. It compacts after a turn
whose reported usage is above ``contextWindow - 16384`` (automatic), on the RPC ``compact``
command (manual), and writes a ``compaction`` entry per compaction. One compaction that splits a
turn sends two summary requests (history and turn prefix), so compactions are counted as runs
of consecutive summary requests in the server log, never as requests.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from ..server import ScriptedServer
from .common import (
    HOME,
    HarvestError,
    Install,
    RpcPipe,
    base_env,
    run,
    version_key,
)
from .common import node_folder as common_node_folder
from .result import Outcome, Thread
from .whoami import check_hook_file, check_whoami, hook_file_value

# The package moved: releases up to 0.73.1 are the old name's, 0.74.0 and later the new one's.
# PACKAGE is the newest name (`--latest` asks the registry about it); `package()` picks per version.
PACKAGE = "@earendil-works/pi-coding-agent"
OLD_PACKAGE = "@mariozechner/pi-coding-agent"
MOVED = (0, 74, 0)
LICENCE = "MIT"
# Newer releases need a newer Node than the system's (0.82.0 and 1.x declare `engines.node`
# ">=22.19.0"; on Node 20 they fail at start). When the installed package asks for more than
# the system's Node, the runs take `node@22` from npm into the install cache (`prepare`,
# `common.node_folder`).
# Published versions that npm cannot install: libraries they pin exactly were never published
# or were unpublished (npm ETARGET / E404). The sweep lists them as not run, with this reason.
# (1.6.0 was here until @earendil-works/pi-agent-core 1.6.0 reached the registry.)
UNINSTALLABLE = {
    "1.0.3": "npm cannot install it: no @earendil-works/chord matches its ^1.0.3 (ETARGET)",
}
AGENT_DIR = HOME / ".pi" / "agent"
OVER = "report 90000 input tokens"  # over contextWindow 100000 - 16384
# No auto-mid-turn: pi checks its threshold only when a prompt's run ends (measured on 0.30.2
# and 0.73.1: three tool calls each reporting usage over the limit caused no compaction).
SCENARIOS = ("auto-pre-turn", "manual", "fork", "failure", "whoami")
# pi 0.82.0 and later name the session to the bash tool (PI_SESSION_FILE): `whoami` answers;
# before, it must refuse (issue #34).
SESSION_VARIABLES_FROM = (0, 82, 0)


def supports(version: str, scenario: str) -> bool:
    """Whether this version can run the scenario (RPC fork from 0.6x; compaction from 0.12)."""
    key = version_key(version)
    if scenario in ("auto-pre-turn", "failure", "manual", "whoami"):
        return key >= (0, 30, 0)
    if scenario == "fork":
        return key >= (0, 60, 0)
    return False


def package(version: str) -> str:
    """The npm package that published ``version``."""
    return PACKAGE if version_key(version) >= MOVED else OLD_PACKAGE


def installable(version: str) -> str | None:
    """Why npm cannot install ``version`` (the sweep says so), or None."""
    return UNINSTALLABLE.get(version)


def node_folder(version: str) -> Path | None:
    """The folder of a Node new enough for ``version`` to put first on PATH, or None when the
    system's will do."""
    return common_node_folder(package(version), version, "pi")


def prepare(version: str) -> None:
    """Outside the sandbox (it has no network): fetch the Node this version needs."""
    node_folder(version)


def write_config(base_url: str) -> None:
    """``models.json`` (the scripted provider) and ``settings.json`` (small kept tail, no retry)."""
    AGENT_DIR.mkdir(parents=True, exist_ok=True)
    model = {
        "id": "harvest-model",
        "name": "harvest-model",
        "contextWindow": 100000,
        "maxTokens": 4096,
        "reasoning": False,
        "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        # On the model, not the provider: 0.30 reads it there only.
        "compat": {"supportsDeveloperRole": False, "supportsStore": False},
    }
    provider = {
        "baseUrl": base_url,
        "api": "openai-completions",
        "apiKey": "HARVEST_API_KEY",
        "models": [model],
    }
    models = {"providers": {"harvest": provider}}
    (AGENT_DIR / "models.json").write_text(json.dumps(models, indent=2), encoding="utf-8")
    settings = {
        "defaultProvider": "harvest",
        "defaultModel": "harvest-model",
        "compaction": {"enabled": True, "keepRecentTokens": 1},
        "retry": {"enabled": False},
    }
    (AGENT_DIR / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")


# The Node this run's version needs first on PATH (`drive` sets it; None: the system's).
_NODE: list[Path] = []
_VERSION: list[str] = []  # the version `drive` runs (the whoami check's expectation)


def _env() -> dict[str, str]:
    env = base_env()
    if _NODE:
        env["PATH"] = f"{_NODE[0]}:{env['PATH']}"
    return {
        **env,
        "PI_CODING_AGENT_DIR": str(AGENT_DIR),
        "PI_OFFLINE": "1",
        "PI_TELEMETRY": "0",
        "PI_SKIP_VERSION_CHECK": "1",
        "HARVEST_API_KEY": "harvest",
        # The shipped extension (whoami scenario): where it writes, and which rebootspec it runs.
        "REBOOTSPEC_HOOK_OUT": str(PATCH_FILE),
        "REBOOTSPEC_COMMAND": env["REBOOTSPEC_BIN"],
    }


def sessions() -> list[Path]:
    """Every session file written so far, in name order (names start with a timestamp)."""
    return sorted((AGENT_DIR / "sessions").rglob("*.jsonl"), key=lambda p: p.name)


def _session_id(path: Path) -> str:
    return path.stem.rpartition("_")[2]


def compactions(classifications: list[str]) -> int:
    """Compactions in a stretch of the server log: runs of consecutive summary requests.

    pi sends one or two summary requests per compaction (two when the kept part starts inside
    a turn: the history and the turn's prefix are summarised separately, back to back), and
    always a model request of its own between two compactions.
    """
    runs = 0
    previous = ""
    for classification in classifications:
        if classification == "summary" and previous != "summary":
            runs += 1
        previous = classification
    return runs


class _Steps:
    """Compactions per step of the scenario, read from the server log (``compactions``)."""

    def __init__(self, server: ScriptedServer) -> None:
        self.server = server
        self.caused = 0

    def mark(self) -> int:
        return len(self.server.entries)

    def credit(self, since: int) -> int:
        done = compactions([e.classification for e in self.server.entries[since:]])
        self.caused += done
        return done


def _quiet(server: ScriptedServer, seconds: float = 2.0, limit: float = 60.0) -> None:
    """Wait until the server has had no request for ``seconds``."""
    deadline = time.monotonic() + limit
    seen, since = len(server.entries), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if len(server.entries) != seen:
            seen, since = len(server.entries), time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def _print_scenario(pi: Path, server: ScriptedServer, scenario: str) -> Outcome:
    steps = _Steps(server)
    notes: list[str] = []
    fail = "; fail the summary" if scenario == "failure" else ""
    if scenario == "auto-mid-turn":
        prompts = [f"Work in three steps. answer with 3 shell tool calls; {OVER}"]
    elif fail:
        prompts = [f"Turn 1. {OVER}{fail}", "Turn 2."]
    elif scenario == "whoami":  # after each compaction, the bash tool runs `rebootspec whoami`
        ask = "answer with 1 whoami shell tool calls"
        prompts = [f"Turn 1. {OVER}", f"Turn 2. {ask}", f"Turn 3. {OVER}", f"Turn 4. {ask}"]
    else:
        prompts = [f"Turn 1. {OVER}", f"Turn 2. {OVER}", "Turn 3."]
    # The extension's events as it uses them: checked on the releases of the new package only.
    new = version_key(_VERSION[0]) >= MOVED
    hooked = scenario == "whoami" and new and _install_extension()
    written: list[tuple[int, object]] = []  # (compactions caused so far, the extension's file)
    for number, prompt in enumerate(prompts):
        argv = [str(pi), "-p", prompt] if number == 0 else [str(pi), "--continue", "-p", prompt]
        result = run(argv, _env())
        if result.returncode:
            notes.append(f"turn {number + 1}: pi rc={result.returncode}")
        if hooked:
            _quiet(server, 1.0, 20.0)
            caused = compactions([e.classification for e in server.entries])
            written.append((caused, hook_file_value(PATCH_FILE)))
    if hooked:
        notes.append(check_hook_file(written, "extension"))
    # Over the whole log, not per process: pi 0.30 in print mode may exit while a compaction's
    # summary request is out, and the next process sends the same request again first; the
    # two belong to one compaction (one record), and no turn request separates them.
    steps.caused = compactions([e.classification for e in server.entries])
    if server.entries and server.entries[-1].classification == "summary":
        notes.append("the log ends with a summary request: its compaction may be lost")
    files = sessions()
    if not files:
        raise HarvestError("pi wrote no session file")
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    summaries = server.summaries()
    if summaries != steps.caused:
        notes.append(f"{summaries} summary requests for {steps.caused} compactions")
    if scenario == "whoami":
        named = version_key(_VERSION[0]) >= SESSION_VARIABLES_FROM
        notes += check_whoami(server, files[0], named, compactions, "pi's bash tool")
    return Outcome([Thread(_session_id(files[0]), "own", files[0], steps.caused)], notes)


# Issue #34: the extension shipped in conformance/hooks/pi writes the count on session_compact.
PATCH_FILE = HOME / "patch.json"


def _install_extension() -> bool:
    """The shipped extension in the private agent folder (pi loads extensions/ by itself);
    False when this rebootspec has none (an install without the hooks)."""
    from importlib import resources

    source = resources.files("rebootspec.conformance") / "hooks" / "pi" / "rebootspec-count.ts"
    if not source.is_file():
        return False
    target = AGENT_DIR / "extensions" / "rebootspec-count.ts"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return True


class _Rpc:
    """``pi --mode rpc``: one command at a time, waiting for its response or the turn's end."""

    def __init__(self, pi: Path, stderr: Path) -> None:
        self.pipe = RpcPipe([str(pi), "--mode", "rpc"], _env(), stderr)
        self._n = 0

    def command(self, body: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        self._n += 1
        ident = f"harvest-{self._n}"
        self.pipe.send({"id": ident, **body})
        answer = self.pipe.wait_for(
            lambda m: m.get("type") == "response" and m.get("id") == ident, timeout
        )
        if not answer.get("success", False):
            raise HarvestError(f"pi rpc {body.get('type')}: {answer.get('error', 'failed')}")
        data = answer.get("data")
        return data if isinstance(data, dict) else {}

    def prompt(self, text: str, server: ScriptedServer) -> None:
        self.command({"type": "prompt", "message": text})
        self.pipe.wait_for(lambda m: m.get("type") == "agent_end", 90)
        _quiet(server)  # an automatic compaction runs after the turn's end

    def close(self) -> None:
        self.pipe.close()


def _rpc_scenario(pi: Path, server: ScriptedServer, scenario: str, logs: Path) -> Outcome:
    steps = _Steps(server)
    rpc = _Rpc(pi, logs / "pi-rpc.stderr")
    notes: list[str] = []
    threads: list[Thread] = []
    try:
        if scenario == "manual":
            rpc.command({"type": "set_auto_compaction", "enabled": False})
            rpc.prompt("Turn 1.", server)
            for number in (2, 3):
                mark = steps.mark()
                rpc.command({"type": "compact"}, timeout=90)
                steps.credit(mark)
                rpc.prompt(f"Turn {number}.", server)
            files = sessions()
            own = files[0]
            threads.append(Thread(_session_id(own), "own", own, steps.caused))
        else:  # fork: one compaction in the source, fork before turn 2, one more in the fork
            mark = steps.mark()
            rpc.prompt(f"Turn 1. {OVER}", server)
            steps.credit(mark)
            rpc.prompt("Turn 2.", server)
            source = sessions()
            if len(source) != 1:
                raise HarvestError(f"pi wrote {len(source)} files before the fork")
            own_caused = steps.caused
            messages = rpc.command({"type": "get_fork_messages"}).get("messages") or []
            if not messages:
                raise HarvestError("pi offered no message to fork from")
            rpc.command({"type": "fork", "entryId": messages[-1]["entryId"]})
            steps.caused = 0
            mark = steps.mark()
            rpc.prompt(f"Fork turn 1. {OVER}", server)
            steps.credit(mark)
            rpc.prompt("Fork turn 2.", server)
            threads.append(Thread(_session_id(source[0]), "own", source[0], own_caused))
            for path in sessions():
                if path != source[0]:
                    threads.append(Thread(_session_id(path), "fork", path, steps.caused))
            notes.append("forked from the user message of turn 2 (after the first compaction)")
    finally:
        rpc.close()
    if server.summaries() != sum(t.caused for t in threads):
        notes.append(f"{server.summaries()} summary requests in all")
    return Outcome(threads, notes)


def _generic(install: Install) -> Install:
    """The install seen at a generic path inside the sandbox: pi 1.x writes the path of its own
    documentation (inside the install) into the session's `system` entry, and the cache's real
    path names this machine's home. A bind mount, so Node's real paths are the generic ones."""
    target = HOME / ".local" / "lib" / "pi"
    target.mkdir(parents=True, exist_ok=True)
    argv = ["mount", "--bind", str(install.folder), str(target)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise HarvestError(f"cannot mount the pi install at {target}: {done.stderr.strip()}")
    return Install(target, install.seconds, install.warm)


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with pi ``version`` against ``server``; the sessions stay in HOME."""
    if not supports(version, scenario):
        raise HarvestError(f"pi {version} cannot do the {scenario} scenario")
    pi = _generic(install).bin("pi")
    _VERSION[:] = [version]
    _NODE[:] = [folder] if (folder := node_folder(version)) is not None else []
    write_config(server.base_url)
    if scenario in ("auto-pre-turn", "auto-mid-turn", "failure", "whoami"):
        return _print_scenario(pi, server, scenario)
    return _rpc_scenario(pi, server, scenario, logs)
