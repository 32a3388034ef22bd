"""Each host's home layout, built in a case's private folder, for peers that find sessions there.

Tools such as agentsview take no path: they scan the folders where a host keeps its sessions.
For those, the case's input is laid where the host itself would have written it, under a fake
HOME that holds nothing else (PRO-1 applies to peers too). The names follow each host's own
pattern (HST-1), with fixed ids: a tool that reads the session id from the file name gets one
that looks real, and nothing of the case's own name or folder reaches it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ...runner.candidates import CaseInput, place_copy

# A fixed, plausible identity for the one session of a case.
SESSION_UUID = "019a0000-0000-7000-8000-00000000c0de"
PROJECT = "/home/dev/project"
GEMINI_PROJECT_HASH = "0123456789abcdef" * 4


def claude_project_dir(cwd: str = PROJECT) -> str:
    """Claude Code's folder name for a project: the cwd with every `/` and `.` made `-`."""
    return cwd.replace("/", "-").replace(".", "-")


def pi_project_dir(cwd: str = PROJECT) -> str:
    """pi's folder name for a project: `--home-dev-project--`."""
    return "--" + cwd.strip("/").replace("/", "-") + "--"


def host_file(host: str, home: Path, suffix: str) -> Path:
    """Where `host` keeps one session file under `home` (the opencode store is `lay_home`'s)."""
    if host == "codex":
        name = f"rollout-2026-01-01T00-00-00-{SESSION_UUID}.jsonl"
        return home / ".codex" / "sessions" / "2026" / "01" / "01" / name
    if host == "claude-code":
        return home / ".claude" / "projects" / claude_project_dir() / f"{SESSION_UUID}.jsonl"
    if host == "pi":
        name = f"2026-01-01T00-00-00-000Z_{SESSION_UUID}.jsonl"
        return home / ".pi" / "agent" / "sessions" / pi_project_dir() / name
    if host == "gemini-cli":
        chats = home / ".gemini" / "tmp" / GEMINI_PROJECT_HASH / "chats"
        return chats / f"session-2026-01-01T00-00-{SESSION_UUID[-8:]}{suffix}"
    raise ValueError(f"no home layout for host {host!r}")


def lay_home(host: str, given: CaseInput, home: Path) -> Path:
    """Lay the case's input under `home` as `host` would; the path of the session's file or,
    for opencode, of its data folder (`~/.local/share/opencode`)."""
    if host == "opencode":
        if given.root is None:
            raise ValueError("an opencode case is a folder (input/)")
        data = home / ".local" / "share" / "opencode"
        data.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(given.root, data, symlinks=False)
        for folder, _, names in os.walk(data):
            for name in names:
                os.chmod(os.path.join(folder, name), 0o644)
        return data
    target = host_file(host, home, given.path.suffix)
    place_copy(given.path, target)
    return target
