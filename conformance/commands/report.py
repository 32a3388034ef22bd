"""`rebootspec report REPORT.json`: render a report again as Markdown and HTML.

A CI job keeps report.json (small, for `compare`); the pages people read are made from it
whenever they are wanted, with the templates of the installed rebootspec.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jinja2 import TemplateError

from ...reference.core.errors import os_reason
from ...reference.core.userio import Refused, shown
from ..reports.report import load, write
from .usage import UsageParser


def cli(argv: list[str]) -> int:
    parser = UsageParser(
        prog="rebootspec report",
        description="Write report.json, report.md and report.html from a report.json.",
        epilog="example: rebootspec report reports/report.json --out pages/",
    )
    parser.add_argument("report", type=Path)
    parser.add_argument(
        "--out", type=Path, default=None, help="the folder to write (default: the report's)"
    )
    options = parser.parse_args(argv)
    try:
        report = load(options.report)
    except ValueError as error:
        sys.stderr.write(f"error: {shown(str(error))}\n")
        return 2
    folder = options.out if options.out is not None else options.report.parent
    try:
        paths = write(report, folder)
    except (TemplateError, TypeError, AttributeError, ValueError) as error:
        # A report.json of the right shape whose members the pages cannot show (a hand-made
        # or damaged file: a header member of another type): one line, nothing written.
        why = f"not a report these pages can show: {error}"
        sys.stderr.write(f"error: {shown(str(options.report))}: {shown(why)}\n")
        return 2
    except Refused as refused:  # a FIFO or device under a report's name is left alone
        sys.stderr.write(f"error: {shown(str(refused))}\n")
        return 2
    except OSError as error:
        sys.stderr.write(f"error: {shown(str(folder))}: cannot write: {os_reason(error)}\n")
        return 2
    for path in paths:
        print(f"wrote {shown(str(path))}")
    return 0
