"""Nothing of the harvesting machine may reach a harvested file: a scan for its strings.

Runs happen in a private namespace with ``HOME=/home/dev``, host name ``devbox`` and user
``dev``, so a clean file names only those. This scan is the check that it worked: it looks for
the machine's real user name, host name, home folder, temp folder and kernel release in every
output. Short,
common words (a user called ``root``, a host called ``vm``) would match ordinary text, so a name
shorter than five characters is only searched for inside a path (``/root``, ``@vm``, ``vm.``
as a host) rather than as a bare word.
"""

from __future__ import annotations

import getpass
import os
import platform
import re
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Leak:
    """One occurrence of a machine string in a file."""

    path: Path
    line: int
    what: str
    text: str


def machine_patterns() -> dict[str, re.Pattern[str]]:
    """The machine's identifying strings as patterns, named by what they are."""
    patterns: dict[str, re.Pattern[str]] = {}
    home = str(Path.home())
    user = getpass.getuser()
    host = socket.gethostname()
    temp = os.path.realpath(tempfile.gettempdir())
    if home not in ("/", "/home/dev"):
        # Not inside a word or a closing tag: ``</root>`` in a prompt is not the folder /root.
        patterns["home"] = re.compile(r"(?<![<\w])" + re.escape(home) + r"(?![\w.>-])")
    if temp not in ("/tmp", "/home/dev/tmp"):
        patterns["tmp"] = re.compile(re.escape(temp))
    # A named temp folder; not Gemini CLI's own ``~/.gemini/tmp/<project>`` of the private home.
    patterns["tmp-run"] = re.compile(r"(?<!/home/dev/\.gemini)/tmp/[A-Za-z0-9_.-]{3,}")
    # The kernel's release, which Cline's task_metadata.json records as os_version.
    release = platform.release()
    if release:
        patterns["kernel"] = re.compile(r"(?<![\w.-])" + re.escape(release) + r"(?![\w.-])")
    for what, name in (("user", user), ("host", host)):
        if not name or name in ("dev", "devbox"):
            continue
        if len(name) >= 5:
            patterns[what] = re.compile(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])")
        else:
            patterns[what] = re.compile(
                r"(?:/home/|/Users/|@|\\\\)" + re.escape(name) + r"(?![A-Za-z0-9])"
            )
    return patterns


def files(paths: list[Path]) -> list[Path]:
    """The files to scan: each path, or every file under it when it is a folder (a store)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file()))
        else:
            out.append(path)
    return out


def scan(paths: list[Path], patterns: dict[str, re.Pattern[str]] | None = None) -> list[Leak]:
    """Every machine string found in ``paths`` (text read as UTF-8, bad bytes replaced)."""
    found: list[Leak] = []
    table = machine_patterns() if patterns is None else patterns
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in table.items():
                match = pattern.search(line)
                if match:
                    start = max(match.start() - 20, 0)
                    found.append(Leak(path, number, what, line[start : match.end() + 20]))
    return found
