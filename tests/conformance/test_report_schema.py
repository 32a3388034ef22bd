"""spec/report.schema.json: the reports real runs write validate, and it is strict where it matters.

The runs are real: the plugin on tiny hand-written corpora (cf_kit) with misbehaving candidates,
so that every outcome and gate appears in some report, and the in-process reference on the whole
corpus through `python -m rebootspec.conformance run`. The schema's words are the enums'.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cf_runner import corpus, fake, report, right_answers, run
from jsonschema import Draft202012Validator

from rebootspec.conformance import SPEC_DIR
from rebootspec.conformance.reports.report import load
from rebootspec.conformance.runner.outcome import Gate, Outcome

pytest_plugins = ["pytester"]

HOSTILE = Path(__file__).with_name("hostile_candidate.py")


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads((SPEC_DIR / "report.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)  # a schema that is itself malformed fails here
    return Draft202012Validator(schema)


def reference_run(folder: Path, *selection: str) -> dict[str, Any]:
    """The report of the bundled reference on the corpus (or the cases `selection` picks, in
    pytest's words), made as a user makes it."""
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "run", "--report-dir", str(folder),
         "-q", "-p", "no:cacheprovider", *selection],
        capture_output=True, text=True, check=False, cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return report(folder)


@pytest.fixture(scope="module")
def reference_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The reference's report on the whole corpus."""
    return reference_run(tmp_path_factory.mktemp("reference"))


@pytest.fixture(scope="module")
def pi_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real report of a few dozen cases (pi's): enough to break one member at a time."""
    return reference_run(tmp_path_factory.mktemp("reference-pi"), "-k", "pi")


def problems(validator: Draft202012Validator, data: Any) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in validator.iter_errors(data)]


def test_the_schemas_words_are_the_enums(validator: Draft202012Validator) -> None:
    defs = validator.schema["$defs"]
    assert defs["outcome"]["enum"] == [str(outcome) for outcome in Outcome]
    assert defs["gate"]["enum"] == [str(gate) for gate in Gate]
    # The matrix has a column for every outcome, also when it is 0.
    columns = validator.schema["properties"]["matrix"]["additionalProperties"]["required"]
    assert columns == [str(outcome) for outcome in Outcome]


@pytest.mark.slow
def test_the_reference_on_the_whole_corpus_writes_a_valid_report(
    validator: Draft202012Validator, reference_report: dict[str, Any]
) -> None:
    assert problems(validator, reference_report) == []
    assert reference_report["verdict"] == "PASS" and len(reference_report["cases"]) > 100


def test_reports_with_every_outcome_and_gate_are_valid(
    pytester: pytest.Pytester, tmp_path: Path, validator: Draft202012Validator
) -> None:
    seen: list[dict[str, Any]] = []
    # 1. every way a candidate can misbehave, one listed as a known divergence (xfail)
    root, snaps, ids = corpus(tmp_path / "a")
    command = fake(tmp_path / "a", {
        "snapshot": {"do": "hang"}, "push": {"do": "crash"}, "phantom": {"do": "garbage"},
        "reject": {"do": "count", "n": 0}, "legacy": {"do": "reject"},
        "aba": {"do": "count", "n": 2},
    })  # fmt: skip
    known = tmp_path / "a" / "known.toml"
    known.write_text(f'[{ids["aba"]}]\nreason = "off by one"\noutcome = "fail"\n', "utf-8")
    run(pytester, root, snaps, "--candidate", command, "--case-timeout", "1",
        "--known-divergences", str(known), "--report-dir", str(tmp_path / "a" / "r"))  # fmt: skip
    seen.append(report(tmp_path / "a" / "r"))
    # 2. right answers, a stale divergence (xpass), an unclaimed tag, a case with no snapshot
    root, snaps, ids = corpus(tmp_path / "b")
    (snaps / "test_expectations" / f"test_expectation[{ids['phantom']}].json").unlink()
    known = tmp_path / "b" / "known.toml"
    known.write_text(f'[{ids["push"]}]\nreason = "fixed since"\n', "utf-8")
    profile = tmp_path / "b" / "mine.toml"
    profile.write_text('name = "mine"\nunclaimed = ["legacy-json"]\nmatch_codes = true\n', "utf-8")
    command = fake(tmp_path / "b", right_answers(tmp_path / "b"))
    run(pytester, root, snaps, "--candidate", command, "--conformance-profile", str(profile),
        "--known-divergences", str(known), "--report-dir", str(tmp_path / "b" / "r"))  # fmt: skip
    seen.append(report(tmp_path / "b" / "r"))
    # 3. a candidate that deletes a later case's input (corpus-error, corpus_changes)
    root, snaps, ids = corpus(tmp_path / "c", ["push", "snapshot"])
    deleted = root / ids["snapshot"] / "session.jsonl"  # SNAP runs after PUSH
    vandal = " ".join([sys.executable, str(HOSTILE), "vandal", str(deleted), str(deleted)])
    run(pytester, root, snaps, "--candidate", vandal, "--report-dir", str(tmp_path / "c" / "r"))
    seen.append(report(tmp_path / "c" / "r"))

    for data in seen:
        assert problems(validator, data) == []
    outcomes = {case["outcome"] for data in seen for case in data["cases"]}
    gates = {case["gate"] for data in seen for case in data["cases"]}
    assert outcomes == set(Outcome) and gates == set(Gate)  # the runs showed every word


def test_a_misspelled_outcome_or_a_missing_header_member_is_rejected(
    validator: Draft202012Validator, pi_report: dict[str, Any], tmp_path: Path
) -> None:
    def broken(change: Any) -> dict[str, Any]:
        data = copy.deepcopy(pi_report)
        change(data)
        return data

    cases: dict[str, dict[str, Any]] = {
        "misspelled outcome": broken(lambda d: d["cases"][0].update(outcome="passed")),
        "misspelled gate": broken(lambda d: d["cases"][0].update(gate="xfailed")),
        "misspelled total": broken(lambda d: d["totals"]["outcomes"].update({"passes": 1})),
        "no corpus digest": broken(lambda d: d["header"].pop("corpus_digest")),
        "no profile": broken(lambda d: d["header"].pop("profile")),
        "unknown header member": broken(lambda d: d["header"].update(colour="blue")),
        "case without a gate": broken(lambda d: d["cases"][0].pop("gate")),
        "verdict in lower case": broken(lambda d: d.update(verdict="pass")),
        "a newer format": broken(lambda d: d["header"].update(report_format=3)),
    }
    for why, data in cases.items():
        assert problems(validator, data), why
    # The loader of `compare`, `report` and `baseline` refuses the wrong words as well.
    path = tmp_path / "report.json"
    for why in ("misspelled outcome", "misspelled gate", "a newer format"):
        path.write_text(json.dumps(cases[why]), encoding="utf-8")
        with pytest.raises(ValueError, match="not a conformance report") as refused:
            load(path)
        assert "\n" not in str(refused.value), why
    path.write_text(json.dumps(pi_report), encoding="utf-8")
    assert load(path) == pi_report
