"""The Kilo Code CLI (``@kilocode/cli``, MIT), a member of opencode's family, driven like opencode.

Kilo is opencode's code under another name (spec/hosts/kilo.md): ``kilo serve`` speaks opencode's
HTTP API, reads the same ``opencode.json`` shape (its own file is ``~/.config/kilo/kilo.json``)
and keeps its sessions in ``~/.local/share/kilo/kilo.db``. So this driver is opencode's
(``opencode.Api``, ``opencode.quiet``, ``opencode.checkpoint``, the provider config) with Kilo's
names: the platform package ``@kilocode/cli-linux-x64`` installed directly (the wrapper package
names platform versions this registry lacks), its ``KILO_*`` switches, its data folder.

Scenarios (issue #42): ``plain`` (no compaction), ``manual`` (one ``/summarize``), ``auto`` (a
reply reporting 150,000 prompt tokens against a model whose ``limit.context`` is 100,000),
``two`` (two automatic ones), ``failure`` (the summary request fails, then the next prompt):
7.7.x retries an HTTP 500 at most ``KILO_SESSION_RETRY_LIMIT`` times, 7.0.x retries it without
end, so 7.0.x is refused with an HTTP 400 (an error no client retries). The expected count is
the server log's summary requests that were answered (``opencode.compactions``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..server import ScriptedServer
from . import opencode
from .common import (
    HOME,
    PROJECT,
    HarvestError,
    Install,
    cache_root,
    published,
    version_key,
)
from .result import Outcome, Thread

PACKAGE = "@kilocode/cli-linux-x64"
# The release is the wrapper's version: ``--latest`` asks it, since the platform package's own
# newest can lag behind (Nov 2026: the wrapper at 7.8.1, linux-x64 at 7.7.9 on this registry).
# A release without its linux-x64 binary is a "not run" row (``installable``), never a silent
# run of an older binary.
RELEASE = "@kilocode/cli"
LICENCE = "MIT"
CONTEXT = 100000  # the model's limit.context; a reply reporting OVER is past it
OVER = "report 150000 input tokens"
DATA = HOME / ".local" / "share" / "kilo"
CONFIG = HOME / ".config" / "kilo" / "kilo.json"
RETRIES = "3"  # KILO_SESSION_RETRY_LIMIT: how often 7.7.x retries a failed request
SCENARIOS = ("plain", "manual", "auto", "two", "failure")
# 7.7's first start runs its migrations and loads a 170 MB binary: over a minute on a busy machine.
STARTUP = 240.0


def supports(version: str, scenario: str) -> bool:
    """Every scenario runs on every 7.x binary."""
    return scenario in SCENARIOS and version.startswith("7.")


def prepare(version: str) -> None:
    """Outside the sandbox: an ``rg`` (opencode's preparation; the provider is built in)."""
    opencode.prepare(version)


def installable(version: str) -> str | None:
    """Why ``version`` cannot be run here (no linux-x64 binary on the registry), or None.

    A complete install in the cache needs no look-up (a warm sweep runs offline)."""
    if (cache_root() / f"{PACKAGE}@{version}" / ".complete").exists():
        return None
    if published(PACKAGE, version):
        return None
    return f"the registry has no {PACKAGE} {version} (the binary {RELEASE} {version} installs)"


def binary(folder: Path) -> Path:
    """The compiled binary of the platform package."""
    path = folder / "node_modules" / "@kilocode" / "cli-linux-x64" / "bin" / "kilo"
    if not path.exists():
        raise HarvestError(f"no kilo binary under {folder}")
    return path


def _env() -> dict[str, str]:
    return {**opencode._env("KILO"), "KILO_SESSION_RETRY_LIMIT": RETRIES}


def _failure_directive(version: str) -> str:
    """A 500 where the retries end (7.7.x), a 400 where they never would (7.0.x)."""
    return "fail the summary" if version_key(version) >= (7, 7) else "refuse the summary"


def _scenario(
    api: opencode.Api, server: ScriptedServer, version: str, scenario: str
) -> tuple[str, int]:
    """Drive one scenario on one session; its id and the compactions the server log saw."""
    own = api.session()
    done = 0

    def turn(text: str) -> None:
        nonlocal done
        mark = len(server.entries)
        api.prompt(own, text)
        opencode.quiet(server)
        done += opencode.compactions([e.classification for e in server.entries[mark:]])

    if scenario == "plain":
        turn("Turn 1.")
        turn("Turn 2.")
    elif scenario == "manual":
        turn("Turn 1.")
        mark = len(server.entries)
        api.call("POST", f"/session/{own}/summarize", opencode.MODEL, timeout=180)
        opencode.quiet(server)
        done += opencode.compactions([e.classification for e in server.entries[mark:]])
        turn("Turn 2.")
    elif scenario == "auto":
        turn(f"Turn 1. {OVER}")
        turn("Turn 2.")
    elif scenario == "two":
        turn(f"Turn 1. {OVER}")
        turn("Turn 2.")
        turn(f"Turn 3. {OVER}")
        turn("Turn 4.")
    elif scenario == "failure":
        turn(f"Turn 1. {OVER}; {_failure_directive(version)}")
        turn("Turn 2.")
    return own, done


def collect(out: Path) -> Path:
    """``kilo.db`` and its ``-wal`` as Kilo left them under ``raw/``; the case file is the pair
    checkpointed by SQLite (opencode's ``checkpoint``)."""
    raw = out / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    for name in ("kilo.db", "kilo.db-wal"):
        if (DATA / name).exists():
            shutil.copyfile(DATA / name, raw / name)
    if not (raw / "kilo.db").exists():
        raise HarvestError("kilo wrote no kilo.db")
    opencode.checkpoint(raw / "kilo.db", out / "kilo.db")
    return out / "kilo.db"


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with Kilo ``version`` against ``server``; the store is copied into
    ``logs`` and the one thread names it."""
    if not supports(version, scenario):
        raise HarvestError(f"kilo {version} cannot do the {scenario} scenario")
    program = binary(install.folder)
    opencode.write_config(server.base_url, target=CONFIG, context=CONTEXT)
    PROJECT.mkdir(parents=True, exist_ok=True)
    api = opencode.Api(program, logs / "kilo-serve.stderr", env=_env(), startup=STARTUP)
    try:
        own, caused = _scenario(api, server, version, scenario)
    finally:
        api.close()
    store = collect(logs)
    notes = []
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    return Outcome([Thread(own, "own", store, caused)], notes)
