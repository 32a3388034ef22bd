"""Fake homes of every platform with the stores of every host, for the tests.

Sessions are small corpus fixtures copied under the names each host gives them; the expected
counts are the cases' own (`case.toml`). Nothing here reads or writes the real home: the
environment a test uses names only the fake one (`env`), and the platform is the stores'
parameter (`stores.PLATFORM`), so a Windows or macOS layout is tested on any machine.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rebootspec.reference.sessions import stores

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
# Small counted cases of each host, and rejected ones (their codes are the rows' warnings).
VSCODE_CASE = "CRJG"  # 1 reboot
CODEX_CASE = "V8MB"  # 1 reboot
PI_CASE = "WVNH"  # 1 reboot
CLAUDE_CASE = "S782"  # 1 reboot (a manual compact_boundary)
GEMINI_CASE = "8K9K"  # 2 reboots (two compressions)
PI_REJECTED = "2LWG"  # E-LIMIT
OPENCODE_CASE = "6RUU"  # a storage folder; its session has 1 reboot
KILO_CASE = "GXMQ"  # kilo.db (Kilo 7.7.9's writer model, K1); its session has 2 reboots
CHAT_LOOP_CASE = "2QKE"  # a chain of four files; the newest has 2 reboots
COPILOT_CASE = "KS9Z"  # 2 reboots (a /compact and a background compaction, P2)
QWEN_CASE = "BPQR"  # 2 reboots (a /compress and an automatic compression, Q1)
CLINE_CASE = "U2MG"  # a Cline task folder: 2 reboots (auto-compact twice, L2)
ROO_CASE = "ZCAQ"  # a Roo Code task folder: 2 reboots (two condense_context rows, R2)
KILO_CODE_CASE = "VEQR"  # a Kilo extension task folder: 1 reboot (an accepted /smol, KX1)
SDK_CASE = "6PBJ"  # a Cline SDK session folder: 0 reboots
# The extensions' globalStorage folders (their ids).
EXTENSIONS = {
    "cline": "saoudrizwan.claude-dev",
    "roo-code": "rooveterinaryinc.roo-cline",
    "kilo-code": "kilocode.kilo-code",
}
# Every variable that could point a lookup at the machine's real stores.
VARIABLES = (
    "HOME",
    "USERPROFILE",
    "APPDATA",
    "XDG_CONFIG_HOME",
    "CODEX_HOME",
    "PI_CODING_AGENT_DIR",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
    "COPILOT_HOME",
    "QWEN_HOME",
    "QWEN_RUNTIME_DIR",
    "CLINE_DIR",
    "CLINE_DATA_DIR",
    "CLINE_SESSION_DATA_DIR",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",  # the listing's cache goes under the fake home too
    "LOCALAPPDATA",
    "REBOOTSPEC_CACHE_DIR",
    "VSCODE_PORTABLE",
    "VSCODE_APPDATA",
    stores.VSCODE_USER_DATA_ENV,
)
PLATFORMS = ("linux", "darwin", "win32")


def expected(case: str) -> dict[str, object]:
    with (FIXTURES / case / "case.toml").open("rb") as handle:
        return dict(tomllib.load(handle)["expect"])


@dataclass
class FakeHome:
    """A home folder of one platform; `add_*` put a fixture where its host keeps sessions."""

    home: Path
    platform: str
    env: dict[str, str] = field(default_factory=dict)

    @property
    def appdata(self) -> Path:
        if self.platform == "win32":
            return Path(self.env["APPDATA"])
        if self.platform == "darwin":
            return self.home / "Library" / "Application Support"
        return Path(self.env.get("XDG_CONFIG_HOME", self.home / ".config"))

    def add_vscode(
        self,
        sid: str,
        case: str = VSCODE_CASE,
        product: str = "Code",
        workspace: str | None = "0a1b2c3d4e5f",
        suffix: str = ".jsonl",
    ) -> Path:
        user = self.appdata / product / "User"
        if workspace is None:  # a chat opened without a workspace
            folder = user / "globalStorage" / "emptyWindowChatSessions"
        else:
            folder = user / "workspaceStorage" / workspace / "chatSessions"
        return _copy(case, folder / f"{sid}{suffix}")

    def add_codex(
        self,
        sid: str,
        case: str = CODEX_CASE,
        day: str = "2026/03/01",
        archived: bool = False,
        suffix: str = ".jsonl",
    ) -> Path:
        base = Path(self.env.get("CODEX_HOME", self.home / ".codex"))
        folder = base / "archived_sessions" if archived else base / "sessions" / day
        stamp = day.replace("/", "-") + "T10-00-00"
        return _copy(case, folder / f"rollout-{stamp}-{sid}{suffix}")

    def add_pi(self, sid: str, case: str = PI_CASE, cwd: str = "--home-me-proj--") -> Path:
        base = Path(self.env.get("PI_CODING_AGENT_DIR", self.home / ".pi" / "agent"))
        return _copy(case, base / "sessions" / cwd / f"2026-03-02T10-00-04-000Z_{sid}.jsonl")

    def add_claude(self, sid: str, case: str = CLAUDE_CASE, cwd: str = "-home-me-proj") -> Path:
        base = Path(self.env.get("CLAUDE_CONFIG_DIR", self.home / ".claude"))
        return _copy(case, base / "projects" / cwd / f"{sid}.jsonl")

    def add_gemini(self, id8: str, case: str = GEMINI_CASE, project: str = "0f1e2d3c") -> Path:
        home = Path(self.env.get("GEMINI_CLI_HOME", self.home))
        folder = home / ".gemini" / "tmp" / project / "chats"
        return _copy(case, folder / f"session-2026-03-03T10-00-{id8}.jsonl")

    def add_copilot(self, sid: str, case: str = COPILOT_CASE) -> Path:
        """The Copilot CLI's (and VS Code Agent Host's) `session-state/<id>/events.jsonl`."""
        base = Path(self.env.get("COPILOT_HOME", self.home / ".copilot"))
        return _copy(case, base / "session-state" / sid / "events.jsonl")

    def add_qwen(self, sid: str, case: str = QWEN_CASE, cwd: str = "-home-me-proj") -> Path:
        """Qwen Code's `projects/<cwd>/chats/<id>.jsonl` under its runtime folder."""
        base = self.env.get("QWEN_RUNTIME_DIR") or self.env.get("QWEN_HOME")
        folder = Path(base) if base else self.home / ".qwen"
        return _copy(case, folder / "projects" / cwd / "chats" / f"{sid}.jsonl")

    def add_vscode_profile(
        self, sid: str, case: str = VSCODE_CASE, profile: str | None = None
    ) -> Path:
        """VS Code's current store: the profile's globalStorage/chatSessions/<workspace>/."""
        user = self.appdata / "Code" / "User"
        base = user if profile is None else user / "profiles" / profile
        return _copy(case, base / "globalStorage" / "chatSessions" / "0a1b2c3d" / f"{sid}.jsonl")

    def add_opencode(self, case: str = OPENCODE_CASE, app: str = "opencode") -> tuple[Path, str]:
        """A store of the case (a storage folder or a database) in the data folder of `app`
        (opencode's, or Kilo's: `kilo`); (the store's path, the case's session id)."""
        meta = tomllib.loads((FIXTURES / case / "case.toml").read_text("utf-8"))
        base = Path(self.env.get("XDG_DATA_HOME", self.home / ".local" / "share")) / app
        source = FIXTURES / case / "input"
        base.mkdir(parents=True, exist_ok=True)
        for item in source.iterdir():
            if item.is_dir():
                shutil.copytree(item, base / item.name)
            else:
                shutil.copyfile(item, base / item.name)
        return base / str(meta["input"]), str(meta["session"])

    def add_kilo(self, case: str = KILO_CASE) -> tuple[Path, str]:
        """A Kilo store (`kilo.db`) in Kilo's data folder (spec/hosts/kilo.md)."""
        return self.add_opencode(case, app="kilo")

    def add_chat_loop(self, folder: Path, case: str = CHAT_LOOP_CASE) -> tuple[Path, str]:
        """The case's chain in `<folder>/.chat-sessions`; (the asked file, its session id)."""
        meta = tomllib.loads((FIXTURES / case / "case.toml").read_text("utf-8"))
        target = folder / ".chat-sessions"
        shutil.copytree(FIXTURES / case / "input", target)
        asked = target / str(meta["input"])
        return asked, asked.stem

    def add_cline_task(self, sid: str, case: str = CLINE_CASE) -> Path:
        """A task folder of Cline CLI 1.x/2.x: `<CLINE_DIR>/data/tasks/<id>/` (CLN-1)."""
        base = Path(self.env.get("CLINE_DIR", self.home / ".cline")) / "data"
        base = Path(self.env.get("CLINE_DATA_DIR", base))
        return _copy_folder(case, base / "tasks" / sid)

    def add_cline_sdk(self, sid: str, case: str = SDK_CASE) -> Path:
        """A Cline SDK session folder: `<data>/sessions/<id>/` (CLN-12), files renamed to `sid`."""
        base = Path(self.env.get("CLINE_DIR", self.home / ".cline")) / "data"
        base = Path(self.env.get("CLINE_DATA_DIR", base))
        folder = _copy_folder(case, base / "sessions" / sid)
        for item in list(folder.iterdir()):
            old = item.name.split(".", 1)
            item.rename(folder / f"{sid}.{old[1]}")
        return folder

    def add_extension_task(
        self, host: str, sid: str, case: str, profile: str | None = None, product: str = "Code"
    ) -> Path:
        """An extension's task folder under VS Code's globalStorage (default or a profile)."""
        user = self.appdata / product / "User"
        base = user if profile is None else user / "profiles" / profile
        return _copy_folder(case, base / "globalStorage" / EXTENSIONS[host] / "tasks" / sid)


def _copy_folder(case: str, target: Path) -> Path:
    """A folder case's input folder (a task or SDK session folder) copied to `target`."""
    meta = tomllib.loads((FIXTURES / case / "case.toml").read_text("utf-8"))
    shutil.copytree(FIXTURES / case / "input" / str(meta["input"]), target)
    return target


def _copy(case: str, target: Path) -> Path:
    """A corpus case's session under `target`; zstd-compressed when it is a `.zst` (CDX-7)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    source = FIXTURES / case / "session.jsonl"
    if target.name.endswith(".zst"):
        import zstandard

        target.write_bytes(zstandard.ZstdCompressor().compress(source.read_bytes()))
    else:
        shutil.copyfile(source, target)
    return target


def make_home(tmp_path: Path, platform: str = "linux", xdg: bool = False) -> FakeHome:
    home = tmp_path / "home"
    home.mkdir(parents=True)
    env = {"USERPROFILE" if platform == "win32" else "HOME": str(home)}
    if platform == "win32":
        env["APPDATA"] = str(home / "AppData" / "Roaming")
    if xdg and platform == "linux":
        env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    return FakeHome(home, platform, env)


def use(home: FakeHome, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point this process's lookups at the fake home only (and its platform)."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in home.env.items():
        monkeypatch.setenv(name, value)
    if home.platform == "win32":  # os.path.expanduser must not find the real home either
        monkeypatch.setenv("HOME", str(home.home))
    monkeypatch.setattr(stores, "PLATFORM", home.platform)


def subprocess_env(home: FakeHome) -> dict[str, str]:
    """The environment of a `rebootspec` subprocess that sees only the fake home (Linux)."""
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(home.env)
    return env
