r"""Screenshot the top of a conformance report (verdict, totals, matrix) for the README.

Usage, from the checkout with the `browser` extra installed (`pip install -e .[browser]`) and
a system Chromium (`apt-get install chromium`, or REBOOTSPEC_CHROMIUM=/path):

    git clone https://github.com/VSQode/qhoami /tmp/qhoami
    rebootspec run --candidate qhoami:/tmp/qhoami --report-dir /tmp/qh-report -q
    python tests/browser/screenshot.py /tmp/qh-report/report.html \
        conformance/reports/qhoami-report.png

The picture is what a browser shows, not a mock-up: the README's screenshot is redone this way
whenever the report's template changes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chromium import find_chromium


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python tests/browser/screenshot.py", description=__doc__.splitlines()[0]
    )
    parser.add_argument("report", type=Path, help="a report.html")
    parser.add_argument("png", type=Path, help="where to write the PNG")
    parser.add_argument("--width", type=int, default=1200, help="viewport width (px)")
    parser.add_argument("--height", type=int, default=1200, help="height of the top shown (px)")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        print(f"error: {args.report}: no such file", file=sys.stderr)
        return 2
    executable, missing = find_chromium()
    if executable is None:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("error: playwright is not installed (pip install -e .[browser])", file=sys.stderr)
        return 2
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(args.report.resolve().as_uri())
        page.screenshot(path=str(args.png))
        browser.close()
    print(f"wrote {args.png} ({args.png.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
