"""`rebootspec version`: which rebootspec, spec and corpus a result was made with."""

from __future__ import annotations

from .. import DEFAULT_CORPUS
from ..runner.corpus import spec_version
from ..runner.integrity import combined, digest_tree
from ..versions import suite_version
from .usage import UsageParser


def cli(argv: list[str]) -> int:
    UsageParser(
        prog="rebootspec version",
        description="Print the rebootspec version, the spec version and the corpus digest.",
        epilog="example: rebootspec version",
    ).parse_args(argv)
    cases = sum(1 for entry in DEFAULT_CORPUS.iterdir() if (entry / "case.toml").is_file())
    print(f"rebootspec {suite_version()}")
    print(f"spec {spec_version()}")
    print(f"corpus {cases} cases, digest {combined(digest_tree(DEFAULT_CORPUS))}")
    return 0
