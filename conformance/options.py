"""Every setting of a conformance run, defined once: its option, its environment variable, its
help and how its value is parsed and checked.

`rebootspec run` (the pytest plugin), `rebootspec smoke` and `rebootspec fuzz` all declare their
options with `add_settings` and read them through `Settings`, so `CONFORMANCE_CANDIDATE` means
the same in each and a new setting is one entry in `SETTINGS`. A command-line value wins over
the environment, an empty variable counts as unset, and `--pass-env` adds the names of both.
A value that cannot work (two answer readers, a bad JSON pointer, an unknown preset...) raises
`OptionError`: one line that each command shows as a usage error (exit 2).
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from . import DEFAULT_CORPUS
from .presets import known_presets, parse_candidate
from .runner.answers import AnswerReader, JsonPointerReader, LastIntegerReader, pointer_tokens
from .runner.candidates import Candidate, CandidateError, Isolation

DEFAULT_TIMEOUT = 10.0
MIN_MEMORY_MB = 16
# The most `--case-memory` may be: 1 TiB, above any machine a case runs on and far inside the
# 64 bits setrlimit takes (a 20-digit number was a TypeError there).
MAX_MEMORY_MB = 1 << 20


class OptionError(Exception):
    """A setting that cannot work (one line, shown as a usage error)."""


@dataclass(frozen=True)
class Setting:
    """One setting: `--flag` (from `dest`), its CONFORMANCE_* variable and its help."""

    dest: str
    env: str
    help: str
    kind: Literal["text", "flag", "list"] = "text"
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.dest.replace("_", "-")

    @property
    def pytest_flag(self) -> str:
        """The option's name inside pytest, where every installed plugin shares one namespace:
        a generic name (`--profile` is pytest-profiling's) is prefixed, so that rebootspec's
        plugin, loaded into every pytest run, can never collide with another plugin's option.
        `rebootspec run` accepts the short name and translates it (`pytest_argv`)."""
        return f"--conformance-{self.flag[2:]}" if self.dest in PYTEST_PREFIXED else self.flag

    @property
    def pytest_dest(self) -> str:
        """Where pytest keeps the value: prefixed too, since pytest refuses two plugins' options
        with one destination (`--profile` of another plugin has the destination `profile`)."""
        return self.dest if self.dest.startswith("conformance_") else f"conformance_{self.dest}"

    def env_help(self) -> str:
        if self.kind == "flag":
            return f"{self.env}=1"
        if self.kind == "list":
            return f"{self.env}=A,B"
        return self.env


SETTINGS: dict[str, Setting] = {
    s.dest: s
    for s in (
        Setting(
            "candidate",
            "CONFORMANCE_CANDIDATE",
            'the candidate: a command ("{path}" is replaced by the input, else it is appended), '
            f"or a preset ({known_presets()}); default: the bundled reference, in process. "
            "Relative paths are taken from the folder you run this in: the program when it has "
            "a slash (./mytool, bin/mytool; a bare name is looked up on PATH), each argument "
            "that names an existing file or folder (mytool.js), a preset's PATH",
            metavar="CMD",
        ),
        Setting(
            "answer_key",
            "CONFORMANCE_ANSWER_KEY",
            "read the count at this key of stdout's JSON (default: reboots)",
            metavar="KEY",
        ),
        Setting(
            "answer_pointer",
            "CONFORMANCE_ANSWER_POINTER",
            "read the count at this JSON pointer of stdout, e.g. /result/reboots",
            metavar="POINTER",
        ),
        Setting(
            "answer_last_int",
            "CONFORMANCE_ANSWER_LAST_INT",
            "read the count as the last integer printed",
            kind="flag",
        ),
        Setting(
            "case_timeout",
            "CONFORMANCE_CASE_TIMEOUT",
            f"seconds per case (default {DEFAULT_TIMEOUT:g})",
            metavar="SECONDS",
        ),
        Setting(
            "case_memory",
            "CONFORMANCE_CASE_MEMORY",
            "cap each case's address space at this many MiB (RLIMIT_AS; POSIX)",
            metavar="MIB",
        ),
        Setting(
            "pass_env",
            "CONFORMANCE_PASS_ENV",
            "also pass this environment variable to the candidate (repeatable; the default is "
            "an allowlist: PATH, HOME, LANG, LC_*, TMPDIR, TZ)",
            kind="list",
            metavar="NAME",
        ),
        Setting(
            "profile",
            "CONFORMANCE_PROFILE",
            "claimed features: spec-v2 (default), spec-v1, seed-rubric-2026-02, or a TOML file",
            metavar="PROFILE",
        ),
        Setting(
            "hosts",
            "CONFORMANCE_HOSTS",
            "the hosts the candidate counts, comma-separated (vscode,codex,pi; default: all); "
            "cases of other hosts are reported as not claimed (presets say theirs)",
            metavar="HOSTS",
        ),
        Setting(
            "known_divergences",
            "CONFORMANCE_KNOWN_DIVERGENCES",
            "TOML: [ID] reason = ... (strict expected failures)",
            metavar="FILE",
        ),
        Setting(
            "report_dir",
            "CONFORMANCE_REPORT_DIR",
            "write report.json, report.md and report.html here",
            metavar="DIR",
        ),
        Setting(
            "corpus",
            "CONFORMANCE_CORPUS",
            "the fixtures folder (default: the bundled corpus)",
            metavar="DIR",
        ),
        Setting(
            "conformance_snapshots",
            "CONFORMANCE_SNAPSHOTS",
            "the snapshot folder (default: the bundled snapshots)",
            metavar="DIR",
        ),
    )
}

# Settings whose short option name other pytest plugins use or might (see Setting.pytest_flag).
PYTEST_PREFIXED = frozenset({"profile", "corpus", "hosts"})

ANSWER_SETTINGS = ("answer_key", "answer_pointer", "answer_last_int")
CANDIDATE_SETTINGS = ("candidate", *ANSWER_SETTINGS, "case_timeout", "case_memory", "pass_env")
# Which settings each command takes (the plugin, hence `rebootspec run`, takes them all).
RUN_SETTINGS = tuple(SETTINGS)
SMOKE_SETTINGS = (*CANDIDATE_SETTINGS, "profile", "hosts", "corpus", "conformance_snapshots")
FUZZ_SETTINGS = CANDIDATE_SETTINGS
# What decides a case's outcome, so a reproduce command repeats it (not where reports go).
RERUN_SETTINGS = (*CANDIDATE_SETTINGS, "profile", "hosts", "corpus", "conformance_snapshots")

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


def add_settings(
    add: Callable[..., Any], names: Iterable[str] = RUN_SETTINGS, *, pytest: bool = False
) -> None:
    """Declare the settings `names` with `add`: argparse's `add_argument` or pytest's
    `addoption` (they take the same arguments; `pytest` picks the names pytest sees). Every
    default is None, so `Settings` can tell "not given" from a value and fall back to the
    environment."""
    for name in names:
        setting = SETTINGS[name]
        flag = setting.pytest_flag if pytest else setting.flag
        dest = setting.pytest_dest if pytest else name
        text = f"{setting.help} [env {setting.env_help()}]"
        if setting.kind == "flag":
            add(flag, dest=dest, action="store_true", default=None, help=text)
        elif setting.kind == "list":
            add(
                flag,
                dest=dest,
                action="append",
                default=None,
                metavar=setting.metavar,
                help=text,
            )
        else:
            add(flag, dest=dest, default=None, metavar=setting.metavar, help=text)


def pytest_argv(argv: list[str]) -> list[str]:
    """`rebootspec run`'s arguments as pytest takes them: `--profile X` / `--profile=X` become
    `--conformance-profile ...` (Setting.pytest_flag); everything else is left alone."""
    renamed = {SETTINGS[name].flag: SETTINGS[name].pytest_flag for name in PYTEST_PREFIXED}
    out = []
    for arg in argv:
        name, eq, value = arg.partition("=")
        if name in renamed:
            arg = renamed[name] + eq + value
        out.append(arg)
    return out


def describe_options(names: Iterable[str] = RUN_SETTINGS) -> str:
    """The settings as help lines: `--flag METAVAR  help [env VAR]`."""
    lines = []
    for name in names:
        setting = SETTINGS[name]
        shown = f"{setting.flag} {setting.metavar}" if setting.metavar else setting.flag
        text = f"{setting.help} [env\N{NO-BREAK SPACE}{setting.env_help()}]"  # kept on one line
        first = f"  {shown:<28} " if len(shown) <= 28 else f"  {shown}\n{'':<31}"
        wrapped = textwrap.fill(text, 100, initial_indent=first, subsequent_indent=" " * 31)
        lines.append(wrapped.replace("\N{NO-BREAK SPACE}", " "))
    return "\n".join(lines)


class Settings:
    """The settings of one command: its command-line values, else the environment.

    `given(dest)` returns the command line's value of a setting or None (argparse's namespace,
    pytest's `config.getoption`). Every accessor checks its value and raises `OptionError`
    naming where the bad value came from (`--case-timeout` or `CONFORMANCE_CASE_TIMEOUT`).
    """

    def __init__(
        self, given: Callable[[str], object], environ: Mapping[str, str] | None = None
    ) -> None:
        self._given = given
        self._environ = os.environ if environ is None else environ

    @classmethod
    def of(cls, namespace: object, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of an argparse namespace."""
        return cls(lambda name: getattr(namespace, name, None), environ)

    # -- raw values, with where they came from ---------------------------------------------

    def given(self, name: str) -> object:
        """The command line's value of a setting, or None when it was not given there."""
        value = self._given(name)
        return None if value in (None, "", []) else value

    def source(self, name: str) -> tuple[str | None, str]:
        """(the value as text, `--flag` or the variable it came from); (None, "") if unset."""
        setting = SETTINGS[name]
        value = self.given(name)
        if value is not None:
            return str(value), setting.flag
        from_env = self._environ.get(setting.env) or None
        return from_env, (setting.env if from_env is not None else "")

    def text(self, name: str) -> str | None:
        return self.source(name)[0]

    def path(self, name: str) -> Path | None:
        """A path setting; one whose name the system refuses to look up (too long, a folder
        that cannot be entered) is an OptionError now, not an OSError in the middle of a run.
        A path that does not exist is its command's business."""
        value = self.text(name)
        if value is None:
            return None
        path = Path(value).expanduser()
        try:
            os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as error:
            from ..reference.core.errors import os_reason

            raise OptionError(f"{self.source(name)[1]} {value!r}: {os_reason(error)}") from None
        return path

    def flag_source(self, name: str) -> str:
        """Where a flag was set (`--flag` or its variable), or "" when it is off."""
        setting = SETTINGS[name]
        if self.given(name):
            return setting.flag
        value = self._environ.get(setting.env, "").strip().lower()
        if value in _FALSE:
            return ""
        if value in _TRUE:
            return setting.env
        raise OptionError(f"{setting.env}: expected 1 or 0, not {value!r}")

    def flag(self, name: str) -> bool:
        return bool(self.flag_source(name))

    def names(self, name: str) -> list[str]:
        """A list setting: the command line's items and the variable's, comma-separated."""
        given = self.given(name)
        items = [str(item) for item in given] if isinstance(given, list) else []
        items.append(self._environ.get(SETTINGS[name].env, ""))
        return [part.strip() for item in items for part in item.split(",") if part.strip()]

    def from_environment(self, names: Iterable[str] = RUN_SETTINGS) -> list[str]:
        """The settings of `names` taken from the environment, as command-line words (to
        repeat a run where the variables are not set)."""
        words: list[str] = []
        for name in names:
            setting = SETTINGS[name]
            if self.given(name) is not None:
                continue
            value = self._environ.get(setting.env) or None
            if value is None:
                continue
            if setting.kind == "flag":
                if value.strip().lower() in _TRUE:
                    words.append(setting.flag)
            elif setting.kind == "list":
                for part in value.split(","):
                    if part.strip():
                        words += [setting.flag, part.strip()]
            else:
                words += [setting.flag, value]
        return words

    def rerun_words(self, names: Iterable[str] = RERUN_SETTINGS) -> list[str]:
        """The settings of `names` as command-line words, wherever each came from (the command
        line or a variable), so a printed command repeats the run in a clean shell."""
        words: list[str] = []
        for name in names:
            setting = SETTINGS[name]
            if setting.kind == "flag":
                words += [setting.flag] if self.flag_source(name) else []
            elif setting.kind == "list":
                for item in self.names(name):
                    words += [setting.flag, item]
            elif (value := self.text(name)) is not None:
                words += [setting.flag, value]
        return words

    # -- parsed and checked values ---------------------------------------------------------

    def case_timeout(self) -> float:
        text, where = self.source("case_timeout")
        if text is None:
            return DEFAULT_TIMEOUT
        try:
            value = float(text)
        except ValueError:
            raise OptionError(f"{where}: not a number of seconds: {text!r}") from None
        if not 0 < value < float("inf"):
            raise OptionError(f"{where} must be more than 0 seconds: {text!r}")
        return value

    def case_memory(self) -> int | None:
        text, where = self.source("case_memory")
        if text is None:
            return None
        try:
            value = int(text)
        except ValueError:
            raise OptionError(f"{where}: not a whole number of MiB: {text!r}") from None
        if not MIN_MEMORY_MB <= value <= MAX_MEMORY_MB:
            raise OptionError(f"{where} must be {MIN_MEMORY_MB} to {MAX_MEMORY_MB:,} MiB")
        return value

    def pass_env(self) -> tuple[str, ...]:
        names = self.names("pass_env")
        for name in names:
            _utf8(name, "--pass-env")
            if name.startswith(("CONFORMANCE_", "PYTEST_")) or "=" in name:
                raise OptionError(f"--pass-env {name}: the runner's own variables are never passed")
        return tuple(dict.fromkeys(names))

    def isolation(self) -> Isolation:
        return Isolation(pass_env=self.pass_env(), memory_mb=self.case_memory())

    def candidate(self, isolation: Isolation | None = None) -> Candidate:
        if self._given("candidate") == "":  # typed on the command line, unlike an empty variable
            raise OptionError(
                "--candidate is empty: give a command, or leave the option out to run the "
                "bundled reference"
            )
        text, where = self.source("candidate")
        try:
            return parse_candidate(text, isolation)
        except CandidateError as error:
            raise OptionError(f"{where}: {error}" if where else str(error)) from None

    def report_dir(self) -> Path | None:
        """The report folder; one that exists as something else than a folder is refused
        before any case runs (the reports would fail to be written after all of them)."""
        folder = self.path("report_dir")
        if folder is not None and (folder.exists() or folder.is_symlink()) and not folder.is_dir():
            where = self.source("report_dir")[1]
            raise OptionError(f"{where} {folder}: exists and is not a folder")
        return folder

    def corpus(self) -> Path:
        return self.path("corpus") or DEFAULT_CORPUS

    def reader(self, candidate: Candidate) -> AnswerReader:
        """How the count is read: the one answer setting given, else the candidate's default."""
        for name in ("answer_key", "answer_pointer"):
            text, where = self.source(name)
            if text is not None:
                _utf8(text, where)
        return answer_reader(
            self.source("answer_key"),
            self.source("answer_pointer"),
            self.flag_source("answer_last_int"),
            candidate.default_reader(),
        )


def _utf8(text: str, where: str) -> None:
    """OptionError unless `text` is UTF-8 text (a byte that is not arrives as a lone surrogate:
    a JSON key, a pointer or a variable's name cannot hold it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise OptionError(f"{where}: not UTF-8 text: {text!r}") from None


def answer_reader(
    key: tuple[str | None, str],
    pointer: tuple[str | None, str],
    last_int: str,
    default: AnswerReader,
) -> AnswerReader:
    """The answer reader of at most one answer setting: `key` and `pointer` are (value, where it
    came from), `last_int` where --answer-last-int came from ("" when unset). Two of them, from
    the command line, the environment or both, are an `OptionError` naming each."""
    chosen = [where for (value, where) in (key, pointer) if value is not None]
    if last_int:
        chosen.append(last_int)
    if len(chosen) > 1:
        raise OptionError(
            "give only one of --answer-key, --answer-pointer, --answer-last-int "
            f"(given: {', '.join(chosen)})"
        )
    if key[0] is not None:
        return JsonPointerReader.for_key(key[0])
    if pointer[0] is not None:
        try:
            pointer_tokens(pointer[0])
        except ValueError as error:
            raise OptionError(f"{pointer[1]}: {error}") from None
        return JsonPointerReader(pointer[0])
    if last_int:
        return LastIntegerReader()
    return default
