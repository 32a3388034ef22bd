"""Every shell example of README.md, docs/ and CONTRIBUTING.md runs, as a reader would type it.

Why: examples rot. A renamed option or a moved file breaks a reader's first command, and no one
notices. Sybil (a well-kept library for running the examples of documentation) finds each
```sh block with its line; the evaluator here runs the block in bash in a fake home that holds
what the examples name: a user's counter (`./mytool count`, the reference, not on PATH, so a
relative candidate must be found where the reader typed it), the hosts' stores under `~`
(VS Code, Codex, pi, Claude Code, opencode, Kilo, basic-agent-chat-loop) holding corpus files,
release folders, and a five-case corpus through `CONFORMANCE_CORPUS`, the variable every
subcommand reads, so every example runs in seconds. Lines that install things, run tox or write
into the checkout are run by CI itself (`.ci/run`), by `tox -e install` or by their own tests;
they are listed in SKIPPED with the reason, and the test fails if a document gains a line that
is neither run nor listed. Placeholders (`<id>`, `…`) are the only text replaced.
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
from typing import Any

import pytest
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")],
)
FIXTURES = ROOT / "fixtures"
SESSION = FIXTURES / "3TJU" / "session.jsonl"  # VS Code, two reboots
SMALL_CORPUS = ("2BL5", "DFZD", "233D", "23NP", "272F")
CODEX = FIXTURES / "realworld-codex-localpush"
CODEX_ID = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"  # its session_meta's id
PI = FIXTURES / "realworld-pi-mono-session"
PI_ID = "5fd1e58c-9635-410e-a644-133a96057c90"  # its header's id
CLAUDE = FIXTURES / "realworld-claude-code-spotter"
OPENCODE = FIXTURES / "92HM"  # a generated opencode database: two reboots
KILO = FIXTURES / "GXMQ"  # a generated kilo.db (Kilo 7.7.9's writer model): two reboots
CHAT_LOOP = FIXTURES / "2QKE"  # a real basic-agent-chat-loop 1.6.0 chain of files


def session_of(case: Path, key: str = "session") -> str:
    return str(tomllib.loads((case / "case.toml").read_text("utf-8"))[key])


CHAT_LOOP_FILE = session_of(CHAT_LOOP, "input")  # the newest file of the chain


# What could point a command at the machine's real stores or a host's session (spec/STORES.md).
STORE_VARIABLES = (
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "CODEX_HOME",
    "COPILOT_HOME",
    "PI_CODING_AGENT_DIR",
    "VSCODE_PORTABLE",
    "VSCODE_APPDATA",
    "REBOOTSPEC_VSCODE_USER_DATA_DIR",
    "CODEX_THREAD_ID",
    "CODEX_SESSION_ID",
    "PI_SESSION_FILE",
    "PI_SESSION_ID",
    "CLAUDE_CODE_SESSION_ID",
    "COPILOT_AGENT_SESSION_ID",
    "QWEN_CODE_SESSION_ID",
)

# A line of a document that is not run here -> why that is honest.
SKIPPED = {
    "python -m pip install tox && tox -e conformance": "CI's own command (.ci/run runs tox)",
    "python -m pip install tox && tox": "CI's own command (.ci/run)",
    "python -m pip install .": "tox -e install installs a wheel of the checkout in a fresh venv",
    "python -m pip wheel --no-deps -w dist .": "tox -e install builds the wheel the same way",
    "python -m rebootspec.generators build --assign-ids": (
        "writes into the checkout's fixtures/ (tox's corpus checks run build --check)"
    ),
    'pipx run --spec dist/rebootspec-*.whl rebootspec run --candidate "./mytool count"': (
        "tox -e install runs the installed wheel; pipx itself is not a dependency"
    ),
    'rebootspec run --candidate "qhoami:/path/to/qhoami"': (
        "needs a qhoami checkout and Node.js (tests/conformance covers the preset with a fake)"
    ),
    "rebootspec add-fixture /tmp/new-era.jsonl --title \"the 0.41 marker text 'Condensed "
    "conversation'; two reboots\" --rules MRK-1,ERA-2,CNT-2 --tags summaries-array --era "
    'condensed --expect-reboots 2 --author "Your Name"': (
        "writes a case into the checkout's fixtures/ (tests/anonymize/test_add_fixture.py "
        "runs it on a copy)"
    ),
}

# Placeholders of the documents -> what the reader would have in their place.
SUBSTITUTIONS = {
    "path/to/<sessionId>.jsonl": "sessions/1b2c.jsonl",
    "rollout-2026-02-23T12-54-34-<id>.jsonl": f"rollout-2026-02-23T12-54-34-{CODEX_ID}.jsonl",
    "rollout-…-<id>.jsonl": f"rollout-2026-02-23T12-54-34-{CODEX_ID}.jsonl",
    "--home-me-project--/<time>_<id>.jsonl": f"--home-me-project--/2025-12-17_{PI_ID}.jsonl",
    "-home-me-project/<session id>.jsonl": "-home-me-project/spotter.jsonl",
    "-home-me-x/<id>.jsonl": "-home-me-project/spotter.jsonl",
    "opencode/opencode.db <session id>": f"opencode/opencode.db {session_of(OPENCODE)}",
    "kilo/kilo.db <session id>": f"kilo/kilo.db {session_of(KILO)}",
    "--session ses_…": f"--session {session_of(OPENCODE)}",
    ".chat-sessions/<agent>_<date>_<time>.md": f".chat-sessions/{CHAT_LOOP_FILE}",
    "~/.config/Code/User/.../chatSessions/": "~/.config/Code/User/workspaceStorage/0a1b/"
    "chatSessions/",
    "/opt/mytool-1.3/bin/mytool": "./mytool",
    "/opt/mytool-1.4/bin/mytool": "./mytool",
    "/tmp/": "$HOME/tmp/",
    "--budget 20": "--budget 5 --examples 10",
}


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


def runnable(command: str) -> str | None:
    if command in SKIPPED:
        return None
    for placeholder, value in SUBSTITUTIONS.items():
        command = command.replace(placeholder, value)
    return command


def make_home(home: Path) -> dict[str, str]:
    """A reader's home: the stores the examples name, each holding a corpus file."""
    mytool = home / "mytool"
    mytool.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rebootspec.reference "$@"\n')
    mytool.chmod(mytool.stat().st_mode | stat.S_IXUSR)
    (home / "sessions").mkdir()
    (home / "tmp").mkdir()
    shutil.copyfile(SESSION, home / "sessions" / "1b2c.jsonl")
    places = {
        SESSION: ".config/Code/User/workspaceStorage/0a1b/chatSessions/1b2c.jsonl",
        CODEX / "session.jsonl": f".codex/sessions/2026/02/23/rollout-2026-02-23T12-54-34-"
        f"{CODEX_ID}.jsonl",
        PI / "session.jsonl": f".pi/agent/sessions/--home-me-project--/2025-12-17_{PI_ID}.jsonl",
        CLAUDE / "session.jsonl": ".claude/projects/-home-me-project/spotter.jsonl",
        OPENCODE / "input" / "opencode.db": ".local/share/opencode/opencode.db",
        KILO / "input" / "kilo.db": ".local/share/kilo/kilo.db",
    }
    for source, place in places.items():
        (home / place).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, home / place)
    shutil.copytree(CHAT_LOOP / "input", home / ".chat-sessions")
    corpus = home / "corpus"
    for case_id in SMALL_CORPUS:
        shutil.copytree(FIXTURES / case_id, corpus / case_id)
    scripts = Path(sys.executable).parent
    return {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith("CONFORMANCE_") and k not in STORE_VARIABLES
        },
        "PATH": os.pathsep.join([str(scripts), os.environ.get("PATH", "")]),
        "CONFORMANCE_CORPUS": str(corpus),
        "HOME": str(home),
        # The agent's examples run as if inside Codex's shell tool (WHO-1).
        "CODEX_THREAD_ID": CODEX_ID,
    }


def run_block(example: Example) -> str | None:
    """Sybil's evaluator: run the block's lines in bash in the fake home; a failure's text."""
    home, env = example.namespace["home"], example.namespace["env"]
    script = [line for line in map(runnable, commands(example.parsed)) if line is not None]
    if not script:
        return None  # every line is run by CI or tox -e install (SKIPPED says which)
    # `python -m reference` is the checkout's own command: it runs from the checkout.
    cwd = ROOT if any(line.startswith("python -m reference") for line in script) else home
    if cwd == ROOT:
        script = [line.replace(" sessions/", f" {home}/sessions/") for line in script]
    done = subprocess.run(
        ["bash", "-c", "\n".join(["set -eu", *script])],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    if done.returncode != 0:
        return f"exit {done.returncode}:\n{output[-3000:]}"
    for bad in ("Traceback", "command not found", "usage error", "No such file"):
        if bad in output:
            return f"{bad!r} in the output:\n{output[-3000:]}"
    for gate in re.findall(r"(absolute|regression) gate: (\d+)", output):
        if gate[1] != "0":
            return f"the {gate[0]} gate is {gate[1]}:\n{output[-3000:]}"
    return None


SYBIL = Sybil([CodeBlockParser(language="sh", evaluator=run_block)], path=str(ROOT))


def examples() -> list[Any]:
    found = []
    for document in DOCUMENTS:
        for example in SYBIL.parse(document):
            found.append(pytest.param(example, id=f"{document.relative_to(ROOT)}:{example.line}"))
    return found


def test_every_line_is_run_or_listed_as_skipped() -> None:
    lines = [
        line
        for param in examples()
        for line in commands(param.values[0].parsed)  # type: ignore[union-attr]
    ]
    assert len(lines) > 20, "the documents have almost no sh examples"
    stale = sorted(set(SKIPPED) - set(lines))
    assert not stale, f"SKIPPED names lines no document has: {stale}"


def test_every_document_with_commands_is_read() -> None:
    """A page with ```sh blocks that Sybil found none in would be a page no test reads."""
    for document in DOCUMENTS:
        fenced = document.read_text("utf-8").count("```sh\n")
        assert len(list(SYBIL.parse(document))) == fenced, document


@pytest.fixture(scope="module")
def reader_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    home = tmp_path_factory.mktemp("reader")
    return home, make_home(home)


@pytest.mark.parametrize("example", examples())
def test_the_example_runs(example: Example, reader_home: tuple[Path, dict[str, str]]) -> None:
    example.namespace["home"], example.namespace["env"] = reader_home
    example.evaluate()
