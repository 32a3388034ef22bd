"""Usage errors that read like the rest of rebootspec: one line on stderr, exit 2.

The parser is the corpus tools' (`generators.usage.UsageParser`), so every subcommand words a
usage error, and names an option typo with the nearest real option, the same way.
"""

from __future__ import annotations

import sys

from ...generators.usage import EXIT_USAGE, UsageParser, unknown_words

__all__ = ["EXIT_USAGE", "UsageParser", "unknown_words", "usage_error"]


def usage_error(prog: str, message: str) -> int:
    """Print one usage-error line and return the exit code for it. The message often quotes
    what the user typed or a path from the disk: it is escaped (ERR-10), so it stays one line
    and drives no terminal."""
    from ...reference.core.printable import printable

    sys.stderr.write(f"usage error: {prog}: {printable(message)} (try --help)\n")
    return EXIT_USAGE
