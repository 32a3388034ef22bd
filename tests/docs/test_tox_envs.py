"""docs/development.md's table of tox environments is a copy of tox.ini: same envs, and the
default list is the one a reader is told runs in CI (a fact written once, the copy checked)."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| (.*) \|$", re.M)


def tox() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "tox.ini", encoding="utf-8")
    return parser


def default_envs() -> list[str]:
    return [env.strip() for env in tox()["tox"]["env_list"].split(",")]


def table() -> dict[str, str]:
    text = (ROOT / "docs" / "development.md").read_text("utf-8")
    return dict(ROW.findall(text))


def test_the_table_names_every_tox_env_and_no_other() -> None:
    named = {section.split(":", 1)[1] for section in tox().sections() if ":" in section}
    assert set(table()) == named | set(default_envs())


def test_the_table_says_which_envs_the_default_tox_leaves_out() -> None:
    rows = table()
    defaults = default_envs()
    assert defaults[0] == "py3"
    wrong = [
        env
        for env, what in rows.items()
        if ("not in the default list" in what) == (env in defaults)
    ]
    assert not wrong, f"rows that say the opposite of tox.ini's env_list: {wrong}"
    text = (ROOT / "docs" / "development.md").read_text("utf-8")
    listed = ", ".join(f"`{env}`" for env in defaults)
    assert f"The default `tox` ({listed})" in text
