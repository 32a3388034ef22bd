"""`rebootspec run`: the conformance suite, which is pytest with the plugin and the bundled suite.

The run is isolated from the folder it is started in: its own ini file (`suite/pytest.ini`),
its own rootdir, no cache written into the installed package. Every pytest option still works
(`-k K7QX`, `-m "not hostile"`, `-n auto`, `--junitxml`), so there is only one runner. pytest is
imported only here, when the suite runs (`rebootspec count` never pays for it).
"""

from __future__ import annotations

import sys

from ...reference.core.userio import shown
from .. import SUITE_DIR
from .usage import EXIT_USAGE, usage_error

PROG = "rebootspec run"

HELP = """\
usage: rebootspec run [--candidate CMD] [conformance options] [pytest options]

Run every corpus case against a candidate and gate on the snapshots (exit 0: all claimed cases
pass; 1: some fail; 2: a usage error or a candidate that cannot start).

conformance options (each also read from the CONFORMANCE_* variable shown; the command line
wins; `rebootspec smoke` and `rebootspec fuzz` read the same variables):
{options}

examples:
  rebootspec run --candidate "./mytool count" --report-dir reports/
  rebootspec run --candidate "./mytool count" -k "phantom and not hostile"
  rebootspec run --corpus my-cases/ --snapshot-update     # never deletes other snapshots
"""


def suite_args(argv: list[str]) -> list[str]:
    """The pytest command line of a suite run: the suite, its ini file, then the user's args."""
    return [
        str(SUITE_DIR),
        "-c",
        str(SUITE_DIR / "pytest.ini"),
        "--rootdir",
        str(SUITE_DIR),
        "--conformance",
        # The run ends with the conformance summary (one line per failing case, per host, a
        # reproduce command): pytest's own list of failed node IDs and their long messages
        # would push it off the screen. `-ra`, `--tb=short` after these bring them back.
        "-rN",
        "--tb=no",
        *argv,
    ]


def run(argv: list[str]) -> int:
    """Run the suite; pytest's usage error (4) becomes rebootspec's (2), like every subcommand."""
    if any(arg in ("-h", "--help") for arg in argv):
        from ..options import describe_options

        sys.stdout.write(HELP.format(options=describe_options()))
        return 0
    import pytest

    from ..options import pytest_argv
    from .pytest_usage import CommandLineError, OwnUsageErrors

    try:
        code = int(pytest.main(suite_args(pytest_argv(argv)), plugins=[OwnUsageErrors()]))
    except CommandLineError as error:
        if not error.usage:
            sys.stderr.write(f"error: {shown(str(error))}\n")
            return EXIT_USAGE
        return usage_error(PROG, str(error))
    return EXIT_USAGE if code == pytest.ExitCode.USAGE_ERROR else code
