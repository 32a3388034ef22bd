"""The README is a map a newcomer reads in minutes; each reader's page starts from what they
have and ends with the command that proves the job done; numbers in the pages are the code's.

Why (issue 46): the README had grown to 877 lines of history, the reader sections started at
line 399, and the same corpus was 183, 236, 262 and 474 cases in different places. These tests
keep the README short, every reader one link away, and the counts of hosts, subcommands and
peers tied to the registry, the CLI's table and the peers' list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rebootspec.conformance.cli import COMMANDS
from rebootspec.conformance.presets.peers import PEERS
from rebootspec.conformance.scoreboard import render
from rebootspec.reference.core import registry

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text("utf-8")
# A page per reader of the README's "Find your page" (issue 46's list of readers).
READERS = [
    "candidates.md",
    "agents.md",
    "releases.md",
    "spec-authors.md",
    "contribute-a-session.md",
    "counting.md",
    "sessions.md",
]


def test_the_readme_is_at_most_250_lines() -> None:
    assert len(README.splitlines()) <= 250


def test_the_readme_links_every_readers_page_under_find_your_page() -> None:
    section = README.split("## Find your page", 1)[1].split("\n## ", 1)[0]
    for page in READERS:
        assert f"(docs/{page})" in section, page


def test_the_readme_links_every_page_of_docs() -> None:
    for page in DOCS.glob("*.md"):
        assert f"(docs/{page.name}" in README, page.name


@pytest.mark.parametrize("page", [*READERS, "cli.md", "development.md"])
def test_a_readers_page_starts_from_what_they_have_and_ends_with_a_command(page: str) -> None:
    text = (DOCS / page).read_text("utf-8")
    title, _, rest = text.partition("\n")
    assert title.startswith("# ")
    assert rest.lstrip().startswith("**You have:**"), page
    last = text.rsplit("\n## ", 1)[1]
    assert last.startswith("Done when"), page
    assert re.search(r"`(rebootspec|python|tox)[^`]*`|```", last), page


def test_the_cli_page_lists_every_subcommand() -> None:
    table = (DOCS / "cli.md").read_text("utf-8").split("| subcommand |", 1)[1].split("\n\n")[0]
    for name in COMMANDS:
        assert re.search(rf"`(rebootspec )?{name}( |`)", table), name


def test_the_readme_host_table_names_every_host() -> None:
    table = README.split("| host | chapter |", 1)[1].split("\n\n")[0]
    for host in registry.hosts():
        assert f"| {host.name} | [`{Path(host.chapter).name}`](spec/{host.chapter}) |" in table


def test_the_matrix_paragraph_counts_the_clis_commands() -> None:
    """docs/evidence.md's size of the hostile-input matrix: every command of the CLI's table."""
    text = " ".join((DOCS / "evidence.md").read_text("utf-8").split())
    said = re.search(r"every command of the CLI's table \((\d+)\) against (\d+) hostile", text)
    assert said, "the matrix paragraph is gone"
    commands, inputs = int(said.group(1)), int(said.group(2))
    assert commands == len(COMMANDS)
    cells = re.search(r"the output file: (\d+) cells", text)
    assert cells and int(cells.group(1)) == commands * inputs


def test_the_peers_page_holds_the_scoreboard_of_every_peer() -> None:
    """`rebootspec peers --readme docs/peers.md` writes between these markers; every peer of
    the presets has its row (a peer added without a new scoreboard run fails here)."""
    text = (DOCS / "peers.md").read_text("utf-8")
    assert text.count(render.BEGIN) == 1 and text.count(render.END) == 1
    board = text.split(render.BEGIN, 1)[1].split(render.END, 1)[0]
    for peer in PEERS:
        assert f"| {peer.name} |" in board, peer.name


def test_the_sessions_page_names_every_host_whose_stores_are_searched() -> None:
    """`--session ID` and `rebootspec sessions` search the stores of every host (the issue found
    the page naming three of eight)."""
    text = " ".join((DOCS / "sessions.md").read_text("utf-8").split())
    for host in registry.hosts():
        assert host.name in text, host.name
