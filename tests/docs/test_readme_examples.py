"""Every shell example of README.md runs, as a reader would type it, and does what it says.

The examples name a user's counter (`./mytool count`), a session file and release paths; the
test supplies each of those (a `mytool` in the reader's folder that is the reference, not on
PATH, so a relative candidate must be found where the reader typed it; a real session from the
corpus, release folders) and a five-case corpus through `CONFORMANCE_CORPUS`, the variable every
subcommand reads, so the whole README runs in seconds. Lines that install things or run tox
are run by CI itself (`.ci/run`) or by `tox -e install`; they are listed in SKIPPED with the
reason, and the test fails if the README gains a line that is neither run nor listed.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SESSION = ROOT / "fixtures" / "3TJU" / "session.jsonl"  # two reboots
SMALL_CORPUS = ("2BL5", "DFZD", "233D", "23NP", "272F")
# The README's opencode example: a generated opencode database (two reboots) and its session.
OPENCODE = ROOT / "fixtures" / "92HM"
OPENCODE_SESSION = tomllib.loads((OPENCODE / "case.toml").read_text("utf-8"))["session"]
# The Kilo example: a generated kilo.db (Kilo 7.7.9's writer model, two reboots).
KILO = ROOT / "fixtures" / "GXMQ"
KILO_SESSION = tomllib.loads((KILO / "case.toml").read_text("utf-8"))["session"]

# What could point `rebootspec sessions` at the machine's real stores (spec/STORES.md).
STORE_VARIABLES = (
    "XDG_CONFIG_HOME",
    "CODEX_HOME",
    "PI_CODING_AGENT_DIR",
    "VSCODE_PORTABLE",
    "VSCODE_APPDATA",
    "REBOOTSPEC_VSCODE_USER_DATA_DIR",
)

# A line of the README that is not run here -> why that is honest.
SKIPPED = {
    "python -m pip install tox && tox -e conformance": "CI's own command (.ci/run runs tox)",
    "python -m pip install tox && tox": "CI's own command (.ci/run)",
    "pip install dist/rebootspec-*.whl": "tox -e install installs the wheel in a fresh venv",
    'pipx run --spec dist/rebootspec-*.whl rebootspec run --candidate "./mytool count"': (
        "tox -e install runs the installed wheel; pipx itself is not a dependency"
    ),
    'rebootspec run --candidate "qhoami:/path/to/qhoami"': (
        "needs a qhoami checkout and Node.js (tests/conformance covers the preset with a fake)"
    ),
}

# Placeholders of the README -> what the reader would have in their place.
SUBSTITUTIONS = {
    "path/to/<sessionId>.jsonl": "sessions/1b2c.jsonl",
    "~/.codex/sessions/2026/02/23/rollout-2026-02-23T12-54-34-<id>.jsonl": "sessions/rollout.jsonl",
    "~/.pi/agent/sessions/--home-me-project--/<time>_<id>.jsonl": "sessions/pi.jsonl",
    "~/.claude/projects/-home-me-project/<session id>.jsonl": "sessions/claude.jsonl",
    "~/.local/share/opencode/opencode.db <session id>": f"sessions/opencode.db {OPENCODE_SESSION}",
    "~/.local/share/kilo/kilo.db <session id>": f"sessions/kilo.db {KILO_SESSION}",
    "/opt/mytool-1.3/bin/mytool": "./mytool",
    "/opt/mytool-1.4/bin/mytool": "./mytool",
    "--budget 20": "--budget 5 --examples 10",
}


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def commands(block: str) -> list[str]:
    """The block's commands: continuation lines joined, comments and blank lines dropped."""
    joined = block.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        line = re.sub(r"\s+#(?![^\"]*\"[^\"]*$).*$", "", line).strip()
        line = re.sub(r"\s+", " ", line)
        if line and not line.startswith("#"):
            out.append(line)
    return out


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    home = tmp_path_factory.mktemp("reader")
    mytool = home / "mytool"
    mytool.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rebootspec.reference "$@"\n')
    mytool.chmod(mytool.stat().st_mode | stat.S_IXUSR)
    (home / "sessions").mkdir()
    shutil.copyfile(SESSION, home / "sessions" / "1b2c.jsonl")
    # The README's Codex and pi examples: the real logs of the corpus (spec 3.0).
    codex, pi = (
        ROOT / "fixtures" / "realworld-codex-localpush",
        ROOT / "fixtures" / "realworld-pi-mono-session",
    )
    shutil.copyfile(codex / "session.jsonl", home / "sessions" / "rollout.jsonl")
    shutil.copyfile(pi / "session.jsonl", home / "sessions" / "pi.jsonl")
    shutil.copyfile(OPENCODE / "input" / "opencode.db", home / "sessions" / "opencode.db")
    shutil.copyfile(KILO / "input" / "kilo.db", home / "sessions" / "kilo.db")
    # The reader's VS Code store, so `count --session 1b2c` and `rebootspec sessions` find a
    # session here and never look at the machine's real home (HOME is the sandbox).
    store = home / ".config" / "Code" / "User" / "workspaceStorage" / "0a1b" / "chatSessions"
    store.mkdir(parents=True)
    shutil.copyfile(SESSION, store / "1b2c.jsonl")
    claude = ROOT / "fixtures" / "realworld-claude-code-spotter"
    shutil.copyfile(claude / "session.jsonl", home / "sessions" / "claude.jsonl")
    corpus = home / "corpus"
    for case_id in SMALL_CORPUS:
        shutil.copytree(ROOT / "fixtures" / case_id, corpus / case_id)
    scripts = Path(sys.executable).parent
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith("CONFORMANCE_") and k not in STORE_VARIABLES
        },
        "PATH": os.pathsep.join([str(scripts), os.environ.get("PATH", "")]),
        "CONFORMANCE_CORPUS": str(corpus),
        "HOME": str(home),
    }
    return home, env


def runnable(command: str) -> str | None:
    if command in SKIPPED:
        return None
    for placeholder, value in SUBSTITUTIONS.items():
        command = command.replace(placeholder, value)
    return command


def test_every_readme_line_is_run_or_listed_as_skipped() -> None:
    lines = [c for block in shell_blocks(README.read_text("utf-8")) for c in commands(block)]
    assert lines, "README.md has no sh examples"
    stale = sorted(set(SKIPPED) - set(lines))
    assert not stale, f"SKIPPED names lines the README no longer has: {stale}"


@pytest.mark.parametrize("index", range(len(shell_blocks(README.read_text("utf-8")))))
def test_readme_block_runs(index: int, sandbox: tuple[Path, dict[str, str]]) -> None:
    home, env = sandbox
    block = shell_blocks(README.read_text("utf-8"))[index]
    lines = [runnable(c) for c in commands(block)]
    script = [line for line in lines if line is not None]
    if not script:
        pytest.skip("every line of this block is run by CI or tox -e install (see SKIPPED)")
    # `python -m reference` is the checkout's own command: it runs from the checkout.
    cwd = ROOT if any(line.startswith("python -m reference") for line in script) else home
    if cwd == ROOT:
        script = [line.replace(" sessions/", f" {home}/sessions/")
                  for line in script]  # fmt: skip
    done = subprocess.run(
        ["bash", "-c", "\n".join(["set -u", *script])],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    for bad in ("Traceback", "command not found", "usage error", "No such file"):
        assert bad not in output, output[-3000:]
    for gate in re.findall(r"(absolute|regression) gate: (\d+)", output):
        assert gate[1] == "0", output[-3000:]
