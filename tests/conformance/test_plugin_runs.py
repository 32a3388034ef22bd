"""The plugin end to end, in a pytester subprocess, on tiny hand-written corpora (cf_kit)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cf_kit as kit
import pytest
from cf_runner import corpus, fake, outcomes, report, right_answers, run

pytest_plugins = ["pytester"]


def test_reference_passes_every_case_and_writes_three_reports(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path)
    result = run(pytester, root, snaps, "--report-dir", str(tmp_path / "rep"))
    result.assert_outcomes(passed=len(ids))
    data = report(tmp_path / "rep")
    assert data["verdict"] == "PASS"
    assert set(outcomes(data).values()) == {"pass"}
    assert data["header"]["spec_version"] == "3.0"
    assert data["header"]["profile"] == "spec-v2"  # the default claims everything
    claims = {"unclaimed": [], "match_codes": False, "hosts": None}
    assert data["header"]["profile_claims"] == claims
    assert data["header"]["protocol_version"] == 2 and len(data["header"]["corpus_digest"]) == 64
    assert data["header"]["selection"]["selected"] == len(ids)
    assert data["matrix"]["phantom"]["pass"] == 1
    # OUT-3 details of the reference are kept as information: the phantom session's marker
    # has no summary, no error and no cancellation, so its reason is `unknown`.
    assert data["informative"]["phantom_reasons"] == {"unknown": 1}
    phantom = next(c for c in data["cases"] if c["id"] == ids["phantom"])
    assert phantom["informative"] == {
        "reboots_possible": 0,
        "phantoms": [{"request": 0, "reason": "unknown"}],
    }
    html = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert "<link" not in html and "<script" not in html  # self-contained
    assert "PASS" in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")


def test_misbehaviour_is_classified_not_fatal(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, ids = corpus(tmp_path)
    command = fake(
        tmp_path,
        {
            "snapshot": {"do": "hang"},
            "push": {"do": "crash"},
            "phantom": {"do": "garbage"},
            "reject": {"do": "count", "n": 0},
            "legacy": {"do": "reject"},
            "aba": {"do": "count", "n": 2},
        },
    )
    started = time.monotonic()
    result = run(
        pytester,
        root,
        snaps,
        "--candidate",
        command,
        "--case-timeout",
        "1",
        "--report-dir",
        str(tmp_path / "r"),
    )
    assert time.monotonic() - started < 60
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "Traceback" not in result.stdout.str()
    assert outcomes(report(tmp_path / "r")) == {
        ids["snapshot"]: "timeout",
        ids["push"]: "crash",
        ids["phantom"]: "bad-output",
        ids["reject"]: "missed-error",
        ids["legacy"]: "false-error",
        ids["aba"]: "fail",
    }
    failures = report(tmp_path / "r")["cases"]
    push = next(c for c in failures if c["id"] == ids["push"])
    assert "fake crash" in push["stderr"]
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert kit.IDS["aba"] in md and "counted 2, expected 3" in md


def test_abort_and_endless_output_are_contained(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, ids = corpus(tmp_path, ["snapshot", "phantom"])
    command = fake(tmp_path, {"snapshot": {"do": "abort"}, "phantom": {"do": "spew"}})
    result = run(
        pytester,
        root,
        snaps,
        "--candidate",
        command,
        "--case-timeout",
        "1",
        "--report-dir",
        str(tmp_path / "r"),
    )
    assert outcomes(report(tmp_path / "r")) == {ids["snapshot"]: "crash", ids["phantom"]: "timeout"}
    assert "SIGABRT" in result.stdout.str()


def test_candidate_gets_a_private_copy(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path, ["phantom", "snapshot"])
    before = {p: p.read_bytes() for p in root.rglob("session.*")}
    command = fake(tmp_path, {}, default={"do": "truncate"})
    run(pytester, root, snaps, "--candidate", command)
    assert {p: p.read_bytes() for p in root.rglob("session.*")} == before


def test_known_divergences_are_strict(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, ids = corpus(tmp_path)
    steps = right_answers(tmp_path)
    steps["aba"] = {"do": "count", "n": 2}
    command = fake(tmp_path, steps)
    listed = tmp_path / "known.toml"
    listed.write_text(
        f'[{ids["aba"]}]\nreason = "compares only the previous summary"\n'
        f'[{ids["push"]}]\nreason = "fixed since"\n',
        encoding="utf-8",
    )
    result = run(
        pytester,
        root,
        snaps,
        "--candidate",
        command,
        "--known-divergences",
        str(listed),
        "--report-dir",
        str(tmp_path / "r"),
    )
    result.assert_outcomes(passed=len(ids) - 2, xfailed=1, failed=1)
    gates = {c["id"]: c["gate"] for c in report(tmp_path / "r")["cases"]}
    assert gates[ids["aba"]] == "xfail" and gates[ids["push"]] == "xpass"


def test_a_known_divergence_with_another_outcome_fails(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path, ["aba"])
    command = fake(tmp_path, {"aba": {"do": "crash"}})
    listed = tmp_path / "known.toml"
    listed.write_text(
        f'[{ids["aba"]}]\nreason = "off by one"\noutcome = "fail"\n', encoding="utf-8"
    )
    result = run(pytester, root, snaps, "--candidate", command, "--known-divergences", str(listed))
    result.assert_outcomes(failed=1)


def test_unknown_divergence_id_is_a_usage_error(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path, ["aba"])
    listed = tmp_path / "known.toml"
    listed.write_text('[ZZZZ]\nreason = "gone"\n', encoding="utf-8")
    result = run(pytester, root, snaps, "--known-divergences", str(listed))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown case IDs: ZZZZ" in result.stderr.str()
    assert "Traceback" not in result.stderr.str()


def test_profile_leaves_unclaimed_cases_out(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, ids = corpus(tmp_path)
    command = fake(
        tmp_path,
        {"legacy": {"do": "crash"}, "reject": {"do": "count", "n": 0}},
        default={"do": "hang"},
    )
    steps = right_answers(tmp_path)
    steps.update({"legacy": {"do": "crash"}, "reject": {"do": "count", "n": 0}})
    command = fake(tmp_path, steps)
    result = run(
        pytester,
        root,
        snaps,
        "--candidate",
        command,
        "--conformance-profile",
        "seed-rubric-2026-02",
        "--report-dir",
        str(tmp_path / "r"),
    )
    result.assert_outcomes(passed=len(ids) - 2, skipped=2)
    data = report(tmp_path / "r")
    assert (
        outcomes(data)[ids["legacy"]] == "not-claimed"
        and outcomes(data)[ids["reject"]] == "not-claimed"
    )
    assert data["verdict"] == "PASS"


def test_a_profile_file_with_an_unknown_tag_is_refused(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, _ = corpus(tmp_path, ["aba"])
    profile = tmp_path / "mine.toml"
    profile.write_text('name = "mine"\nunclaimed = ["no-such-tag"]\n', encoding="utf-8")
    result = run(pytester, root, snaps, "--conformance-profile", str(profile))
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "no-such-tag" in result.stderr.str()


def test_only_the_candidates_cases_are_counted(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """A drifted or stale snapshot is the project's concern (test_snapshot_truth.py), not a
    test of the candidate's run: the run's totals and JUnit hold test_case items only."""
    root, snaps, ids = corpus(tmp_path, ["aba", "phantom"])
    stale = snaps / "test_expectations" / "test_expectation[ZZZZ].json"
    stale.write_text(json.dumps({"outcome": "reject"}), encoding="utf-8")
    junit = tmp_path / "junit.xml"
    result = run(pytester, root, snaps, "--junitxml", str(junit))
    result.assert_outcomes(passed=len(ids))
    xml = junit.read_text(encoding="utf-8")
    assert xml.count("<testcase ") == len(ids) and "test_expectation" not in xml


def test_snapshot_update_writes_case_toml_not_the_candidate(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path, pin=False)
    command = fake(tmp_path, {}, default={"do": "count", "n": 99})
    result = run(pytester, root, snaps, "--candidate", command, "--snapshot-update")
    assert result.ret == pytest.ExitCode.OK
    for name, case_id in ids.items():
        pinned = json.loads(
            (snaps / "test_expectations" / f"test_expectation[{case_id}].json").read_text()
        )
        expect = kit.SESSIONS[name][3]
        assert pinned == (
            {"outcome": "count", "reboots": expect["reboots"]}
            if expect["outcome"] == "count"
            else {"outcome": "reject"}
        )


def test_select_by_id_and_by_tag(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, ids = corpus(tmp_path)

    def selected(*args: str) -> set[str]:
        result = run(pytester, root, snaps, *args, "--collect-only", "-q")
        return {line.rsplit("::", 1)[1] for line in result.stdout.lines if "::" in line}

    phantom, legacy = ids["phantom"], ids["legacy"]
    assert selected("-k", "phantom") == {f"test_case[{phantom}]"}
    assert selected("-k", phantom) == {f"test_case[{phantom}]"}
    assert selected("-m", "legacy-json") == {f"test_case[{legacy}]"}


def test_stderr_is_escaped_in_the_html_report(pytester: pytest.Pytester, tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path, ["aba"])
    script = tmp_path / "evil.py"
    script.write_text(
        "import sys\nprint('<script>alert(1)</script>', file=sys.stderr)\nsys.exit(2)\n"
    )
    run(
        pytester,
        root,
        snaps,
        "--candidate",
        f"{sys.executable} {script}",
        "--report-dir",
        str(tmp_path / "r"),
    )
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html


def test_xdist_merges_records_and_junit_has_case_ids(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path)
    steps = right_answers(tmp_path)
    steps["aba"] = {"do": "count", "n": 1}
    command = fake(tmp_path, steps)
    junit = tmp_path / "junit.xml"
    run(
        pytester,
        root,
        snaps,
        "--candidate",
        command,
        "-n",
        "2",
        "--report-dir",
        str(tmp_path / "r"),
        "--junitxml",
        str(junit),
    )
    data = report(tmp_path / "r")
    assert len(data["cases"]) == len(ids)
    assert outcomes(data)[ids["aba"]] == "fail"
    assert data["header"]["selection"]["selected"] == len(ids)  # from the workers' collection
    assert all(c["peak_rss_kb"] > 0 for c in data["cases"])  # wait4 of each candidate
    xml = junit.read_text(encoding="utf-8")
    assert f'name="test_case[{ids["aba"]}]"' in xml and 'name="outcome" value="fail"' in xml


def test_env_fallback_for_the_candidate(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, snaps, _ = corpus(tmp_path, ["aba"])
    monkeypatch.setenv("CONFORMANCE_CANDIDATE", fake(tmp_path, {"aba": {"do": "count", "n": 7}}))
    result = run(pytester, root, snaps)
    result.assert_outcomes(failed=1)
    assert "counted 7, expected 3" in result.stdout.str()


def test_reference_as_a_subprocess_agrees_with_in_process(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    root, snaps, ids = corpus(tmp_path)
    result = run(
        pytester,
        root,
        snaps,
        "--candidate",
        f"{sys.executable} -m rebootspec.reference count {{path}}",
    )
    result.assert_outcomes(passed=len(ids))


def test_informative_members_reach_the_report_and_never_the_gate(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path, ["phantom", "aba"])
    lost = {"reboots_possible": 1, "phantoms": [{"request": 0, "reason": "lost-after-error"}]}
    command = fake(
        tmp_path,
        {
            "phantom": {"do": "count", "n": 0, "extra": lost},
            "aba": {"do": "count", "n": 3, "extra": {"reboots_possible": "many", "phantoms": 1}},
        },
    )
    result = run(pytester, root, snaps, "--candidate", command, "--report-dir", str(tmp_path / "r"))
    result.assert_outcomes(passed=len(ids))
    data = report(tmp_path / "r")
    assert data["verdict"] == "PASS"
    cases = {c["id"]: c for c in data["cases"]}
    assert cases[ids["phantom"]]["informative"] == lost
    assert cases[ids["aba"]]["informative"] == {}
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert f"| {ids['phantom']} | pass | 0 | 1 | lost-after-error (1) |" in md
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "lost-after-error (1)" in html


def test_the_runners_own_variables_cannot_be_passed(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, _ = corpus(tmp_path, ["aba"])
    result = run(pytester, root, snaps, "--pass-env", "PYTEST_CURRENT_TEST")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "never passed" in result.stderr.str()
