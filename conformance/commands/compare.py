"""`rebootspec compare OLD NEW`: the release gate between two reports (exit 1 when one broke)."""

from __future__ import annotations

import sys
from pathlib import Path

from ...reference.core.userio import shown
from ..reports.compare import compare, format_comparison
from ..reports.report import load
from .usage import UsageParser

ASPECTS = ("corpus", "profile", "selection")


def cli(argv: list[str]) -> int:
    parser = UsageParser(
        prog="rebootspec compare",
        description="What changed between two report.json files, case by case; exit 1 when a "
        "case that passed no longer does.",
        epilog="example: rebootspec compare reports/v1.3/report.json reports/v1.4/report.json",
    )
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument(
        "--allow-different",
        default="",
        metavar="ASPECTS",
        help="accept reports that differ in these (comma-separated: corpus,profile,selection)",
    )
    options = parser.parse_args(argv)
    allow = {a.strip() for a in options.allow_different.split(",") if a.strip()}
    unknown = sorted(allow - set(ASPECTS))
    if unknown:
        parser.error(f"--allow-different: unknown aspects {', '.join(unknown)}")
    try:
        old, new = load(options.old), load(options.new)
    except ValueError as error:
        sys.stderr.write(f"error: {shown(str(error))}\n")
        return 2
    try:
        result = compare(old, new, frozenset(allow))
    except (TypeError, AttributeError, KeyError, ValueError) as error:
        # Reports of the right shape whose members are of other types (hand-made or damaged:
        # a header's `candidate` a number, a case's `actual` a string): one line, exit 2.
        names = f"{options.old} and {options.new}"
        why = f"reports compare cannot read ({type(error).__name__}: {error})"
        sys.stderr.write(f"error: {shown(names)}: {shown(why)}\n")
        return 2
    sys.stdout.write(format_comparison(result, str(options.old), str(options.new)))
    return 1 if result.failed else 0
