"""The peers scoreboard page (`rebootspec peers`) as a reader sees it, in a headless Chromium.

The page is rendered from a small recorded board (two peers, one skipped) by the command's own
`--from-json`; what the page must show is checked against that JSON: each right/claimed cell,
the skipped peer's reason, a miss's gallery row, no console problem, and a phone-width page whose
wide table scrolls in its own box instead of widening the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.conformance.commands import peers as command

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 800}

BOARD: dict[str, Any] = {
    "date": "2026-11-27",
    "rebootspec": "0.1.0",
    "own": {"codex": 0.07, "pi": 0.06},
    "gallery": True,
    "peers": [
        {
            "name": "counter-a",
            "version": "1.2.3",
            "registry": "npm",
            "package": "counter-a",
            "hosts": ["codex", "pi"],
            "reads": "its number",
            "skipped": None,
            "records": [
                {
                    "case": case,
                    "host": host,
                    "expected": {"outcome": "count", "reboots": want},
                    "outcome": "pass" if want == said else "fail",
                    "actual": {"outcome": "count", "reboots": said},
                    "seconds": 0.4,
                    "detail": "" if want == said else f"counted {said}, expected {want}",
                    "tags": [],
                    "rows": [] if want == said else rows,
                }
                for case, host, want, said, rows in [
                    ("C001", "codex", 1, 1, []),
                    ("C002", "codex", 1, 2, ["counts-inherited"]),
                    ("P001", "pi", 2, 2, []),
                ]
            ],
        },
        {
            "name": "counter-b",
            "version": "0.1",
            "registry": "pypi",
            "package": "counter-b",
            "hosts": ["claude-code"],
            "reads": "x",
            "skipped": "its CLI needs Python 3.12",
            "records": [],
        },
    ],
}


@pytest.fixture(scope="module")
def page_path(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Path:
    folder = tmp_path_factory.mktemp("peers")
    recorded = folder / "in.json"
    recorded.write_bytes(orjson.dumps(BOARD))
    assert command.cli(["--from-json", str(recorded), "--out", str(folder / "out")]) == 0
    return folder / "out" / "peers.html"


def _open(browser: Any, path: Path, **context: Any) -> tuple[Any, list[str]]:
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(5000)
    page = ctx.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(m.text) if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(path.as_uri())
    return page, problems


def test_the_board_shows_each_cell_of_the_recorded_run(browser: Any, page_path: Path) -> None:
    page, problems = _open(browser, page_path)
    rows = page.eval_on_selector_all(
        "table.board tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )
    by_name = {row[0]: row for row in rows[1:]}
    header = rows[0]
    codex, pi = header.index("codex"), header.index("pi")
    assert by_name["counter-a"][codex].startswith("1 / 2")  # C001 right, C002 wrong
    assert by_name["counter-a"][pi].startswith("1 / 1")
    assert "skipped" in by_name["counter-b"][header.index("claude-code")]
    assert "Python 3.12" in by_name["counter-b"][-1]
    assert "counts-inherited" in by_name["counter-a"][-1]
    assert problems == []


def test_a_miss_names_its_case_and_row(browser: Any, page_path: Path) -> None:
    page, _ = _open(browser, page_path)
    details = page.inner_text("#counter-a")
    assert "C002" in details and "counts-inherited" in details


def test_the_page_fits_a_phone(browser: Any, page_path: Path) -> None:
    page, problems = _open(browser, page_path, viewport=PHONE)
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"] + 1
    assert problems == []
