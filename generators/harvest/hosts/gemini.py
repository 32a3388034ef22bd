"""Gemini CLI (``@google/gemini-cli``, Apache-2.0) driven against the scripted model.

Gemini CLI speaks the Gemini API to ``GOOGLE_GEMINI_BASE_URL`` with an API key from
``GEMINI_API_KEY`` (a dummy here). It compresses its history automatically before a model
request once the previous answer's ``usageMetadata.promptTokenCount`` is over half the model's
token limit (1,048,576 for the model used), so a turn whose first answer is a tool call that
reports 900,000 prompt tokens compresses before the request that carries the tool's result.
One compression sends one summary request, and from 0.4x a second one (the verification
pass), back to back: compressions are counted as runs of consecutive summary requests in the
server log, never as requests.

Headless runs only (``-p``, then ``--resume latest -p``); ``--yolo`` lets the shell tool run.
The chat files are ``~/.gemini/tmp/<project>/chats/session-*.json`` (up to 0.38) or
``.jsonl`` (from 0.39).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..server import ScriptedServer
from .common import HOME, HarvestError, Install, base_env, run
from .pi import compactions
from .result import Outcome, Thread
from .whoami import check_whoami

PACKAGE = "@google/gemini-cli"
LICENCE = "Apache-2.0"
GEMINI_DIR = HOME / ".gemini"
MODEL = "gemini-2.5-flash"
OVER = "report 900000 input tokens"  # over 0.5 x 1,048,576
SCENARIOS = ("auto-pre-turn", "failure", "whoami")


def supports(version: str, scenario: str) -> bool:
    """Every published version from 0.24 (the first measured) can run both."""
    return scenario in SCENARIOS


def write_config() -> None:
    """``~/.gemini/settings.json`` in both the flat (old) and the nested (new) schema."""
    GEMINI_DIR.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "selectedAuthType": "gemini-api-key",
        "model": {"name": MODEL},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "privacy": {"usageStatisticsEnabled": False},
        "usageStatisticsEnabled": False,
        "telemetry": {"enabled": False},
    }
    (GEMINI_DIR / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")


def _env(base_url: str) -> dict[str, str]:
    return {
        **base_env(),
        "GEMINI_API_KEY": "harvest",
        "GOOGLE_GEMINI_BASE_URL": base_url,
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "GEMINI_TELEMETRY_ENABLED": "false",
        "NO_BROWSER": "true",
    }


def chats() -> list[Path]:
    """Every chat file written so far (``.json`` or ``.jsonl``), in name order."""
    found = [
        p
        for p in (GEMINI_DIR / "tmp").rglob("session-*")
        if p.suffix in (".json", ".jsonl") and p.parent.name == "chats"
    ]
    return sorted(found, key=lambda p: p.name)


def _session_id(path: Path) -> str:
    return path.stem.rpartition("-")[2]


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with Gemini CLI ``version``; the chats stay in HOME."""
    if not supports(version, scenario):
        raise HarvestError(f"gemini {version} cannot do the {scenario} scenario")
    gemini = install.bin("gemini")
    write_config()
    base = server.base_url.removesuffix("/v1")
    notes: list[str] = []
    fail = "; fail the summary" if scenario == "failure" else ""
    # Turn 1 cannot compress (nothing before its own prompt to summarise); turns 2 and 3 do,
    # each before the request that carries its tool's result.
    # whoami: the same turns, each tool call running `rebootspec whoami` (issue #34): Gemini CLI
    # gives its shell tool no session id, so every call must draw the refusal.
    kind = "whoami " if scenario == "whoami" else ""
    prompts = [f"Turn {n}. answer with 1 {kind}shell tool calls; {OVER}{fail}" for n in (1, 2, 3)]
    prompts.append("Turn 4.")
    for number, prompt in enumerate(prompts):
        argv = [str(gemini), "--yolo", "-p", prompt]
        if number:
            argv[1:1] = ["--resume", "latest"]
        result = run(argv, _env(base), timeout=180)
        (logs / f"gemini-turn{number + 1}.stderr").write_text(result.stderr[-20000:], "utf-8")
        if result.returncode:
            notes.append(f"turn {number + 1}: gemini rc={result.returncode}")
    caused = compactions([e.classification for e in server.entries])
    files = chats()
    if not files:
        raise HarvestError("gemini wrote no chat file")
    # A resume first starts a fresh chat (metadata and the session context) in a file named by
    # the minute, then appends to the resumed one: in another minute that makes a stray file.
    own = max(files, key=lambda p: (p.stat().st_size, p.name))
    strays = [p.name for p in files if p != own]
    if strays:
        notes.append(f"stray chat files of the resumes: {len(strays)}")
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    summaries = server.summaries()
    if summaries != caused:
        notes.append(f"{summaries} summary requests for {caused} compressions")
    if scenario == "whoami":
        notes += check_whoami(server, own, False, compactions, "Gemini CLI's shell tool")
    return Outcome([Thread(_session_id(own), "own", own, caused)], notes)
