"""`rebootspec smoke`: a few easy cases, to see that a candidate's adapter is wired right.

It takes the same settings as `rebootspec run` where they apply (conformance/options.py), so a
candidate configured through CONFORMANCE_CANDIDATE is the one smoke-tested.
"""

from __future__ import annotations

import argparse
import sys

from ...reference.core.userio import shown
from ..options import SMOKE_SETTINGS, OptionError, Settings, add_settings
from ..runner.candidates import startable
from ..runner.corpus import CorpusError, known_hosts, known_tags, load_corpus
from ..runner.profiles import ProfileError, claimed_profile, load_profile
from ..runner.smoke import described, smoke
from ..runner.snapshots import SnapshotFolder
from .usage import EXIT_USAGE, UsageParser, usage_error

PROG = "rebootspec smoke"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG,
        description=f"{described()[0].upper()}{described()[1:]}: exit 0 when the candidate "
        "gets every case it claims right (--hosts leaves the other hosts' cases out). Each "
        "option is also read from the CONFORMANCE_* variable shown, as for `rebootspec run`.",
        epilog='example: rebootspec smoke --candidate "./mytool count"',
    )
    add_settings(parser.add_argument, SMOKE_SETTINGS)
    return parser


def cli(argv: list[str]) -> int:
    given = Settings.of(build_parser().parse_args(argv))
    try:
        candidate = given.candidate(given.isolation())
        reader = given.reader(candidate)
        timeout = given.case_timeout()
        profile = claimed_profile(
            load_profile(given.text("profile"), known_tags()),
            given.text("hosts"),
            candidate,
            known_hosts(),
        )
        cases = load_corpus(given.corpus())
        snapshots = given.path("conformance_snapshots")
    except (OptionError, CorpusError, ProfileError) as error:
        return usage_error(PROG, str(error))
    problem = startable(candidate)
    if problem is not None:  # as `run` does: one line before any case, exit 2
        sys.stderr.write(f"error: {shown(problem)}\n")
        return EXIT_USAGE
    SnapshotFolder.root = snapshots
    text, ok = smoke(cases, candidate, reader, profile, timeout)
    sys.stdout.write(text)
    return 0 if ok else 1
