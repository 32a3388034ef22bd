"""What `count`, `whoami` and `hook` import on a small file: pinned, so a new import is reviewed.

A status line or a hook runs these on every render or turn, and for a small file start-up is
nearly all of their time (issue 45: at most twice bare Python's). `import orjson` alone costs
more than bare Python's whole start-up, `re`, `dataclasses`, `typing` and `enum` a few
milliseconds each. So each command runs here as the console script runs it
(`rebootspec.conformance.cli.main`), in a fresh interpreter without site-packages (`-S`: orjson
and msgspec cannot even be imported, so reaching for them fails loudly), and the modules it
added to `sys.modules` beyond what `site` imports are compared with the pinned set.

A change to a set below is a decision: say in the commit what the new module costs (`python
-X importtime`), or import it where only the path that needs it runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rebootspec.conformance
import rebootspec.reference
from rebootspec.reference.core.paths import SPEC_DIR

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

# Never on the small-file path of count, whoami or hook.
FORBIDDEN = {
    "orjson",
    "msgspec",
    "zstandard",
    "re",
    "json",
    "dataclasses",
    "inspect",
    "ast",
    "enum",
    "typing",
    "uuid",
    "pathlib",
    "functools",
    "collections",
    "importlib",
    "warnings",
    "signal",
    "datetime",
    "threading",
    "tomllib",
    "sqlite3",
}


def added_by(module: str) -> set[str]:
    """The modules `import module` adds beyond site's, in this Python (they differ a little
    between versions: the pins are our choices of module, not the standard library's insides)."""
    probe = f"import os, sys\nbefore = set(sys.modules)\nimport {module}\n"
    probe += "print(' '.join(sorted(set(sys.modules) - before)))"
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


# The standard library's modules each path adds (C modules where the name says so).
PLAIN = {"__future__", "_json"}  # annotations; smalljson's scanner
VSCODE = PLAIN | {"_md5"}  # CNT-3: a summary's md5

CODEX_ID = "019c1a2b-3c4d-7e5f-8a9b-0c1d2e3f4a5b"
PI_ID = "7eb0cddb-8209-448f-8553-6181b3013229"

DRIVER = """
import os, sys  # what site imports before any program runs
before = set(sys.modules)
from rebootspec.conformance.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
sys.stdout.flush()
added = sorted(set(sys.modules) - before)
sys.stderr.write("\\nMODULES " + " ".join(added) + "\\n")
sys.exit(code)
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`rebootspec` as a wheel lays it out (reference, conformance, spec), by symbolic links to
    this installation's folders, so that `-S` needs no site-packages to find it."""
    root = tmp_path_factory.mktemp("tree")
    package = root / "rebootspec"
    package.mkdir()
    for name, folder in (
        ("reference", Path(rebootspec.reference.__file__).parent),
        ("conformance", Path(rebootspec.conformance.__file__).parent),
        ("spec", Path(SPEC_DIR)),
    ):
        (package / name).symlink_to(folder, target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private home with one Codex rollout and one pi session in their stores."""
    home = tmp_path_factory.mktemp("home")
    codex = home / ".codex" / "sessions" / "2026" / "03" / "01"
    codex.mkdir(parents=True)
    shutil.copyfile(
        FIXTURES / "V8MB" / "session.jsonl",
        codex / f"rollout-2026-03-01T10-00-00-{CODEX_ID}.jsonl",
    )
    pi = home / ".pi" / "agent" / "sessions" / "--home-me-proj--"
    pi.mkdir(parents=True)
    shutil.copyfile(
        FIXTURES / "WVNH" / "session.jsonl", pi / f"2026-03-02T10-00-04-000Z_{PI_ID}.jsonl"
    )
    return home


def imported(
    tree: Path, home: Path, argv: list[str], env: dict[str, str] | None = None, stdin: str = ""
) -> tuple[set[str], str]:
    """The modules `rebootspec ARGV` adds beyond site's, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", DRIVER, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env={"HOME": str(home), "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(tree)}
        | (env or {}),
        timeout=60,
    )
    head, _, modules = done.stderr.rpartition("\nMODULES ")
    assert done.returncode == 0, f"{argv}: exit {done.returncode}: {done.stderr[-2000:]}"
    assert not head.strip(), f"{argv}: printed on stderr: {head[-2000:]}"
    return set(modules.split()), done.stdout


def outside(modules: set[str]) -> set[str]:
    return {name for name in modules if not name.startswith("rebootspec")}


def tiny_vscode(folder: Path) -> Path:
    path = folder / "tiny.jsonl"
    request = {
        "requestId": "r1",
        "message": {"text": "two"},
        "response": [],
        "result": {"metadata": {"summary": {"toolCallRoundId": "t1", "text": "A"}}},
    }
    entry = {"kind": 0, "v": {"version": 3, "requests": [request]}}
    path.write_text(json.dumps(entry) + "\n", "utf-8")
    return path


COUNT_CASES = {  # host: (corpus case, its input, the modules its count adds)
    "codex": ("V8MB", "session.jsonl", PLAIN),
    "pi": ("WVNH", "session.jsonl", PLAIN),  # a stamp is read only for a copy (PIA-5)
    "claude-code": ("446W", "session.jsonl", PLAIN),
    "gemini-cli": ("29EA", "session.jsonl", PLAIN),
    "qwen-code": ("2NNN", "session.jsonl", PLAIN),
    "copilot-cli": ("28PK", "session.jsonl", PLAIN),  # toISOString stamps: text (CPL-6)
    "cline": ("379J", "input/1795813459932", PLAIN),
    "basic-agent-chat-loop": ("2QKE", "input/harvest_20261125_034841.md", PLAIN),
}


@pytest.mark.parametrize("host", sorted(COUNT_CASES))
def test_count_of_a_small_file(tree: Path, home: Path, host: str) -> None:
    case, name, expected = COUNT_CASES[host]
    modules, out = imported(tree, home, ["count", str(FIXTURES / case / name)])
    assert json.loads(out)["host"] == host
    assert outside(modules) == expected


def test_count_of_a_small_vscode_log(tree: Path, home: Path, tmp_path: Path) -> None:
    modules, out = imported(tree, home, ["count", str(tiny_vscode(tmp_path))])
    assert json.loads(out)["reboots"] == 1  # the summary of request r1 (CNT-2)
    assert outside(modules) == VSCODE


def test_whoami_by_the_session_file(tree: Path, home: Path) -> None:
    """pi names its session file (PI_SESSION_FILE) and id: no store table is read."""
    session = next((home / ".pi").rglob("*.jsonl"))
    env = {"PI_SESSION_FILE": str(session), "PI_SESSION_ID": PI_ID}
    modules, out = imported(tree, home, ["whoami", "--field", "reboots"], env)
    assert out.strip() == "1"  # WVNH's plan: one reboot
    assert outside(modules) == PLAIN


def test_whoami_by_the_session_file_alone(tree: Path, home: Path) -> None:
    """PI_SESSION_FILE without PI_SESSION_ID: the id is in the file's name, read from pi's own
    rows only when the answer shows it (not for `--field reboots`)."""
    session = next((home / ".pi").rglob("*.jsonl"))
    env = {"PI_SESSION_FILE": str(session)}
    modules, out = imported(tree, home, ["whoami", "--field", "reboots"], env)
    assert out.strip() == "1"
    assert outside(modules) == PLAIN
    assert not {name for name in modules if name.endswith("stores")}
    modules, out = imported(tree, home, ["whoami"], env)
    assert json.loads(out)["id"] == PI_ID
    assert outside(modules) == PLAIN
    rows = {name for name in modules if name.endswith("stores")}
    assert rows == {"rebootspec.reference.hosts.pi.stores"}  # no other host's rows


def test_hook_with_its_transcript(tree: Path, home: Path) -> None:
    """A Codex or Claude Code hook names the transcript: counted without a lookup (WHO-4)."""
    rollout = next((home / ".codex").rglob("*.jsonl"))
    payload = json.dumps({"session_id": CODEX_ID, "transcript_path": str(rollout)})
    modules, out = imported(tree, home, ["hook", "--field", "reboots"], stdin=payload)
    assert out.strip() == "1"  # V8MB's plan: one reboot
    assert outside(modules) == PLAIN


def test_whoami_by_id(tree: Path, home: Path) -> None:
    """A lookup by id walks the asked host's stores and matches the names by the table's
    patterns in plain Python (core/namematch.py): no `re`, no other host's rows."""
    env = {"CODEX_THREAD_ID": CODEX_ID}
    modules, out = imported(tree, home, ["whoami", "--field", "reboots"], env)
    assert out.strip() == "1"
    assert outside(modules) == PLAIN
    rows = {name for name in modules if name.endswith(".stores") and ".hosts." in name}
    assert rows == {"rebootspec.reference.hosts.codex.stores"}  # only the asked host's rows


@pytest.mark.parametrize("expected", [PLAIN, VSCODE], ids=["plain", "vscode"])
def test_the_pinned_sets_hold_nothing_forbidden(expected: set[str]) -> None:
    assert not expected & FORBIDDEN


COLLECTIONS = """
import gc, sys
runs = []  # (generation, the young threshold then) of every collection
gc.callbacks.append(
    lambda phase, info: runs.append((info["generation"], gc.get_threshold()[0]))
    if phase == "start"
    else 0
)
from rebootspec.conformance.cli import main
sys.argv = ["rebootspec", *sys.argv[1:]]
del runs[:]  # the entry module's own imports are before the program starts
code = main()  # as the console script calls it: the program (endings.program)
sys.stdout.flush()
older = sum(1 for generation, _ in runs if generation > 0)
tuned = sum(1 for _, young in runs if young > 700)
sys.stderr.write(f"\\nCOLLECTIONS {older} {tuned} FROZEN {gc.get_freeze_count()}\\n")
sys.exit(code)
"""


def test_the_program_runs_without_a_garbage_collection(tree: Path, home: Path) -> None:
    """The console script's `whoami` on a small file: no collection of the older generations
    (2 ms each), none at all once the program has started (endings.program), and every object
    frozen at its end so the interpreter's last collection skips them: the collector was a
    tenth of a small `whoami`'s time."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", COLLECTIONS, "whoami", "--field", "reboots"],
        capture_output=True,
        text=True,
        check=False,
        env={"HOME": str(home), "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(tree)}
        | {"CODEX_THREAD_ID": CODEX_ID},
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (0, "1\n"), done.stderr[-2000:]
    older, tuned, _, frozen = done.stderr.rpartition("\nCOLLECTIONS ")[2].split()
    assert (int(older), int(tuned)) == (0, 0), done.stderr[-500:]
    assert int(frozen) > 1000  # the modules, functions and classes of the run
