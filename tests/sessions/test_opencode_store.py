"""opencode's store in the lookup table (reference/hosts/opencode/stores.py, sessions/finder.py;
spec/STORES.md): its data
folder, the sessions listed from inside a database and a storage folder, `count --session`.

The stores are written by the generator's model; the expected counts come from their plans.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from rebootspec.generators.hosts.opencode.files import render
from rebootspec.generators.hosts.opencode.plan import (
    OcCompact,
    OcPrompt,
    OcSession,
    OcStore,
    expected_reboots,
)
from rebootspec.reference import cli
from rebootspec.reference.sessions import stores
from rebootspec.reference.sessions.finder import scan

HOME = os.path.join(os.sep, "h", "me")


def test_the_data_folder_is_xdgs_on_every_platform() -> None:
    for platform in ("linux", "darwin", "win32"):
        env = {"HOME": HOME, "USERPROFILE": HOME}
        [root] = stores.roots(("opencode",), env=env, platform=platform)
        assert root.path == os.path.join(HOME, ".local", "share", "opencode")
    [moved] = stores.roots(("opencode",), env={"HOME": HOME, "XDG_DATA_HOME": "/x/data"})
    assert (moved.path, moved.via) == (os.path.join("/x/data", "opencode"), "XDG_DATA_HOME")


def _home(tmp_path: Path) -> tuple[dict[str, str], dict[str, int]]:
    """A data folder holding a database of two sessions and a storage folder of one; the
    environment that points at it, and each session's planned count."""
    data = tmp_path / ".local" / "share" / "opencode"
    expected: dict[str, int] = {}
    two = (
        OcSession((OcPrompt(1), OcCompact(), OcPrompt(1)), title="a"),
        OcSession((OcPrompt(1), OcCompact("manual"), OcCompact(), OcPrompt(1)), title="b"),
    )
    for era, plans, index in (("O3", two, 0), ("O3", two, 1), ("O1", two[:1], 0)):
        store = OcStore(era, plans, selected=index, seed=3)
        files = render(store)
        for name, content in files.files.items():
            target = data / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        assert files.session is not None
        expected[files.session] = expected_reboots(store)
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / ".local" / "share")}
    return env, expected


def test_every_session_inside_the_stores_is_listed(tmp_path: Path) -> None:
    env, expected = _home(tmp_path)
    walked = scan(stores.roots(("opencode",), env=env))
    assert walked.problems == []
    assert sorted(item.id for item in walked.found) == sorted(expected)
    assert {os.path.basename(item.path) for item in walked.found} == {"opencode.db", "storage"}


def test_count_by_session_id_counts_that_session_of_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, expected = _home(tmp_path)
    for name in ("XDG_DATA_HOME", "HOME"):
        monkeypatch.setenv(name, env[name])
    for session, reboots in expected.items():
        out, err = io.StringIO(), io.StringIO()
        assert cli.main(["count", "--session", session], out, err) == 0, err.getvalue()
        answer = json.loads(out.getvalue())
        assert (answer["host"], answer["reboots"], answer["session"]) == (
            "opencode",
            reboots,
            session,
        )
