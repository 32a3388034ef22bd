"""The outcome table of PRO-2/PRO-3, one row at a time (conformance.outcome.classify)."""

from __future__ import annotations

import json
import signal

import pytest

from rebootspec.conformance.runner.answers import JsonPointerReader, LastIntegerReader
from rebootspec.conformance.runner.outcome import RunResult, classify

COUNT_3 = {"outcome": "count", "reboots": 3}
REJECT = {"outcome": "reject"}
JSON = JsonPointerReader()
TRACEBACK = (
    'Traceback (most recent call last):\n  File "c.py", line 1, in <module>\n'
    "ModuleNotFoundError: No module named 'orjson'\n"
)
NODE_TRACE = "/app/cli.js:12\n    throw new Error('boom');\n    ^\nError: boom\n    at main\n"


def exited(code: int, stdout: str = "", stderr: str = "") -> RunResult:
    return RunResult(exit_code=code, stdout=stdout, stderr=stderr)


@pytest.mark.parametrize(
    ("expected", "run", "outcome"),
    [
        (COUNT_3, exited(0, '{"reboots": 3}'), "pass"),
        (COUNT_3, exited(0, '{"reboots": 3, "requests": 9, "x": [1]}\n'), "pass"),
        (COUNT_3, exited(0, '{"reboots": 2}'), "fail"),
        (COUNT_3, exited(0, '{"reboots": 0}'), "fail"),
        (COUNT_3, exited(0, '{"reboots": 12345678901234567890123}'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": 9223372036854775807}'), "fail"),
        (COUNT_3, exited(0, '{"reboots": 3.0}'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": -3}'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": true}'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": "3"}'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": null}'), "bad-output"),
        (COUNT_3, exited(0, '{"count": 3}'), "bad-output"),
        (COUNT_3, exited(0, "[3]"), "bad-output"),
        (COUNT_3, exited(0, "3 reboots"), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": 3'), "bad-output"),
        (COUNT_3, exited(0, '{"reboots": 3}{"reboots": 3}'), "bad-output"),
        (COUNT_3, exited(0, ""), "bad-output"),
        (COUNT_3, exited(0, "\ufffd\ufffd"), "bad-output"),
        (
            COUNT_3,
            RunResult(exit_code=0, stdout='{"reboots": 3}', stdout_overflow=True),
            "bad-output",
        ),
        (COUNT_3, exited(1, "", "error: x:3: E-JSON: bad"), "false-error"),
        (COUNT_3, exited(1, '{"reboots": 3}'), "crash"),
        (REJECT, exited(1, "", "error: x:0: E-EMPTY: empty"), "pass"),
        (REJECT, exited(1, "", "warning: w\nerror: C:\\a:b.jsonl:7: E-JSON: bad\n"), "pass"),
        (REJECT, exited(1, "", "error: <case>/session.jsonl:0: E-READ: a dir"), "pass"),
        (REJECT, exited(1, "garbage"), "crash"),
        (REJECT, exited(1), "crash"),
        (REJECT, exited(1, "", "error: x:0: E-NOPE: not a spec code"), "crash"),
        (REJECT, exited(1, "", "error: x: E-JSON: no line number"), "crash"),
        (REJECT, exited(1, "", "  error: x:0: E-JSON: indented"), "crash"),
        (REJECT, exited(1, "", TRACEBACK), "crash"),
        (REJECT, exited(1, "", NODE_TRACE), "crash"),
        (REJECT, RunResult(exit_code=1, preset_rejection="Session not found"), "pass"),
        (COUNT_3, RunResult(exit_code=1, preset_rejection="Session not found"), "false-error"),
        (REJECT, exited(0, '{"reboots": 0}'), "missed-error"),
        (REJECT, exited(0, "garbage"), "missed-error"),
        (REJECT, exited(0, ""), "missed-error"),
        (COUNT_3, exited(2, '{"reboots": 3}'), "crash"),
        (REJECT, exited(2), "crash"),
        (REJECT, exited(70), "crash"),
        (REJECT, exited(255), "crash"),
        (COUNT_3, RunResult(signal=signal.SIGSEGV), "crash"),
        (REJECT, RunResult(signal=signal.SIGKILL), "crash"),
        (COUNT_3, RunResult(timed_out=True, stdout='{"reboots": 3}'), "timeout"),
        (REJECT, RunResult(timed_out=True), "timeout"),
        (COUNT_3, RunResult(start_error="No such file or directory"), "crash"),
        (REJECT, RunResult(exit_code=1, crash_note="uncaught exception"), "crash"),
    ],
)
def test_outcome_table(expected: dict[str, object], run: RunResult, outcome: str) -> None:
    assert classify(expected, run, JSON).outcome == outcome


def test_a_crash_never_counts_as_a_correct_rejection() -> None:
    for run in (
        exited(2),
        exited(-1 & 0xFF),
        RunResult(signal=signal.SIGABRT),
        RunResult(timed_out=True),
    ):
        assert classify(REJECT, run, JSON).outcome != "pass"


def test_signal_is_named_in_the_answer() -> None:
    verdict = classify(COUNT_3, RunResult(signal=signal.SIGSEGV), JSON)
    assert verdict.actual == {"outcome": "crash", "signal": "SIGSEGV"}


def test_wrong_count_is_shown_with_the_expected_one() -> None:
    verdict = classify(COUNT_3, exited(0, '{"reboots": 5}'), JSON)
    assert verdict.actual == {"outcome": "count", "reboots": 5}
    assert "5" in verdict.detail and "3" in verdict.detail


def test_missed_error_shows_what_was_answered() -> None:
    verdict = classify(REJECT, exited(0, '{"reboots": 4}'), JSON)
    assert verdict.actual == {"outcome": "count", "reboots": 4}


def test_the_reader_decides_where_the_count_is() -> None:
    stdout = "Snapshot: 3 requests\nTRUE REBOOT COUNT: 3\nPatch = 3\n"
    assert classify(COUNT_3, exited(0, stdout), LastIntegerReader()).outcome == "pass"
    assert classify(COUNT_3, exited(0, stdout), JSON).outcome == "bad-output"


def test_a_crash_with_exit_1_names_the_last_stderr_lines() -> None:
    verdict = classify(REJECT, exited(1, "", TRACEBACK), JSON)
    assert verdict.outcome == "crash" and "ModuleNotFoundError" in verdict.detail
    assert verdict.actual == {"outcome": "crash", "exit": 1}


def test_the_code_is_informative_unless_the_profile_matches_codes() -> None:
    run = exited(1, "", "error: /tmp/x/session.jsonl:4: E-PATH: no such path")
    loose = classify(REJECT, run, JSON, expected_code="E-JSON", expected_line=3)
    assert loose.outcome == "pass"
    assert loose.actual == {"outcome": "reject", "code": "E-PATH"}
    assert loose.diagnostic == {
        "code": "E-PATH",
        "line": 4,
        "expected_code": "E-JSON",
        "code_matches": False,
        "expected_line": 3,
        "line_matches": False,
    }
    strict = classify(REJECT, run, JSON, expected_code="E-JSON", match_codes=True)
    assert strict.outcome == "fail" and "expected E-JSON" in strict.detail
    right = classify(REJECT, run, JSON, expected_code="E-PATH", match_codes=True)
    assert right.outcome == "pass" and right.diagnostic["code_matches"]
    preset = RunResult(exit_code=1, preset_rejection="Session not found")
    assert classify(REJECT, preset, JSON, expected_code="E-JSON").outcome == "pass"
    assert classify(REJECT, preset, JSON, expected_code="E-JSON", match_codes=True).outcome == (
        "fail"
    )


def test_protocol_md_shows_the_outcome_and_gate_tables_of_outcome_py() -> None:
    from rebootspec.conformance import SPEC_DIR
    from rebootspec.conformance.runner.outcome import GATE_TABLE, OUTCOME_TABLE

    text = (SPEC_DIR / "PROTOCOL.md").read_text(encoding="utf-8")
    for word, when in (*OUTCOME_TABLE, *GATE_TABLE):
        assert f"| `{word}` | {when} |" in text, word


def test_every_outcome_and_gate_has_exactly_one_row_saying_when() -> None:
    from rebootspec.conformance.runner.outcome import GATE_TABLE, OUTCOME_TABLE, Gate, Outcome

    assert [word for word, _ in OUTCOME_TABLE] == list(Outcome)
    assert [word for word, _ in GATE_TABLE] == list(Gate)


def test_outcome_words_are_the_plain_strings_reports_and_divergence_files_use() -> None:
    from rebootspec.conformance.runner.outcome import RUN_OUTCOMES, Gate, Outcome

    # The words a report.json, a divergences file or a template compares with.
    assert Outcome.MISSED_ERROR == "missed-error" and f"{Outcome.CORPUS_ERROR}" == "corpus-error"
    assert json.dumps({"outcome": Outcome.NOT_CLAIMED}) == '{"outcome": "not-claimed"}'
    assert Gate("xpass") is Gate.XPASS
    with pytest.raises(ValueError):
        Outcome("passed")
    # classify never says the runner's own words: they are decided before a candidate runs.
    assert set(Outcome) - set(RUN_OUTCOMES) == {"unpinned", "corpus-error", "not-claimed"}
