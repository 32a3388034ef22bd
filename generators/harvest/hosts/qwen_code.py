"""Qwen Code (``@qwen-code/qwen-code``, Apache-2.0) driven against the scripted model.

Qwen Code speaks Chat Completions to ``OPENAI_BASE_URL`` with the key in ``OPENAI_API_KEY``
(``--auth-type openai``; 0.1.x reads the auth type from ``~/.qwen/settings.json`` only). Its
releases declare Node >= 20 (0.1-0.15) or 22, so a run takes ``node@22`` from npm when the
system's is older (``common.node_folder``). Headless runs only: ``-p PROMPT``, then
``--resume <id> -p`` (0.5+; 0.1.x has no resume), ``--yolo`` so the shell tool runs.

It compresses its history automatically before a model request once the previous answer's
reported prompt tokens pass its threshold (0.7, 0.85 of the window in 0.24; the window of
``qwen3-coder-plus`` is 1M), so a turn whose first answer is a tool call reporting 900,000
prompt tokens compresses before the request that carries the tool's result. A second such call
in the same turn is never asked for: the summary (0.24, measured) takes in the turn's own
prompt, and its directive with it. Two compressions are two such turns (0.1.x, which
summarises only the environment context, compresses before each of a turn's two calls).
``-p /compress`` compresses on demand (0.8+; 0.5 runs no slash command headless, the text
reaches the model as a prompt). 0.8-0.15 refuse a compression whose new size, reckoned from
the summary request's usage, is larger than the old ("inflated", nothing written): every
prompt here asks the summaries to report 899,000 input tokens. 0.24 asks for its summary with
its own directive and keeps only a closed ``<state_snapshot>`` (``script.py``).

The ``whoami`` scenario (issue #34) has the shell tool run ``rebootspec whoami --json`` in a
turn after each compression: from 0.21 the tool's environment names the session
(``QWEN_CODE_SESSION_ID``) and each answer must be the count so far and this file; before, the
refusal (``whoami.check_whoami``).

The count of a run is the server log's: summary requests answered 200 whose summary a later
request carries (``server.reached_summaries``); a summary the host dropped never reaches one.
Each step drives one thread, so a step's summaries are that thread's (a fork's copies of its
source's compressions are never its own). The files: ``~/.qwen/projects/<cwd, every
non-alphanumeric character a dash>/chats/<sessionId>.jsonl`` (0.5+, appended) and
``~/.qwen/tmp/<project hash>/chats/session-*.json`` (0.1.x, rewritten whole).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from ..server import ScriptedServer, reached_summaries
from .common import HOME, HarvestError, Install, base_env, node_folder, run, version_key
from .result import Outcome, Thread
from .whoami import check_whoami

PACKAGE = "@qwen-code/qwen-code"
LICENCE = "Apache-2.0"
QWEN_DIR = HOME / ".qwen"
MODEL = "qwen3-coder-plus"  # a 1,048,576-token window in every version's model table
OVER = "report 900000 input tokens"  # over 0.7 (0.85 in 0.24) of the window
# 0.8-0.15 reckon the compressed size as original - (summary input - 1000) + summary output:
# a summary reporting less than the history it replaced would make it grow, and it is dropped.
SUMMARY_USAGE = "summaries report 899000 input tokens"
FAIL = "fail the summary"
SCENARIOS = ("plain", "manual", "auto", "twice", "failure", "resume", "fork", "inflated", "whoami")
RESUME_FROM = (0, 5, 0)  # the JSONL era: --resume, --auth-type
COMPRESS_FROM = (0, 8, 0)  # `-p /compress` runs the command headless
FORK_FROM = (0, 24, 0)  # `--resume <id> --fork-session`
# The shell tool's environment names the session (QWEN_CODE_SESSION_ID) from 0.21: there
# `rebootspec whoami` answers, before it must refuse (issue #34; spec/hosts/qwen-code.md).
SESSION_VARIABLE_FROM = (0, 21, 0)
# 0.8 to 0.15 drop a compression whose summary's reported usage makes it "inflated" (status 2,
# nothing written, though "Context compressed" is printed): the summary was answered and never
# reached the model (research: next-hosts.md, measured on 0.8.2 and 0.15.10).
INFLATED = ((0, 8, 0), (0, 21, 0))


def supports(version: str, scenario: str) -> bool:
    """0.1.x (one process, no resume): the automatic compression only (its file records none);
    0.5+: every scenario but the manual ones before 0.8 and the fork before 0.24."""
    key = version_key(version)
    if key < RESUME_FROM:
        return scenario == "auto"
    if scenario in ("manual", "resume"):
        return key >= COMPRESS_FROM
    if scenario == "fork":
        return key >= FORK_FROM
    if scenario == "whoami":  # the answer from 0.21 (measured on 0.21.10 and 0.24.4); the
        # refusal before was seen once on 0.15.10, whose five runs outlive the server's 240 s
        # on a loaded machine: not in the sweep
        return key >= SESSION_VARIABLE_FROM
    if scenario == "inflated":
        return INFLATED[0] <= key < INFLATED[1]
    return scenario in SCENARIOS


def prepare(version: str) -> None:
    """Outside the sandbox (it has no network): fetch the Node this version needs."""
    node_folder(PACKAGE, version, "qwen-code")


def write_config() -> None:
    """``~/.qwen/settings.json``: the OpenAI auth type, no telemetry, no update checks, in the
    flat (0.1.x) and the nested (later) schema alike."""
    QWEN_DIR.mkdir(parents=True, exist_ok=True)
    settings = {
        "selectedAuthType": "openai",
        "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
        "model": {"name": MODEL},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "privacy": {"usageStatisticsEnabled": False},
        "usageStatisticsEnabled": False,
        "telemetry": {"enabled": False},
        "disableAutoUpdate": True,
    }
    (QWEN_DIR / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")


def _env(base_url: str, node: Path | None) -> dict[str, str]:
    env = base_env()
    if node is not None:
        env["PATH"] = f"{node}:{env['PATH']}"
    return {
        **env,
        "OPENAI_API_KEY": "harvest",
        "OPENAI_BASE_URL": base_url,
        "OPENAI_MODEL": MODEL,
        "QWEN_CODE_NO_RELAUNCH": "true",
        "QWEN_TELEMETRY_ENABLED": "false",
        "NO_BROWSER": "true",
    }


def chats() -> list[Path]:
    """Every session file written so far: ``projects/*/chats/*.jsonl`` or, 0.1.x,
    ``tmp/*/chats/session-*.json``; by modification time, then name."""
    found = [p for p in (QWEN_DIR / "projects").glob("*/chats/*.jsonl")]
    found += [p for p in (QWEN_DIR / "tmp").glob("*/chats/session-*.json")]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))


class _Steps:
    """Which thread each step drove: the server log's entries from a step's start on are its."""

    def __init__(self, server: ScriptedServer) -> None:
        self.server = server
        self.owner: list[tuple[int, str]] = []  # (first log index of the step, thread key)

    def start(self, thread: str) -> None:
        self.owner.append((len(self.server.entries), thread))

    def caused(self, thread: str) -> int:
        """The summaries the thread's steps asked for that reached a later request."""
        reached = reached_summaries([asdict(entry) for entry in self.server.entries])
        bounds = [first for first, _ in self.owner[1:]] + [len(self.server.entries)]
        return sum(
            1
            for (first, owner), end in zip(self.owner, bounds, strict=True)
            if owner == thread
            for index in reached
            if first <= index < end
        )


# A turn whose tool call reports usage over the threshold, its summaries the usage that keeps
# 0.8-0.15 from dropping them.
OVER_CALL = f"answer with 1 shell tool calls; {OVER}; {SUMMARY_USAGE}"


def later_prompts(scenario: str) -> list[str]:
    """The prompts of the scenario after turn 1, each a resumed run (``--resume <id> -p``)."""
    over = OVER_CALL
    return {
        "plain": ["Turn 2."],
        "manual": ["Turn 2.", "/compress", "Turn 3."],
        "auto": [f"Turn 2. {over}", "Turn 3."],
        "twice": [f"Turn 2. {over}", f"Turn 3. {over}", "Turn 4."],
        "failure": [f"Turn 2. {over}; {FAIL}", "Turn 3."],
        "resume": [f"Turn 2. {over}", "/compress", "Turn 3."],
        "fork": [f"Turn 2. {over}", "Turn 3."],
        # Summaries report the small usage: 0.8-0.15 reckon each compression "inflated".
        "inflated": [f"Turn 2. answer with 1 shell tool calls; {OVER}", "Turn 3."],
        # The shell runs before the compression its call's usage causes: each whoami call is
        # in a turn of its own after a compression, so it sees the count so far.
        "whoami": [
            f"Turn 2. {over}",
            "Turn 3. answer with 1 whoami shell tool calls",
            f"Turn 4. {over}",
            "Turn 5. answer with 1 whoami shell tool calls",
        ],
    }[scenario]


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with Qwen Code ``version``; the sessions stay in HOME."""
    if not supports(version, scenario):
        raise HarvestError(f"qwen-code {version} cannot do the {scenario} scenario")
    qwen = install.bin("qwen")
    write_config()
    env = _env(server.base_url, node_folder(PACKAGE, version, "qwen-code"))
    key = version_key(version)
    flags = ["--yolo", "-m", MODEL] + (["--auth-type", "openai"] if key >= RESUME_FROM else [])
    notes: list[str] = []
    steps = _Steps(server)
    number = 0

    def step(prompt: str, resume: str = "", fork: bool = False) -> None:
        nonlocal number
        number += 1
        argv = [str(qwen), *flags]
        if resume:
            argv += ["--resume", resume] + (["--fork-session"] if fork else [])
        argv += ["-p", prompt]
        result = run(argv, env, timeout=240)
        (logs / f"qwen-step{number}.stderr").write_text(result.stderr[-20000:], "utf-8")
        (logs / f"qwen-step{number}.stdout").write_text(result.stdout[-20000:], "utf-8")
        if result.returncode:
            notes.append(f"step {number}: qwen rc={result.returncode}")

    if key < RESUME_FROM:  # 0.1.x: one process; a second call over the limit compresses
        steps.start("own")
        step(f"Turn 1. answer with 2 shell tool calls; {OVER}; {SUMMARY_USAGE}")
        return _outcome(steps, notes, server, {"own": _only_file()})
    # The failure is asked for from turn 1 on: 0.8-0.15 summarise only the history before the
    # kept tail, which may not hold the turn that went over the threshold.
    steps.start("own")
    first = {"failure": f"Turn 1. {SUMMARY_USAGE}; {FAIL}", "inflated": "Turn 1."}
    step(first.get(scenario, f"Turn 1. {SUMMARY_USAGE}"))
    own = _only_file()
    session = own.stem
    for prompt in later_prompts(scenario):
        steps.start("own")
        step(prompt, session)
    files = {"own": own}
    if scenario == "fork":
        before = set(chats())
        steps.start("fork")
        step(f"Fork turn 1. {OVER_CALL}", session, fork=True)
        made = [p for p in chats() if p not in before]
        if len(made) != 1:
            raise HarvestError(f"the fork wrote {len(made)} new session files")
        files["fork"] = made[0]
        steps.start("fork")
        step("Fork turn 2.", made[0].stem)
    if scenario == "whoami":
        named = key >= SESSION_VARIABLE_FROM
        notes += check_whoami(server, own, named, _summaries, "Qwen Code's run_shell_command")
    return _outcome(steps, notes, server, files)


def _summaries(classifications: list[str]) -> int:
    """The compressions before a whoami answer: summaries answered (the whoami prompts ask for
    summaries that report their usage, so none is dropped as inflated)."""
    return classifications.count("summary")


def _only_file() -> Path:
    files = chats()
    if len(files) != 1:
        raise HarvestError(f"qwen wrote {len(files)} session files for one session")
    return files[0]


def _outcome(
    steps: _Steps, notes: list[str], server: ScriptedServer, files: dict[str, Path]
) -> Outcome:
    threads = []
    for role, path in files.items():
        ident = path.stem if path.suffix == ".jsonl" else path.stem.rpartition("-")[2]
        threads.append(Thread(ident, role, path, steps.caused(role)))
    strays = [p.name for p in chats() if p not in files.values()]
    if strays:
        notes.append(f"other session files: {', '.join(strays)}")
    answered = server.summaries()
    reached = server.reached()
    if answered != reached:
        notes.append(f"{answered} summaries answered, {reached} reached a later request")
    failed = sum(1 for e in server.entries if e.classification == "summary-failed")
    if failed:
        notes.append(f"{failed} summary request(s) failed on purpose")
    return Outcome(threads, notes)
