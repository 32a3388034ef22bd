"""The pytest plugin: `pytest --candidate CMD ...` (or `rebootspec run`), registered via pytest11.

Installed with rebootspec, it is loaded into every pytest run but stays inert until it is asked
for: a conformance option on the command line (`--candidate`, `--profile`, ..., or plain
`--conformance` for the defaults) or a test path inside the installed suite. Only then does it
collect the suite (`conformance/suite/`, wherever rebootspec is installed) instead of the
project's tests. So a project's own `pytest` run is unaffected.

Each corpus case becomes one test, `test_case[ID]` (the candidate's outcome agrees with the
snapshot), and only those are counted in the run's totals and JUnit. The self-checks of the
snapshots against case.toml live in the project's own tests (tests/conformance/); the syrupy
test that writes snapshots (`test_expectations.py`) is collected only with `--snapshot-update`,
and then no candidate runs. Tags become markers, so `-k K7QX`, `-k phantom` and
`-m "not hostile"` select cases. Every option has an environment fallback (CONFORMANCE_*) so
tox can pass a command with spaces intact. Misconfiguration is a one-line usage error; a
candidate that cannot be started stops the run at once (exit 2, one line); a candidate's
misbehaviour is an outcome, never a traceback. The corpus and snapshots are digested when the
run starts and checked when it ends: any change fails the run, naming the files.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..reference.core.errors import os_reason
from ..reference.core.userio import Refused, shown, writable_target
from . import PACKAGE_DIR, SUITE_DIR
from .options import RUN_SETTINGS, SETTINGS, OptionError, Settings, add_settings
from .reports.report import REPORT_FILES, build, header, write
from .runner.answers import AnswerReader
from .runner.candidates import Candidate, CandidateError, startable
from .runner.corpus import Case, CorpusError, known_hosts, known_tags, load_corpus
from .runner.divergences import Divergence, DivergenceError, load_divergences
from .runner.integrity import Scan, changes, combined, scan, subtree_digest
from .runner.profiles import Profile, ProfileError, claimed_profile, load_profile
from .runner.records import Record, check_case
from .runner.snapshots import SnapshotFolder, read_expectation, snapshot_root

WORKER_KEY = "conformance_records"
DIGEST_KEY = "conformance_digest"
EXPECTATIONS_FILE = "test_expectations.py"
CASE_TEST = "test_case"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "rebootspec conformance runner")
    group.addoption(
        "--conformance",
        dest="conformance",
        action="store_true",
        default=False,
        help="run the rebootspec conformance suite (implied by any other option of this group)",
    )
    add_settings(group.addoption, RUN_SETTINGS, pytest=True)


def settings(config: pytest.Config) -> Settings:
    """The run's settings: the command line, else the CONFORMANCE_* variables (options.py)."""
    return Settings(lambda name: config.getoption(SETTINGS[name].pytest_dest, default=None))


def _check_report_dir(folder: Path) -> None:
    """OptionError unless the report's three files can be written in `folder` (userio.py):
    a folder or nothing there, and no FIFO, device, folder or symlink under a report's name."""
    if not folder.is_dir():
        if folder.exists() or folder.is_symlink():
            raise OptionError(f"--report-dir {shown(str(folder))}: exists and is not a folder")
        return
    for name in REPORT_FILES:
        try:
            writable_target(folder / name)
        except Refused as refused:
            raise OptionError(f"--report-dir: {refused}") from None


class ConformanceRun:
    """Everything one run needs, parsed and checked once per process, and the records it makes."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        given = settings(config)
        tags = known_tags()
        self.isolation = given.isolation()
        self.candidate: Candidate = given.candidate(self.isolation)
        self.reader: AnswerReader = given.reader(self.candidate)
        self.timeout = given.case_timeout()
        self.profile: Profile = claimed_profile(
            load_profile(given.text("profile"), tags),
            given.text("hosts"),
            self.candidate,
            known_hosts(),
        )
        self.corpus = given.corpus()
        self.cases: list[Case] = load_corpus(self.corpus)
        # The corpus and snapshots as they were when the run started (on xdist workers: as the
        # controller saw them, so a case run late on one worker is checked against the start).
        started = getattr(config, "workerinput", {}).get(DIGEST_KEY)
        self.corpus_tree: dict[str, str]
        self.snapshot_tree: dict[str, str]
        # The controller's own readings, whose signatures spare the end's check re-reading
        # what did not change (None on a worker: the controller checks).
        self.scans: tuple[Scan, Scan] | None = None
        if started is not None:
            self.corpus_tree, self.snapshot_tree = started
        else:
            self.scans = (scan(self.corpus), scan(snapshot_root()))
            self.corpus_tree, self.snapshot_tree = (found.digests for found in self.scans)
        self.collected: list[str] | None = None
        divergences_file = given.path("known_divergences")
        self.divergences: dict[str, Divergence] = (
            load_divergences(divergences_file, {c.id for c in self.cases})
            if divergences_file
            else {}
        )
        self.report_dir = given.report_dir()
        if self.report_dir is not None:  # a FIFO named report.json is refused before any case
            _check_report_dir(self.report_dir)
        self.tags = tags
        self.records: list[Record] = []

    def input_digest(self, case: Case) -> str | None:
        try:
            rel = case.copied.relative_to(self.corpus).as_posix()
        except ValueError:
            return None
        return subtree_digest(self.corpus_tree, rel) or "missing at start"

    def selection(self) -> dict[str, Any]:
        """What chose the cases: -k, -m, explicit node IDs, --deselect, and how many ran."""
        options = self.config.option
        return {
            "keyword": getattr(options, "keyword", "") or "",
            "markexpr": getattr(options, "markexpr", "") or "",
            "args": normalized_args(self.config.args),
            "deselect": sorted(getattr(options, "deselect", None) or []),
            "selected": len(self.collected) if self.collected is not None else None,
            "corpus_cases": len(self.cases),
            "corpus": str(self.corpus),
        }

    def corpus_changes(self) -> list[str]:
        """Every file of the corpus or the snapshots that differs from the start of the run
        (the snapshots are left out with --snapshot-update: rewriting them is its job)."""
        corpus, snapshots = self.scans or (None, None)
        found = changes(self.corpus_tree, scan(self.corpus, corpus).digests, str(self.corpus))
        if not self.config.getoption("update_snapshots", default=False):
            now = scan(snapshot_root(), snapshots).digests
            found += changes(self.snapshot_tree, now, str(snapshot_root()))
        return found

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
            input_digest=self.input_digest(case),
        )
        self.records.append(record)
        # plain words: xdist sends user properties between processes and knows no enums
        record_property("outcome", str(record.outcome))
        record_property("rules", " ".join(record.rules))
        record_property("tags", " ".join(record.tags))
        if record.gate == "not-claimed":
            pytest.skip(record.detail)
        if record.gate == "xfail":
            pytest.xfail(f"known divergence ({record.outcome}): {record.divergence}")
        if record.gate != "pass":
            pytest.fail(failure_message(record), pytrace=False)

    def report(self, corpus_changes: list[str] | None = None) -> dict[str, Any]:
        head = header(
            candidate=self.candidate.describe(),
            profile=self.profile.name,
            profile_claims={
                "unclaimed": sorted(self.profile.unclaimed),
                "match_codes": self.profile.match_codes,
                "hosts": sorted(self.profile.hosts) if self.profile.hosts is not None else None,
            },
            reader=self.reader.describe(),
            corpus=self.corpus,
            timeout=self.timeout,
            corpus_digest=combined(self.corpus_tree),
            snapshots_digest=combined(self.snapshot_tree),
            selection=self.selection(),
            isolation={
                "pass_env": list(self.isolation.pass_env),
                "case_memory_mb": self.isolation.memory_mb,
            },
        )
        return build(head, self.records, corpus_changes)

    def summary(self, corpus_changes: list[str], written: list[Path]) -> list[str]:
        """The terminal's last lines (reports/summary.py), sized to the terminal."""
        import shutil

        from .reports.summary import bare_command, summary_lines

        report = self.report(corpus_changes)
        bad = [c for c in report["cases"] if c["gate"] in ("fail", "xpass")]
        size = shutil.get_terminal_size((80, 24))
        return summary_lines(
            report,
            rerun=["rebootspec", "run", *settings(self.config).rerun_words()],
            bare=bare_command(self.candidate, bad[0]) if bad else None,
            written=written,
            width=size.columns,
            height=size.lines,
        )


def normalized_args(args: list[str]) -> list[str]:
    """The explicit test paths and node IDs, relative to the repository (the package: "")."""
    out = []
    for arg in args:
        path, sep, rest = arg.partition("::")
        try:
            resolved = Path(path).resolve()
        except OSError:
            out.append(arg)
            continue
        if resolved in (PACKAGE_DIR, SUITE_DIR) and not sep:
            continue
        try:
            shown = resolved.relative_to(PACKAGE_DIR.parent).as_posix()
        except ValueError:
            shown = path
        out.append(shown + sep + rest)
    return sorted(out)


def failure_message(record: Record) -> str:
    from .reports.report import show_answer

    named = f" {record.name}" if record.name and record.name != record.id else ""
    lines = [
        f"{record.id}{named} {record.outcome}: {record.detail}",
        f"  {record.title}",
        f"  input {record.input}" + (f" (session {record.session})" if record.session else ""),
        f"  rules {', '.join(record.rules)}; expected {show_answer(record.expected)}, "
        f"actual {show_answer(record.actual)}",
    ]
    stderr = record.stderr.strip().splitlines()
    if stderr:
        lines.append("  stderr: " + "\n          ".join(stderr[-5:]))
    return "\n".join(lines)


RUN_KEY = pytest.StashKey[ConformanceRun]()


def asked_for(config: pytest.Config) -> bool:
    """Whether this pytest run is a conformance run: an option of the group on the command line,
    or a test path inside the suite's package. Environment variables alone never activate it,
    so a CONFORMANCE_* variable left in a shell cannot hijack an unrelated test run."""
    if config.getoption("conformance", default=False):
        return True
    given = settings(config).given
    if any(given(name) is not None for name in RUN_SETTINGS):
        return True
    return any(_inside_package(arg) for arg in config.args)


def _inside_package(arg: str) -> bool:
    try:
        path = Path(arg.partition("::")[0]).resolve()
    except OSError:
        return False
    return path == PACKAGE_DIR or PACKAGE_DIR in path.parents


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("help", default=False) or not asked_for(config):
        return
    if not any(_inside_package(arg) for arg in config.args):
        # `pytest --candidate ...` in any folder: the suite, not the folder's own tests.
        config.args[:] = [str(SUITE_DIR)]
    else:
        config.args[:] = [
            str(SUITE_DIR) if Path(a).resolve() == PACKAGE_DIR else a for a in config.args
        ]
    try:
        snapshots = settings(config).path("conformance_snapshots")
    except OptionError as error:  # a name the system refuses: one usage line, as below
        raise pytest.UsageError(str(error)) from None
    SnapshotFolder.root = snapshots.resolve() if snapshots else None
    # Every snapshot of this suite is an expectation: with syrupy's default (amber) extension
    # also registered, `--snapshot-update` with another snapshot folder would count the real
    # snapshots as unknown files of the default folder and delete them.
    config.option.default_extension = (
        "rebootspec.conformance.runner.syrupy_extension.ExpectationSnapshots"
    )
    # Never let syrupy prune: a run over part of the corpus (`-k`, node IDs) collects only some
    # expectations, and syrupy would delete every snapshot it did not see. Stale snapshots are
    # removed by test_expectations.py, and only on a run over the whole default corpus.
    config.option.no_cleanup = True
    if not config.getoption("update_snapshots", default=False):
        # A gate run only reads the snapshots (runner/snapshots.py); syrupy, the writer, would
        # count every expectation as "unused" (its test is not collected) and fail the run.
        syrupy = config.pluginmanager.get_plugin("syrupy")
        if syrupy is not None:
            config.pluginmanager.unregister(syrupy)
    for tag in known_tags():
        config.addinivalue_line("markers", f"{tag}: corpus cases tagged {tag} (spec/tags.toml)")
    try:
        run = ConformanceRun(config)
    except (OptionError, CandidateError, CorpusError, ProfileError, DivergenceError) as error:
        raise pytest.UsageError(str(error)) from None
    for tag in sorted({t for case in run.cases for t in case.tags} - set(run.tags)):
        config.addinivalue_line(
            "markers", f"{tag}: corpus cases tagged {tag} (not in spec/tags.toml)"
        )
    config.stash[RUN_KEY] = run
    updating = config.getoption("update_snapshots", default=False)
    if not hasattr(config, "workerinput") and not updating:
        problem = startable(run.candidate)
        if problem is not None:
            if _own_errors(config):
                raise cannot_start(problem)
            pytest.exit(f"error: {problem}", returncode=2)
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_WorkerRecords(run), "conformance-worker-records")


NOT_A_SLIP = "rebootspec_not_a_slip"


def cannot_start(problem: str) -> pytest.UsageError:
    """The candidate cannot be started: the run stops before the first case (exit 2). Not a
    usage slip, so `rebootspec run` shows it as `error:` rather than `usage error:` (pytest's
    UsageError is final: the difference is an attribute)."""
    error = pytest.UsageError(problem)
    setattr(error, NOT_A_SLIP, True)
    return error


def _own_errors(config: pytest.Config) -> bool:
    """Whether `rebootspec run` words this run's errors (its plugin says so by an attribute):
    then a stop is an exception it turns into one line, not pytest's `Exit:` banner."""
    plugins = config.pluginmanager.get_plugins()
    return any(getattr(plugin, "rebootspec_own_errors", False) for plugin in plugins)


class _WorkerRecords:
    """On the xdist controller: collect the records each worker hands back when it finishes."""

    def __init__(self, run: ConformanceRun) -> None:
        self.run = run

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", {}) or {}
        self.run.records.extend(Record.from_json(item) for item in output.get(WORKER_KEY, []))

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[DIGEST_KEY] = (self.run.corpus_tree, self.run.snapshot_tree)

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.run.collected = [i for i in ids if f"::{CASE_TEST}[" in i]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The snapshot writer runs only with --snapshot-update; it is never part of a gate run."""
    if collection_path.name == EXPECTATIONS_FILE and RUN_KEY in config.stash:
        return not config.getoption("update_snapshots", default=False)
    return None


def pytest_itemcollected(item: pytest.Item) -> None:
    """A case's readable name (spec/FIXTURES.md "Names") and host are keywords of its test, so
    `-k codex/fork` selects by name as `-k K7QX` does by ID and `-k phantom` by tag."""
    case = _case_of(item)
    if case is not None and RUN_KEY in item.config.stash:
        item.extra_keyword_matches.update((case.name, case.host))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With --snapshot-update only the snapshot writer runs (no candidate). A `-k` that is a
    whole case name selects that one case: pytest's `-k` matches substrings, and the name
    `vscode/phantom/compacted` is part of `vscode/phantom/compacted-summaries`."""
    if RUN_KEY not in config.stash:
        return
    if config.getoption("update_snapshots", default=False):
        kept = [item for item in items if item.path.name == EXPECTATIONS_FILE]
    else:
        wanted = (config.option.keyword or "").strip()
        names = {case.name for case in config.stash[RUN_KEY].cases}
        if wanted not in names:
            return
        kept = [item for item in items if (case := _case_of(item)) is None or case.name == wanted]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept


def _case_of(item: pytest.Item) -> Case | None:
    case = getattr(getattr(item, "callspec", None), "params", {}).get("case")
    return case if isinstance(case, Case) else None


def pytest_collection_finish(session: pytest.Session) -> None:
    run = session.config.stash.get(RUN_KEY, None)
    if run is not None and run.collected is None:
        run.collected = [item.nodeid for item in session.items if item.name.startswith(CASE_TEST)]
    _nothing_selected(session.config, session.items)


_TOLD = pytest.StashKey[bool]()


def _nothing_selected(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A `-k` or `-m` that selects no case is a usage slip (a typo in a name or a tag), told
    before anything runs; pytest alone would run nothing and exit 5."""
    run = config.stash.get(RUN_KEY, None)
    if run is None or hasattr(config, "workerinput") or not run.cases:
        return
    if config.getoption("update_snapshots", default=False) or config.stash.get(_TOLD, False):
        return
    given = (("-k", config.option.keyword), ("-m", config.option.markexpr))
    chosen = [f"{flag} {value!r}" for flag, value in given if value]
    if chosen and not any(item.name.startswith(CASE_TEST) for item in items):
        config.stash[_TOLD] = True
        raise pytest.UsageError(
            f"{' and '.join(chosen)} selects none of the {len(run.cases)} cases "
            "(rebootspec cases -k WORD lists names, IDs, hosts and tags)"
        )


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
    if run.collected == [] and not session.items:  # under xdist the workers chose the cases
        _nothing_selected(config, [])
    changed = run.corpus_changes()
    config.stash[_CHANGED] = changed
    if changed:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if run.report_dir is not None and (run.records or changed):
        try:
            config.stash[_WRITTEN] = write(run.report(changed), run.report_dir)
        except (Refused, OSError) as error:  # the folder changed during the run
            shown_error = error if isinstance(error, Refused) else os_reason(error)
            sys.stderr.write(f"error: --report-dir: {shown_error}\n")
            session.exitstatus = pytest.ExitCode.USAGE_ERROR


_WRITTEN = pytest.StashKey[list[Path]]()
_CHANGED = pytest.StashKey[list[str]]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is None or hasattr(config, "workerinput"):
        return
    changed = config.stash.get(_CHANGED, [])
    if changed:
        terminalreporter.section("conformance: the corpus changed during the run", red=True)
        terminalreporter.write_line(
            "FAIL: these files differ from the start of the run (a candidate wrote to the "
            "corpus or the snapshots?); restore them (git checkout) and run again:"
        )
        for line in changed:
            terminalreporter.write_line(f"  {line}")
    if not run.records:
        return
    config.stash[_SUMMARY] = run.summary(changed, config.stash.get(_WRITTEN, []))


_SUMMARY = pytest.StashKey[list[str]]()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's summary is printed last, after pytest's own totals line, so that on one
    screen a red run ends with what failed, per host, and how to reproduce the first one."""
    lines = config.stash.get(_SUMMARY, None)
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if not lines or terminal is None:
        return
    terminal.section("conformance")
    for line in lines:
        terminal.write_line(line)
