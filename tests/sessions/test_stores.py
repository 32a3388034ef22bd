"""The table of store locations: every platform's layout and every override variable."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rebootspec.reference.sessions import stores

ROOT = Path(__file__).resolve().parents[2]
HOME = os.path.join(os.sep, "h", "me")


def paths(env: dict[str, str], platform: str, host: str) -> list[str]:
    return [r.path for r in stores.roots((host,), env=env, platform=platform)]


@pytest.mark.parametrize(
    ("platform", "env", "appdata"),
    [
        ("linux", {"HOME": HOME}, os.path.join(HOME, ".config")),
        ("linux", {"HOME": HOME, "XDG_CONFIG_HOME": "/x/cfg"}, "/x/cfg"),
        ("darwin", {"HOME": HOME}, os.path.join(HOME, "Library", "Application Support")),
        ("win32", {"USERPROFILE": HOME, "APPDATA": "/w/Roaming"}, "/w/Roaming"),
        ("win32", {"USERPROFILE": HOME}, os.path.join(HOME, "AppData", "Roaming")),
        ("freebsd13", {"HOME": HOME}, os.path.join(HOME, ".config")),  # Linux's rules
    ],
)
def test_vscode_user_data_folders_of_every_build_per_platform(
    platform: str, env: dict[str, str], appdata: str
) -> None:
    assert paths(env, platform, "vscode") == [
        os.path.join(appdata, product)
        for product in ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
    ]


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_codex_and_pi_live_under_the_home_of_every_platform(platform: str) -> None:
    env = {"USERPROFILE" if platform == "win32" else "HOME": HOME}
    assert paths(env, platform, "codex") == [os.path.join(HOME, ".codex")]
    assert paths(env, platform, "pi") == [os.path.join(HOME, ".pi", "agent")]


def test_each_host_s_own_variable_moves_its_store() -> None:
    env = {"HOME": HOME, "CODEX_HOME": "/c/home", "PI_CODING_AGENT_DIR": "~/pi-agent"}
    codex = stores.roots(("codex",), env=env, platform="linux")
    assert [(r.path, r.via) for r in codex] == [("/c/home", "CODEX_HOME")]
    assert paths(env, "linux", "pi") == [os.path.join(HOME, "pi-agent")]  # `~` as pi expands it


def test_the_user_data_override_replaces_every_vscode_default() -> None:
    env = {"HOME": HOME, stores.VSCODE_USER_DATA_ENV: os.pathsep.join(["/a/ud", "/b/ud"])}
    assert paths(env, "linux", "vscode") == ["/a/ud", "/b/ud"]


def test_vscode_s_own_portable_and_appdata_variables_are_followed() -> None:
    env = {"HOME": HOME, "VSCODE_PORTABLE": "/p", "VSCODE_APPDATA": "/va"}
    found = paths(env, "linux", "vscode")
    assert found[0] == os.path.join("/p", "user-data")
    assert found[1:] == [
        os.path.join("/va", "Code"),
        os.path.join("/va", "Code - Insiders"),
        os.path.join("/va", "VSCodium"),
        os.path.join("/va", "Code - OSS"),
    ]


@pytest.mark.parametrize(
    ("name", "host", "ident"),
    [
        ("rollout-2026-02-23T12-54-34-0199a1b2-c3d4.jsonl", "codex", "0199a1b2-c3d4"),
        ("rollout-2026-02-23T12-54-34-0199a1b2-c3d4.jsonl.zst", "codex", "0199a1b2-c3d4"),
        ("2026-03-02T10-00-04-000Z_7eb0cddb-8209.jsonl", "pi", "7eb0cddb-8209"),
        ("634638ae-1111.jsonl", "vscode", "634638ae-1111"),
        ("634638ae-1111.json", "vscode", "634638ae-1111"),
    ],
)
def test_the_session_id_is_in_the_file_name(name: str, host: str, ident: str) -> None:
    assert stores.session_id(name) == (host, ident)


def test_every_row_cites_the_host_source_and_the_spec_chapter_lists_it() -> None:
    chapter = (ROOT / "spec" / "STORES.md").read_text(encoding="utf-8")
    for row in (*stores.BASES, *stores.STORES):
        # A proprietary host (Claude Code) has no source to cite: its rows say `docs:` instead.
        assert re.search(r"\.(ts|rs|py)\b|codex-rs/core/src/config|^docs: ", row.source), row
    for store in stores.STORES:
        assert f"`{store.folders}" in chapter, store.folders
    for base in stores.BASES:
        assert not base.env or f"`{base.env}`" in chapter, base.env


def test_gemini_cli_home_replaces_the_home_folder_not_the_gemini_folder() -> None:
    env = {"HOME": HOME, "GEMINI_CLI_HOME": "/profiles/work"}
    (root,) = stores.roots(("gemini-cli",), env, "linux")
    assert root.path == os.path.join("/profiles/work", ".gemini")


def test_qwen_code_runtime_folder_order(tmp_path: Path) -> None:
    """QWEN_RUNTIME_DIR, else the settings' advanced.runtimeOutputDir, else QWEN_HOME, else
    ~/.qwen (packages/core/src/config/storage.ts, 0.15 and later)."""
    home = str(tmp_path / "home")
    (root,) = stores.roots(("qwen-code",), {"HOME": home}, "linux")
    assert (root.path, root.via) == (os.path.join(home, ".qwen"), None)
    env = {"HOME": home, "QWEN_HOME": str(tmp_path / "qh")}
    (root,) = stores.roots(("qwen-code",), env, "linux")
    assert (root.path, root.via) == (str(tmp_path / "qh"), "QWEN_HOME")
    settings = tmp_path / "qh" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"advanced": {"runtimeOutputDir": "~/qwen-runtime"}}')
    (root,) = stores.roots(("qwen-code",), env, "linux")
    assert (root.path, root.via) == (
        os.path.join(home, "qwen-runtime"),
        "advanced.runtimeOutputDir",
    )
    settings.write_text('{"advanced": {"runtimeOutputDir": ".qwen-local"}}')  # per project
    (root,) = stores.roots(("qwen-code",), env, "linux")
    assert root.path == str(tmp_path / "qh")
    env["QWEN_RUNTIME_DIR"] = str(tmp_path / "rt")
    (root,) = stores.roots(("qwen-code",), env, "linux")
    assert (root.path, root.via) == (str(tmp_path / "rt"), "QWEN_RUNTIME_DIR")
