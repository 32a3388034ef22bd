"""The documentation site in a real browser: every page opens, no link is broken, nothing
overflows a 1366 px screen, and a rule ID in a URL lands on its rule (`tox -e docs-browser`).

Why: the site is what a candidate's error message links to (`SPEC.html#RBT-3`); a dead link or
a page that scrolls sideways on a laptop is what a reader meets first. The site is built by
docs/site/build.py (mkdocs-material, the `docs` extra) and served on 127.0.0.1 by a server
that answers a bounded number of requests and stops with the test; Chromium (headless, the
system's) opens every page, follows every link inside the site and checks each #fragment
against the ids of the page it names.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 1366, 900
MAX_REQUESTS = 5000


class _Bounded(http.server.SimpleHTTPRequestHandler):
    served = 0

    def do_GET(self) -> None:
        type(self).served += 1
        if type(self).served > MAX_REQUESTS:
            self.send_error(503, "request budget spent")
            return
        super().do_GET()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Path:
    pytest.importorskip("mkdocs", reason="mkdocs-material is not installed (pip install .[docs])")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "site" / "build.py"), "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    handler = functools.partial(_Bounded, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def visited(browser: Any, site: Path, base: str) -> dict[str, dict[str, Any]]:
    """Every HTML page of the site as Chromium shows it at 1366 px: its links, ids, width."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    pages: dict[str, dict[str, Any]] = {}
    for path in sorted(site.rglob("*.html")):
        name = path.relative_to(site).as_posix()
        response = page.goto(base + name)
        assert response is not None and response.ok, name
        pages[name] = {
            "links": page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"),
            "ids": set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")),
            "width": page.evaluate("document.documentElement.scrollWidth"),
            "errors": list(errors),
        }
        errors.clear()
    context.close()
    return pages


def test_every_page_opens_without_a_script_error(visited: dict[str, dict[str, Any]]) -> None:
    assert len(visited) >= 30
    broken = {name: page["errors"] for name, page in visited.items() if page["errors"]}
    assert not broken


def test_no_page_scrolls_sideways_at_1366_px(visited: dict[str, dict[str, Any]]) -> None:
    wide = {name: page["width"] for name, page in visited.items() if page["width"] > WIDTH}
    assert not wide


def test_every_link_inside_the_site_lands(visited: dict[str, dict[str, Any]], base: str) -> None:
    broken = []
    for name, page in visited.items():
        for link in page["links"]:
            if not link.startswith(base):
                continue  # outside the site: the pages cite no external link they need
            target, fragment = urldefrag(link)
            path = unquote(urlparse(target).path).lstrip("/") or "index.html"
            if path.endswith("/"):
                path += "index.html"
            landed = visited.get(path)
            if landed is None:
                broken.append(f"{name}: {link} (no such page)")
            elif fragment and unquote(fragment) not in landed["ids"]:
                broken.append(f"{name}: {link} (no #{fragment} there)")
    assert not broken, "\n".join(broken[:40])


def test_a_rule_id_in_the_url_lands_on_its_rule(browser: Any, base: str) -> None:
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    page.goto(base + "spec/SPEC.html#RBT-3")
    heading = page.locator("#RBT-3")
    assert heading.evaluate("e => e.tagName") in ("H2", "H3", "H4")
    assert "RBT-3" in heading.inner_text()
    assert (
        page.evaluate("Math.abs(document.getElementById('RBT-3').getBoundingClientRect().top)")
        < HEIGHT
    )
    page.close()
