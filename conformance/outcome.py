"""Outcome classification (PRO-2, PRO-3): one pure function from a finished run to one word.

Everything the runner and `smoke` decide about a candidate's behaviour is decided here, so the
in-process reference, subprocess candidates and presets are judged by the same table:

| outcome        | when                                                             |
| pass           | exit 0 with the expected count, or exit 1 when rejection is expected |
| fail           | exit 0 with a wrong count                                        |
| missed-error   | exit 0 when rejection is expected                                |
| false-error    | exit 1 when a count is expected                                  |
| crash          | could not start, any other exit code, a signal, or a preset saw a crash |
| timeout        | ran past the per-case limit                                      |
| bad-output     | exit 0 but no count could be read from stdout                    |
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any

from conformance.answers import AnswerReader, read_informative

OUTCOMES = ("pass", "fail", "missed-error", "false-error", "crash", "timeout", "bad-output")
NOT_CLAIMED = "not-claimed"


@dataclass(frozen=True)
class RunResult:
    """How one candidate run ended. Exactly one of the ending fields describes the end."""

    exit_code: int | None = None  # set when the process exited by itself
    signal: int | None = None  # set when a signal ended it
    timed_out: bool = False
    start_error: str | None = None  # the command could not be started
    crash_note: str | None = None  # a preset recognised a crash behind an exit code
    stdout: str = ""
    stderr: str = ""
    stdout_overflow: bool = False  # stdout was larger than the runner keeps
    duration: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """The classified outcome, the candidate's answer as the report shows it, and why.

    `informative` holds what a JSON answer says beside the count (`reboots_possible`, phantom
    reasons: OUT-3); it is shown in the report and never decides an outcome.
    """

    outcome: str
    actual: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    informative: dict[str, Any] = field(default_factory=dict)


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def classify(expected: dict[str, Any], run: RunResult, reader: AnswerReader) -> Verdict:
    """Judge one run against the expected answer: `{"outcome": "count", "reboots": N}` or reject."""
    if run.start_error is not None:
        return Verdict("crash", {"outcome": "crash"}, f"cannot start: {run.start_error}")
    if run.timed_out:
        return Verdict("timeout", {"outcome": "timeout"}, "ran past the case timeout; killed")
    if run.signal is not None:
        name = signal_name(run.signal)
        return Verdict("crash", {"outcome": "crash", "signal": name}, f"killed by {name}")
    if run.crash_note is not None:
        return Verdict("crash", {"outcome": "crash", "exit": run.exit_code}, run.crash_note)
    code = run.exit_code
    wants_reject = expected.get("outcome") == "reject"
    if code == 1:
        if wants_reject:
            return Verdict("pass", {"outcome": "reject"})
        return Verdict("false-error", {"outcome": "reject"}, "rejected a valid log (exit 1)")
    if code != 0:
        return Verdict("crash", {"outcome": "crash", "exit": code}, f"exit code {code}")
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
        return Verdict("missed-error", shown, "answered a log that must be rejected (exit 0)")
    if count is None:
        return Verdict("bad-output", {"outcome": "bad-output", "reason": problem}, str(problem))
    informative = read_informative(run.stdout, reader)
    if count == expected.get("reboots"):
        return Verdict("pass", {"outcome": "count", "reboots": count}, informative=informative)
    return Verdict(
        "fail",
        {"outcome": "count", "reboots": count},
        f"counted {count}, expected {expected.get('reboots')}",
        informative,
    )


def _read(run: RunResult, reader: AnswerReader) -> tuple[int | None, str | None]:
    if run.stdout_overflow:
        return None, "stdout is larger than the runner keeps (1 MiB)"
    return reader.read(run.stdout)
