"""Cline CLI (``cline``, Apache-2.0) driven offline against the scripted model.

1.x and 2.x run the VS Code extension's core outside VS Code and write its task folders,
``~/.cline/data/tasks/<id>/`` (``api_conversation_history.json``, ``ui_messages.json``,
``task_metadata.json``, ``context_history.json`` once anything was cut), in the extension's own
format: 1.0.10 is a Go ``cline`` plus ``cline-host`` around extension core 3.52.0, 2.18.0 a Node
program (``dist/cli.mjs``) around core 3.82.0. The provider is ``openai`` (OpenAI-compatible)
with model ``gpt-5-probe``: a GPT-5 name puts it in the "next-gen" family that auto-compacts
(``summarize_task``), and an unknown model gets a 128k window, so a reply reporting 120,000
prompt tokens puts the next request over the 98k threshold. The answers come from
``cline_script.py`` (every reply a tool use).

- 1.0.x: the core's state (provider, model, ``useAutoCondense``) is written into
  ``globalState.json`` and ``secrets.json`` and the core started as ``cline instance new``
  starts it (``cline auth`` and ``instance new`` wait only 12 s for a core, too little on a
  loaded machine); ``cline task new -y -m act "…"`` then ``cline task send -y "…"`` per turn;
  ``cline task send -y --approve`` accepts a ``/smol`` summary, a ``task send`` with text
  answers it with feedback; a resume is ``cline task open <id>`` in a fresh core. ``task view
  -c`` never returns after a follow-up, so the driver waits for the task's next ask on disk.
- 2.x: ``cline auth -p openai -b <server>``, then one process per turn, ``cline -y --act --json
  [--auto-condense] [-T <id>] "…"``; every turn after the first is a resume from disk, and a
  resumed process that hangs on its own resume ask is ended and started again. ``/smol`` is not
  driven: given as the prompt of a resumed process it never reached the model (three tries).
- 3.x (``@cline/cli-linux-x64``, the Cline SDK): ``cline auth``, a ``contextWindow`` added to
  ``settings/providers.json``, one headless ``cline --json`` run; its session folder
  ``sessions/<id>/`` and the compaction events of ``logs/cline.log`` are kept.

The count of a run is the server log's (``cline_script.reboots``): summaries answered and then
carried to the model (``continued``), plus ``/smol`` summaries the user accepted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from .. import cline_script
from ..server import ScriptedServer
from .common import HOME, PROJECT, HarvestError, Install, base_env, run, version_key
from .result import Outcome, Thread

PACKAGE = "cline"
LICENCE = "Apache-2.0 (cline)"
MODEL = "gpt-5-probe"
DATA = HOME / ".cline" / "data"
OVER = "report 120000 input tokens"  # over 98k of the 128k window an unknown model gets
# Each Cline process takes 40 s and more to start on a loaded machine, five per scenario.
SERVER_SECONDS = 1500
STUCK = 20.0  # seconds a resumed 2.x turn may wait on its own resume ask
RUN_SECONDS = 1600
CORE_SCENARIOS = ("auto", "auto-twice", "smol", "smol-feedback", "truncation", "failure", "resume")
SMOL = ("smol", "smol-feedback")  # 1.x only
SDK_SCENARIOS = ("sdk-auto", "sdk-failure")
SCENARIOS = (*CORE_SCENARIOS, *SDK_SCENARIOS)
SDK_PACKAGE = "@cline/cli-linux-x64"  # 3.x: one Bun-compiled binary per platform
SDK_WINDOW = 12000  # the provider's contextWindow: the SDK compacts at 0.9 of it
SDK_OVER = "report 900000 input tokens"


def package(version: str) -> str:
    """The npm package of a version: ``cline`` up to 2.x, the platform binary from 3.x."""
    return SDK_PACKAGE if version_key(version) >= (3,) else PACKAGE


def supports(version: str, scenario: str) -> bool:
    """Cline CLI 1.0.x and 2.x (the extension core's task folders) run the core's scenarios;
    3.x (the SDK's session folders) its automatic compaction."""
    if version_key(version) >= (3,):
        return scenario in SDK_SCENARIOS
    if version_key(version) >= (2,) and scenario in SMOL:  # see the module's docstring
        return False
    return scenario in CORE_SCENARIOS and version_key(version) >= (1,)


def fast_dns() -> None:
    """Point the namespace's resolver at loopback, where nothing answers.

    Cline's telemetry (PostHog) and feature flags look up their hosts before every exit; with
    the machine's resolver unreachable from the namespace each lookup hangs until it times out
    (tens of seconds), with a resolver on 127.0.0.1 it fails at once. The bind mount lives and
    dies with the run's mount namespace.
    """
    conf = HOME / "tmp" / "resolv.conf"
    conf.write_text("nameserver 127.0.0.1\n", encoding="utf-8")
    done = subprocess.run(
        ["mount", "--bind", str(conf), "/etc/resolv.conf"], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise HarvestError(f"cannot bind a loopback resolv.conf: {done.stderr.strip()}")


def end_strays() -> list[int]:
    """End what the run left running (1.x's core instances; a 2.x process past its timeout):
    every process in this run's own network namespace but this one. Nothing outside the
    namespace is touched: it is read by each process's ``/proc/<pid>/ns/net``."""
    own = os.readlink("/proc/self/ns/net")
    ended = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if os.readlink(entry / "ns" / "net") != own:
                continue
            os.kill(int(entry.name), signal.SIGKILL)
            ended.append(int(entry.name))
        except OSError:
            continue
    return ended


GENERIC_RELEASE = "6.1.0"  # what a copied folder says instead of this machine's kernel release


def scrub(folder: Path) -> list[str]:
    """Replace this machine's kernel release (``os.uname().release``: Cline's
    ``task_metadata.json`` keeps it as ``os_version``) by a generic one in every file of a
    copied folder; the namespace hides the host name and home, not the kernel. Returns the
    files changed."""
    release = os.uname().release
    changed = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if release.encode() in data:
            path.write_bytes(data.replace(release.encode(), GENERIC_RELEASE.encode()))
            changed.append(path.name)
    return changed


def _free_port() -> int:
    """A port free on the loopback now (the core and its host bridge each need one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env() -> dict[str, str]:
    return {**base_env(), "CLINE_TELEMETRY_DISABLED": "1", "POSTHOG_DISABLED": "1"}


def quiet(server: ScriptedServer, seconds: float = 3.0, limit: float = 120.0) -> None:
    """Wait until the server has had no request for ``seconds`` (or ``limit`` passed)."""
    start = time.monotonic()
    seen, since = len(server.entries), time.monotonic()
    while time.monotonic() - start < limit:
        time.sleep(0.5)
        if len(server.entries) != seen:
            seen, since = len(server.entries), time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def tasks() -> list[Path]:
    """The task folders written so far, oldest first (a task id is its start in ms)."""
    folder = DATA / "tasks"
    found = [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []
    return sorted(found, key=lambda p: p.name)


def turns(scenario: str) -> list[str]:
    """The user's messages, in order; ``/smol`` and the answer to its summary are steps too."""
    over = f"answer with 1 shell tool calls; {OVER}"
    turn = cline_script.TURN
    plan = {
        "auto": [f"{turn} 1. {over}", f"{turn} 2."],
        "auto-twice": [f"{turn} 1. {over}", f"{turn} 2. {over}", f"{turn} 3."],
        "smol": [f"{turn} 1.", "/smol", "ACCEPT", f"{turn} 2."],
        "smol-feedback": [f"{turn} 1.", "/smol", "Feedback: keep the step numbers.", f"{turn} 2."],
        # a history long enough that dropping half of it removes messages
        "truncation": [
            f"{turn} 1. answer with 4 shell tool calls",
            f"{turn} 2. {over}",
            f"{turn} 3.",
        ],
        "failure": [f"{turn} 1. {over}; fail the summary", f"{turn} 2."],
        "resume": [f"{turn} 1. {OVER}", "RESUME", f"{turn} 2. {over}", f"{turn} 3."],
    }
    return plan[scenario]


class Cli2:
    """Cline CLI 2.x: one ``cline -y --act --json`` process per user message."""

    def __init__(self, install: Install, server: ScriptedServer, logs: Path, condense: bool):
        self.program = str(install.bin("cline"))
        self.server = server
        self.logs = logs
        self.condense = condense
        self.task = ""
        self.steps: list[str] = []

    def setup(self) -> None:
        fast_dns()
        argv = [self.program, "auth", "-p", "openai", "-k", "harvest", "-m", MODEL]
        done = run([*argv, "-b", self.server.base_url], _env(), timeout=300)
        self._keep("auth", done.stdout + done.stderr, done.returncode)

    def send(self, text: str) -> None:
        argv = [self.program, "-y", "--act", "--json"]
        if self.condense:
            argv.append("--auto-condense")
        if self.task:
            argv += ["-T", self.task]
        for attempt in range(1, 6):
            output, rc, stuck = self._attempt([*argv, text])
            self._keep(f"{text[:20]} (try {attempt})", output, rc)
            if not stuck:
                break
        else:
            raise HarvestError("cline 2.x: a resumed turn never reached the model in 5 tries")
        if not self.task:
            found = tasks()
            if not found:
                raise HarvestError("cline wrote no task folder")
            self.task = found[-1].name

    def _attempt(self, argv: list[str]) -> tuple[str, int, bool]:
        """One process; ``stuck`` when it resumed the task (a ``resume_task`` ask) and then sent
        nothing for ``STUCK`` seconds: 2.18 often never gives the prompt as the answer to its
        own resume ask. A fresh process usually goes on (measured: up to two stuck tries before
        one answered); each try leaves its ``resume_task`` ask in ``ui_messages.json``."""
        out = self.logs / "cline-attempt.out"
        with out.open("w") as sink:
            process = subprocess.Popen(
                argv,
                cwd=PROJECT,
                env=_env(),
                stdout=sink,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
            start, asked, seen = time.monotonic(), 0.0, len(self.server.entries)
            stuck = False
            while process.poll() is None:
                time.sleep(1.0)
                if time.monotonic() - start > 400:
                    process.kill()
                    raise HarvestError("cline 2.x: a turn took over 400 s")
                if len(self.server.entries) != seen:
                    asked = -1.0  # it reached the model: never stuck
                elif not asked and '"ask":"resume_task"' in out.read_text("utf-8", "replace"):
                    asked = time.monotonic()
                if asked > 0 and time.monotonic() - asked > STUCK:
                    process.kill()
                    stuck = True
            process.wait()
        return out.read_text("utf-8", "replace"), int(process.returncode or 0), stuck

    def accept(self) -> None:
        raise HarvestError("cline 2.x: /smol is not driven (it never reached the model)")

    def resume(self) -> None:
        """Every 2.x turn is a resume from disk already: nothing more to do."""

    def close(self) -> None:
        """Nothing should keep running between 2.x turns; whatever does is ended."""
        end_strays()

    def _keep(self, what: str, output: str, rc: int) -> None:
        number = len(self.steps) + 1
        self.steps.append(f"{number} {what!r} rc={rc} requests={len(self.server.entries)}")
        (self.logs / f"cline-step{number}.out").write_text(output[-20000:], "utf-8")


def _ui(task: str) -> list[dict[str, object]]:
    """The task's ``ui_messages.json`` as it stands ([] while it is missing or half written)."""
    path = DATA / "tasks" / task / "ui_messages.json"
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [m for m in value if isinstance(m, dict)] if isinstance(value, list) else []


# The asks a 1.x task waits on once a turn is over: the user's move.
WAITING = {
    "completion_result",
    "condense",
    "resume_task",
    "resume_completed_task",
    "api_req_failed",
    "mistake_limit_reached",
    "followup",
}


class Cli1:
    """Cline CLI 1.0.x: a core instance in the background, one command per user move."""

    def __init__(self, install: Install, server: ScriptedServer, logs: Path, condense: bool):
        self.program = str(install.bin("cline"))
        self.server = server
        self.logs = logs
        self.condense = condense
        self.task = ""
        self.steps: list[str] = []
        self.background: list[subprocess.Popen[bytes]] = []

    def _cli(self, what: str, argv: list[str], timeout: float = 300) -> str:
        done = run([self.program, *argv], _env(), timeout=timeout)
        number = len(self.steps) + 1
        self.steps.append(
            f"{number} {what!r} rc={done.returncode} requests={len(self.server.entries)}"
        )
        (self.logs / f"cline-step{number}.out").write_text(
            (done.stdout + done.stderr)[-20000:], "utf-8"
        )
        return done.stdout

    def setup(self) -> None:
        """The provider written where the core keeps its state, then the core started.

        ``cline auth`` (and ``config set``) would do the same through the core, but ``auth``
        starts an instance of its own and gives it 12 s, too few on a loaded machine."""
        fast_dns()
        DATA.mkdir(parents=True, exist_ok=True)
        state = {
            "actModeApiProvider": "openai",
            "planModeApiProvider": "openai",
            "openAiBaseUrl": self.server.base_url,
            "actModeOpenAiModelId": MODEL,
            "planModeOpenAiModelId": MODEL,
            "useAutoCondense": self.condense,
            "welcomeViewCompleted": True,
            "mode": "act",
        }
        (DATA / "globalState.json").write_text(json.dumps(state, indent=2), encoding="utf-8")
        secrets = {"openAiApiKey": "harvest"}
        (DATA / "secrets.json").write_text(json.dumps(secrets, indent=2), encoding="utf-8")
        self._start()

    def _start(self) -> None:
        """A core instance, started the way ``cline instance new`` starts one, but waited for
        as long as it takes: on a loaded machine the core needs more than the 12 s that
        ``instance new`` gives it to register, and that command then ends it."""
        folder = Path(self.program).resolve().parent.parent  # node_modules/cline
        host, core = _free_port(), _free_port()
        env = {
            **_env(),
            "NODE_PATH": f"{folder / 'node_modules'}:{folder / 'fake_node_modules'}",
            "NODE_ENV": "development",  # what `instance new` gives its core
        }
        for argv in (
            [str(folder / "bin" / "cline-host"), "--port", str(host)],
            [
                "node",
                str(folder / "cline-core.js"),
                "--port",
                str(core),
                "--host-bridge-port",
                str(host),
                "--config",
                str(HOME / ".cline"),
            ],
        ):
            log = (self.logs / f"cline-{Path(argv[0]).name}-{len(self.steps)}.log").open("w")
            self.background.append(
                subprocess.Popen(
                    argv, cwd=PROJECT, env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL
                )
            )
        address = f"127.0.0.1:{core}"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            time.sleep(2.0)
            listed = run([self.program, "instance", "list", "-F", "plain"], _env(), timeout=60)
            if address in listed.stdout:
                self._cli("default", ["instance", "default", address])
                return
        raise HarvestError("cline 1.x: the core instance did not register in 300 s")

    def _wait(self, since: int) -> None:
        """Until the task waits on the user again (an ask newer than ``since`` ms) and the
        server has been quiet a moment; ``task view -c`` would never return."""
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline:
            time.sleep(1.0)
            if not self.task:
                found = tasks()
                self.task = found[-1].name if found else ""
                continue
            ui = _ui(self.task)
            last = ui[-1] if ui else {}
            ts = last.get("ts")
            if (
                last.get("type") == "ask"
                and last.get("ask") in WAITING
                and not last.get("partial")
                and isinstance(ts, int)
                and ts > since
            ):
                quiet(self.server, seconds=3.0, limit=30.0)
                return
        raise HarvestError("cline 1.x: the task did not come back to the user in time")

    def send(self, text: str) -> None:
        since = int(time.time() * 1000)
        if self.task:
            self._cli(text[:20], ["task", "send", "-y", text])
        else:
            self._cli(text[:20], ["task", "new", "-y", "-m", "act", text])
        self._wait(since)

    def accept(self) -> None:
        since = int(time.time() * 1000)
        self._cli("approve", ["task", "send", "-y", "--approve"])
        self._wait(since)

    def resume(self) -> None:
        """A fresh instance opens the task from disk (``task open``)."""
        self._cli("kill", ["instance", "kill", "--all-cli"])
        end_strays()
        self._start()
        since = int(time.time() * 1000)
        self._cli("open", ["task", "open", self.task, "-y", "-m", "act"])
        self._wait(since)

    def close(self) -> None:
        """Stop the core instances this run started, and whatever else they left."""
        self._cli("kill", ["instance", "kill", "--all-cli"])
        end_strays()


# What a `task.compaction_executed` event keeps: which session, how, and what it removed. Not
# the telemetry ids (`distinct_id`, `device_id`: a hash of this machine) nor the platform.
EVENT_KEYS = ("ulid", "strategy", "mode", "messagesBefore", "messagesAfter", "messagesRemoved")


def compaction_events(log: str) -> list[str]:
    """The SDK's own record of its compactions, from ``logs/cline.log`` (pino JSON lines): one
    line per ``task.compaction_executed`` event, reduced to its time and ``EVENT_KEYS``."""
    out = []
    for line in log.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if not isinstance(value, dict) or value.get("event") != "task.compaction_executed":
            continue
        properties = value.get("properties")
        kept = {k: properties.get(k) for k in EVENT_KEYS} if isinstance(properties, dict) else {}
        out.append(json.dumps({"time": value.get("time"), "event": value["event"], **kept}))
    return out


def drive_sdk(install: Install, scenario: str, server: ScriptedServer, logs: Path) -> Outcome:
    """Cline CLI 3.x: one headless run whose two shell calls each report a prompt far over the
    provider's window, so the SDK compacts (agentic: a summary request) before the requests
    that carry their results; ``sdk-failure``: every summary request fails. Copies
    ``sessions/<id>/`` and the compaction events of ``logs/cline.log``."""
    fast_dns()
    program = str(install.folder / "node_modules" / SDK_PACKAGE / "bin" / "cline")
    steps = []
    argv = [program, "auth", "-p", "openai", "-k", "harvest", "-m", MODEL]
    done = run([*argv, "-b", server.base_url], _env(), timeout=300)
    steps.append(f"auth rc={done.returncode}")
    providers = DATA / "settings" / "providers.json"
    try:
        settings = json.loads(providers.read_text(encoding="utf-8"))
        provider = settings["lastUsedProvider"]
        settings["providers"][provider]["settings"]["contextWindow"] = SDK_WINDOW
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise HarvestError(f"cline auth wrote no usable providers.json: {error}") from None
    providers.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    prompt = f"{cline_script.TURN} 1. answer with 2 shell tool calls; {SDK_OVER}"
    if scenario == "sdk-failure":  # every summary request fails: the SDK falls back to basic
        prompt += "; fail the summary"
    done = run([program, "--json", "-P", provider, "-m", MODEL, prompt], _env(), timeout=400)
    steps.append(f"run rc={done.returncode} requests={len(server.entries)}")
    (logs / "cline-run.out").write_text((done.stdout + done.stderr)[-20000:], "utf-8")
    end_strays()
    sessions = sorted(p for p in (DATA / "sessions").glob("*") if p.is_dir())
    if len(sessions) != 1:
        raise HarvestError(f"cline {scenario}: {len(sessions)} session folders, not one")
    session = sessions[0].name
    target = logs / "sessions" / session
    shutil.copytree(sessions[0], target)
    scrub(target)
    events = compaction_events((DATA / "logs" / "cline.log").read_text("utf-8"))
    (logs / "compaction-events.jsonl").write_text("".join(f"{e}\n" for e in events), "utf-8")
    labels = [entry.classification for entry in server.entries]
    notes = [f"steps: {'; '.join(steps)}", f"log: {json.dumps(_tally(labels))}"]
    notes.append(f"cline.log: {sum('compaction_executed' in e for e in events)} compaction events")
    record: dict[str, object] = {"session_files": sorted(p.name for p in target.iterdir())}
    thread = Thread(session, "own", target, cline_script.reboots(labels))
    return Outcome([thread], notes, record=record)


def drive(
    install: Install, version: str, scenario: str, server: ScriptedServer, logs: Path
) -> Outcome:
    """Run ``scenario`` with Cline CLI ``version``; copy the task folder into ``logs``."""
    if not supports(version, scenario):
        raise HarvestError(f"cline {version} cannot do the {scenario} scenario")
    if version_key(version) >= (3,):
        return drive_sdk(install, scenario, server, logs)
    kind = Cli2 if version_key(version) >= (2,) else Cli1
    cli = kind(install, server, logs, condense=scenario != "truncation")
    try:
        cli.setup()
        for text in turns(scenario):
            if text == "ACCEPT":
                cli.accept()
            elif text == "RESUME":
                cli.resume()
            else:
                cli.send(text)
    finally:
        cli.close()
    if not cli.task:
        raise HarvestError("cline ran no task")
    target = logs / "tasks" / cli.task
    shutil.copytree(DATA / "tasks" / cli.task, target)
    scrubbed = scrub(target)
    labels = [entry.classification for entry in server.entries]
    caused = cline_script.reboots(labels)
    notes = [f"steps: {'; '.join(cli.steps)}", f"log: {json.dumps(_tally(labels))}"]
    if scrubbed:
        notes.append(f"kernel release made generic in {', '.join(scrubbed)}")
    return Outcome([Thread(cli.task, "own", target, caused)], notes)


def _tally(labels: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for label in labels:
        out[label] = out.get(label, 0) + 1
    return out
