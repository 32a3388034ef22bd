"""`rebootspec count` and `explain`: the reference's own command line, under the name rebootspec."""

from __future__ import annotations

from ...reference.cli import main


def count(argv: list[str]) -> int:
    return main(["count", *argv], prog="rebootspec")


def explain(argv: list[str]) -> int:
    return main(["explain", *argv], prog="rebootspec")
