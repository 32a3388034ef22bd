"""Every list of hosts people read names every host of the registry (spec/hosts.toml).

Why: the host lists drifted (`--host` rejected a host `count` reads; the README, the pyproject
description and `--help` named three hosts of seven). A list is either generated from the
registry (`rebootspec --help`, `sessions --help`, `--host`'s choices, the "looked in" hint) or
checked here against it.
"""

from __future__ import annotations

import io
import re
import tomllib
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from rebootspec.conformance.cli import overview
from rebootspec.reference.core import registry

ROOT = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_opening_names_every_host() -> None:
    opening = _flat((ROOT / "README.md").read_text("utf-8").split("\n## ", 1)[0])
    for host in registry.hosts():
        assert host.name in opening, host.name


def test_the_package_description_names_every_host() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    for host in registry.hosts():
        assert host.name in project["description"], host.name


def test_rebootspec_help_names_every_host() -> None:
    text = _flat(overview())
    for host in registry.hosts():
        assert host.name in text, host.name


def test_host_option_takes_every_host() -> None:
    from rebootspec.reference.cli import build_parser

    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args(["count", "--help"])
    for key in registry.host_keys():
        assert key in out.getvalue(), key


def test_the_spec_names_every_host_and_chapter() -> None:
    spec = (ROOT / "spec" / "SPEC.md").read_text("utf-8")
    hst1 = spec.split("### HST-1", 1)[1].split("###", 1)[0]
    for host in registry.hosts():
        assert f"`{host.key}`" in hst1, host.key
        assert (ROOT / "spec" / host.chapter).exists(), host.chapter
    readme = (ROOT / "README.md").read_text("utf-8")
    for host in registry.hosts():
        assert Path(host.chapter).name in readme, host.chapter


def test_every_host_has_its_package() -> None:
    for host in registry.hosts():
        row = tomllib.loads((ROOT / "spec" / "hosts.toml").read_text("utf-8"))[host.key]
        assert (ROOT / "reference" / "hosts" / row["module"] / "__init__.py").exists()
        assert re.fullmatch(r"[a-z_]+", row["module"])


DOCS = [
    *("README.md", "CONTRIBUTING.md", "conformance/README.md", "spec/SPEC.md", "spec/STORES.md"),
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")),
]
HOST_LIST = re.compile(r"--host\s+`?((?:[a-z-]+\|)+[a-z-]+)")


def test_every_host_list_of_an_option_in_the_docs_is_the_registry() -> None:
    """`--host a|b|c` in a doc is the reference's `--host` (HST-3): every host, in the registry's
    order (a generator's own `--host`, such as `big-host --host claude-code|gemini`, is not)."""
    found = 0
    for name in DOCS:
        text = _flat((ROOT / name).read_text("utf-8"))
        for match in HOST_LIST.finditer(text):
            if "big-host" in text[max(0, match.start() - 40) : match.end()]:
                continue
            found += 1
            assert tuple(match.group(1).split("|")) == registry.host_keys(), (name, match[0])
    assert found >= 1


def test_every_session_variable_is_in_the_agents_page_and_stores_md() -> None:
    """WHO-1: the variables each host gives its shell tool (Host.identity) are the ones the
    agents' page (docs/agents.md) and STORES.md's table name (issue 43:
    COPILOT_AGENT_SESSION_ID)."""
    readme = (ROOT / "docs" / "agents.md").read_text("utf-8")
    stores = (ROOT / "spec" / "STORES.md").read_text("utf-8")
    for host in registry.hosts():
        for variable in host.identity.names():
            assert f"`{variable}`" in readme, (host.key, variable)
            assert f"`{variable}`" in stores, (host.key, variable)
