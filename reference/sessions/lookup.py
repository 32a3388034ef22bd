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


def within(
    path: str, wanted: str, err: TextIO, forced: str | None = None
) -> tuple[int, str | None]:
    """`count PATH --session ID` (or `count PATH SESSION`): (exit code, the session to count).

    In a store of many sessions (an opencode database or storage folder) the store's reader
    looks the id up; when it finds none, `by_prefix` takes it as a prefix, as without a path:
    one match is that session, several are a usage error, none leaves E-SESSION. A file of
    one session has nothing to choose: an id is accepted only when it is (a prefix of) that
    file's own id, and anything else is a usage error (exit 2), never silently ignored. With
    `--host` (`forced`, HST-3) a path its host does not take as a store is the reader's to judge.
    """
    import os

    from ..core.errors import Rejection
    from ..core.host import Host
    from ..core.registry import detect, get
    from .stores import session_id

    key = wanted.strip().lower()
    try:
        host = get(forced) if forced is not None else detect(path)
        keeps_stores = type(host).is_store is not Host.is_store  # it overrides "no"
        if forced is not None and keeps_stores and not host.is_store(path):
            return EXIT_FOUND, wanted  # not a store of the host it must be: the reader says why
        if host.is_store(path):  # the reader looks the id up; a miss comes to `by_prefix`
            return EXIT_FOUND, wanted
        named = session_id(os.path.basename(path))
        own = host.session_ids(path, named[1]) if named else ()
    except (Rejection, OSError, ValueError, MemoryError):
        return EXIT_FOUND, wanted  # the reader reports what is wrong with the input (ERR-*)
    # a file of one session: only its own id (or a prefix of it) names it
    if key and any(ident.lower().startswith(key) for ident in own):
        return EXIT_FOUND, None
    shown = [ident for ident in own if ident.isascii() and ident.replace("-", "").isalnum()]
    its = f" (its id: {shown[0]})" if shown else ""  # nothing raw from a file is printed
    err.write(
        f"usage error: {printable(path)} is one session{its}, not {printable(repr(wanted))}: "
        "a session id is given only with a store of many sessions (try --help)\n"
    )
    return EXIT_USAGE, None


def by_prefix(
    path: str, wanted: str, err: TextIO, forced: str | None = None
) -> tuple[int, str | None]:
    """A store's reader found no session `wanted`: (exit code, the one session whose id starts
    with it, or None when there is none, so the reader's E-SESSION stands). Several are a usage
    error listing them. The store is listed only here, on a miss, so a full id reads it once."""
    from ..core.errors import Rejection
    from ..core.registry import detect, get

    key = wanted.strip().lower()
    try:
        host = get(forced) if forced is not None else detect(path)
        ids = [ident for ident, _ in host.sessions_in(path)]
    except (Rejection, OSError, ValueError, MemoryError):
        return EXIT_FOUND, None
    matches = [ident for ident in ids if ident.lower().startswith(key)]
    exact = [ident for ident in matches if ident.lower() == key]
    if exact or not key:
        return EXIT_FOUND, None  # the id is there (or empty): the reader's answer stands
    if len(matches) == 1:
        return EXIT_FOUND, matches[0]
    if matches:
        err.write(
            f"error: session {printable(repr(wanted))}: {len(matches)} sessions of "
            f"{printable(path)} match; "
            "give more of the id:\n"
        )
        err.writelines(f"  {printable(ident)}\n" for ident in matches[:SHOWN])
        return EXIT_USAGE, None
    return EXIT_FOUND, None
