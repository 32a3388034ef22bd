"""argparse for the generator's command lines: a usage error is one line and exit 2.

The generator may not import the reference (whose command line has the same rule), so it keeps
its own small parser; the message reads like every other rebootspec usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_USAGE = 2


class UsageParser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line on stderr and exit 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"usage error: {message} (try --help)\n")
        raise SystemExit(EXIT_USAGE)
