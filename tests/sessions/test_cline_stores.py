"""The Cline family's stores (spec/STORES.md): Cline's data folder and its variables, the SDK's
sessions, and the three extensions' task folders under VS Code's builds and profiles.

Every count expected here is the case's own (`case.toml`: a plan's), never the reference's.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import orjson
import pytest

from rebootspec.conformance.commands import sessions as sessions_command
from rebootspec.reference import cli
from rebootspec.reference.sessions import stores
from tests.sessions.fake_homes import (
    CLINE_CASE,
    KILO_CODE_CASE,
    ROO_CASE,
    SDK_CASE,
    expected,
    make_home,
    use,
)

HOME = os.path.join(os.sep, "h", "me")


def _data_roots(env: dict[str, str]) -> list[tuple[str, str | None]]:
    roots = stores.roots(("cline",), env={"HOME": HOME, **env}, platform="linux")
    return [(r.path, r.via) for r in roots if "Code" not in r.path and "VSCodium" not in r.path]


def test_cline_s_data_folder_and_the_variables_that_move_it() -> None:
    assert _data_roots({}) == [(os.path.join(HOME, ".cline", "data"), None)]
    assert _data_roots({"CLINE_DIR": "/c"}) == [(os.path.join("/c", "data"), "CLINE_DIR")]
    both = {"CLINE_DIR": "/c", "CLINE_DATA_DIR": "/d"}
    assert _data_roots(both) == [("/d", "CLINE_DATA_DIR")]  # --data-dir sets it, it wins
    sessions = _data_roots({"CLINE_SESSION_DATA_DIR": "~/s"})
    assert sessions[-1] == (os.path.join(HOME, "s"), "CLINE_SESSION_DATA_DIR")


@pytest.mark.parametrize("host", ["cline", "roo-code", "kilo-code"])
def test_the_extensions_live_under_every_vscode_build(host: str) -> None:
    roots = stores.roots((host,), env={"HOME": HOME}, platform="linux")
    products = [os.path.basename(r.path) for r in roots if ".config" in r.path]
    assert products == ["Code", "Code - Insiders", "VSCodium", "Code - OSS"]
    assert all(r.host == host for r in roots)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_sessions_and_count_session_find_every_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A task under CLINE_DIR, an SDK session, Cline's, Roo's and Kilo's extension tasks under
    a profile and under Insiders: each listed under the host its content names, each found by
    its id, each with its case's count."""
    home = make_home(tmp_path)
    home.env["CLINE_DIR"] = str(tmp_path / "cline-dir")
    placed = {
        "1764300000002": ("cline", home.add_cline_task("1764300000002"), CLINE_CASE),
        "01KB2Q7XG3N5V8ZP4R6T9W1Y3E": (
            "cline", home.add_cline_sdk("01KB2Q7XG3N5V8ZP4R6T9W1Y3E"), SDK_CASE),
        "1764300000003": ("cline", home.add_extension_task(
            "cline", "1764300000003", CLINE_CASE, profile="5e6f7a8b"), CLINE_CASE),
        "2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c": ("roo-code", home.add_extension_task(
            "roo-code", "2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c", ROO_CASE,
            product="Code - Insiders"), ROO_CASE),
        "3a4b5c6d-7e8f-4a9b-8c0d-2e3f4a5b6c7d": ("kilo-code", home.add_extension_task(
            "kilo-code", "3a4b5c6d-7e8f-4a9b-8c0d-2e3f4a5b6c7d", KILO_CODE_CASE), KILO_CODE_CASE),
    }  # fmt: skip
    use(home, monkeypatch)
    out, err = io.StringIO(), io.StringIO()
    assert sessions_command.cli(["--json", "--jobs", "1", "--no-cache"], out, err) == 0
    rows = {str(r["id"]): r for r in map(orjson.loads, out.getvalue().splitlines())}
    for ident, (host, _, case) in placed.items():
        reboots = expected(case)["reboots"]
        assert (rows[ident]["host"], rows[ident]["reboots"]) == (host, reboots), ident
        code, answer, err_text = _run(["count", "--session", ident])
        assert code == 0, err_text
        found = orjson.loads(answer)
        assert (found["host"], found["reboots"], found["session"]) == (host, reboots, ident)
