"""`rebootspec fuzz`: differential fuzzing of a candidate against the plan's count.

Hypothesis draws random sessions (conformance.fuzz_plans: plans of the generator's session
model, written by its VS Code-like writer); each is run through the candidate with the same
adapters and presets as the runner and classified by the same table (conformance.outcome).
The property is "the outcome is pass". On the first disagreement Hypothesis shrinks the *plan*
to a minimal one, which becomes a new fixture folder plus EXPLAIN.txt (conformance.fuzz_fixture).

The run is reproducible from the printed seed (`--seed`). `--budget` bounds the wall time of
generation and shrinking together: when it runs out the smallest divergence seen so far is
written. Identical bytes are run once (a cache), which also keeps Hypothesis's final replay
of the shrunk example free of a second candidate run.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import stat
import sys
import tempfile
import time
import unittest
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from ...generators.usage import UsageParser
from ...reference.core.printable import printable
from ..options import FUZZ_SETTINGS, OptionError, Settings, add_settings
from ..runner.answers import AnswerReader
from ..runner.candidates import Candidate, startable
from ..runner.corpus import known_tags
from ..runner.outcome import RunResult, Verdict, classify
from .plans import FuzzCase, Played, compile_plan, fuzz_cases, play_case

EXIT_CLEAN = 0
EXIT_DIVERGENCE = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70


class Divergence(AssertionError):
    """The property failed: the candidate's outcome on a drawn session is not pass."""


SEARCH_SHARE = 0.8


class _Avoided(Exception):
    """The drawn case shows a tag the run was told to avoid."""


class _OutOfTime(unittest.SkipTest):
    """Raised from the property when the budget is spent: Hypothesis re-raises skip exceptions
    at once (no shrinking of it), which ends generation or shrinking cleanly."""


@dataclass(frozen=True)
class Finding:
    """A drawn session the candidate disagrees on, with its run and verdict."""

    case: FuzzCase
    played: Played
    verdict: Verdict
    run: RunResult

    def size(self) -> tuple[int, int]:
        """Smaller plans first, then shorter files (to pick the best when shrinking is cut)."""
        return len(self.case.plan.steps), len(self.played.data)


@dataclass
class FuzzResult:
    """What one fuzz run did."""

    seed: int
    finding: Finding | None = None
    sessions: int = 0  # drawn sessions checked
    runs: int = 0  # candidate runs (identical bytes run once)
    found_after: int | None = None  # sessions checked when the first divergence appeared
    found_at: float | None = None  # seconds from the start to the first divergence
    elapsed: float = 0.0
    out_of_time: bool = False
    failures: list[Finding] = field(default_factory=list)


Log = Callable[[str], None]


def fuzz(
    candidate: Candidate,
    reader: AnswerReader,
    *,
    seed: int,
    examples: int = 1000,
    budget: float | None = 60.0,
    case_timeout: float = 10.0,
    avoid: frozenset[str] = frozenset(),
    max_steps: int = 12,
    log: Log | None = None,
) -> FuzzResult:
    """Run the candidate on up to `examples` drawn sessions (or until `budget` seconds pass)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
    from hypothesis import seed as hypothesis_seed

    from .describe import case_tags

    say = log or (lambda _text: None)
    result = FuzzResult(seed=seed)
    started = time.monotonic()
    deadline = started + budget if budget else float("inf")
    # Once a divergence is found, Hypothesis shrinks until 80% of the budget; the greedy
    # step-dropping pass, which removes more per candidate run, keeps the rest.
    search_deadline = started + SEARCH_SHARE * budget if budget else deadline
    cache: dict[tuple[str, bytes], tuple[RunResult, Verdict]] = {}

    with tempfile.TemporaryDirectory(prefix="fuzz-") as workdir:

        def evaluate(case: FuzzCase, until: float) -> Finding | None:
            """Run the candidate on one case (once per distinct bytes): a finding or None."""
            if time.monotonic() > until:
                raise _OutOfTime("the time budget is spent")
            played = play_case(case)
            if avoid and avoid.intersection(case_tags(case, played)):
                raise _Avoided
            result.sessions += 1
            key = (case.container, hashlib.sha256(played.data).digest())
            if key not in cache:
                path = Path(workdir) / f"session.{case.container}"
                path.write_bytes(played.data)
                run = candidate.run(path, case_timeout)
                cache[key] = (run, classify(case.expected(), run, reader))
                result.runs += 1
            run, verdict = cache[key]
            if verdict.outcome == "pass":
                return None
            finding = Finding(case, played, verdict, run)
            result.failures.append(finding)
            if result.found_after is None:
                result.found_after = result.sessions
                result.found_at = time.monotonic() - started
                say(
                    f"divergence after {result.sessions} sessions ({result.found_at:.1f} s): "
                    f"{verdict.outcome}; shrinking..."
                )
            return finding

        def check(case: FuzzCase) -> None:
            """The property Hypothesis tests: the candidate agrees with the plan."""
            try:
                finding = evaluate(case, search_deadline if result.failures else deadline)
            except _Avoided:
                reject()
            if finding is not None:
                result.finding = finding
                raise Divergence(f"{finding.verdict.outcome}: {finding.verdict.detail}")

        test = settings(
            max_examples=examples,
            database=None,
            deadline=None,
            derandomize=False,
            phases=(Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
            verbosity=Verbosity.quiet,
            print_blob=False,
        )(given(fuzz_cases(avoid=avoid, max_steps=max_steps))(check))
        test = hypothesis_seed(seed)(test)
        try:
            test()
        except _OutOfTime:
            result.out_of_time = True
            if result.failures:  # shrinking was cut short: the smallest seen so far
                result.finding = min(result.failures, key=Finding.size)
        except Divergence:
            pass  # result.finding is the example Hypothesis replayed last: the shrunk one
        except Exception as error:
            if not _only_divergences(error):
                raise
            # Flaky: the candidate answered differently for the same bytes (timing?)
            result.finding = min(result.failures, key=Finding.size)

        def attempt(case: FuzzCase) -> Finding | None:
            """The property outside Hypothesis: the finding when the case still diverges."""
            try:
                return evaluate(case, deadline)
            except (_OutOfTime, _Avoided):
                return None

        if result.finding is not None:
            result.finding = _drop_steps(result.finding, attempt)
    result.elapsed = time.monotonic() - started
    return result


def _drop_steps(finding: Finding, attempt: Callable[[FuzzCase], Finding | None]) -> Finding:
    """A last greedy pass: drop a step or two adjacent ones while the candidate still disagrees.

    Hypothesis shrinks the drawn choices; removal indexes are fitted to the requests alive, so
    a step it could not delete alone (its neighbours' indexes moved) often goes here.
    Deterministic, so a seed still reproduces the written fixture.
    """
    best = finding
    changed = True
    while changed:
        changed = False
        steps = best.case.plan.steps
        cuts = [(i, i + 1) for i in range(len(steps))]
        cuts += [(i, i + 2) for i in range(len(steps) - 1)]  # a Send with its Remove
        for start, stop in cuts:
            fewer = steps[:start] + steps[stop:]
            plan = compile_plan(fewer, best.case.era)
            if len(plan.steps) >= len(steps):
                continue
            smaller = attempt(replace(best.case, plan=plan))
            if smaller is not None:
                best, changed = smaller, True
                break
    return best


def _only_divergences(error: BaseException) -> bool:
    """A Hypothesis wrapper (Flaky, an exception group) around divergences only."""
    inner = getattr(error, "exceptions", None)
    if not inner:
        return False
    return all(isinstance(e, Divergence) or _only_divergences(e) for e in inner)


# -- the command line -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="rebootspec fuzz",
        description="Run a candidate on random VS Code sessions (the generator's plans draw "
        "VS Code's chatSessions logs only; no other host's format is drawn); shrink the first "
        "disagreement to a minimal plan and write it as a new fixture folder plus an "
        "explanation. The candidate's "
        "options are also read from the CONFORMANCE_* variable shown, as for `rebootspec run`.",
        epilog='example: rebootspec fuzz --candidate "./mytool count" --out found/',
    )
    add_settings(parser.add_argument, FUZZ_SETTINGS)
    parser.add_argument("--out", type=Path, required=True, help="write the fixture folder here")
    parser.add_argument("--seed", type=int, default=None, help="reproduce a run (printed first)")
    parser.add_argument("--examples", type=int, default=1000, help="sessions at most (1000)")
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds for search and shrinking (60; 0: none)"
    )
    parser.add_argument("--max-steps", type=int, default=12, help="plan steps at most (12)")
    parser.add_argument(
        "--avoid",
        action="append",
        default=[],
        metavar="TAG",
        help="draw no session showing this tag of spec/tags.toml (repeatable), to look past a "
        "known divergence",
    )
    return parser


class UsageError(Exception):
    """A bad command line (one line, exit 2)."""


def _check_numbers(options: argparse.Namespace) -> None:
    if options.examples < 1:
        raise UsageError("--examples must be at least 1")
    if options.budget < 0:
        raise UsageError("--budget must not be negative")
    if options.max_steps < 1:
        raise UsageError("--max-steps must be at least 1")
    unknown = sorted(set(options.avoid) - set(known_tags()))
    if unknown:
        raise UsageError(f"--avoid: not a tag of spec/tags.toml: {', '.join(unknown)}")


def _out_problem(out: Path) -> str | None:
    """Why `--out` cannot be the folder the new case is written to, or None: it exists and is
    not a folder, or the system refuses its name (too long, a folder it cannot look in)."""
    from ...reference.core.errors import os_reason

    try:
        info = os.lstat(out)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        return os_reason(error)
    return None if stat.S_ISDIR(info.st_mode) else "exists and is not a folder"


def reproduce_command(argv: list[str], seed: int) -> str:
    """The command line that repeats this run (the seed pinned)."""
    import shlex

    words: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word == "--seed":
            skip = True
            continue
        if word.startswith("--seed="):
            continue
        words.append(word)
    return shlex.join(["rebootspec", "fuzz", *words, "--seed", str(seed)])


def cli(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`rebootspec fuzz ARGS` (argv without the word `fuzz`); returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        options = parser.parse_args(argv)
        _check_numbers(options)
        given = Settings.of(options)
        candidate = given.candidate(given.isolation())
        reader = given.reader(candidate)
        case_timeout = given.case_timeout()
    except SystemExit as stop:  # --help, or a usage error UsageParser has printed
        return int(stop.code or 0) if stop.code in (0, None) else EXIT_USAGE
    except (argparse.ArgumentError, UsageError, OptionError) as error:
        err.write(f"usage error: {parser.prog}: {printable(str(error))} (try --help)\n")
        return EXIT_USAGE
    problem = startable(candidate)
    if problem is not None:  # as `run` does: one line, no "divergence" for a typo
        err.write(f"error: {printable(problem)}\n")
        return EXIT_USAGE
    problem = _out_problem(options.out)  # told now, not after the search
    if problem is not None:
        err.write(f"usage error: {parser.prog}: --out {printable(str(options.out))}: {problem}")
        err.write(" (try --help)\n")
        return EXIT_USAGE
    # The settings taken from CONFORMANCE_* join the reproduce line, so it repeats this run
    # in a shell where those variables are not set.
    repeat = [*argv, *given.from_environment(FUZZ_SETTINGS)]
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        err.write("error: fuzzing needs Hypothesis (pip install -e '.[test]')\n")
        return EXIT_USAGE
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    described = " ".join(candidate.describe())
    budget = options.budget or None
    out.write(
        f"fuzz: seed {seed} (repeat with --seed {seed}); candidate {described}; "
        f"up to {options.examples} sessions" + (f" or {budget:g} s" if budget else "") + "\n"
    )
    out.flush()

    def log(text: str) -> None:
        out.write(f"fuzz: {text}\n")
        out.flush()

    try:
        result = fuzz(
            candidate,
            reader,
            seed=seed,
            examples=options.examples,
            budget=budget,
            case_timeout=case_timeout,
            avoid=frozenset(options.avoid),
            max_steps=options.max_steps,
            log=log,
        )
    except Exception as error:  # a bug in the fuzzer or the generator, never the candidate's
        err.write(f"error: internal error in the fuzzer: {type(error).__name__}: {error}\n")
        return EXIT_INTERNAL
    return _report(result, options, repeat, described, out)


def _report(
    result: FuzzResult, options: argparse.Namespace, argv: list[str], described: str, out: TextIO
) -> int:
    from .fixture import write_fixture

    stats = f"{result.sessions} sessions, {result.runs} candidate runs, {result.elapsed:.1f} s"
    if result.finding is None:
        reason = "the time budget ran out" if result.out_of_time else "all examples passed"
        out.write(f"fuzz: no divergence ({reason}; {stats})\n")
        return EXIT_CLEAN
    finding = result.finding
    cut = " (shrinking cut short by the budget)" if result.out_of_time else ""
    out.write(f"fuzz: shrunk to {len(finding.case.plan.steps)} plan steps{cut}; {stats}\n")
    written = write_fixture(
        options.out,
        finding.case,
        finding.played,
        finding.verdict,
        finding.run,
        seed=result.seed,
        candidate=described,
        reproduce=reproduce_command(argv, result.seed),
    )
    out.write(f"fuzz: wrote {written.folder} and {written.explain}\n\n")
    out.write(written.explain.read_text(encoding="utf-8"))
    return EXIT_DIVERGENCE
