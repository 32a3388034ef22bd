"""The HTML report as a user sees it: opened by file:// in a headless Chromium.

What a reader needs from the page: it loads cleanly and self-contained, shows every table the
run produced with the run's numbers, lets a failing case be opened to see what was expected,
what came back and what the candidate wrote to stderr, and stays readable on a phone.
The numbers are checked against report.json, the report's source, not against the HTML itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}
TABLES = """() => [...document.querySelectorAll('table')].map(
    t => [...t.rows].map(r => [...r.cells].map(c => c.textContent.trim())))"""
WIDTH = "() => document.scrollingElement.scrollWidth"
CRASH_TEXT = "a third compaction is beyond this counter"  # flawed_candidate.py's stderr

Opener = Callable[..., tuple[Any, list[str]]]


@pytest.fixture
def open_report(browser: Any, report_dir: Path) -> Iterator[Opener]:
    """Opens report.html in a fresh context; returns the page and every problem it reported
    (console errors and warnings, uncaught errors, failed or outside requests)."""
    contexts: list[Any] = []
    uri = (report_dir / "report.html").as_uri()

    def open_(fragment: str = "", **context: Any) -> tuple[Any, list[str]]:
        ctx = browser.new_context(**({"viewport": DESKTOP} | context))
        ctx.set_default_timeout(5000)  # a missing element fails in seconds, not Playwright's 30
        contexts.append(ctx)
        page = ctx.new_page()
        problems: list[str] = []

        def on_console(message: Any) -> None:
            if message.type in ("error", "warning"):
                problems.append(f"console {message.type}: {message.text}")

        def on_request(request: Any) -> None:
            if request.url.split("#")[0] != uri:
                problems.append(f"request outside the report: {request.url}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
        page.on("request", on_request)
        page.goto(uri + fragment)
        return page, problems

    yield open_
    for ctx in contexts:
        ctx.close()


def table_starting(tables: list[list[list[str]]], *heads: str) -> list[list[str]]:
    """The one table whose header row begins with `heads`."""
    found = [t for t in tables if t and t[0][: len(heads)] == list(heads)]
    assert len(found) == 1, f"expected one table headed {heads}, found {len(found)}"
    return found[0]


def failing_cases(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report["cases"] if c["gate"] in ("fail", "xfail", "xpass")]


def test_the_page_loads_with_no_errors_and_nothing_from_outside(open_report: Opener) -> None:
    page, problems = open_report()
    assert page.title() == "Conformance report: FAIL"
    assert problems == []


def test_every_table_is_there_with_the_runs_numbers(
    open_report: Opener, report: dict[str, Any]
) -> None:
    page, _ = open_report()
    tables = page.evaluate(TABLES)
    about = {row[0]: row[1] for row in table_starting(tables, "candidate")}
    assert "flawed_candidate.py" in about["candidate"]
    assert set(about) >= {"answer read from", "profile", "corpus", "started"}
    totals = report["totals"]
    outcomes = table_starting(tables, "outcome", "cases")[1:]
    assert outcomes == [[name, str(n)] for name, n in totals["outcomes"].items()]
    assert {"pass", "fail", "missed-error", "crash"} <= set(totals["outcomes"])  # all kinds shown
    gates = table_starting(tables, "gate", "cases")[1:]
    assert gates == [[name, str(n)] for name, n in totals["gates"].items()]
    matrix = table_starting(tables, "tag")
    columns = matrix[0][1:]
    assert [row[0] for row in matrix[1:]] == list(report["matrix"])
    for row in matrix[1:]:
        assert row[1:] == [str(report["matrix"][row[0]][c]) for c in columns], row[0]
    reasons = table_starting(tables, "phantom reason", "phantoms")[1:]
    phantom_reasons = report["informative"]["phantom_reasons"]
    assert reasons == [[r, str(n)] for r, n in phantom_reasons.items()] and reasons
    informative = table_starting(tables, "case", "outcome", "count", "reboots_possible")
    assert len(informative) > 1
    failing = failing_cases(report)
    shown = page.locator("details.case").evaluate_all("all => all.map(d => d.id)")
    assert shown == [c["id"] for c in failing]
    case_tables = [t for t in tables if t and t[0][0] == "rules"]
    assert len(case_tables) == len(failing)


def test_a_failing_cases_detail_opens_on_a_click(
    open_report: Opener, report: dict[str, Any]
) -> None:
    crash = next(c for c in report["cases"] if c["outcome"] == "crash")
    assert CRASH_TEXT in crash["stderr"]
    page, problems = open_report()
    case = page.locator(f"details[id='{crash['id']}']")
    stderr = case.locator("pre")
    assert not stderr.is_visible()  # closed: the list of failures stays short
    case.locator("summary").click()
    assert stderr.is_visible() and CRASH_TEXT in stderr.inner_text()
    rows = {
        row.locator("th").inner_text(): row.locator("td").inner_text()
        for row in case.locator("tr").all()
    }
    assert rows["expected"] == str(crash["expected"]["reboots"])
    assert rows["actual"].startswith("crash")
    assert case.locator("tr", has_text="expected").is_visible()
    assert problems == []


def test_a_wrong_count_says_expected_and_got_before_it_is_opened(
    open_report: Opener, report: dict[str, Any]
) -> None:
    wrong = next(c for c in report["cases"] if c["outcome"] == "fail")
    page, _ = open_report()
    summary = page.locator(f"details[id='{wrong['id']}'] > summary")
    text = summary.inner_text()
    assert summary.is_visible()
    expected, got = wrong["expected"]["reboots"], wrong["actual"]["reboots"]
    assert f"expected {expected}, got {got}" in text


def test_links_reach_the_failures(open_report: Opener, report: dict[str, Any]) -> None:
    page, _ = open_report()
    page.get_by_role("link", name=f"{report['totals']['gates']['fail']} fail").click()
    assert page.locator("#failing").is_visible()
    assert page.evaluate("document.getElementById('failing').getBoundingClientRect().top") < 100
    crash = next(c for c in report["cases"] if c["outcome"] == "crash")
    linked, problems = open_report(f"#{crash['id']}")  # a link to one case, e.g. from a chat
    case = linked.locator(f"details[id='{crash['id']}']")
    assert case.evaluate("d => d.getBoundingClientRect().top") < 100  # scrolled to it
    case.locator("summary").click()
    assert case.locator("pre").is_visible()
    assert problems == []


def test_a_desktop_shows_every_table_whole(open_report: Opener) -> None:
    page, _ = open_report()
    page.locator("details.case").evaluate_all("all => all.forEach(d => d.open = true)")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('table')]
            .filter(t => t.parentElement.scrollWidth > t.parentElement.clientWidth + 1)
            .map(t => t.rows[0].cells[0].textContent)"""
    )
    assert cut == []  # at 1280 px nothing hides behind a horizontal scroll bar
    assert page.evaluate(WIDTH) <= DESKTOP["width"]


def test_a_phone_can_read_it_without_scrolling_sideways(
    open_report: Opener, report: dict[str, Any]
) -> None:
    page, problems = open_report(viewport=PHONE, is_mobile=True, has_touch=True)
    assert page.evaluate("window.innerWidth") == PHONE["width"]  # laid out for the phone
    assert page.evaluate(WIDTH) <= PHONE["width"] + 1
    page.locator("details.case").evaluate_all("all => all.forEach(d => d.open = true)")
    assert page.evaluate(WIDTH) <= PHONE["width"] + 1  # long stderr and answers wrap
    wide = page.evaluate(
        """() => [...document.querySelectorAll('table')]
            .filter(t => t.getBoundingClientRect().width > window.innerWidth)
            .map(t => {
                const box = t.parentElement, style = getComputedStyle(box);
                return {
                    head: t.rows[0].cells[0].textContent,
                    scrolls: ['auto', 'scroll'].includes(style.overflowX),
                    fits: box.getBoundingClientRect().right <= window.innerWidth + 1,
                };
            })"""
    )
    assert "tag" in [w["head"] for w in wide]  # the matrix: too many columns for a phone
    assert all(w["scrolls"] and w["fits"] for w in wide), wide
    font = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert font >= 14
    assert problems == []
