"""One harvest run from outside the sandbox: install, run inside ``unshare``, read the result."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .hosts import chat_loop, cline, codex, copilot_cli, gemini, kilo, opencode, pi, qwen_code
from .hosts.common import HarvestError, Install, NotRunnable, install

HOSTS = {
    "codex": codex,
    "pi": pi,
    "gemini": gemini,
    "opencode": opencode,
    "kilo": kilo,
    "chat-loop": chat_loop,
    "copilot-cli": copilot_cli,
    "qwen-code": qwen_code,
    "cline": cline,
}


def install_host(host: str, version: str) -> Install:
    """The pinned install: a venv from PyPI for the chat loop, else an npm prefix."""
    if host == "chat-loop":
        return chat_loop.install_pinned(version)
    module = HOSTS[host]
    why = module.installable(version) if hasattr(module, "installable") else None
    if why is not None:
        raise NotRunnable(f"{host} {version} not run: {why}")
    # A host whose package moved names the package of each version (pi).
    package = module.package(version) if hasattr(module, "package") else module.PACKAGE
    return install(package, version)


@dataclass
class RunResult:
    """A run's result.json plus the install and wall times measured outside."""

    host: str
    version: str
    scenario: str
    out: Path
    data: dict[str, Any] = field(default_factory=dict)
    install_seconds: float = 0.0
    warm: bool = True
    seconds: float = 0.0

    @property
    def error(self) -> str:
        """The run's one-line error, or empty."""
        return str(self.data.get("error", ""))


def harvest_one(host: str, version: str, scenario: str, out: Path) -> RunResult:
    """Install the pinned host, run the scenario in a private namespace, return what it wrote."""
    module = HOSTS[host]
    if not module.supports(version, scenario):
        raise HarvestError(f"{host} {version} cannot do the {scenario} scenario")
    got = install_host(host, version)
    prepare = getattr(module, "prepare", None)
    if prepare is not None:  # what the host fetches at run time, fetched here (opencode)
        prepare(version)
    out.mkdir(parents=True, exist_ok=True)
    argv = [
        "unshare",
        "-rnmu",
        sys.executable,
        "-m",
        "rebootspec.generators.harvest.inside",
        host,
        version,
        scenario,
        str(got.folder),
        str(out.resolve()),
    ]
    limit = getattr(module, "RUN_SECONDS", 600)  # a host of slow processes says how long
    start = time.monotonic()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        raise HarvestError(f"{host} {version} {scenario}: the run took over {limit} s") from None
    except OSError as error:  # no unshare on this machine
        raise HarvestError(f"cannot start the sandbox (unshare): {error}") from None
    result = RunResult(host, version, scenario, out, {}, got.seconds, got.warm)
    result.seconds = time.monotonic() - start
    path = out / "result.json"
    if not path.exists():
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise HarvestError(f"{host} {version} {scenario}: the sandboxed run failed: {tail}")
    result.data = json.loads(path.read_text(encoding="utf-8"))
    return result
