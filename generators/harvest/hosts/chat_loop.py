"""basic-agent-chat-loop (PyPI ``basic-agent-chat-loop``, MIT) driven by a stub agent.

The chat loop reads plain ``input()`` lines from stdin (no pty needed; end of input ends the
session as Ctrl+D does) and loads a Python module's ``root_agent``; the stub in
``chat_loop_stub.py`` answers every prompt and logs it, so no model and no network are involved.
Commands take a ``#`` from 1.6.0 (``#compact``, ``#resume N``); ``--resume N`` resumes at start.
Sessions are Markdown files ``<agent>_<YYYYmmdd_HHMMSS>.md`` in ``./.chat-sessions`` (1.6.0 on),
or a ``.json`` and a ``.md`` per session in ``~/agent-conversations`` (1.5.x).

A compaction is a summary request followed by a restoration request in the stub's log; a resume
is a restoration request with no summary before it. Which file each restoration produced is read
from the folder between steps (the first session file the process writes after the restoration),
never from the files' contents; each file's count is the restorations along its chain of parents
(``chain_counts``). Session ids have one-second resolution, so the driver waits a second before
every compaction, resume and new process, except in the ``collision`` scenario, which compacts
within the session's first second on purpose.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .common import HOME, PROJECT, HarvestError, Install, base_env, cache_root, version_key
from .result import Outcome, Thread

PACKAGE = "basic-agent-chat-loop"
LICENCE = "MIT"
SCENARIOS = ("compact", "compact-twice", "resume", "failure", "collision", "plain")
STUB = Path(__file__).with_name("chat_loop_stub.py")
AGENT = PROJECT / "agent.py"
STUB_LOG = HOME / "stub-log.jsonl"
AGENT_NAME = "harvest"  # the stub's root_agent.name: ids are harvest_<YYYYmmdd_HHMMSS>
GAP = 1.1  # seconds: the next session id is in another second
# ~/.chatrc: save at exit (1.5.x/1.6.x only save then), no sound, no status bar or title, no
# "Continue? (y/n)" before a 1.5.x resume. Nothing here changes what a session file holds.
CHATRC = """features:
  auto_save: true
audio:
  enabled: false
ui:
  show_status_bar: false
  update_terminal_title: false
sessions:
  resume_confirmation: false
"""


def supports(version: str, scenario: str) -> bool:
    """``plain`` (no compaction, 1.5.x's resume replays) before 1.6.0; the rest from 1.6.0."""
    if scenario not in SCENARIOS:
        return False
    modern = version_key(version) >= (1, 6, 0)
    return modern if scenario != "plain" else not modern


def sessions_dir(version: str) -> Path:
    """Where the version writes sessions: ``./.chat-sessions`` from 1.6.0, else the home's."""
    if version_key(version) >= (1, 6, 0):
        return PROJECT / ".chat-sessions"
    return HOME / "agent-conversations"


def pip_root() -> Path:
    """Pinned venvs live next to the npm installs (``.../rebootspec-harvest/pip``)."""
    if os.environ.get("REBOOTSPEC_HARVEST_CACHE"):
        return cache_root() / "pip"
    return cache_root().parent / "pip"


def install_pinned(version: str) -> Install:
    """A venv with ``basic-agent-chat-loop==version`` from PyPI; a complete one is reused."""
    folder = pip_root() / f"{PACKAGE}@{version}"
    done = folder / ".complete"
    if done.exists():
        return Install(folder, 0.0, True)
    start = time.monotonic()
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(folder)],
        [str(folder / "bin" / "pip"), "install", "-q", f"{PACKAGE}=={version}"],
    ]
    for argv in steps:
        try:
            done_run = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise HarvestError(f"pip install {PACKAGE}=={version} failed: {error}") from None
        if done_run.returncode != 0:
            last = (done_run.stderr.strip().splitlines() or ["no output"])[-1]
            raise HarvestError(f"pip install {PACKAGE}=={version} failed: {last}")
    done.write_text(version + "\n")
    return Install(folder, time.monotonic() - start, False)


def latest() -> str:
    """PyPI's newest version (``pip index versions``), for the drift check."""
    argv = [sys.executable, "-m", "pip", "index", "versions", PACKAGE]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise HarvestError(f"pip index versions {PACKAGE} failed: {error}") from None
    for line in done.stdout.splitlines():
        if line.startswith(f"{PACKAGE} (") and line.rstrip().endswith(")"):
            return line.rstrip()[len(PACKAGE) + 2 : -1]
    raise HarvestError(f"pip index versions {PACKAGE} failed: {done.stderr.strip()[-200:]}")


@dataclass(frozen=True)
class Call:
    """One line of the stub's log."""

    kind: str  # turn, summary, summary-failed, restore
    pid: int
    parent: str | None


@dataclass(frozen=True)
class Restoration:
    """A restoration the script caused: after a summary (compaction) or not (resume)."""

    kind: str  # compaction or resume
    parent: str | None
    index: int  # position of the restore call in the log


def read_log(path: Path) -> list[Call]:
    """The stub's log; a line that is not a call object is skipped."""
    calls: list[Call] = []
    if not path.exists():
        return calls
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("kind"), str):
            parent = value.get("parent")
            pid = value.get("pid")
            calls.append(
                Call(
                    value["kind"],
                    pid if isinstance(pid, int) else 0,
                    parent if isinstance(parent, str) else None,
                )
            )
    return calls


def restorations(calls: list[Call]) -> list[Restoration]:
    """Every restoration in the log, told apart by what came just before it in its process.

    ``#compact`` asks for a summary and, with one, restores the new session from it at once: a
    restore call right after a summary call of the same process. A resume (``#resume``,
    ``--resume``) restores from a saved summary without asking for one. A summary with no
    restore after it (the save at exit, or a failed compaction) restores nothing.
    """
    found = []
    for index, call in enumerate(calls):
        if call.kind != "restore":
            continue
        before = calls[index - 1] if index else None
        compacted = before is not None and before.kind == "summary" and before.pid == call.pid
        found.append(Restoration("compaction" if compacted else "resume", call.parent, index))
    return found


def chain_counts(links: Mapping[str, str], names: list[str]) -> dict[str, int]:
    """Restorations along each session's chain of parents (a loop is walked once)."""
    counts = {}
    for name in names:
        seen: set[str] = set()
        here, count = name, 0
        while here in links and here not in seen:
            seen.add(here)
            here = links[here]
            count += 1
        counts[name] = count
    return counts


def chain_answer(links: Mapping[str, str], names: list[str], name: str) -> str:
    """The spec's answer the record implies for ``name``: its count, or ``reject:E-CHAIN``
    when its chain comes back to a file or leaves the folder's files (BCL-6)."""
    seen: set[str] = set()
    here = name
    while here in links:
        seen.add(here)
        here = links[here]
        if here in seen or here not in names:
            return "reject:E-CHAIN"
    return str(len(seen))


Snapshot = dict[str, tuple[int, int]]


def snapshot(folder: Path) -> Snapshot:
    """Each session file's (mtime, size), to see which one a step wrote."""
    if not folder.is_dir():
        return {}
    return {p.stem: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.glob("*.md")}


@dataclass
class Ledger:
    """Which session file each restoration produced, from the folder between steps.

    A step that logs a restore sets the parent aside; the first file written in a later step is
    its child, also when that later step restores again (a compaction saves the current session
    before it restores the next one). Writes in the restoring step itself come before its
    restoration, so they never resolve it. A child written under its parent's name (ids within
    one second) links the file to itself.
    """

    folder: Path
    links: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    pending: Restoration | None = None
    notes: list[str] = field(default_factory=list)
    before: Snapshot = field(default_factory=dict)

    def record(self, all_calls: list[Call], offset: int) -> None:
        """Account for one step: the log lines from ``offset`` on and the files it wrote."""
        after = snapshot(self.folder)
        written = sorted(
            (after[name][0], name) for name in after if self.before.get(name) != after[name]
        )
        self.before = after
        restores = [r for r in restorations(all_calls) if r.index >= offset]
        if self.pending is not None and written:
            # 1.6.x saves a compacted session first when it is compacted again: that write
            # comes before the step's own restoration.
            self._link(written[0][1], self.pending)
            self.pending = None
        if restores:
            if self.pending is not None:
                self.notes.append(
                    f"the session restored from {self.pending.parent} was never saved"
                )
            self.pending = restores[-1]

    def _link(self, child: str, restoration: Restoration) -> None:
        if restoration.parent is None:
            self.notes.append(f"a restoration into {child} named no parent")
            return
        if child == restoration.parent:
            self.notes.append(f"{child} was written under its parent's id (same second)")
        self.links[child] = restoration.parent
        self.kinds[child] = restoration.kind


class Loop:
    """One ``chat_loop`` process fed line by line; each line waits for its stub calls."""

    def __init__(self, binary: Path, args: list[str], ledger: Ledger, stdout: Path) -> None:
        self.ledger = ledger
        self._stdout = stdout.open("w", encoding="utf-8")
        env = {**base_env(), "HARVEST_STUB_LOG": str(STUB_LOG), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [str(binary), str(AGENT), *args],
            cwd=PROJECT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=self._stdout,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def step(self, text: str, calls: int, timeout: float = 60) -> None:
        """Send ``text`` (one or more lines); wait for ``calls`` new stub calls, then a moment."""
        offset = len(read_log(STUB_LOG))
        if text:
            assert self.process.stdin is not None
            try:
                self.process.stdin.write(text + "\n")
                self.process.stdin.flush()
            except (BrokenPipeError, ValueError) as error:
                raise HarvestError(f"chat_loop stopped reading input: {error}") from None
        self._settle(offset, calls, timeout)

    def _settle(self, offset: int, calls: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while len(read_log(STUB_LOG)) < offset + calls:
            if time.monotonic() > deadline:
                raise HarvestError(f"chat_loop made fewer than {calls} agent calls in time")
            if self.process.poll() is not None and calls:
                break
            time.sleep(0.1)
        time.sleep(0.4)  # the save after the call
        every = read_log(STUB_LOG)
        self.ledger.record(every, offset)

    def finish(self, calls: int, timeout: float = 60) -> int:
        """End of input (the chat ends as on Ctrl+D and saves); wait for the process."""
        offset = len(read_log(STUB_LOG))
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise HarvestError("chat_loop did not end after its input ended") from None
        finally:
            self._stdout.close()
        every = read_log(STUB_LOG)
        if len(every) < offset + calls:
            self.ledger.notes.append(f"{len(every) - offset} of {calls} calls at the end")
        self.ledger.record(every, offset)
        return code


def resume_number(session: str) -> str:
    """The 1-based number ``#resume N`` / ``--resume N`` gives ``session`` (the index order)."""
    index = PROJECT / ".chat-sessions" / ".index.json"
    try:
        listed = json.loads(index.read_text(encoding="utf-8"))["sessions"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise HarvestError(f"cannot read the session index: {error}") from None
    mine = [s.get("session_id") for s in listed if s.get("agent_name") == AGENT_NAME]
    if session not in mine:
        raise HarvestError(f"{session} is not in the session index")
    return str(mine.index(session) + 1)


class Script:
    """The scenario's processes, one after another, all sharing one ledger."""

    def __init__(self, install: Install, version: str, logs: Path) -> None:
        self.binary = install.folder / "bin" / "chat_loop"
        self.folder = sessions_dir(version)
        self.ledger = Ledger(self.folder)
        self.logs = logs
        self.runs = 0
        self.codes: list[int] = []
        self.loops: list[Loop] = []

    def start(self, *args: str) -> Loop:
        self.runs += 1
        stdout = self.logs / f"chat-loop-{self.runs}.stdout.txt"
        loop = Loop(self.binary, list(args), self.ledger, stdout)
        self.loops.append(loop)
        return loop

    def close(self) -> None:
        """End any loop a failed step left running (only the processes this script started)."""
        for loop in self.loops:
            if loop.process.poll() is None:
                loop.process.kill()
                loop.process.wait()

    def end(self, loop: Loop, calls: int) -> None:
        self.codes.append(loop.finish(calls))

    def newest(self) -> str:
        """The session file written last (the session a finished process saved)."""
        files = snapshot(self.folder)
        if not files:
            raise HarvestError("chat_loop wrote no session file")
        return max(files, key=lambda name: files[name][0])


def _compact(s: Script, twice: bool) -> str:
    loop = s.start()
    loop.step("Turn 1.", 1)
    time.sleep(GAP)
    loop.step("#compact", 2)
    loop.step("Turn 2.", 1)
    if twice:
        time.sleep(GAP)
        loop.step("#compact", 2)
        loop.step("Turn 3.", 1)
    s.end(loop, 1)
    return s.newest()


def _resume(s: Script) -> str:
    loop = s.start()
    loop.step("Turn 1.", 1)
    s.end(loop, 1)
    first = s.newest()
    time.sleep(GAP)
    loop = s.start()
    loop.step("Turn 2 in another session.", 1)
    s.end(loop, 1)
    time.sleep(GAP)
    loop = s.start("--resume", resume_number(first))
    loop.step("", 1)  # the restoration at start
    loop.step("Turn 3.", 1)
    s.end(loop, 1)
    resumed = s.newest()
    time.sleep(GAP)
    loop = s.start()
    time.sleep(GAP)
    loop.step(f"#resume {resume_number(resumed)}", 1)
    loop.step("Turn 4.", 1)
    s.end(loop, 1)
    return s.newest()


def _failure(s: Script) -> tuple[str, str]:
    loop = s.start()
    loop.step("Turn 1.", 1)
    time.sleep(GAP)
    loop.step("#compact", 2)
    loop.step("Turn 2; fail the summary.", 1)
    time.sleep(GAP)
    loop.step("#compact", 1)  # the summary fails: saved without one, same session
    loop.step("Turn 3.", 1)
    s.end(loop, 1)
    failed = s.newest()
    time.sleep(GAP)
    loop = s.start("--resume", resume_number(failed))  # no summary: warns, starts afresh
    loop.step("", 0)
    loop.step("Turn 4 after the refused resume.", 1)
    s.end(loop, 1)
    return failed, s.newest()


def _collision(s: Script) -> str:
    loop = s.start()
    loop.step("Turn 1.\n#compact", 3)  # within the session's first second
    loop.step("Turn 2.", 1)
    s.end(loop, 1)
    return s.newest()


def _plain(s: Script) -> str:
    loop = s.start()
    loop.step("Turn 1.", 1)
    loop.step("Turn 2.", 1)
    s.end(loop, 0)
    first = s.newest()
    time.sleep(GAP)
    loop = s.start("--resume", "1")  # 1.5.x replays both queries to the agent
    loop.step("", 2)
    loop.step("Turn 3.", 1)
    s.end(loop, 0)
    if s.newest() != first:
        s.ledger.notes.append("the replayed session was saved under a new id")
    return first


def _prepare() -> None:
    """The stub as the agent module, the settings, an empty log and no sessions yet."""
    PROJECT.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STUB, AGENT)
    (HOME / ".chatrc").write_text(CHATRC, encoding="utf-8")
    STUB_LOG.unlink(missing_ok=True)
    for folder in (PROJECT / ".chat-sessions", HOME / "agent-conversations"):
        shutil.rmtree(folder, ignore_errors=True)


def _play(install: Install, version: str, scenario: str, logs: Path) -> tuple[Script, list[str]]:
    """Run the scenario once; the session names asked about, the asked one first."""
    _prepare()
    s = Script(install, version, logs)
    try:
        if scenario in ("compact", "compact-twice"):
            asked = [_compact(s, scenario == "compact-twice")]
        elif scenario == "resume":
            asked = [_resume(s)]
        elif scenario == "failure":
            asked = list(_failure(s))
        elif scenario == "collision":
            asked = [_collision(s)]
        else:
            asked = [_plain(s)]
    finally:
        s.close()
    return s, asked


def drive(install: Install, version: str, scenario: str, logs: Path) -> Outcome:
    """Run ``scenario``; every session file of the run is a thread, the asked one ``own``."""
    if not supports(version, scenario):
        raise HarvestError(f"basic-agent-chat-loop {version} cannot do the {scenario} scenario")
    attempts = 3 if scenario == "collision" else 1
    for attempt in range(1, attempts + 1):
        s, asked = _play(install, version, scenario, logs)
        collided = any(child == parent for child, parent in s.ledger.links.items())
        if scenario != "collision" or collided:
            break
        s.ledger.notes.append(f"attempt {attempt}: the compaction left the first second")
    notes = list(s.ledger.notes)
    if any(s.codes):
        notes.append(f"chat_loop exit codes {s.codes}")
    calls = read_log(STUB_LOG)
    found = restorations(calls)
    kinds = [r.kind for r in found]
    notes.append(
        f"stub log: {len(calls)} calls, {kinds.count('compaction')} compactions, "
        f"{kinds.count('resume')} resumes, "
        f"{sum(1 for c in calls if c.kind == 'summary-failed')} failed summaries"
    )
    names = sorted(snapshot(s.folder))
    counts = chain_counts(s.ledger.links, names)
    threads = []
    for name in names:
        role = "own" if name == asked[0] else ("asked" if name in asked else "other")
        answer = chain_answer(s.ledger.links, names, name)
        threads.append(Thread(name, role, s.folder / f"{name}.md", counts[name], answer))
    # 1.5.x's .json twin of each session, the index the numbers of #resume come from, the log.
    extra = sorted(p for p in s.folder.iterdir() if p.suffix == ".json" and p.is_file())
    links = {child: s.ledger.links[child] for child in sorted(s.ledger.links)}
    record: dict[str, object] = {
        "links": links,
        "link_kinds": {child: s.ledger.kinds[child] for child in links},
        "asked": asked,
        "restorations": kinds,
    }
    return Outcome(threads, notes, files=[*extra, STUB_LOG], record=record)
