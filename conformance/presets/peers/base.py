"""What every peer preset declares, and how one case is handed to it (bowtie's harness, ours).

A peer is a counter people already use. Its preset says, once: the pinned package and how it is
installed (`install.Package`), the hosts it claims (as bowtie's implementations declare their
dialects: the scoreboard runs it on those hosts' cases only), how it is handed one case (its
`invoke`: a path, or the host's home layout built in the case's private folder) and how its
answer is read (`answers`). `run` turns all that into the runner's `RunResult`, whose stdout is
then `{"reboots": N}` or, when the tool's answer could not be read, the reason, so the runner's
own `classify` judges a peer exactly as it judges any candidate.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

import orjson

from ...runner.answers import AnswerReader, JsonPointerReader
from ...runner.candidates import CaseInput, Isolation, confined_run, private_workdir
from ...runner.outcome import RunResult
from .answers import Answer
from .install import Package, cache_root

# Variables that turn telemetry and update checks off in tools that honour them; the network is
# closed anyway, this only spares them the wait.
QUIET_ENV = {"DO_NOT_TRACK": "1", "NO_UPDATE_NOTIFIER": "1", "NO_COLOR": "1"}


def read_page(path: Path) -> str | None:
    """A file the tool wrote (an HTML page), or None when it wrote none."""
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return None


@dataclass(frozen=True)
class Invocation:
    """One run of the tool: argv, extra environment, and the folder it works in."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None


@dataclass(frozen=True)
class Peer:
    """A counter people use, run case by case. Subclasses fill in the class variables and
    `invoke`/`answer`; they hold no state, so one object serves a whole run."""

    root: Path = field(default_factory=cache_root)
    isolation: Isolation = field(default_factory=Isolation)
    # The host of the cases this object is run on (`for_host`): where a home layout is built.
    host: str | None = None

    name: ClassVar[str]
    package: ClassVar[Package]
    hosts: ClassVar[tuple[str, ...]]
    # What the preset reads, in a few words (the scoreboard's legend).
    reads: ClassVar[str]
    # What a reader of the scoreboard should know of how the peer counts (from its own code).
    notes: ClassVar[str] = ""
    # Set when the peer cannot run here at all, with the reason; it is then skipped, never faked.
    blocked: ClassVar[str | None] = None
    needs_node22: ClassVar[bool] = False

    def describe(self) -> list[str]:
        return [f"{self.name} {self.package.version}"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def for_host(self, host: str) -> Peer:
        return replace(self, host=host)

    def packages(self) -> tuple[Package, ...]:
        from .install import NODE_PACKAGE

        return (self.package, NODE_PACKAGE) if self.needs_node22 else (self.package,)

    def invoke(self, given: CaseInput, work: Path, home: Path) -> Invocation:
        """The command for one case; the input is laid under `work` or `home` here."""
        raise NotImplementedError

    def answer(self, result: RunResult, given: CaseInput, work: Path, home: Path) -> Answer:
        """The count from what the tool printed or left in `work`/`home`."""
        raise NotImplementedError

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult:
        given = CaseInput.of(source)
        with private_workdir() as root:
            work, home = root / "work", root / "home"
            work.mkdir()
            home.mkdir()
            call = self.invoke(given, work, home)
            env = {"HOME": str(home), **QUIET_ENV, **call.env}
            result = confined_run(
                call.argv, root, timeout, self.isolation, env, cwd=call.cwd or work
            )
            if result.exit_code != 0 or result.timed_out or result.start_error:
                return result
            count, problem = self.answer(result, given, work, home)
        if count is None:
            shown = orjson.dumps({"unreadable": problem}).decode()
        else:
            shown = orjson.dumps({"reboots": count}).decode()
        return replace(result, stdout=shown)
