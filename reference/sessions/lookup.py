"""`count --session ID` and `explain --session ID`: from an id (or its prefix) to one file.

Why a module of its own: the answer for a person who has an id and no path is a lookup in every
store of the table (stores.py), and its two failures must say enough to act on — the sessions a
short prefix matched (give more of the id), or every folder looked in (no such session here).
Both are usage errors (exit 2, PRO-2): the log was never read.
"""

from __future__ import annotations

from typing import TextIO

from ..core.printable import printable
from .finder import Found, lookup, scan
from .stores import roots

EXIT_FOUND = 0
EXIT_USAGE = 2
SHOWN = 20  # matches listed for an ambiguous prefix


def resolve(prefix: str, found: dict[str, str], err: TextIO) -> int:
    """Fill `found` with `file` and `session` for the one match, or explain on `err` (exit 2)."""
    wanted = prefix.strip()
    if not wanted or any(sep in wanted for sep in "/\\") or wanted.startswith("."):
        err.write(
            f"usage error: --session {prefix!r}: give a session id or a prefix of it; "
            "a path is counted without --session (try --help)\n"
        )
        return EXIT_USAGE
    walked = scan(roots())
    matches = lookup(wanted, walked.found)
    if len(matches) == 1:
        found["file"] = matches[0].path
        found["session"] = matches[0].id
        return EXIT_FOUND
    if matches:
        err.write(
            f"error: session {wanted!r}: {len(matches)} sessions match; give more of the id:\n"
        )
        err.writelines(_row(item) for item in matches[:SHOWN])
        if len(matches) > SHOWN:
            err.write(f"  ... and {len(matches) - SHOWN} more\n")
        return EXIT_USAGE
    err.write(f"error: session {wanted!r}: no session with this id; looked in:\n")
    for root, exists in walked.looked:
        via = f"  (from {root.via})" if root.via else ""
        shown = printable(root.path)
        err.write(f"  {root.host:<6}  {shown}{'' if exists else '  (not there)'}{via}\n")
    for problem in walked.problems:  # ERR-10: names from the disk, escaped
        message = printable(problem.message)
        err.write(f"  warning {problem.code}: {printable(problem.path)}: {message}\n")
    from ..core.registry import store_variables

    err.write(f"other places: set {store_variables()}, or count the file by its path\n")
    return EXIT_USAGE


def _row(item: Found) -> str:
    return f"  {item.host:<6}  {printable(item.id)}  {printable(item.path)}\n"
