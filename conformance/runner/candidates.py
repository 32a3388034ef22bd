"""Candidates: what runs for one case (PRO-1). A command, the in-process reference, or a preset.

This module holds the base types and the confinement every candidate shares; the presets
(`conformance/presets/`) build on it, and turning a `--candidate` value into a candidate is
`presets.parse_candidate`, so nothing here imports an adapter.

Every candidate gets a private, read-only copy of the case's input, named `session.jsonl` or
`session.json` (or, for a case whose input is a folder of files, that folder copied whole as
`input/`), in a fresh temporary folder that is also its working directory and holds nothing
else; its environment is an allowlist (`candidate_env`), so nothing names the case and
no relative path reaches the corpus or the snapshots. `run` always returns a `RunResult` (never
raises for the candidate's sake). The folder is removed without following symbolic links.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from .answers import AnswerReader, JsonPointerReader
from .outcome import RunResult
from .process import run_command


class CandidateError(Exception):
    """A candidate specification that cannot work (one line, shown as a usage error)."""


@dataclass(frozen=True)
class CaseInput:
    """What one case gives a candidate (PRO-1).

    `path` is the corpus path `{path}` names: the one input file, or a file or folder under
    `root`, the `input/` folder that is then copied whole (an opencode database with its WAL, a
    chain of basic-agent-chat-loop session files). `session` is what `{session}` names.
    """

    path: Path
    root: Path | None = None
    session: str | None = None

    @classmethod
    def of(cls, given: CaseInput | Path) -> CaseInput:
        """A bare path is a case of one file and no session (fuzzing, the presets' tests)."""
        return given if isinstance(given, CaseInput) else cls(Path(given))

    def place(self, workdir: Path) -> Path:
        """Copy the input into `workdir` read-only; the path the candidate is given."""
        if self.root is None:
            return place_copy(self.path, workdir / neutral_name(self.path))
        target = workdir / INPUT_FOLDER
        shutil.copytree(self.root, target, symlinks=True)
        for folder, _, names in os.walk(target):
            for name in names:
                with contextlib.suppress(OSError):
                    os.chmod(os.path.join(folder, name), 0o444)
        return target / self.path.relative_to(self.root)


# PRO-1: the name of the copied folder of a case whose input is several files.
INPUT_FOLDER = "input"


class Candidate(Protocol):
    """Something that answers for one case's input."""

    def describe(self) -> list[str]:
        """The argv (or a name) for report headers."""
        ...

    def default_reader(self) -> AnswerReader: ...

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult: ...


# PRO-1: the variables a candidate inherits (plus `--pass-env NAME`); nothing else.
ENV_ALLOWLIST = ("PATH", "HOME", "LANG", "TMPDIR", "TZ")
ENV_PREFIXES = ("LC_",)
WINDOWS_ENV = ("SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT")


@dataclass(frozen=True)
class Isolation:
    """How a case's process is confined: extra variables passed by name, a memory cap (MiB)."""

    pass_env: tuple[str, ...] = ()
    memory_mb: int | None = None


def candidate_env(
    isolation: Isolation,
    extra: Mapping[str, str] | None = None,
    source: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The allowlisted environment (PRO-1), with `extra` (a preset's HOME...) on top."""
    environ = os.environ if source is None else source
    names = set(ENV_ALLOWLIST) | set(isolation.pass_env)
    if sys.platform == "win32":
        names |= set(WINDOWS_ENV)
    env = {
        name: value
        for name, value in environ.items()
        if name in names or name.startswith(ENV_PREFIXES)
    }
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra or {})
    return env


def _remove_tree(folder: Path) -> None:
    """Remove `folder` as the candidate left it, never following a symbolic link.

    Only real directories get their mode restored (deleting an entry needs a writable folder,
    never a writable file); `os.walk` does not descend into links, `lstat` tells a link from a
    folder, and `shutil.rmtree` unlinks links instead of following them. Every process of the
    case is dead by now, so nothing swaps a folder for a link between the check and the chmod.
    """
    with contextlib.suppress(OSError):
        if stat.S_ISDIR(os.lstat(folder).st_mode):
            os.chmod(folder, stat.S_IRWXU)
    for root, dirs, _ in os.walk(folder):
        for name in dirs:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                if stat.S_ISDIR(os.lstat(path).st_mode):
                    os.chmod(path, stat.S_IRWXU)
    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def private_workdir() -> Iterator[Path]:
    """A temporary folder removed afterwards (read-only leftovers, links: see `_remove_tree`)."""
    folder = Path(tempfile.mkdtemp(prefix="conformance-"))
    try:
        yield folder
    finally:
        _remove_tree(folder)


def place_copy(source: Path, target: Path) -> Path:
    """Copy `source` byte for byte to `target` and make it read-only (0o444)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    target.chmod(0o444)
    return target


def neutral_name(source: Path) -> str:
    """`session.jsonl` or `session.json`: the extension is the only container signal (PRO-1)."""
    return "session.json" if source.suffix == ".json" else "session.jsonl"


def confined_run(
    argv: Sequence[str],
    workdir: Path,
    timeout: float,
    isolation: Isolation,
    extra_env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> RunResult:
    """Run `argv` in `cwd` (default `workdir`) with the allowlisted environment; `workdir` is
    hidden in its output."""
    result = run_command(
        argv,
        timeout=timeout,
        cwd=cwd or workdir,
        env=candidate_env(isolation, extra_env),
        memory_mb=isolation.memory_mb,
    )
    return without_workdir(result, workdir)


def hide_workdir(text: str, workdir: Path) -> str:
    """Replace the temporary folder in a candidate's messages, so reports are stable."""
    return text.replace(str(workdir), "<case>")


# What is left of a word once `{path}` and `{session}` are taken out that was meant as one of
# them (`{path`, `path}`, `{PATH}`, `{ path }`): a typo that would run every case on nothing.
MALFORMED_PLACEHOLDER = re.compile(r"\{\s*(?:path|session)\b\s*\}?|\b(?:path|session)\s*\}", re.I)


@dataclass(frozen=True)
class CommandCandidate:
    """A command line (PRO-1): `{path}` is replaced by the input's path, or the path is appended."""

    argv: tuple[str, ...]
    isolation: Isolation = field(default_factory=Isolation)

    @classmethod
    def parse(cls, command: str, base: Path | None = None) -> CommandCandidate:
        """Split `command` (no shell) and anchor its relative paths at `base` (default: the
        folder rebootspec was started in), see `anchored`."""
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise CandidateError(
                f"cannot split the candidate command {command!r}: {error}"
            ) from None
        if not argv or not argv[0]:
            raise CandidateError("the candidate command is empty")
        for word in argv:
            rest = word.replace("{path}", "").replace("{session}", "")
            broken = MALFORMED_PLACEHOLDER.search(rest)
            if broken:
                raise CandidateError(
                    f"malformed placeholder {broken.group()!r} in {word!r}: "
                    "write {path} (and {session}) exactly"
                )
        return cls(anchored(argv, Path.cwd() if base is None else base))

    def describe(self) -> list[str]:
        return list(self.argv)

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def command_for(self, path: Path, session: str | None = None) -> list[str]:
        """The argv for one case (PRO-1): `{path}` and `{session}` replaced, or the path (and
        the session, when the case names one) appended; with no session, a word holding
        `{session}` is left out."""
        words = [word.replace("{path}", str(path)) for word in self.argv]
        if session is None:
            words = [word for word in words if "{session}" not in word]
        else:
            words = [word.replace("{session}", session) for word in words]
        if not any("{path}" in word for word in self.argv):
            words.append(str(path))
        if session is not None and not any("{session}" in word for word in self.argv):
            words.append(session)
        return words

    def program(self) -> str:
        return self.argv[0]

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult:
        given = CaseInput.of(source)
        with private_workdir() as workdir:
            copy = given.place(workdir)
            argv = self.command_for(copy, given.session)
            return confined_run(argv, workdir, timeout, self.isolation)


@dataclass(frozen=True)
class ReferenceCandidate:
    """The bundled reference, called in process (`reference.cli.main`) for speed.

    It is classified exactly like a subprocess: its exit code and the text it wrote. There is
    no time limit in process; `--candidate "rebootspec count"` runs it as a command.
    """

    def describe(self) -> list[str]:
        return ["reference (in process)"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def run(self, source: CaseInput | Path, timeout: float) -> RunResult:
        from ...reference.cli import main

        given = CaseInput.of(source)
        with private_workdir() as workdir:
            copy = given.place(workdir)
            argv = ["count", str(copy)]
            if given.session is not None:
                argv += ["--session", given.session]
            out, err = io.StringIO(), io.StringIO()
            started = time.monotonic()
            try:
                code = main(argv, out, err)
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


def _has_separator(word: str) -> bool:
    return os.sep in word or bool(os.altsep and os.altsep in word)


def anchored(argv: Sequence[str], base: Path) -> tuple[str, ...]:
    """`argv` with its relative paths made absolute against `base`, the user's folder.

    Every case runs in a fresh empty folder, so `./mytool` or `node mytool.js` would name
    nothing there; they are resolved once, here, before any case folder exists:

    - the program, when it is a relative path (`./mytool`, `bin/mytool`); a bare name
      (`mytool`) is left to the PATH lookup, as a shell does;
    - each argument that is not an option (no leading `-`), holds no `{path}` or `{session}`,
      and names an existing file or folder relative to `base` (`mytool.js`, `conf/rules.toml`).

    `os.path.abspath`, not `resolve`: a symbolic link keeps its name (a multi-call program
    looks at the name it was called by).
    """
    words = list(argv)
    program = words[0]
    if _has_separator(program) and not os.path.isabs(program):
        words[0] = os.path.abspath(os.path.join(base, program))
    for index in range(1, len(words)):
        word = words[index]
        if not word or word.startswith("-") or os.path.isabs(word):
            continue
        if "{path}" in word or "{session}" in word:
            continue
        if os.path.exists(os.path.join(base, word)):
            words[index] = os.path.abspath(os.path.join(base, word))
    return tuple(words)


def without_workdir(result: RunResult, workdir: Path) -> RunResult:
    """The result with the temporary folder's path hidden in its stdout and stderr."""
    note = result.crash_note
    return replace(
        result,
        stdout=hide_workdir(result.stdout, workdir),
        stderr=hide_workdir(result.stderr, workdir),
        crash_note=hide_workdir(note, workdir) if note is not None else None,
    )


def startable(candidate: Candidate) -> str | None:
    """Why the candidate's program cannot be started (not found, not executable), or None."""
    program = getattr(candidate, "program", None)
    if program is None:
        return None
    name = program()
    path = candidate_env(Isolation()).get("PATH", os.defpath)
    if os.sep in name or (os.altsep and os.altsep in name):
        target = Path(name)
        if not target.exists():
            return f"the candidate program {name} does not exist"
        if target.is_dir() or not os.access(target, os.X_OK):
            return f"the candidate program {name} is not executable"
        return None
    if shutil.which(name, path=path) is None:
        return f"the candidate program {name!r} is not found on PATH"
    return None
