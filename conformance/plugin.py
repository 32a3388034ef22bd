"""The pytest plugin: `pytest conformance -p conformance.plugin [--candidate CMD] ...`.

Each corpus case becomes two tests whose ID is the case ID: `test_expectation[ID]` (the
syrupy snapshot agrees with case.toml) and `test_case[ID]` (the candidate's outcome agrees with
the snapshot). Tags become markers, so `-k K7QX`, `-k phantom` and `-m "not hostile"` select
cases. Every option has an environment fallback (CONFORMANCE_*) so tox can pass a command with
spaces intact. Misconfiguration is a one-line usage error; a candidate's misbehaviour is an
outcome, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance import DEFAULT_CORPUS
from conformance.answers import AnswerReader, JsonPointerReader, LastIntegerReader, pointer_tokens
from conformance.candidates import Candidate, CandidateError, parse_candidate
from conformance.corpus import Case, CorpusError, known_tags, load_corpus
from conformance.divergences import Divergence, DivergenceError, load_divergences
from conformance.profiles import Profile, ProfileError, load_profile
from conformance.records import Record, check_case
from conformance.report import build, header, write
from conformance.snapshots import ExpectationSnapshots, read_expectation, snapshot_root

DEFAULT_TIMEOUT = 10.0
WORKER_KEY = "conformance_records"
CASE_TEST = "test_case"

# option name -> (environment fallback, help)
OPTIONS: dict[str, tuple[str, str]] = {
    "candidate": (
        "CONFORMANCE_CANDIDATE",
        'the candidate: a command ("{path}" or appended), qhoami:DIR, reboot-count:SCRIPT; '
        "default: the bundled reference, in process",
    ),
    "answer_key": ("CONFORMANCE_ANSWER_KEY", "read the count at this key of stdout's JSON"),
    "answer_pointer": ("CONFORMANCE_ANSWER_POINTER", "read the count at this JSON pointer"),
    "case_timeout": ("CONFORMANCE_CASE_TIMEOUT", f"seconds per case (default {DEFAULT_TIMEOUT:g})"),
    "profile": (
        "CONFORMANCE_PROFILE",
        "claimed features: spec-v2 (default), spec-v1, seed-rubric-2026-02, or a TOML file",
    ),
    "known_divergences": (
        "CONFORMANCE_KNOWN_DIVERGENCES",
        "TOML: [ID] reason = ... (strict expected failures)",
    ),
    "report_dir": ("CONFORMANCE_REPORT_DIR", "write report.json, report.md and report.html here"),
    "corpus": ("CONFORMANCE_CORPUS", "the fixtures folder (default: fixtures/ of this repository)"),
    "conformance_snapshots": (
        "CONFORMANCE_SNAPSHOTS",
        "the snapshot folder (default: conformance/__snapshots__)",
    ),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "rebootspec conformance runner")
    for name, (env, text) in OPTIONS.items():
        group.addoption(
            "--" + name.replace("_", "-"), dest=name, default=None, help=f"{text} [env {env}]"
        )
    group.addoption(
        "--answer-last-int",
        dest="answer_last_int",
        action="store_true",
        default=None,
        help="read the count as the last integer printed [env CONFORMANCE_ANSWER_LAST_INT=1]",
    )


def option(config: pytest.Config, name: str) -> str | None:
    """A command-line option, else its environment variable, else None."""
    value = config.getoption(name, default=None)
    if value is None or value == "":
        value = os.environ.get(OPTIONS[name][0]) or None
    return None if value is None else str(value)


class ConformanceRun:
    """Everything one run needs, parsed and checked once per process, and the records it makes."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        tags = known_tags()
        self.candidate: Candidate = parse_candidate(option(config, "candidate"))
        self.reader: AnswerReader = self._reader()
        self.timeout = self._timeout()
        self.profile: Profile = load_profile(option(config, "profile"), tags)
        self.corpus = Path(option(config, "corpus") or DEFAULT_CORPUS)
        self.cases: list[Case] = load_corpus(self.corpus)
        divergences_file = option(config, "known_divergences")
        self.divergences: dict[str, Divergence] = (
            load_divergences(Path(divergences_file), {c.id for c in self.cases})
            if divergences_file
            else {}
        )
        report_dir = option(config, "report_dir")
        self.report_dir = Path(report_dir) if report_dir else None
        self.tags = tags
        self.records: list[Record] = []

    def _reader(self) -> AnswerReader:
        key = option(self.config, "answer_key")
        pointer = option(self.config, "answer_pointer")
        last = self.config.getoption("answer_last_int", default=None) or os.environ.get(
            "CONFORMANCE_ANSWER_LAST_INT", ""
        ) not in ("", "0")
        if sum(bool(x) for x in (key, pointer, last)) > 1:
            raise pytest.UsageError(
                "give only one of --answer-key, --answer-pointer, --answer-last-int"
            )
        if key:
            return JsonPointerReader.for_key(key)
        if pointer is not None:
            try:
                pointer_tokens(pointer)
            except ValueError as error:
                raise pytest.UsageError(f"--answer-pointer: {error}") from None
            return JsonPointerReader(pointer)
        if last:
            return LastIntegerReader()
        return self.candidate.default_reader()

    def _timeout(self) -> float:
        text = option(self.config, "case_timeout")
        try:
            value = float(text) if text is not None else DEFAULT_TIMEOUT
        except ValueError:
            raise pytest.UsageError(f"--case-timeout: not a number: {text!r}") from None
        if not value > 0:
            raise pytest.UsageError("--case-timeout must be more than 0 seconds")
        return value

    def run_case(self, case: Case, record_property: Callable[[str, object], None]) -> None:
        """Run one case and turn its gate verdict into a pytest outcome."""
        if self.config.getoption("update_snapshots", default=False):
            pytest.skip("--snapshot-update rewrites the truth from case.toml; no candidate runs")
        record = check_case(
            case,
            candidate=self.candidate,
            reader=self.reader,
            expected=read_expectation(case.id),
            profile=self.profile,
            divergence=self.divergences.get(case.id),
            timeout=self.timeout,
        )
        self.records.append(record)
        record_property("outcome", record.outcome)
        record_property("rules", " ".join(record.rules))
        record_property("tags", " ".join(record.tags))
        if record.gate == "not-claimed":
            pytest.skip(record.detail)
        if record.gate == "xfail":
            pytest.xfail(f"known divergence ({record.outcome}): {record.divergence}")
        if record.gate != "pass":
            pytest.fail(failure_message(record), pytrace=False)

    def report(self) -> dict[str, Any]:
        head = header(
            candidate=self.candidate.describe(),
            profile=self.profile.name,
            reader=self.reader.describe(),
            corpus=self.corpus,
            timeout=self.timeout,
        )
        return build(head, self.records)


def failure_message(record: Record) -> str:
    from conformance.report import show_answer

    lines = [
        f"{record.id} {record.outcome}: {record.detail}",
        f"  {record.title}",
        f"  rules {', '.join(record.rules)}; expected {show_answer(record.expected)}, "
        f"actual {show_answer(record.actual)}",
    ]
    stderr = record.stderr.strip().splitlines()
    if stderr:
        lines.append("  stderr: " + "\n          ".join(stderr[-5:]))
    return "\n".join(lines)


RUN_KEY = pytest.StashKey[ConformanceRun]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("help", default=False):
        return
    snapshots = option(config, "conformance_snapshots")
    ExpectationSnapshots.root = Path(snapshots).resolve() if snapshots else None
    # Every snapshot of this suite is an expectation: with syrupy's default (amber) extension
    # also registered, `--snapshot-update` with another snapshot folder would count the real
    # snapshots as unknown files of the default folder and delete them.
    config.option.default_extension = "conformance.snapshots.ExpectationSnapshots"
    for tag in known_tags():
        config.addinivalue_line("markers", f"{tag}: corpus cases tagged {tag} (spec/tags.txt)")
    try:
        run = ConformanceRun(config)
    except (CandidateError, CorpusError, ProfileError, DivergenceError) as error:
        raise pytest.UsageError(str(error)) from None
    for tag in sorted({t for case in run.cases for t in case.tags} - set(run.tags)):
        config.addinivalue_line(
            "markers", f"{tag}: corpus cases tagged {tag} (not in spec/tags.txt)"
        )
    config.stash[RUN_KEY] = run
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_WorkerRecords(run), "conformance-worker-records")


class _WorkerRecords:
    """On the xdist controller: collect the records each worker hands back when it finishes."""

    def __init__(self, run: ConformanceRun) -> None:
        self.run = run

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", {}) or {}
        self.run.records.extend(Record.from_json(item) for item in output.get(WORKER_KEY, []))


def pytest_report_header(config: pytest.Config) -> list[str]:
    run = config.stash.get(RUN_KEY, None)
    if run is None:
        return []
    return [
        f"conformance: candidate {' '.join(run.candidate.describe())}",
        f"conformance: answer {run.reader.describe()}; profile {run.profile.name}; "
        f"case timeout {run.timeout:g} s",
        f"conformance: corpus {run.corpus} ({len(run.cases)} cases); snapshots {snapshot_root()}",
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    run = metafunc.config.stash.get(RUN_KEY, None)
    if run is None or "case" not in metafunc.fixturenames:
        return
    params = [
        pytest.param(case, id=case.id, marks=[getattr(pytest.mark, tag) for tag in case.tags])
        for case in run.cases
    ]
    metafunc.parametrize("case", params)


@pytest.fixture(scope="session")
def conformance(request: pytest.FixtureRequest) -> ConformanceRun:
    """The run's settings and records (the plugin built them at configure time)."""
    return request.config.stash[RUN_KEY]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    run = config.stash.get(RUN_KEY, None)
    if run is None:
        return
    if hasattr(config, "workerinput"):
        config.workeroutput[WORKER_KEY] = [record.to_json() for record in run.records]  # type: ignore[attr-defined]
        return
    if run.report_dir is not None and run.records:
        config.stash[_WRITTEN] = write(run.report(), run.report_dir)


_WRITTEN = pytest.StashKey[list[Path]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is None or hasattr(config, "workerinput") or not run.records:
        return
    report = run.report()
    totals = report["totals"]
    outcomes = ", ".join(f"{n} {name}" for name, n in totals["outcomes"].items())
    gates = ", ".join(f"{n} {name}" for name, n in totals["gates"].items())
    terminalreporter.section("conformance")
    terminalreporter.write_line(f"{report['verdict']}: {totals['cases']} cases: {outcomes}")
    terminalreporter.write_line(f"gate: {gates}")
    for path in config.stash.get(_WRITTEN, []):
        terminalreporter.write_line(f"report: {path}")
