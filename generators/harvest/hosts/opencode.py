"""opencode (``opencode-ai``, MIT) driven against the scripted model over its own HTTP API.

opencode runs as ``opencode serve`` on loopback inside the harvest sandbox and is driven over
HTTP: ``POST /session`` (a session), ``POST /session/{id}/message`` (a prompt, answered when the
turn ends), ``POST /session/{id}/summarize`` (manual compaction, what the TUI's ``/compact``
calls), ``POST /session/{id}/fork``. The model is a custom provider in ``opencode.json``
(``@ai-sdk/openai-compatible``, Chat Completions to the scripted server). An automatic compaction
follows a step whose reported usage is over the model's context limit less its output limit.

What the sandbox lacks is prepared outside it (``prepare``): 1.0.x asks npm for the provider
package's ``@latest`` at run time, so a pinned 1.x of it is put into opencode's cache folder; and
opencode wants ``rg`` (Debian's ``ripgrep``, fetched with ``apt-get download`` into the harvest
cache when the machine has none). Each compaction sends exactly one summary request, recognised
by opencode's compaction prompt (``script.SUMMARY_MARKERS``); the server log's summary requests
during a step are the compactions of the session that step drives.

The store is copied out as opencode left it: ``storage/`` (JSON files, up to 1.1) or
``opencode.db`` with its ``-wal`` (SQLite, from 1.2) under ``raw/``. opencode never checkpoints
its write-ahead log on exit, so the case file ``opencode.db`` is that pair checkpointed by
SQLite (the WAL's pages copied into the file, as a clean close does; no VACUUM, no rewrite).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ..server import ScriptedServer
from .common import (
    HOME,
    PROJECT,
    HarvestError,
    Install,
    base_env,
    cache_root,
    install,
    latest,
    published,
    version_key,
)
from .result import Outcome, Thread
from .whoami import check_whoami

PACKAGE = "opencode-ai"
# The linux-x64 binary the wrapper installs. Its own versions can run ahead of the wrapper's
# (Nov 2026: ``opencode-linux-x64`` 1.18.34, two days after ``opencode-ai`` 1.18.33, with no
# wrapper of that version on the registry); such a version is run from the binary package alone,
# as Kilo's driver always does (``package``), and ``--latest`` takes the newer of the two.
BINARY = "opencode-linux-x64"
LICENCE = "MIT"
SDK_PACKAGE = "@ai-sdk/openai-compatible"
SDK_VERSION = "1.0.20"  # a 1.x (AI SDK 5, what opencode 1.x loads); 1.0.x would fetch @latest
CONTEXT = 50000  # the model's context limit in opencode.json; the output limit below
OUTPUT = 4096
OVER = "report 200000 input tokens"  # over CONTEXT - OUTPUT whatever the version's formula
DATA = HOME / ".local" / "share" / "opencode"
MODEL = {"providerID": "harvest", "modelID": "harvest-model"}
SCENARIOS = ("auto", "manual", "fork", "subagent", "failure", "cut-short", "prune", "whoami")
# Issue #34: opencode's bash tool names no session, so `whoami` must refuse. (The shipped
# plugin is not driven here: with any plugin configured, `opencode serve` 1.18 never answered
# in the offline sandbox.)
# Summary requests as the server log names them; a cut-short summary still replaced the history.
COMPACTING = ("summary", "summary-cut")


def supports(version: str, scenario: str) -> bool:
    """Every scenario runs on every 1.x (fork and the task tool exist from 1.0.0)."""
    return scenario in SCENARIOS and not version.startswith("0.")


def package(version: str) -> str:
    """The npm package to install for ``version``: the wrapper, or its binary alone when the
    registry has no wrapper of that version (a cached install needs no look-up)."""
    for name in (PACKAGE, BINARY):
        if (cache_root() / f"{name}@{version}" / ".complete").exists():
            return name
    return PACKAGE if published(PACKAGE, version) else BINARY


def newest() -> str:
    """The newest version anyone can install: the wrapper's or, when it runs ahead, the
    binary's (the drift check, ``--latest``)."""
    return max(latest(PACKAGE), latest(BINARY), key=version_key)


def sqlite_era(version: str) -> bool:
    """opencode keeps sessions in ``opencode.db`` from 1.2, in JSON files before."""
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) >= (1, 2)


def rg_folder() -> Path:
    """Where the harvest keeps a Debian ``ripgrep`` unpacked (its ``usr/bin/rg``)."""
    return cache_root().parent / "deb" / "ripgrep"


def prepare(version: str) -> None:
    """Outside the sandbox: the provider package for 1.0.x and an ``rg``, both into the cache."""
    install(SDK_PACKAGE, SDK_VERSION)
    if shutil.which("rg") or (rg_folder() / "usr" / "bin" / "rg").exists():
        return
    folder = rg_folder().parent
    folder.mkdir(parents=True, exist_ok=True)
    try:
        got = subprocess.run(
            ["apt-get", "download", "ripgrep"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        debs = sorted(folder.glob("ripgrep_*.deb"))
        if got.returncode != 0 or not debs:
            raise HarvestError(f"apt-get download ripgrep failed: {got.stderr.strip()[-200:]}")
        subprocess.run(["dpkg", "-x", str(debs[-1]), str(rg_folder())], check=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        raise HarvestError(f"opencode needs rg (Debian ripgrep): {error}") from None


def binary(folder: Path) -> Path:
    """The platform binary the ``opencode`` wrapper would start (signals reach it directly)."""
    for name in ("opencode-linux-x64", "opencode-linux-x64-baseline", "opencode-linux-arm64"):
        path = folder / "node_modules" / name / "bin" / "opencode"
        if path.exists():
            return path
    raise HarvestError(f"no opencode binary for this platform under {folder}")


def write_config(
    base_url: str,
    prune: bool = False,
    target: Path | None = None,
    context: int = CONTEXT,
) -> None:
    """The global ``opencode.json``: the scripted provider, its model and small limits; with
    ``prune``, tool-output pruning switched on (off by default from 1.14, on before). A member
    of opencode's family (Kilo) reads the same config from its own ``target``."""
    target = target or HOME / ".config" / "opencode" / "opencode.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    provider = {
        "npm": SDK_PACKAGE,
        "name": "harvest",
        "options": {"baseURL": base_url, "apiKey": "harvest"},
        "models": {
            "harvest-model": {
                "name": "harvest-model",
                "limit": {"context": context, "output": OUTPUT},
            }
        },
    }
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {"harvest": provider},
        "model": "harvest/harvest-model",
        "small_model": "harvest/harvest-model",
        "autoupdate": False,
        "share": "disabled",
    }
    if prune:  # 1.14+ prunes only when asked (`compaction.prune`); 1.2 unless told not to
        config["compaction"] = {"prune": True}
    target.write_text(json.dumps(config, indent=2), encoding="utf-8")


def _cache_version(program: Path) -> str | None:
    """The cache layout version the binary expects (1.0.x wipes a cache with another one)."""
    marker = b'CACHE_VERSION = "'
    with program.open("rb") as handle:
        data = handle.read()
    start = data.find(marker)
    if start < 0:
        return None
    end = data.find(b'"', start + len(marker))
    return data[start + len(marker) : end].decode("ascii", "replace")


def seed_cache(program: Path) -> None:
    """Put the pinned provider package where opencode looks first, marked as installed."""
    cache = HOME / ".cache" / "opencode"
    cache.mkdir(parents=True, exist_ok=True)
    modules = cache_root() / f"{SDK_PACKAGE}@{SDK_VERSION}" / "node_modules"
    if not modules.exists():
        raise HarvestError(f"{SDK_PACKAGE}@{SDK_VERSION} is not in the harvest cache")
    shutil.copytree(modules, cache / "node_modules", symlinks=True, dirs_exist_ok=True)
    dependencies = {"dependencies": {SDK_PACKAGE: "latest"}}  # what 1.0.x checks before fetching
    (cache / "package.json").write_text(json.dumps(dependencies), encoding="utf-8")
    version = _cache_version(program)
    if version:
        (cache / "version").write_text(version, encoding="utf-8")


def _env(prefix: str = "OPENCODE") -> dict[str, str]:
    """The server's environment: ``rg`` on PATH, updates, plugins, downloads and sharing off
    (``prefix``: the family member's variable names, ``KILO`` for Kilo)."""
    folder = HOME / "bin"
    folder.mkdir(parents=True, exist_ok=True)
    found = shutil.which("rg")
    rg = Path(found) if found else rg_folder() / "usr" / "bin" / "rg"
    if not (folder / "rg").exists():
        (folder / "rg").symlink_to(rg)
    return {
        **base_env(),
        "PATH": f"{folder}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        f"{prefix}_DISABLE_AUTOUPDATE": "1",
        f"{prefix}_DISABLE_DEFAULT_PLUGINS": "1",  # no plugin install from npm
        f"{prefix}_DISABLE_LSP_DOWNLOAD": "1",
        f"{prefix}_DISABLE_MODELS_FETCH": "1",  # 1.1+; 1.0.x tries models.dev and fails fast
        f"{prefix}_DISABLE_SHARE": "1",
    }


class Api:
    """``opencode serve`` on a loopback port, and JSON calls to it."""

    def __init__(
        self,
        program: Path,
        stderr: Path,
        env: dict[str, str] | None = None,
        startup: float = 60,
    ) -> None:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = int(probe.getsockname()[1])
        probe.close()
        self._log = stderr.open("w")
        argv = [str(program), "serve", "--port", str(self.port), "--hostname", "127.0.0.1"]
        self.process = subprocess.Popen(
            argv, cwd=PROJECT, env=env or _env(), stdout=self._log, stderr=self._log
        )
        deadline = time.monotonic() + startup
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise HarvestError(f"{program.name} serve exited (rc={self.process.returncode})")
            try:
                self.call("GET", "/config", timeout=2)
                return
            except HarvestError:
                time.sleep(0.3)
        self.close()  # never leave a server that did not answer running behind the run
        raise HarvestError(f"{program.name} serve did not answer within {startup:.0f} s")

    def call(self, method: str, path: str, body: Any = None, timeout: float = 120) -> Any:
        """One request; the decoded JSON answer, or HarvestError naming the status."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                text = answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")[:200]
            raise HarvestError(f"opencode {method} {path}: HTTP {error.code} {detail}") from None
        except (OSError, ValueError) as error:
            raise HarvestError(f"opencode {method} {path}: {error}") from None
        return json.loads(text) if text.strip() else None

    def session(self) -> str:
        return str(self.call("POST", "/session", {})["id"])

    def prompt(self, session: str, text: str) -> Any:
        body = {"parts": [{"type": "text", "text": text}], "model": MODEL}
        return self.call("POST", f"/session/{session}/message", body, timeout=180)

    def close(self) -> None:
        """End the server (only this child): SIGTERM, then SIGKILL after 10 s."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


def quiet(server: ScriptedServer, seconds: float = 1.5, limit: float = 90.0) -> None:
    """Wait until the model has had no request for ``seconds`` (title and summary requests and
    compactions that run after the HTTP answer settle)."""
    deadline = time.monotonic() + limit
    seen, since = len(server.entries), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if len(server.entries) != seen:
            seen, since = len(server.entries), time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def compactions(classifications: list[str]) -> int:
    """Compactions in a stretch of the server log: one summary request each (opencode sends
    exactly one per compaction; a summary cut short still ended in a compaction)."""
    return sum(1 for value in classifications if value in COMPACTING)


class _Steps:
    """Compactions per session, from the server log entries of the steps that drive it."""

    def __init__(self, server: ScriptedServer) -> None:
        self.server = server
        self.caused: dict[str, int] = {}

    def mark(self) -> int:
        return len(self.server.entries)

    def credit(self, session: str, since: int) -> int:
        quiet(self.server)
        done = compactions([e.classification for e in self.server.entries[since:]])
        self.caused[session] = self.caused.get(session, 0) + done
        return done


def _sessions(api: Api) -> list[dict[str, Any]]:
    listed = api.call("GET", "/session")
    return [s for s in listed if isinstance(s, dict)] if isinstance(listed, list) else []


def _scenario(api: Api, server: ScriptedServer, scenario: str) -> tuple[list[Thread], list[str]]:
    """Drive one scenario; the sessions (with their compactions) and notes."""
    steps = _Steps(server)
    notes: list[str] = []
    own = api.session()
    threads: list[Thread] = []

    def turn(session: str, text: str) -> None:
        mark = steps.mark()
        api.prompt(session, text)
        steps.credit(session, mark)

    def summarize(session: str) -> None:
        mark = steps.mark()
        api.call("POST", f"/session/{session}/summarize", MODEL, timeout=180)
        steps.credit(session, mark)

    if scenario == "whoami":  # as auto; the turns after a compaction run `rebootspec whoami`
        ask = "answer with 1 whoami shell tool calls"
        for text in (f"Turn 1. {OVER}", f"Turn 2. {ask}", f"Turn 3. {OVER}", f"Turn 4. {ask}"):
            turn(own, text)
        notes += check_whoami(server, Path(), False, compactions, "opencode's bash tool")
    elif scenario == "auto":
        # 1.0.x compacts before the next prompt and summarises that prompt with the rest, so
        # its directive is lost: every other turn reports the usage (two compactions in all).
        turn(own, f"Turn 1. {OVER}")
        turn(own, "Turn 2.")
        turn(own, f"Turn 3. {OVER}")
        turn(own, "Turn 4.")
    elif scenario == "manual":
        turn(own, "Turn 1.")
        summarize(own)
        turn(own, "Turn 2.")
        summarize(own)
        turn(own, "Turn 3.")
    elif scenario in ("failure", "cut-short"):
        # A 400, not a 500: opencode retries a 500 with a doubling delay (2 s, 4 s, ... measured
        # past 64 s on 1.0.0), so only an error it gives up on ends the compaction failed.
        directive = "refuse the summary" if scenario == "failure" else "cut the summary short"
        turn(own, f"Turn 1. {OVER}; {directive}")
        turn(own, "Turn 2.")
        turn(own, "Turn 3.")
    elif scenario == "prune":
        # Nine tool outputs of 30,000 characters in turn 1 (about 67,500 tokens by opencode's
        # estimate); after two later turns the older ones are pruned (OPC-8): no compaction.
        turn(own, "Turn 1. answer with 9 long shell tool calls")
        turn(own, "Turn 2.")
        turn(own, "Turn 3.")
        turn(own, "Turn 4.")
    elif scenario == "fork":
        turn(own, f"Turn 1. {OVER}")
        turn(own, "Turn 2.")
        forked = api.call("POST", f"/session/{own}/fork", {})
        child = str(forked["id"])
        turn(child, f"Fork turn 1. {OVER}")
        turn(child, "Fork turn 2.")
        turn(child, "Fork turn 3.")
        turn(own, "Turn 3.")  # the source goes on after the fork: no compaction of its own
        threads.append(Thread(child, "fork", Path(), steps.caused.get(child, 0)))
        notes.append("forked after turn 2 (after the source's compaction)")
    elif scenario == "subagent":
        turn(own, f"Turn 1. {OVER}")
        turn(own, "Turn 2.")
        mark = steps.mark()
        api.prompt(own, "Turn 3. spawn a task subagent")
        known = {own}
        children = [s for s in _sessions(api) if s.get("id") not in known]
        sub = steps.credit("subagent", mark)
        for spawned in children:
            threads.append(Thread(str(spawned["id"]), "subagent", Path(), sub))
        if not children:
            notes.append("no subagent session was written")
    threads.insert(0, Thread(own, "own", Path(), steps.caused.get(own, 0)))
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    cut = sum(1 for e in server.entries if e.classification == "summary-cut")
    if cut:
        notes.append(f"{cut} summary stream(s) cut short on purpose")
    return threads, notes


def checkpoint(raw: Path, target: Path) -> None:
    """``target``: a copy of ``raw`` with its write-ahead log moved into the file by SQLite.

    The pages are the ones opencode wrote; SQLite copies them from the log into the file as a
    clean close would (opencode never closes its database cleanly). No VACUUM.
    """
    shutil.copyfile(raw, target)
    wal = raw.with_name(raw.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, target.with_name(target.name + "-wal"))
    connection = sqlite3.connect(target)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    for suffix in ("-wal", "-shm"):
        target.with_name(target.name + suffix).unlink(missing_ok=True)


def collect(version: str, out: Path) -> Path:
    """Copy the store out of the private home; the path a case reads (db file or storage)."""
    if sqlite_era(version):
        raw = out / "raw"
        raw.mkdir(parents=True, exist_ok=True)
        for name in ("opencode.db", "opencode.db-wal"):
            if (DATA / name).exists():
                shutil.copyfile(DATA / name, raw / name)
        if not (raw / "opencode.db").exists():
            raise HarvestError("opencode wrote no opencode.db")
        checkpoint(raw / "opencode.db", out / "opencode.db")
        return out / "opencode.db"
    if not (DATA / "storage").is_dir():
        raise HarvestError("opencode wrote no storage folder")
    shutil.copytree(DATA / "storage", out / "storage", dirs_exist_ok=True)
    return out / "storage"


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with opencode ``version`` against ``server``; the store is copied into
    ``logs`` (the run's output folder) and every thread names it."""
    if not supports(version, scenario):
        raise HarvestError(f"opencode {version} cannot do the {scenario} scenario")
    program = binary(install.folder)
    write_config(server.base_url, prune=scenario == "prune" and version_key(version) >= (1, 14))
    seed_cache(program)
    PROJECT.mkdir(parents=True, exist_ok=True)
    api = Api(program, logs / "opencode-serve.stderr")
    try:
        threads, notes = _scenario(api, server, scenario)
    finally:
        api.close()
    store = collect(version, logs)
    return Outcome([Thread(t.thread, t.role, store, t.caused) for t in threads], notes)
