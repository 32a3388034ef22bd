"""A tiny hostile candidate per behaviour (hostile_candidate.py): the runner's verdict on each.

Crashes never pass as rejections; the answers are out of reach of a relative path or a
variable; a candidate that edits the corpus fails the run (always on a copy in tmp, never on
fixtures/); strays that left the session are reaped; links are never followed in cleanup;
memory can be capped; the environment is an allowlist.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cf_kit as kit
import psutil
import pytest
from cf_runner import corpus, outcomes, report, run

from rebootspec.conformance.runner.answers import JsonPointerReader
from rebootspec.conformance.runner.candidates import CommandCandidate, Isolation
from rebootspec.conformance.runner.outcome import classify

pytest_plugins = ["pytester"]

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout

HOSTILE = Path(__file__).with_name("hostile_candidate.py")


def hostile(mode: str, *args: str | Path) -> str:
    return " ".join([sys.executable, str(HOSTILE), mode, *map(str, args)])


def passes(data: dict[str, object]) -> int:
    return sum(1 for outcome in outcomes(data).values() if outcome == "pass")  # type: ignore[arg-type]


@pytest.mark.slow
def test_a_crashing_candidate_passes_no_rejection_and_a_diagnosing_one_passes_all() -> None:
    """On every rejection case of the real corpus (read only), judged as the plugin judges: a
    traceback is a crash every time; the reference as a subprocess (a right diagnostic, exit 1)
    passes each one, with the expected code."""
    from rebootspec.conformance import DEFAULT_CORPUS
    from rebootspec.conformance.runner.corpus import load_corpus
    from rebootspec.conformance.runner.profiles import load_profile
    from rebootspec.conformance.runner.records import check_case

    cases = [c for c in load_corpus(DEFAULT_CORPUS) if c.expect["outcome"] == "reject"]
    assert len(cases) > 10
    profile = load_profile(None, [])
    crashing = CommandCandidate.parse(hostile("traceback"))
    right = CommandCandidate.parse(f"{sys.executable} -m rebootspec.reference count")
    for case in cases:
        common = {"expected": {"outcome": "reject"}, "profile": profile, "divergence": None}
        crash = check_case(case, candidate=crashing, reader=JsonPointerReader(), timeout=20,
                           **common)  # type: ignore[arg-type]  # fmt: skip
        assert crash.outcome == "crash" and "ModuleNotFoundError" in crash.detail, case.id
        good = check_case(case, candidate=right, reader=JsonPointerReader(), timeout=20,
                          **common)  # type: ignore[arg-type]  # fmt: skip
        assert good.outcome == "pass" and good.diagnostic["code_matches"], (case.id, good.detail)


def test_cheats_pass_no_more_than_an_always_wrong_candidate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst case for the runner: its own environment names the case and its working
    directory holds the corpus and the snapshots. Not isolated, the cheat reads its answer
    from there; through the runner it scores what an always-wrong candidate scores."""
    from rebootspec.conformance.runner.corpus import load_corpus
    from rebootspec.conformance.runner.profiles import load_profile
    from rebootspec.conformance.runner.records import check_case
    from rebootspec.conformance.runner.snapshots import SnapshotFolder, read_expectation

    root, snaps, ids = corpus(tmp_path)
    monkeypatch.chdir(tmp_path)  # fixtures/ and snaps/ are reachable by a relative path here
    env = dict(os.environ, PYTEST_CURRENT_TEST=f"x.py::test_case[{ids['aba']}] (call)")
    done = subprocess.run(
        [sys.executable, str(HOSTILE), "cheat", "anywhere.jsonl"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert json.loads(done.stdout) == {"reboots": 3}
    by_path = subprocess.run(
        [sys.executable, str(HOSTILE), "cheat", str(root / ids["push"] / "session.jsonl")],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert json.loads(by_path.stdout) == {"reboots": 2}
    monkeypatch.setattr(SnapshotFolder, "root", snaps)
    profile = load_profile(None, [])
    scores = {}
    for mode in ("wrong", "cheat"):
        candidate = CommandCandidate.parse(hostile(mode))
        passed = 0
        for case in load_corpus(root):
            monkeypatch.setenv("PYTEST_CURRENT_TEST", f"x.py::test_case[{case.id}] (call)")
            monkeypatch.setenv("CONFORMANCE_CASE", case.id)
            record = check_case(
                case, candidate=candidate, reader=JsonPointerReader(), profile=profile,
                expected=read_expectation(case.id), divergence=None, timeout=20,
            )  # fmt: skip
            passed += record.outcome == "pass"
        scores[mode] = passed
    assert scores["cheat"] <= scores["wrong"] == 0


def test_a_candidate_that_edits_the_corpus_fails_the_run_naming_the_files(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root, snaps, ids = corpus(tmp_path)  # a copy in tmp: never the real fixtures/
    deleted = root / ids["snapshot"] / "session.jsonl"  # SNAP runs last: its input is gone
    edited = root / ids["push"] / "case.toml"
    result = run(
        pytester, root, snaps, "--candidate", hostile("vandal", deleted, edited),
        "--report-dir", str(tmp_path / "r"),
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = result.stdout.str()
    assert "the corpus changed during the run" in text
    assert f"{ids['snapshot']}/session.jsonl (deleted)" in text
    assert f"{ids['push']}/case.toml (changed)" in text
    data = report(tmp_path / "r")
    assert data["verdict"] == "FAIL" and len(data["corpus_changes"]) == 2
    assert outcomes(data)[ids["snapshot"]] == "corpus-error"  # reported, not dropped
    assert len(data["cases"]) == len(ids)


def test_a_grandchild_that_left_the_session_is_reaped(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    candidate = CommandCandidate.parse(hostile("setsid", pidfile))
    source = tmp_path / "session.jsonl"
    source.write_bytes(kit.initial(kit.request()))
    result = candidate.run(source, 20)
    assert result.exit_code == 0
    pid = int(pidfile.read_text())
    assert not psutil.pid_exists(pid), f"the grandchild {pid} survived the case"


def test_cleanup_never_follows_a_link_out_of_the_private_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "precious.txt"
    outside.parent.mkdir()
    outside.write_text("keep")
    outside.chmod(0o400)
    outside.parent.chmod(0o500)
    try:
        source = tmp_path / "session.jsonl"
        source.write_bytes(kit.initial(kit.request()))
        result = CommandCandidate.parse(hostile("symlink", outside)).run(source, 20)
        assert result.exit_code == 0
        assert outside.stat().st_mode & 0o777 == 0o400
        assert outside.parent.stat().st_mode & 0o777 == 0o500
        assert outside.read_text() == "keep"
    finally:
        outside.parent.chmod(0o700)


def test_a_memory_cap_turns_a_hog_into_a_crash_and_peak_memory_is_measured(
    tmp_path: Path,
) -> None:
    source = tmp_path / "session.jsonl"
    source.write_bytes(kit.initial(kit.request()))
    expected = {"outcome": "count", "reboots": 0}
    free = CommandCandidate.parse(hostile("hog", 64)).run(source, 20)
    assert classify(expected, free, JsonPointerReader()).outcome == "pass"
    assert free.peak_rss_kb is not None and free.peak_rss_kb > 64 * 1024
    capped = CommandCandidate(
        CommandCandidate.parse(hostile("hog", 400)).argv, Isolation(memory_mb=200)
    ).run(source, 20)
    assert classify(expected, capped, JsonPointerReader()).outcome == "crash"
    assert "MemoryError" in capped.stderr


def test_the_environment_is_an_allowlist_and_the_cwd_holds_only_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "x.py::test_case[ABA3] (call)")
    monkeypatch.setenv("CONFORMANCE_CORPUS", str(tmp_path))
    monkeypatch.setenv("MY_TOKEN", "secret")
    monkeypatch.setenv("MY_LICENSE", "ok")
    source = tmp_path / "ABA3" / "whatever.jsonl"
    source.parent.mkdir()
    source.write_bytes(kit.initial(kit.request()))
    base = CommandCandidate.parse(hostile("env"))
    seen = json.loads(
        CommandCandidate(base.argv, Isolation(("MY_LICENSE",))).run(source, 20).stdout
    )
    assert "PYTEST_CURRENT_TEST" not in seen["env"] and "MY_TOKEN" not in seen["env"]
    assert not any(name.startswith("CONFORMANCE_") for name in seen["env"])
    assert seen["env"]["MY_LICENSE"] == "ok" and "PATH" in seen["env"]
    assert seen["files"] == ["session.jsonl"] and "ABA3" not in seen["cwd"]
    assert str(REPO_ROOT) not in seen["cwd"]


def test_an_unstartable_candidate_stops_the_run_with_exit_2(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    from rebootspec.conformance.runner.candidates import startable

    root, snaps, _ = corpus(tmp_path, ["aba"])
    missing = run(pytester, root, snaps, "--candidate", "no-such-counter-here count")
    assert missing.ret == 2
    said = missing.stdout.str() + missing.stderr.str()
    assert "'no-such-counter-here' is not found on PATH" in said and "test_case" not in said
    text = tmp_path / "not-executable"
    text.write_text("#!/bin/sh\n")
    assert "not executable" in str(startable(CommandCandidate.parse(f"{text} count")))
    assert startable(CommandCandidate.parse(f"{sys.executable} -m rebootspec.reference")) is None


NASTY = (
    "```\n</pre><script>alert(1)</script> | cell | `tick`\n"
    "\x1b[31mred\x1b[0m \x00nul [link](http://x) <b>bold</b>\n~~~\n````"
)


def test_candidate_output_cannot_break_the_markdown_or_html_report() -> None:
    from rebootspec.conformance.reports.report import build, header, render
    from rebootspec.conformance.runner.records import Record

    record = Record(
        id="AAAA", title="t", rules=["CNT-2"], tags=["phantom"], era="compacted",
        container="jsonl", expected={"outcome": "count", "reboots": 1},
        actual={"outcome": "bad-output", "reason": "x | y\n<script>`"}, outcome="bad-output",
        gate="fail", detail="stdout | is\nnot <i>json</i> \x1b[1m", stderr=NASTY,
        informative={"reboots_possible": 1, "phantoms": [{"reason": "a|b\n<c>"}]},
    )  # fmt: skip
    head = header(
        candidate=["tool", "--x=`|`"], profile="spec-v2", reader="JSON pointer /r",
        corpus=Path("fixtures"), timeout=1.0,
    )  # fmt: skip
    data = build(head, [record])
    html = render(data, "report.html.j2")
    assert "<script>" not in html and "<b>bold" not in html and "\x1b" not in html
    assert html.count("<pre>") == html.count("</pre>") == 1
    assert "&lt;/pre&gt;&lt;script&gt;" in html
    md = render(data, "report.md.j2")
    assert "\x1b" not in md and "\x00" not in md
    lines = md.splitlines()
    opener = next(i for i, line in enumerate(lines) if line.endswith("text") and "`" in line)
    fence = lines[opener].removesuffix("text")
    closer = next(i for i in range(opener + 1, len(lines)) if lines[i] == fence)
    assert closer - opener - 1 == len(NASTY.splitlines())  # the block holds all of it
    assert not any(line.startswith(fence) for line in lines[opener + 1 : closer])
    detail = next(line for line in lines if line.startswith("- stdout"))
    assert "\\|" in detail and "\\<i\\>" in detail
    row = next(line for line in lines if line.startswith("| AAAA |"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 6  # five cells: the pipes inside are escaped
    candidate_row = next(line for line in lines if line.startswith("| candidate |"))
    assert len(re.findall(r"(?<!\\)\|", candidate_row)) == 3
