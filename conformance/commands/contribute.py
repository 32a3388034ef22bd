"""`rebootspec anonymize` and `add-fixture`: the corpus tools, with the reference wired in.

The generator package never imports the reference (its expected counts come from plans and
people, never from a counter); the contribution tools still want to show what the reference
sees, so this layer, which may import both, hands them the reference as a plain function.
"""

from __future__ import annotations

from ...generators.anonymize.command import cli as anonymize_cli
from ...generators.corpus.add_fixture import cli as add_fixture_cli


def anonymize(argv: list[str]) -> int:
    return int(anonymize_cli(argv))


def add_fixture(argv: list[str]) -> int:
    return int(add_fixture_cli(argv))
