"""Candidates: what runs for one case (PRO-1). A command, the in-process reference, or a preset.

Every candidate gets a private, read-only copy of the case's input in a fresh temporary folder,
so no candidate can change the corpus or see another case's files, and `run` always returns a
`RunResult` (never raises for the candidate's sake).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from conformance.answers import AnswerReader, JsonPointerReader
from conformance.outcome import RunResult
from conformance.process import run_command


class CandidateError(Exception):
    """A candidate specification that cannot work (one line, shown as a usage error)."""


class Candidate(Protocol):
    """Something that answers for one session file."""

    def describe(self) -> list[str]:
        """The argv (or a name) for report headers."""
        ...

    def default_reader(self) -> AnswerReader: ...

    def run(self, source: Path, timeout: float) -> RunResult: ...


@contextlib.contextmanager
def private_workdir() -> Iterator[Path]:
    """A temporary folder removed afterwards, even if the candidate left read-only files in it."""
    folder = Path(tempfile.mkdtemp(prefix="conformance-"))
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            with contextlib.suppress(OSError):
                path.chmod(stat.S_IRWXU if path.is_dir() else stat.S_IRUSR | stat.S_IWUSR)
        shutil.rmtree(folder, ignore_errors=True)


def place_copy(source: Path, target: Path) -> Path:
    """Copy `source` byte for byte to `target` and make it read-only (0o444)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    target.chmod(0o444)
    return target


def hide_workdir(text: str, workdir: Path) -> str:
    """Replace the temporary folder in a candidate's messages, so reports are stable."""
    return text.replace(str(workdir), "<case>")


@dataclass(frozen=True)
class CommandCandidate:
    """A command line (PRO-1): `{path}` is replaced by the input's path, or the path is appended."""

    argv: tuple[str, ...]

    @classmethod
    def parse(cls, command: str) -> CommandCandidate:
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise CandidateError(
                f"cannot split the candidate command {command!r}: {error}"
            ) from None
        if not argv or not argv[0]:
            raise CandidateError("the candidate command is empty")
        return cls(argv)

    def describe(self) -> list[str]:
        return list(self.argv)

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def command_for(self, path: Path) -> list[str]:
        if any("{path}" in word for word in self.argv):
            return [word.replace("{path}", str(path)) for word in self.argv]
        return [*self.argv, str(path)]

    def run(self, source: Path, timeout: float) -> RunResult:
        with private_workdir() as workdir:
            copy = place_copy(source, workdir / source.name)
            env = dict(os.environ, PYTHONIOENCODING="utf-8")
            result = run_command(self.command_for(copy), timeout=timeout, env=env)
            return without_workdir(result, workdir)


@dataclass(frozen=True)
class ReferenceCandidate:
    """The bundled reference, called in process (`reference.cli.main`) for speed.

    It is classified exactly like a subprocess: its exit code and the text it wrote. There is
    no time limit in process; `--candidate "python -m reference count"` runs it as a command.
    """

    def describe(self) -> list[str]:
        return ["reference (in process)"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def run(self, source: Path, timeout: float) -> RunResult:
        from reference.cli import main

        with private_workdir() as workdir:
            copy = place_copy(source, workdir / source.name)
            out, err = io.StringIO(), io.StringIO()
            started = time.monotonic()
            try:
                code = main(["count", str(copy)], out, err)
            except Exception as error:  # a bug in the reference is a crash, not a traceback
                return RunResult(
                    start_error=f"the reference raised {type(error).__name__}: {error}",
                    duration=time.monotonic() - started,
                )
            result = RunResult(
                exit_code=code,
                stdout=out.getvalue(),
                stderr=err.getvalue(),
                duration=time.monotonic() - started,
            )
            return without_workdir(result, workdir)


def without_workdir(result: RunResult, workdir: Path) -> RunResult:
    """The result with the temporary folder's path hidden in its stdout and stderr."""
    note = result.crash_note
    return replace(
        result,
        stdout=hide_workdir(result.stdout, workdir),
        stderr=hide_workdir(result.stderr, workdir),
        crash_note=hide_workdir(note, workdir) if note is not None else None,
    )


REFERENCE_NAMES = ("", "reference")


def parse_candidate(spec: str | None) -> Candidate:
    """`None`/"reference" -> the in-process reference; `NAME:ARG` -> a preset; else a command."""
    from conformance.presets import PRESETS

    if spec is None or spec.strip() in REFERENCE_NAMES:
        return ReferenceCandidate()
    name, sep, argument = spec.partition(":")
    if sep and name in PRESETS:
        if not argument:
            raise CandidateError(f"the preset {name} needs a path: {name}:PATH")
        return PRESETS[name](Path(argument).expanduser())
    return CommandCandidate.parse(spec)
