"""What every host driver needs: a pinned npm install, a private home, a JSON-RPC pipe.

Installs go to a cache folder (``~/.cache/rebootspec-harvest/npm/<pkg>@<ver>``, never global) so
reruns are warm. Each run happens inside ``unshare -rnmu`` (see ``sandbox.py``): the only network
is loopback and ``/home`` is a private tmpfs, so ``HOME=/home/dev`` is empty, private to the run
and the same generic path in every harvested file.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOME = Path("/home/dev")
PROJECT = HOME / "project"


class HarvestError(Exception):
    """A run could not be done as scripted; the message is one line for the user."""


class NotRunnable(HarvestError):
    """A published version that cannot be run here at all (npm cannot install it): the sweep
    table says so on its row, and it is not a failed run."""


def cache_root() -> Path:
    """Where pinned installs live (``REBOOTSPEC_HARVEST_CACHE`` overrides)."""
    override = os.environ.get("REBOOTSPEC_HARVEST_CACHE")
    if override:
        return Path(override)
    return Path.home() / ".cache" / "rebootspec-harvest" / "npm"


@dataclass(frozen=True)
class Install:
    """A pinned package in the cache, and how long getting it took (0 when warm)."""

    folder: Path
    seconds: float
    warm: bool

    def bin(self, name: str) -> Path:
        """The package's executable ``name`` (node_modules/.bin)."""
        return self.folder / "node_modules" / ".bin" / name


def install(package: str, version: str) -> Install:
    """``npm install`` in ``<cache>/<package>@<version>``; a complete install is reused."""
    folder = cache_root() / f"{package}@{version}"
    done = folder / ".complete"
    if done.exists():
        return Install(folder, 0.0, True)
    folder.mkdir(parents=True, exist_ok=True)
    # npm 11 installs nothing into a --prefix without a package.json (it fails on reading
    # one): the folder gets an empty one and npm runs in it.
    if not (folder / "package.json").exists():
        (folder / "package.json").write_text("{}\n", encoding="utf-8")
    start = time.monotonic()
    argv = [
        "npm",
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        f"{package}@{version}",
    ]
    try:
        result = subprocess.run(
            argv, cwd=folder, capture_output=True, text=True, timeout=900, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise HarvestError(f"npm install {package}@{version} failed: {error}") from None
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise HarvestError(f"npm install {package}@{version} failed: {last}")
    done.write_text(version + "\n")
    return Install(folder, time.monotonic() - start, False)


def _npm_view(spec: str) -> subprocess.CompletedProcess[str]:
    """`npm view SPEC version`, run whatever it answers; only a failure to run it is raised."""
    try:
        return subprocess.run(
            ["npm", "view", spec, "version"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise HarvestError(f"npm view {spec} failed: {error}") from None


def latest(package: str) -> str:
    """The registry's newest version of ``package`` (``npm view``), for the drift check."""
    result = _npm_view(package)
    if result.returncode != 0 or not result.stdout.strip():
        raise HarvestError(f"npm view {package} failed: {result.stderr.strip()[-200:]}")
    return result.stdout.strip().splitlines()[-1]


def published(package: str, version: str) -> bool:
    """Whether the registry holds ``package`` at exactly ``version`` (``npm view``).

    A release whose wrapper is on the registry may lack the platform package a driver
    installs (Kilo 7.8.1): the drift check then says "not run" rather than failing at install.
    """
    result = _npm_view(f"{package}@{version}")
    if result.returncode != 0 and "E404" not in result.stderr:  # offline, not "no such version"
        raise HarvestError(f"npm view {package}@{version} failed: {result.stderr.strip()[-200:]}")
    return version in result.stdout.split()


def version_key(version: str) -> tuple[int, ...]:
    """``"0.150.1"`` as ``(0, 150, 1)`` for comparisons between versions."""
    return tuple(int(part) for part in version.split("-")[0].split("."))


# Hosts whose releases declare a newer Node than the system's (pi 0.82+, Qwen Code) run on
# `node@22` from npm, installed into the cache like any host (outside the sandbox: `prepare`).
NODE_PACKAGE, NODE_VERSION = "node", "22"


def node_version(node: str) -> tuple[int, ...]:
    """``node --version`` as a tuple, () when that Node cannot run."""
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return version_key(done.stdout.strip().lstrip("v") or "0")


def needed_node(package: str, version: str) -> tuple[int, ...]:
    """The lowest Node the installed ``package@version`` declares (``engines.node``
    ">=X.Y.Z"), or () when it declares none."""
    manifest = install(package, version).folder / "node_modules" / package / "package.json"
    try:
        engines = json.loads(manifest.read_text(encoding="utf-8")).get("engines") or {}
    except (OSError, ValueError):
        return ()
    found = re.match(r"\s*>=\s*v?(\d+(?:\.\d+)*)", str(engines.get("node", "")))
    return version_key(found.group(1)) if found else ()


def node_folder(package: str, version: str, host: str) -> Path | None:
    """The folder of a Node new enough for ``package@version`` to put first on PATH, or None
    when the system's will do; ``host`` names the host in the error."""
    needed = needed_node(package, version)
    if not needed or node_version("node") >= needed:
        return None
    folder = install(NODE_PACKAGE, NODE_VERSION).folder / "node_modules" / NODE_PACKAGE / "bin"
    if node_version(str(folder / "node")) < needed:
        wanted = ".".join(map(str, needed))
        raise HarvestError(f"{host} {version} needs Node {wanted}; npm's is older")
    return folder


def base_env() -> dict[str, str]:
    """A clean environment for a host: generic home and temp, no proxy, no telemetry."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(HOME),
        "USER": "dev",
        "LOGNAME": "dev",
        "TMPDIR": str(HOME / "tmp"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "TZ": "UTC",
        # The `rebootspec` the scripted model's whoami calls run (script.WHOAMI), by its path.
        "REBOOTSPEC_BIN": str(Path(sys.executable).with_name("rebootspec")),
    }


def run(
    argv: list[str], env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """One host command in the project folder, output kept for the run's notes."""
    try:
        return subprocess.run(
            argv,
            cwd=PROJECT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise HarvestError(f"{Path(argv[0]).name} timed out after {timeout:.0f} s") from error


class RpcPipe:
    """Newline-delimited JSON-RPC with a child process over stdin/stdout.

    Both Codex's ``app-server`` and pi's ``--mode rpc`` speak one JSON object per line.
    Notifications and server requests are queued; a server request is answered with an error
    (the scripted runs never need an approval).
    """

    def __init__(self, argv: list[str], env: dict[str, str], stderr_path: Path) -> None:
        self._stderr = stderr_path.open("w")
        self.process = subprocess.Popen(
            argv,
            cwd=PROJECT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            bufsize=1,
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next = 1

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                self.inbox.put(message)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message (a line)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError) as error:
            raise HarvestError(f"the host's RPC pipe closed: {error}") from None

    def next_id(self) -> int:
        """A fresh request id."""
        self._next += 1
        return self._next

    def wait_for(self, match: Any, timeout: float) -> dict[str, Any]:
        """The first incoming message for which ``match(message)`` is true (others are kept)."""
        deadline = time.monotonic() + timeout
        for message in self.seen:
            if match(message):
                self.seen.remove(message)
                return message
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarvestError("the host did not answer in time over RPC")
            try:
                message = self.inbox.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.process.poll() is not None and self.inbox.empty():
                    raise HarvestError("the host's RPC process exited") from None
                continue
            if "method" in message and "id" in message:  # a request from the host
                self.send({"id": message["id"], "error": {"code": -32601, "message": "no"}})
                continue
            if match(message):
                return message
            self.seen.append(message)

    def close(self) -> None:
        """Close stdin, give the host a moment, then end it (only this child)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._stderr.close()
