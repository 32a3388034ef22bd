"""The GitHub Copilot CLI (``@github/copilot``) driven offline against the scripted model.

The CLI's licence allows installing and running it, never modifying or redistributing it: the
harvest installs it from npm into its cache (1.0.64 and later: a loader plus the platform package
``@github/copilot-<os>-<arch>``, which npm installs as an optional dependency) and runs it
unchanged. ``COPILOT_OFFLINE=true`` skips GitHub's sign-in, telemetry and updates;
``COPILOT_PROVIDER_BASE_URL`` points it at the scripted OpenAI-compatible server and
``COPILOT_MODEL`` names the model. Releases before 1.0.10 cannot use such a provider.

The CLI counts tokens itself (the usage the server reports does not drive it), so an automatic
compaction comes from ``COPILOT_PROVIDER_MAX_PROMPT_TOKENS`` and tool calls whose outputs fill
the window (``medium`` calls: an output over about 20 KB is moved to a file). A manual one is
``copilot --resume=<id> -p "/compact"``. ``/fork`` and ``/rewind`` exist only in the
interactive interface: they are typed into it through a pseudo-terminal.

What each run caused comes from the server log, per process: the driver notes how many summary
requests each command's process sent and how many failed, so the expectation is the applied
summaries of the processes in which only the main agent compacts (a sub-agent's process is
recorded apart), less those a rewind removed (the driver knows its target). Files are
``$COPILOT_HOME/session-state/<id>/events.jsonl``.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from ..server import ScriptedServer
from .common import HOME, PROJECT, HarvestError, Install, base_env, run, version_key
from .result import Outcome, Thread
from .whoami import check_whoami

PACKAGE = "@github/copilot"
LICENCE = "proprietary (GitHub Copilot CLI licence: installed and run, never redistributed)"
COPILOT_HOME = HOME / ".copilot"
MODEL = "gpt-4.1"
WINDOW = "20000"  # COPILOT_PROVIDER_MAX_PROMPT_TOKENS: the static context is about 10,400
FILL = "answer with 6 medium shell tool calls"
SCENARIOS = ("mixed", "subagent", "fork", "rewind", "whoami")
FIRST_BYOK = "1.0.10"  # the first release that runs against a local provider
FIRST_FORK = "1.0.45"  # `/fork`


def supports(version: str, scenario: str) -> bool:
    """Local providers from 1.0.10; `/fork` from 1.0.45; the interactive rewind with it."""
    if scenario not in SCENARIOS or version_key(version) < version_key(FIRST_BYOK):
        return False
    if scenario in ("fork", "rewind"):
        return version_key(version) >= version_key(FIRST_FORK)
    return True


def _env(base_url: str) -> dict[str, str]:
    return {
        **base_env(),
        "COPILOT_HOME": str(COPILOT_HOME),
        "COPILOT_OFFLINE": "true",
        "COPILOT_AUTO_UPDATE": "false",
        "COPILOT_PROVIDER_BASE_URL": base_url,
        "COPILOT_PROVIDER_MAX_PROMPT_TOKENS": WINDOW,
        "COPILOT_MODEL": MODEL,
    }


@dataclass
class Step:
    """One process the driver ran, and what the server logged while it ran."""

    what: str
    summaries: int = 0
    failed: int = 0
    rc: int = 0


class Driver:
    """One scenario's processes against one server, with the per-process log."""

    def __init__(self, install: Install, server: ScriptedServer, logs: Path) -> None:
        self.copilot = str(install.bin("copilot"))
        self.server = server
        self.logs = logs
        self.env = _env(server.base_url)
        self.steps: list[Step] = []

    def _measure(self, what: str, start: int, rc: int) -> Step:
        entries = self.server.entries[start:]
        step = Step(what, rc=rc)
        step.summaries = sum(1 for e in entries if e.classification == "summary")
        step.failed = sum(1 for e in entries if e.classification == "summary-failed")
        self.steps.append(step)
        return step

    def prompt(self, text: str, session: str | None = None) -> Step:
        """``copilot -p TEXT`` (resuming ``session``), one process."""
        argv = [self.copilot, "--allow-all", "-p", text]
        if session is not None:
            argv.append(f"--resume={session}")
        start = len(self.server.entries)
        result = run(argv, self.env, timeout=240)
        name = f"copilot-{len(self.steps) + 1}.stderr"
        (self.logs / name).write_text(result.stderr[-20000:], "utf-8")
        return self._measure(text[:40], start, result.returncode)

    def interactive(self, session: str, keys: list[str]) -> Step:
        """Type ``keys`` into the interactive interface resuming ``session`` (a pseudo-terminal;
        an item ``@N`` waits N seconds). The process is ended by the driver afterwards."""
        start = len(self.server.entries)
        argv = [self.copilot, "--allow-all", f"--resume={session}"]
        env = {**self.env, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
        # "1" answers the folder-trust question (or is typed and deleted again when none).
        typed = ["@until:help", "@2", "?No (Esc)=1", "@2", *keys, "@3"]
        screen = _type_into(argv, env, typed)
        (self.logs / f"copilot-{len(self.steps) + 1}.screen").write_bytes(screen[-20000:])
        return self._measure("interactive: " + " ".join(keys)[:40], start, 0)

    def sessions(self) -> list[Path]:
        """The session folders, oldest first."""
        root = COPILOT_HOME / "session-state"
        if not root.is_dir():
            return []
        found = [p for p in root.iterdir() if (p / "events.jsonl").is_file()]
        return sorted(found, key=lambda p: (p / "events.jsonl").stat().st_mtime_ns)

    def first(self) -> str:
        found = self.sessions()
        if not found:
            raise HarvestError("copilot wrote no session folder")
        return found[0].name

    def record(self) -> dict[str, object]:
        rows = [
            f"{s.what}: rc={s.rc} summaries={s.summaries} failed={s.failed}" for s in self.steps
        ]
        return {"processes": rows}


def _type_into(argv: list[str], env: dict[str, str], keys: list[str]) -> bytes:
    """Run ``argv`` on a pseudo-terminal, type ``keys`` slowly, collect the screen, end it.

    ``@N`` waits N seconds; ``@until:TEXT`` waits (up to a minute) until TEXT is on the screen;
    ``?TEXT=KEY`` types KEY only when TEXT is on the screen (the folder-trust question)."""
    import fcntl
    import pty
    import struct
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI in the project folder
        os.chdir(PROJECT)
        os.execve(argv[0], argv, env)
    # A terminal of 40 x 120: with the size 0 x 0 of a fresh pseudo-terminal the interface
    # draws nothing (its pickers then take no keys).
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    screen = bytearray()

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                screen.extend(chunk)
                for reply in _answers(chunk):  # the interface waits for its terminal queries
                    os.write(fd, reply)

    def shown(text: str) -> bool:
        return text.encode() in re.sub(rb"\x1b\[[0-9;?>$]*[a-zA-Z]", b"", bytes(screen))

    try:
        for key in keys:
            if key.startswith("@until:"):
                end = time.monotonic() + 60
                while not shown(key[7:]) and time.monotonic() < end:
                    pump(0.5)
                continue
            if key.startswith("@"):
                pump(float(key[1:]))
                continue
            if key.startswith("?"):
                text, _, key = key[1:].partition("=")
                if not shown(text):
                    continue
            for char in key:
                os.write(fd, char.encode())
                time.sleep(0.03)
            pump(3)
    finally:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and os.waitpid(pid, os.WNOHANG) == (0, 0):
            time.sleep(0.2)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(fd)
    return bytes(screen)


DOWN = "\x1b[B"
# What a terminal answers to the queries the interface sends at start-up (device attributes,
# its name and version, private modes, the cursor position, the colours): without an answer it
# waits. Each pattern and the reply a plain xterm gives.
QUERIES: tuple[tuple[re.Pattern[bytes], bytes], ...] = (
    (re.compile(rb"\x1b\[0?c"), b"\x1b[?62;22c"),
    (re.compile(rb"\x1b\[>0?q"), b"\x1bP>|xterm(380)\x1b\\"),
    (re.compile(rb"\x1b\[6n"), b"\x1b[1;1R"),
    (re.compile(rb"\x1b\]1([01]);\?(?:\x07|\x1b\\)"), b""),
)
MODE_QUERY = re.compile(rb"\x1b\[\?(\d+)\$p")


def _answers(chunk: bytes) -> list[bytes]:
    """The replies to the terminal queries in ``chunk``, in order of kind."""
    replies: list[bytes] = []
    for pattern, reply in QUERIES:
        for match in pattern.finditer(chunk):
            if reply:
                replies.append(reply)
            else:  # a colour query: OSC 10 (foreground) or 11 (background)
                colour = b"ffff/ffff/ffff" if match.group(1) == b"0" else b"0000/0000/0000"
                replies.append(b"\x1b]1" + match.group(1) + b";rgb:" + colour + b"\x1b\\")
    replies += [b"\x1b[?" + m.group(1) + b";2$y" for m in MODE_QUERY.finditer(chunk)]
    return replies


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with the Copilot CLI ``version``; the sessions stay in HOME."""
    if not supports(version, scenario):
        raise HarvestError(f"copilot {version} cannot do the {scenario} scenario")
    (HOME / "tmp").mkdir(parents=True, exist_ok=True)
    driver = Driver(install, server, logs)
    notes: list[str] = []
    threads: list[Thread] = []
    if scenario == "mixed":
        # An automatic compaction, a manual one by a second process, then every summary fails:
        # a failed /compact and a failed background pass (1.0.102: outcome cancelled).
        driver.prompt(f"Turn 1. {FILL}")
        session = driver.first()
        driver.prompt("/compact", session)
        driver.prompt("Turn 3. fail the summary", session)
        driver.prompt("/compact", session)
        driver.prompt(f"Turn 5. {FILL}", session)
        caused = sum(s.summaries for s in driver.steps)
        threads.append(Thread(session, "own", _events(session), caused))
    elif scenario == "subagent":
        driver.prompt("Turn 1. spawn a task subagent")
        session = driver.first()
        inside = driver.steps[-1].summaries  # the main agent's context stays small here
        notes.append(f"the sub-agent's process sent {inside} summary request(s) (CPL-5)")
        driver.prompt("/compact", session)
        threads.append(Thread(session, "own", _events(session), driver.steps[-1].summaries))
    elif scenario == "fork":
        driver.prompt("Turn 1.")
        session = driver.first()
        driver.prompt("/compact", session)
        driver.prompt("Turn 3.", session)
        driver.interactive(session, ["/fork\r", "@until:Forked from", "@3"])
        caused = sum(s.summaries for s in driver.steps)
        threads.append(Thread(session, "own", _events(session), caused))
        forks = [p.name for p in driver.sessions() if p.name != session]
        if len(forks) != 1:
            raise HarvestError(f"/fork made {len(forks)} new sessions, not one")
        threads.append(Thread(forks[0], "fork", _events(forks[0]), 0))
    elif scenario == "whoami":
        # After each /compact a turn's shell tool runs `rebootspec whoami --json` (issue #34):
        # COPILOT_AGENT_SESSION_ID names the session folder, so each answer is its count so far.
        driver.prompt("Turn 1.")
        session = driver.first()
        for turn in (3, 5):
            driver.prompt("/compact", session)
            driver.prompt(f"Turn {turn}. answer with 1 whoami shell tool calls", session)
        caused = sum(s.summaries for s in driver.steps)
        events = COPILOT_HOME / "session-state" / session / "events.jsonl"
        notes += check_whoami(server, events, True, _summaries, "the Copilot CLI's shell tool")
        threads.append(Thread(session, "own", _events(session), caused))
    else:  # rewind: back to the second prompt, before the second /compact
        driver.prompt("Turn 1.")
        session = driver.first()
        driver.prompt("/compact", session)
        driver.prompt("Turn 3.", session)
        driver.prompt("/compact", session)
        driver.prompt("Turn 5.", session)
        # The picker lists the prompts newest first: one down is "Turn 3."; then "Conversation
        # only" (files untouched) is confirmed.
        keys = ["/rewind\r", "@until:Rewind", "@1", DOWN, "@1", "\r", "@until:Conversation"]
        keys += ["@1", "\r", "@until:Rewound", "@3"]
        driver.interactive(session, keys)
        kept = driver.steps[1].summaries  # the compactions before "Turn 3." stay (CPL-8)
        notes.append(f"rewound to Turn 3: {driver.steps[3].summaries} compaction(s) removed")
        threads.append(Thread(session, "own", _events(session), kept))
    notes.extend(f"{s.what}: rc={s.rc}" for s in driver.steps if s.rc)
    files = [
        p for p in (COPILOT_HOME / "session-state" / session / "workspace.yaml",) if p.exists()
    ]
    return Outcome(threads, notes, files, driver.record())


def _summaries(classifications: list[str]) -> int:
    """The compactions a stretch of the server log shows: one summary request each."""
    return sum(1 for kind in classifications if kind == "summary")


def _events(session: str) -> Path:
    """A session's ``events.jsonl``, copied to a name of its own (several sessions per run)."""
    source = COPILOT_HOME / "session-state" / session / "events.jsonl"
    if not source.is_file():
        raise HarvestError(f"session {session} has no events.jsonl")
    target = HOME / "tmp" / f"{session}.jsonl"
    shutil.copyfile(source, target)
    return target
