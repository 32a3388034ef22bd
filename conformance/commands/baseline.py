"""`rebootspec baseline REPORT`: a known-divergences file from a report, reasons left blank."""

from __future__ import annotations

import sys
from pathlib import Path

from ...reference.core.userio import shown
from ..reports.baseline import write_baseline
from .usage import UsageParser


def cli(argv: list[str]) -> int:
    parser = UsageParser(
        prog="rebootspec baseline",
        description="One [ID] table per failing case of a report.json; every reason starts as "
        "TODO and a file that still holds one is refused by --known-divergences.",
        epilog="example: rebootspec baseline reports/report.json --out known-divergences.toml",
    )
    parser.add_argument("report", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="write here (never overwrites)")
    options = parser.parse_args(argv)
    try:
        text = write_baseline(options.report, options.out)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"error: {shown(str(error))}\n")
        return 2
    if options.out is None:
        sys.stdout.write(text)
    else:
        where = shown(str(options.out))
        print(f"wrote {where}: fill in every reason, then pass it with --known-divergences")
    return 0
