"""argparse whose usage errors read like the rest of rebootspec: one line, exit 2."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_USAGE = 2


class UsageParser(argparse.ArgumentParser):
    """An argument parser that reports a usage error as one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"usage error: {self.prog}: {message} (try --help)\n")
        raise SystemExit(EXIT_USAGE)


def usage_error(prog: str, message: str) -> int:
    """Print one usage-error line and return the exit code for it."""
    sys.stderr.write(f"usage error: {prog}: {message} (try --help)\n")
    return EXIT_USAGE
