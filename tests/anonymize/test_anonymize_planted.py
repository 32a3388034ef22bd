"""Secrets planted in generated sessions of every host never survive `anonymize` (issue #33).

The host writer models (generators/hosts) write each scenario with a secret in every text they
make up — user messages, answers, summaries, tool output, titles, the chat loop's queries and
summaries — and, in the files that are text, in the user's folder name of every path (`cwd`,
`Agent Path`, the previous session's path). The expected count is the plan's; the anonymized
input must give it, and the secret must be in none of its bytes and none of its file names.
"""

from __future__ import annotations

import contextlib
import io
import string
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebootspec.conformance.commands.contribute import anonymize
from rebootspec.generators.corpus import cases as hostcases
from rebootspec.generators.hosts.chat_loop import writer as chat_loop
from rebootspec.generators.hosts.claude_code import writer as claude_code
from rebootspec.generators.hosts.codex import writer as codex
from rebootspec.generators.hosts.gemini_cli import writer as gemini
from rebootspec.generators.hosts.opencode import files as opencode_files
from rebootspec.generators.hosts.opencode import plan as opencode_plan
from rebootspec.generators.hosts.opencode import scenarios as opencode_scenarios
from rebootspec.generators.hosts.opencode import writer as opencode
from rebootspec.generators.hosts.pi import writer as pi
from rebootspec.reference import count_path
from rebootspec.reference.core.errors import Rejection

WRITERS = (codex, pi, claude_code, gemini, chat_loop, opencode)
PATH = b"/home/dev/"  # the user folder of every path the models write

SECRETS = st.text(string.ascii_letters + string.digits, min_size=6, max_size=24).map(
    lambda text: f"Qz{text}9"
)
# The profile decides how many examples (tests/conftest.py: 30 in CI, more in `dev`, `nightly`).
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def planted(secret: str) -> Iterator[None]:
    """Every text the writer models make up begins with the secret."""
    real = codex.words

    def words(rng: Any, count: int) -> str:
        return f"{secret} {real(rng, count)}"

    with contextlib.ExitStack() as stack:
        for module in WRITERS:
            stack.enter_context(mock.patch.object(module, "words", words))
        yield


def in_paths(data: bytes, secret: str) -> bytes:
    """The secret as the user's folder name of every path."""
    return data.replace(PATH, b"/home/" + secret.encode() + b"/")


def _takes_secrets(scenario: Any, era: str) -> bool:
    """Whether the model writes made-up text or a path in this scenario (not raw bytes)."""
    with planted("QzProbe9"):
        case = hostcases.generate(scenario, era, "TEST")
    blobs = list(case.made.files.values())
    return any(b"QzProbe9" in in_paths(blob, "QzProbe9") for blob in blobs)


HOST_PAIRS = [
    (s, e)
    for s, e in hostcases.pairs()
    if s.host not in (None, "vscode", "opencode", "kilo") and _takes_secrets(s, e)
]


STORE_PAIRS = [  # opencode's family: opencode's stores and Kilo's
    (s, era)
    for s in opencode_scenarios.SCENARIOS
    for era in s.eras
    if s.plan(era).damage == "none"
    and not s.plan(era).ask_missing
    and opencode_plan.expected_rejection(s.plan(era)) is None  # Kilo's near misses: E-HOST
]


def written(stdout: str) -> Path:
    """The file `anonymize` says it wrote (`wrote PATH: ...`): a chat-loop file is named by
    its new session id, whatever OUT's own name (BCL-1)."""
    (line,) = [row for row in stdout.splitlines() if row.startswith("wrote ")]
    return Path(line.removeprefix("wrote ").split(": ")[0])


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = anonymize(argv)
    return code, out.getvalue(), err.getvalue()


def answer(path: Path, session: str | None = None) -> dict[str, Any]:
    try:
        return {"outcome": "count", "reboots": count_path(path, session=session).reboots}
    except Rejection as rejection:
        return {"outcome": "reject", "error": rejection.code, "line": rejection.line}


def nothing_holds(folder: Path, secret: str) -> None:
    for path in folder.rglob("*"):
        assert secret not in str(path.relative_to(folder)), path
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


@SETTINGS
@given(pair=st.sampled_from(HOST_PAIRS), secret=SECRETS)
def test_a_secret_in_a_generated_session_of_a_record_host_or_chain_is_gone(
    pair: tuple[Any, str], secret: str
) -> None:
    check_host_pair(pair, secret)


@pytest.mark.parametrize("pair", HOST_PAIRS, ids=[f"{s.name}/{e}" for s, e in HOST_PAIRS])
def test_every_scenario_of_every_host_loses_its_secret(pair: tuple[Any, str]) -> None:
    check_host_pair(pair, "QzEveryScenario9")


def check_host_pair(pair: tuple[Any, str], secret: str) -> None:
    scenario, era = pair
    with planted(secret):
        case = hostcases.generate(scenario, era, "TEST")
    blobs = list(case.made.files.values())
    assert any(secret.encode() in in_paths(blob, secret) for blob in blobs)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "in").mkdir()
        (root / "out").mkdir()
        for name, data in case.made.files.items():
            place = root / "in" / name.removeprefix("input/")
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_bytes(in_paths(data, secret))
        if case.made.input is not None:
            source = root / "in" / case.made.input
        else:
            (name,) = case.made.files
            source = root / "in" / name
        target = root / "out" / f"anonymized{source.suffix}"
        code, stdout, stderr = run([str(source), str(target)])
        if case.expect["outcome"] == "reject" and code != 0:
            assert not any((root / "out").iterdir())  # refused: nothing left behind
            return
        assert code == 0, stderr
        target = written(stdout)
        assert answer(target) == case.expect
        nothing_holds(root / "out", secret)


@SETTINGS
@given(pair=st.sampled_from(STORE_PAIRS), secret=SECRETS)
def test_a_secret_in_a_generated_opencode_store_is_gone(pair: tuple[Any, str], secret: str) -> None:
    scenario, era = pair
    store = scenario.plan(era)
    with planted(secret):
        files = opencode_files.render(store)
    assert any(secret.encode() in data for data in files.files.values())
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, data in files.files.items():
            place = root / "in" / name
            place.parent.mkdir(parents=True, exist_ok=True)
            database = name == files.input or name == files.input + "-wal"  # opencode's, Kilo's
            place.write_bytes(data if database else in_paths(data, secret))
        (root / "out").mkdir()
        target = root / "out" / "store"
        argv = [str(root / "in" / files.input), str(target)]
        code, stdout, stderr = run(argv + (["--session", files.session] if files.session else []))
        assert code == 0, stderr
        session = next(row.split()[1] for row in stdout.splitlines() if row.startswith("session"))
        expect = opencode_plan.expected_reboots(store)
        assert answer(target, session) == {"outcome": "count", "reboots": expect}
        nothing_holds(root / "out", secret)
