"""Outcome classification (PRO-2, PRO-3, PRO-4): one pure function from a finished run to one word.

Everything the runner and `smoke` decide about a candidate's behaviour is decided here, so the
in-process reference, subprocess candidates and presets are judged by the same table. The table
below (`OUTCOME_TABLE`) is the one source: spec/PROTOCOL.md and conformance/README.md show it,
and a test keeps PROTOCOL.md in step with it. The words themselves are the `Outcome` and `Gate`
enums, which spec/report.schema.json lists too (a test keeps them equal).

A *rejection* (protocol 2) is exit 1 **and** a diagnostic line `error: PATH:LINE: CODE: reason`
on stderr whose CODE is one of the spec's `E-*` codes; exit 1 without such a line is a crash
(a Python traceback, a Node stack trace, `ModuleNotFoundError` all exit 1). Whether the code and
line agree with the case's expected ones is informative, unless the profile sets
`match_codes = true`: then a rejection with another code (or none) is a `fail`.
"""

from __future__ import annotations

import enum
import re
import signal
from dataclasses import dataclass, field
from typing import Any

from ...reference.core.errors import ERROR_CODES
from .answers import AnswerReader, read_informative

PROTOCOL_VERSION = 2


class Outcome(enum.StrEnum):
    """Every word a case can end in, in the order reports show them.

    A StrEnum, so a member is its word: it serialises unchanged into report.json, compares
    equal to the plain string (templates, older reports, divergences files) and prints as it.
    The first seven are the candidate's doing (`classify` says them); the last three the runner
    says without running the candidate.
    """

    PASS = "pass"
    FAIL = "fail"
    MISSED_ERROR = "missed-error"
    FALSE_ERROR = "false-error"
    CRASH = "crash"
    TIMEOUT = "timeout"
    BAD_OUTPUT = "bad-output"
    UNPINNED = "unpinned"
    CORPUS_ERROR = "corpus-error"
    NOT_CLAIMED = "not-claimed"


class Gate(enum.StrEnum):
    """What an outcome means for the run, after the profile and the known divergences.

    A separate vocabulary from `Outcome`: a listed `crash` is the outcome `crash` with the gate
    `xfail`. `pass`, `fail` and `not-claimed` are spelled as the outcomes of the same name.
    """

    PASS = "pass"
    FAIL = "fail"
    XFAIL = "xfail"
    XPASS = "xpass"
    NOT_CLAIMED = "not-claimed"


# What a candidate's run can be judged (classify's vocabulary; a divergences file lists these).
RUN_OUTCOMES: tuple[Outcome, ...] = (
    Outcome.PASS,
    Outcome.FAIL,
    Outcome.MISSED_ERROR,
    Outcome.FALSE_ERROR,
    Outcome.CRASH,
    Outcome.TIMEOUT,
    Outcome.BAD_OUTPUT,
)
# The gates that fail the run (the verdict is FAIL, pytest exits 1).
GATE_FAILURES: frozenset[Gate] = frozenset({Gate.FAIL, Gate.XPASS})

# (outcome, when): the whole classification, in the words PROTOCOL.md shows; one row per member.
OUTCOME_TABLE: tuple[tuple[Outcome, str], ...] = (
    (
        Outcome.PASS,
        "exit 0 with the expected count, or a rejection (exit 1 and an `E-*` diagnostic) "
        "when the case expects one (with `match_codes`: the expected code)",
    ),
    (
        Outcome.FAIL,
        "exit 0 with a wrong count (with `match_codes`: a rejection with another code)",
    ),
    (Outcome.MISSED_ERROR, "exit 0 when the case expects a rejection"),
    (
        Outcome.FALSE_ERROR,
        "a rejection (exit 1 and an `E-*` diagnostic) when the case expects a count",
    ),
    (
        Outcome.CRASH,
        "could not start, exit 1 without an `E-*` diagnostic, any other exit code, "
        "a signal, or a crash a preset recognised",
    ),
    (Outcome.TIMEOUT, "ran past the per-case time limit (the whole process tree is killed)"),
    (Outcome.BAD_OUTPUT, "exit 0 but no count could be read from stdout"),
    (
        Outcome.UNPINNED,
        "the runner's own: the case has no snapshot, so the candidate is not run (always fails)",
    ),
    (
        Outcome.CORPUS_ERROR,
        "the runner's own: the case's input vanished or changed during the run, so the "
        "candidate is not run (always fails)",
    ),
    (
        Outcome.NOT_CLAIMED,
        "the runner's own: the profile does not claim one of the case's tags (never a failure)",
    ),
)

# (gate, when): what `records.judge` decides; PROTOCOL.md shows it too.
GATE_TABLE: tuple[tuple[Gate, str], ...] = (
    (Gate.PASS, "the outcome is `pass` and the case is not a known divergence"),
    (
        Gate.FAIL,
        "any other outcome of an unlisted case, or a listed case whose outcome is not the "
        "listed one",
    ),
    (Gate.XFAIL, "a known divergence that still diverges as listed"),
    (Gate.XPASS, "a known divergence that passes now: the list is stale, and the run fails"),
    (Gate.NOT_CLAIMED, "the profile does not claim one of the case's tags"),
)

# PRO-4: `error: PATH:LINE: CODE: reason`. PATH is any text (the candidate only sees the
# neutral copy's path); the first line of this shape with a known code is the diagnostic.
DIAGNOSTIC = re.compile(
    r"^error: (?P<path>.*?):(?P<line>\d{1,12}): (?P<code>E-[A-Z]+(?:-[A-Z]+)*): (?P<reason>.*)$",
    re.MULTILINE,
)
NO_CODE = ""  # a preset's own error message read as a rejection: it never matches a code


@dataclass(frozen=True)
class Diagnostic:
    """The rejection line a candidate printed (PRO-4); `code` is NO_CODE for a preset's message."""

    code: str
    line: int | None
    reason: str


def find_diagnostic(stderr: str) -> Diagnostic | None:
    """The first `error: PATH:LINE: CODE: reason` line whose CODE is a spec code, or None."""
    for match in DIAGNOSTIC.finditer(stderr):
        if match["code"] in ERROR_CODES:
            return Diagnostic(match["code"], int(match["line"]), match["reason"].strip()[:200])
    return None


@dataclass(frozen=True)
class RunResult:
    """How one candidate run ended. Exactly one of the ending fields describes the end."""

    exit_code: int | None = None  # set when the process exited by itself
    signal: int | None = None  # set when a signal ended it
    timed_out: bool = False
    start_error: str | None = None  # the command could not be started
    crash_note: str | None = None  # a preset recognised a crash behind an exit code
    # A preset recognised its tool's own error message on exit 1 as a rejection (no E-* code).
    preset_rejection: str | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_overflow: bool = False  # stdout was larger than the runner keeps
    duration: float = 0.0
    peak_rss_kb: int | None = None  # the candidate's peak resident memory (wait4 rusage)


@dataclass(frozen=True)
class Verdict:
    """The classified outcome, the candidate's answer as the report shows it, and why.

    `informative` holds what a JSON answer says beside the count (`reboots_possible`, phantom
    reasons: OUT-3); `diagnostic` compares a rejection's code and line with the expected ones.
    Both are shown in the report; only a profile's `match_codes` makes the code decide.
    """

    outcome: Outcome
    actual: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    informative: dict[str, Any] = field(default_factory=dict)
    diagnostic: dict[str, Any] = field(default_factory=dict)


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def last_lines(text: str, n: int = 3, width: int = 200) -> str:
    """The last `n` non-empty lines of `text`, each cut to `width`, joined by ` | `."""
    lines = [line.strip()[:width] for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-n:])


def rejection_of(run: RunResult) -> Diagnostic | None:
    """The rejection a run on exit 1 makes (protocol 2), or None: then exit 1 is a crash."""
    if run.preset_rejection is not None:
        return Diagnostic(NO_CODE, None, run.preset_rejection)
    return find_diagnostic(run.stderr)


def compare_diagnostic(
    found: Diagnostic, expected_code: str | None, expected_line: int | None
) -> dict[str, Any]:
    """The informative comparison of a rejection with the case's expected code and line."""
    out: dict[str, Any] = {"code": found.code or None, "line": found.line}
    if expected_code is not None:
        out["expected_code"] = expected_code
        out["code_matches"] = found.code == expected_code
    if expected_line is not None:
        out["expected_line"] = expected_line
        out["line_matches"] = found.line == expected_line
    return out


def classify(
    expected: dict[str, Any],
    run: RunResult,
    reader: AnswerReader,
    *,
    expected_code: str | None = None,
    expected_line: int | None = None,
    match_codes: bool = False,
) -> Verdict:
    """Judge one run against the expected answer: `{"outcome": "count", "reboots": N}` or reject.

    `expected_code`/`expected_line` come from the case's metadata (`expect.error`, `expect.line`);
    with `match_codes` a rejection with another code is a `fail`.
    """
    if run.start_error is not None:
        return Verdict(Outcome.CRASH, {"outcome": "crash"}, f"cannot start: {run.start_error}")
    if run.timed_out:
        return Verdict(Outcome.TIMEOUT, {"outcome": "timeout"}, "ran past the case timeout; killed")
    if run.signal is not None:
        name = signal_name(run.signal)
        return Verdict(Outcome.CRASH, {"outcome": "crash", "signal": name}, f"killed by {name}")
    if run.crash_note is not None:
        return Verdict(Outcome.CRASH, {"outcome": "crash", "exit": run.exit_code}, run.crash_note)
    code = run.exit_code
    wants_reject = expected.get("outcome") == "reject"
    if code == 1:
        found = rejection_of(run)
        if found is None:
            tail = last_lines(run.stderr)
            detail = "exit 1 without an `error: PATH:LINE: E-CODE: reason` line on stderr"
            return Verdict(
                Outcome.CRASH,
                {"outcome": "crash", "exit": 1},
                f"{detail}; stderr ends: {tail}" if tail else f"{detail}; stderr is empty",
            )
        actual: dict[str, Any] = {"outcome": "reject"}
        if found.code:
            actual["code"] = found.code
        diagnostic = compare_diagnostic(found, expected_code, expected_line)
        if not wants_reject:
            return Verdict(
                Outcome.FALSE_ERROR,
                actual,
                f"rejected a valid log (exit 1, {found.code or 'no code'})",
                diagnostic=diagnostic,
            )
        if match_codes and expected_code is not None and found.code != expected_code:
            return Verdict(
                Outcome.FAIL,
                actual,
                f"rejected with {found.code or 'no code'}, expected {expected_code} "
                "(the profile matches codes)",
                diagnostic=diagnostic,
            )
        return Verdict(Outcome.PASS, actual, diagnostic=diagnostic)
    if code != 0:
        return Verdict(Outcome.CRASH, {"outcome": "crash", "exit": code}, f"exit code {code}")
    count, problem = _read(run, reader)
    if wants_reject:
        shown: dict[str, Any] = (
            {"outcome": "count", "reboots": count}
            if count is not None
            else {
                "outcome": "count",
                "unreadable": problem,
            }
        )
        return Verdict(Outcome.MISSED_ERROR, shown, "answered a log that must be rejected (exit 0)")
    if count is None:
        return Verdict(
            Outcome.BAD_OUTPUT, {"outcome": "bad-output", "reason": problem}, str(problem)
        )
    informative = read_informative(run.stdout, reader)
    if count == expected.get("reboots"):
        return Verdict(
            Outcome.PASS, {"outcome": "count", "reboots": count}, informative=informative
        )
    return Verdict(
        Outcome.FAIL,
        {"outcome": "count", "reboots": count},
        f"counted {count}, expected {expected.get('reboots')}",
        informative,
    )


def _read(run: RunResult, reader: AnswerReader) -> tuple[int | None, str | None]:
    if run.stdout_overflow:
        return None, "stdout is larger than the runner keeps (1 MiB)"
    return reader.read(run.stdout)
