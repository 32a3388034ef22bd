"""The candidate author's loop (issue #35): from a red run to the failing input in one step.

A deliberately wrong counter (it says 1 for every log) is run as a user runs it, in a
subprocess; what each case expects is read from its case.toml (the plan's or a person's
record), never from the reference. The run must end, within one 80x24 screen, with the failing
cases, the totals per host and a reproduce command that works when pasted.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.reports.summary import rows, summary_lines
from rebootspec.generators.corpus import casefile

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "fixtures"
SPEC = REPO_ROOT / "spec"


def env(**extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CONFORMANCE_")}
    return {**clean, "COLUMNS": "80", "LINES": "24", **extra}


def rebootspec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env(),
        timeout=300,
        check=False,
    )


def says_one(folder: Path) -> Path:
    """A counter that answers one reboot for every log (right only where one is expected)."""
    path = folder / "mycounter"
    path.write_text(f"#!{sys.executable}\nprint('{{\"reboots\": 1}}')\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def pi_cases() -> dict[str, dict[str, object]]:
    """The pi cases of the corpus, by name: their case.toml tables."""
    tables = (casefile.read_meta(f) for f in FIXTURES.iterdir() if (f / "case.toml").is_file())
    return {t["name"]: t for t in tables if t.get("host") == "pi"}


def wrong_for_one(table: dict[str, object]) -> bool:
    expect = table["expect"]
    assert isinstance(expect, dict)
    return not (expect["outcome"] == "count" and expect["reboots"] == 1)


@pytest.fixture(scope="module")
def red_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("author")
    says_one(folder)
    done = rebootspec(
        "run", "--candidate", "./mycounter {path}", "-k", "pi/", "--report-dir", "rep",
        "-p", "no:cacheprovider", "-p", "no:xdist", cwd=folder,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr
    return folder, done.stdout


def test_a_red_run_ends_with_the_summary_on_one_screen(red_run: tuple[Path, str]) -> None:
    _, stdout = red_run
    lines = stdout.rstrip("\n").splitlines()
    start = max(i for i, line in enumerate(lines) if " conformance " in line)
    summary = lines[start:]
    assert sum(rows(line, 80) for line in summary) <= 22, "\n".join(summary)
    assert "FAILED" not in stdout and "test_case[" not in stdout  # pytest's long list is gone
    wrong = {name for name, table in pi_cases().items() if wrong_for_one(table)}
    listed = [line for line in summary if line.startswith("  pi/")]
    assert listed and all(line.split()[0] in wrong for line in listed)
    head = next(line for line in summary if line.startswith("not passing: "))
    assert head.startswith(f"not passing: {len(wrong)} (")
    assert summary[-5].startswith("per host:") or summary[-6].startswith("per host:")
    pi_line = next(ln for ln in summary if ln.startswith("  pi "))
    assert re.match(rf"  pi +{len(pi_cases())} cases: ", pi_line)


def test_each_failing_line_names_host_expected_got_and_input(red_run: tuple[Path, str]) -> None:
    _, stdout = red_run
    tables = pi_cases()
    line = next(ln for ln in stdout.splitlines() if ln.startswith("  pi/") and "expected" in ln)
    name, host, *_ = line.split()
    table = tables[name]
    expect = table["expect"]
    assert isinstance(expect, dict)
    want = expect["reboots"] if expect["outcome"] == "count" else "reject"
    assert host == "pi" and f"expected {want}, got 1" in line
    assert line.endswith(f"  {table['id']}/session.jsonl")


def test_the_reproduce_commands_work_when_pasted(red_run: tuple[Path, str]) -> None:
    folder, stdout = red_run
    lines = stdout.rstrip("\n").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("reproduce the first failure"))
    again, bare = lines[at + 1].strip(), lines[at + 2].strip()
    words = shlex.split(again)
    assert words[:2] == ["rebootspec", "run"] and words[-2] == "-k"
    name = words[-1]
    pasted = rebootspec(*words[1:], "-p", "no:cacheprovider", "-p", "no:xdist", cwd=folder)
    assert pasted.returncode == 1
    assert "FAIL: 1 case: 1 " in pasted.stdout and f"  {name}  pi  expected" in pasted.stdout
    alone = subprocess.run(shlex.split(bare), capture_output=True, text=True, check=False)
    assert json.loads(alone.stdout) == {"reboots": 1}
    assert str(FIXTURES / pi_cases()[name]["id"]) in bare  # type: ignore[operator]


def test_report_json_and_html_name_every_case_and_link_its_input(red_run: tuple[Path, str]) -> None:
    folder, _ = red_run
    data = json.loads((folder / "rep" / "report.json").read_text("utf-8"))
    tables = pi_cases()
    for case in data["cases"]:
        assert tables[case["name"]]["id"] == case["id"]
        assert Path(case["input"]) == FIXTURES / case["id"] / "session.jsonl"
    html = (folder / "rep" / "report.html").read_text("utf-8")
    assert "Hosts &times; outcome" in html
    failing = [c for c in data["cases"] if c["gate"] == "fail"]
    for case in failing:
        assert f'href="{(FIXTURES / case["id"] / "session.jsonl").as_uri()}"' in html
        assert f'href="{(FIXTURES / case["id"] / "case.toml").as_uri()}"' in html


def test_the_summary_of_many_failures_fits_80_by_24() -> None:
    """Hand-made report: 300 failures over seven hosts, long names."""
    hosts = ["vscode", "codex", "pi", "claude-code", "gemini-cli", "opencode", "chat-loop"]
    cases = [
        {
            "id": f"C{i:03d}", "name": f"{hosts[i % 7]}/some-topic/a-rather-long-name-{i}",
            "host": hosts[i % 7], "gate": "fail", "outcome": "fail", "input": f"/c/C{i:03d}/s",
            "expected": {"outcome": "count", "reboots": 2},
            "actual": {"outcome": "count", "reboots": 1}, "detail": "counted 1, expected 2",
        }
        for i in range(300)
    ]  # fmt: skip
    report = {
        "verdict": "FAIL",
        "header": {"corpus": "/c"},
        "totals": {
            "cases": 300,
            "outcomes": {"fail": 300},
            "hosts": {h: {"fail": sum(1 for c in cases if c["host"] == h)} for h in hosts},
        },
        "cases": cases,
    }
    lines = summary_lines(
        report, rerun=["rebootspec", "run", "--candidate", "./x {path}"], bare="./x /c/C000/s",
        written=[Path("rep/report.json"), Path("rep/report.md")],
    )  # fmt: skip
    assert sum(rows(line, 80) for line in lines) <= 22
    assert lines[-4:] == [
        "reproduce the first failure (vscode/some-topic/a-rather-long-name-0, C000):",
        "  rebootspec run --candidate './x {path}' -k vscode/some-topic/a-rather-long-name-0",
        "  ./x /c/C000/s",
        "  (counted 1, expected 2)",
    ]
    assert "  chat-loop    42 cases: 42 fail" in lines  # 300 = 7 x 42 + 6: the 7th host has 42
    assert any(line.startswith("not passing: 300 (the first ") for line in lines)


# -- names --------------------------------------------------------------------------------


def test_every_case_has_a_unique_path_like_name_and_k_name_selects_exactly_it(
    tmp_path: Path,
) -> None:
    names: dict[str, str] = {}
    for folder in sorted(FIXTURES.iterdir()):
        if (folder / "case.toml").is_file():
            meta = casefile.read_meta(folder)
            assert casefile.NAME_PATTERN.match(meta["name"]), folder
            assert names.setdefault(meta["name"], folder.name) == folder.name, meta["name"]
    # `vscode/phantom/compacted` is a prefix of `vscode/phantom/compacted-summaries`
    prefix = next(n for n in names if any(o != n and o.startswith(n) for o in names))
    done = rebootspec("run", "-k", prefix, "-p", "no:cacheprovider", "-p", "no:xdist", cwd=tmp_path)
    assert done.returncode == 0 and "PASS: 1 case: 1 pass" in done.stdout, done.stdout[-2000:]


# -- usage is checked before any case runs ---------------------------------------------------

SLIPS = {
    "a -k that selects nothing": (["run", "-k", "no-such-case-name"], "selects none of the"),
    "an empty candidate": (["run", "--candidate", ""], "--candidate is empty"),
    "an empty candidate (smoke)": (["smoke", "--candidate", ""], "--candidate is empty"),
    "a malformed placeholder": (["run", "--candidate", "./m {path"], "malformed placeholder"),
    "a report folder that is a file": (["run", "--report-dir", "afile"], "is not a folder"),
    "an extra word": (["run", "extra-word"], "not found: extra-word"),
    "cases with an unknown host": (["cases", "--host", "nope"], "unknown host 'nope'"),
}


@pytest.mark.parametrize("slip", SLIPS)
def test_a_usage_slip_is_one_line_and_exit_2_before_any_case(slip: str, tmp_path: Path) -> None:
    args, words = SLIPS[slip]
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    quiet = ["-p", "no:cacheprovider", "-p", "no:xdist"] if args[0] == "run" else []
    done = rebootspec(*args, *quiet, cwd=tmp_path)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("usage error: ") and words in lines[0]
    assert " conformance " not in done.stdout and "passed" not in done.stdout


# -- cases and export ----------------------------------------------------------------------


def test_cases_lists_and_filters_by_host_tag_rule_and_word(tmp_path: Path) -> None:
    done = rebootspec("cases", "--host", "pi", "--tag", "hostile", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    wanted = {
        t["id"]
        for t in pi_cases().values()
        if "hostile" in t["tags"]  # type: ignore[operator]
    }
    assert {line.split()[0] for line in done.stdout.splitlines()} == wanted
    first = done.stdout.splitlines()[0].split()
    assert first[1].startswith("pi/") and first[2] == "pi"


def test_an_export_runs_under_the_readme_script_without_python(tmp_path: Path) -> None:
    """The candidates' page's JavaScript harness, run by node on an export: the reference
    passes."""
    jsonschema = pytest.importorskip("jsonschema")
    script = readme_script()
    assert len(script.splitlines()) <= 30
    out = tmp_path / "corpus"
    done = rebootspec("cases", "export", str(out), "--host", "pi", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    jsonschema.validate(manifest, json.loads((SPEC / "manifest.schema.json").read_text("utf-8")))
    assert {c["name"] for c in manifest["cases"]} == set(pi_cases())
    for case in manifest["cases"]:
        source = FIXTURES / case["id"] / "session.jsonl"
        assert (out / case["input"]).read_bytes() == source.read_bytes()
    node = shutil_which("node")
    if node is None:
        pytest.skip("node is not installed")
    (tmp_path / "run-corpus.mjs").write_text(script, encoding="utf-8")
    counter = f"{sys.executable} -m rebootspec.reference count {{path}} --session={{session}}"
    ran = subprocess.run(
        [node, str(tmp_path / "run-corpus.mjs"), str(out), counter],
        capture_output=True, text=True, timeout=600, check=False, env=env(),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-2000:]
    every = len(manifest["cases"])
    assert ran.stdout.strip().endswith(f"{every} of {every} cases pass")
    wrong = says_one(tmp_path)
    red = subprocess.run(
        [node, str(tmp_path / "run-corpus.mjs"), str(out), f"{wrong} {{path}}"],
        capture_output=True, text=True, timeout=600, check=False, env=env(),
    )  # fmt: skip
    fails = sum(1 for t in pi_cases().values() if wrong_for_one(t))
    assert red.returncode == 1 and f"{len(manifest['cases']) - fails} of " in red.stdout


def shutil_which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def readme_script() -> str:
    """The script between docs/candidates.md's `run-corpus.mjs` markers."""
    text = (REPO_ROOT / "docs" / "candidates.md").read_text("utf-8")
    found = re.search(r"```js\n(// node run-corpus\.mjs.*?)```", text, re.S)
    assert found, "docs/candidates.md shows no run-corpus.mjs"
    return found.group(1)


def test_one_wording_for_a_missing_file(tmp_path: Path) -> None:
    """Every command says "no such file" (the generators keep their own copy of the words)."""
    import errno

    from rebootspec.generators.usage import os_reason as generators_reason
    from rebootspec.reference.core.errors import os_reason

    missing = OSError(errno.ENOENT, "No such file or directory")
    assert os_reason(missing) == generators_reason(missing) == "no such file"
    denied = OSError(errno.EACCES, "Permission denied")
    assert os_reason(denied) == generators_reason(denied) == "Permission denied"
    gone = str(tmp_path / "gone.jsonl")
    for args in (["count", gone], ["compare", gone, gone], ["sessions", "--path", gone]):
        done = rebootspec(*args, cwd=tmp_path)
        assert done.returncode == 2 and "no such file" in done.stderr, (args, done.stderr)
        assert "No such file or directory" not in done.stderr
