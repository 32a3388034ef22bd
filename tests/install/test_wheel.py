"""The wheel, installed the way a new user installs it, works with no checkout anywhere near.

One fresh venv outside the checkout, one wheel built from a clean copy of the checkout (so a
stale `build/` or `*.egg-info` in the working tree cannot smuggle files into it, and the build
writes nothing into the checkout), installed with its dependencies from the package index.
Every command then runs in an empty folder with PYTHONPATH and the CONFORMANCE_* variables
unset, so only the installed copy can answer. Needs the network and about a minute of one core:
marked `install` (`tox -e install` runs them alone); the default `py3` runs them first, beside the
short tests on the other core (tests/conftest.py), one venv per worker that runs them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
GENERIC_NAMES = ("reference", "generators", "conformance", "benchmarks", "spec", "fixtures")
# Working-tree clutter that a clean checkout does not have (anywhere in the tree).
CLUTTER = frozenset(
    {".git", ".tox", ".venv", "venv", "build", "dist", "mutants", "__pycache__"}
    | {".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", ".benchmarks"}
)
# Ignored only at the top (conformance/reports/ is a package, /reports/ is run output).
TOP_CLUTTER = frozenset({"reports", "big"})
LIST_CASES = (
    "from importlib.resources import files\n"
    "for entry in files('rebootspec.fixtures').iterdir():\n"
    "    if entry.joinpath('case.toml').is_file():\n"
    "        print(entry.name)\n"
)


@dataclass(frozen=True)
class Installed:
    """The wheel and the venv it is installed in, and how to run a command there."""

    wheel: Path
    venv: Path
    env: dict[str, str]
    cases: tuple[str, ...]

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    def tool(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    @property
    def reference(self) -> str:
        """The bundled reference as a subprocess candidate, the way a candidate's CI names one."""
        return f"{shlex.quote(self.python)} -m rebootspec.reference count"

    def run(self, *args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        assert not cwd.resolve().is_relative_to(ROOT), f"{cwd} is inside the checkout"
        return subprocess.run(
            list(args), cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout
        )


def clean_env(venv: Path) -> dict[str, str]:
    """The user's environment without anything that could point Python or pytest at the checkout."""
    dropped = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in dropped and not key.startswith(("CONFORMANCE_", "PYTEST_", "TOX_"))
    }
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    return env


def ignore_clutter(folder: str, names: list[str]) -> set[str]:
    top = Path(folder).resolve() == ROOT
    return {
        name
        for name in names
        if name in CLUTTER or name.endswith((".egg-info", ".pyc")) or (top and name in TOP_CLUTTER)
    }


def must(result: subprocess.CompletedProcess[str], what: str) -> str:
    """The output of a set-up step, or a failure that shows pip's own words."""
    if result.returncode != 0:
        pytest.fail(f"{what} failed (exit {result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel-install")
    assert not base.resolve().is_relative_to(ROOT), "the temporary folder is inside the checkout"
    source, dist, venv, empty = base / "source", base / "dist", base / "venv", base / "empty"
    shutil.copytree(ROOT, source, ignore=ignore_clutter, symlinks=True)
    empty.mkdir()
    env = clean_env(venv)
    setup = Installed(wheel=dist, venv=venv, env=env, cases=())
    # The venv gets no pip of its own: the test env's pip installs into it (`--python`), which
    # spares ensurepip's copy of pip (seconds of one core) and installs what any pip would.
    must(setup.run(sys.executable, "-m", "venv", "--without-pip", str(venv), cwd=empty), "venv")
    pip = (sys.executable, "-m", "pip", "--python", setup.python)
    must(setup.run(*pip, "wheel", "--no-deps", "-w", str(dist), str(source), cwd=empty), "build")
    wheels = sorted(dist.glob("rebootspec-*.whl"))
    assert len(wheels) == 1, f"expected one wheel in {dist}, found {wheels}"
    must(setup.run(*pip, "install", str(wheels[0]), cwd=empty), "pip install the wheel")
    cases = must(setup.run(setup.python, "-c", LIST_CASES, cwd=empty), "listing the corpus")
    return Installed(wheel=wheels[0], venv=venv, env=env, cases=tuple(sorted(cases.split())))


def test_run_passes_every_installed_case(installed: Installed, tmp_path: Path) -> None:
    """The whole installed corpus against the installed reference, in process (`run`'s
    default): every case, every snapshot, from the wheel alone."""
    result = installed.run(installed.tool("rebootspec"), "run", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert len(installed.cases) > 100, f"the installed corpus has {len(installed.cases)} cases"
    assert f"{len(installed.cases)} passed" in output, output[-2000:]
    assert str(ROOT) not in output, "the installed run read something from the checkout"


def test_smoke_passes_the_installed_reference_as_a_subprocess(
    installed: Installed, tmp_path: Path
) -> None:
    """The reference as a candidate command (`python -m rebootspec.reference count`), spawned
    per case the way a candidate's CI spawns its own counter, on smoke's case of every host."""
    rebootspec = installed.tool("rebootspec")
    result = installed.run(rebootspec, "smoke", "--candidate", installed.reference, cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Traceback" not in output and "NOT OK" not in output, output


def test_smoke_against_a_failing_candidate_names_the_cases(
    installed: Installed, tmp_path: Path
) -> None:
    rebootspec = installed.tool("rebootspec")
    result = installed.run(rebootspec, "smoke", "--candidate", "false", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output, output
    named = [case for case in installed.cases if re.search(rf"\b{case}\b", output)]
    assert named, f"no failing case is named:\n{output}"
    assert "NOT OK" in output, output


def test_no_generic_top_level_names(installed: Installed, tmp_path: Path) -> None:
    for name in GENERIC_NAMES:
        result = installed.run(installed.python, "-c", f"import {name}", cwd=tmp_path)
        assert result.returncode == 1, f"import {name} worked in the venv"
        assert f"ModuleNotFoundError: No module named '{name}'" in result.stderr, result.stderr
    with zipfile.ZipFile(installed.wheel) as wheel:
        tops = {entry.split("/")[0] for entry in wheel.namelist()}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"rebootspec"}, tops


def test_pytest_candidate_needs_no_plugin_flags(installed: Installed, tmp_path: Path) -> None:
    """Plain `pytest --candidate` finds the installed plugin, spawns the candidate per case and
    gates on the installed snapshots. One host's cases keep it to seconds (a spawn per case):
    the whole corpus is `test_run_passes_every_installed_case`'s."""
    result = installed.run(
        installed.tool("pytest"), "--candidate", installed.reference, "-q", "-k", "pi", cwd=tmp_path
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    passed = re.search(r"\b(\d+) passed\b", output)
    assert passed and int(passed[1]) >= 20, output[-2000:]
    assert "failed" not in output and "error" not in output.lower(), output[-2000:]


def test_plain_pytest_is_unaffected_by_the_plugin(installed: Installed, tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_x() -> None:\n    assert 1 + 1 == 2\n")
    result = installed.run(installed.tool("pytest"), "-q", cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "1 passed" in output, output
    assert "conformance" not in output.lower(), output


def checkout_files(folder: Path) -> list[str]:
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def test_wheel_carries_spec_corpus_and_snapshots(installed: Installed) -> None:
    spec = ROOT / "spec"
    expected = [f"spec/{name}" for name in ("SPEC.md", "PROTOCOL.md", "eras.toml")]
    expected += [f"spec/{path.name}" for path in sorted(spec.glob("*.json"))]
    fixtures = ROOT / "fixtures"
    fixture_folders = [p for p in fixtures.iterdir() if p.is_dir() and p.name != "__pycache__"]
    for folder in fixture_folders:
        expected += checkout_files(folder)
    snapshots = checkout_files(ROOT / "conformance" / "suite" / "__snapshots__")
    expected += snapshots
    assert len(fixture_folders) >= len(installed.cases) > 0
    assert snapshots, "the checkout has no snapshots"
    assert any(name.endswith(".json") for name in expected if name.startswith("spec/"))
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    missing = [name for name in expected if f"rebootspec/{name}" not in names]
    assert not missing, f"{len(missing)} files missing from the wheel, e.g. {missing[:20]}"


def test_version_names_the_spec_and_the_corpus(installed: Installed, tmp_path: Path) -> None:
    with (ROOT / "spec" / "eras.toml").open("rb") as handle:
        spec_version = str(tomllib.load(handle)["spec_version"])
    result = installed.run(installed.tool("rebootspec"), "version", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(line.split() == ["spec", spec_version] for line in lines), result.stdout
    corpus = [line for line in lines if line.startswith("corpus")]
    assert corpus, result.stdout
    assert str(len(installed.cases)) in corpus[0], result.stdout
    assert re.search(r"\b[0-9a-f]{64}\b", corpus[0]), f"no sha256 digest: {corpus[0]}"
    # The same corpus has the same digest installed and in the checkout, so reports made with
    # `pipx run rebootspec` and with `tox -e conformance` can be compared (`compare`).
    digest = (
        "from pathlib import Path; import sys; "
        "from rebootspec.conformance.runner.integrity import combined, digest_tree; "
        "print(combined(digest_tree(Path(sys.argv[1]))))"
    )
    checkout = installed.run(installed.python, "-c", digest, str(ROOT / "fixtures"), cwd=tmp_path)
    assert checkout.returncode == 0, checkout.stderr
    assert corpus[0].endswith(f"digest {checkout.stdout.strip()}"), (corpus[0], checkout.stdout)


def subcommands() -> list[str]:
    """The CLI's own table (conformance/cli.py COMMANDS), read from the checkout's source, so a
    subcommand added there is installed and started here the day it is added."""
    source = (ROOT / "conformance" / "cli.py").read_text("utf-8")
    table = source[source.index("COMMANDS: dict[str, Command] = {") :]
    table = table[: table.index("\n}\n")]
    return re.findall(r'^    "([a-z-]+)": Command\(', table, re.M)


def test_every_subcommand_starts_from_the_wheel(installed: Installed, tmp_path: Path) -> None:
    """`rebootspec SUBCOMMAND --help` of every subcommand, from an empty folder: a module left
    out of the wheel (issue 43: `peers`) is a ModuleNotFoundError here, not in a user's hands."""
    names = subcommands()
    assert len(names) >= 16 and "peers" in names, names
    failed: list[str] = []
    for name in names:
        result = installed.run(installed.tool("rebootspec"), name, "--help", cwd=tmp_path)
        if result.returncode != 0 or "Traceback" in result.stderr or "usage" not in result.stdout:
            failed.append(f"{name}: exit {result.returncode}: {result.stderr[-600:]}")
    assert not failed, "\n".join(failed)
    assert not any(tmp_path.iterdir()), "a --help wrote into the folder it ran in"
