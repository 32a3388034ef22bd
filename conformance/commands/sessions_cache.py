"""The cache of `rebootspec sessions`: a row is counted again only when its files changed.

Why: a listing of thousands of sessions counts every byte of every log; run twice with nothing
changed it should answer at once. But a cache is only a cache if it can never change an answer:

- What a row is kept under: the identity of every file it was counted from — the file (or
  store) and its side files, and the other files its answer was read from (a chat-loop chain's
  earlier files, `Answer.sources`, so removing one is seen as `count` sees it: E-CHAIN) — each
  as device, inode, size, modification and change times in nanoseconds, and whether it can be
  read. A same-size edit whose modification time was put back still changes the change time; a
  file made unreadable is counted again (and says so). rebootspec's version, the spec's and the
  reference's own files are in the key too, so a new counter never trusts an old answer.
- What is believed: a file whose digest does not match its entries (edited by hand, damaged)
  is rebuilt whole, and a row is checked against the schema of a row before it is used (closed
  sets for the host and the warning codes — the spec's own list of codes —, counts that are
  integers from 0 to MAX_REBOOTS, text without control characters, the file it is keyed on). A
  row that fails is counted again; a file that is not a cache of this version (damaged,
  truncated, wrong types, bigger than MAX_BYTES) is rebuilt whole.
- Where it lives: the user's cache folder (`$XDG_CACHE_HOME/rebootspec`, `~/Library/Caches/
  rebootspec`, `%LOCALAPPDATA%\\rebootspec\\Cache`; `REBOOTSPEC_CACHE_DIR` moves it). On POSIX
  that folder must be the user's own and writable by nobody else, else another user could plant
  rows: it is then not used at all (one warning line; every session is counted). The file is
  opened without following a symbolic link (O_NOFOLLOW), must be a regular file of the user's,
  and is read up to MAX_BYTES. It is private (0700 folder, 0600 file), written whole to a
  temporary file and renamed, so a run that dies never leaves half a cache.

It holds paths, ids, titles and counts, nothing of a log's content beyond the title a listing
shows anyway. Deleting it is always safe: the next listing rebuilds it.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

from ...reference.core.userio import (
    LIMITS,
    Refused,
    read_bytes,
    read_own,
    read_text,
    write_bytes,
)

FORMAT = 2  # 2: identities of every file (inode, ctime, readable), chains' sources, checked rows
CACHE_ENV = "REBOOTSPEC_CACHE_DIR"
FILE_NAME = "sessions-v1.json"  # the name stays: a file of format 1 is another format, rebuilt
# Side files whose change changes a store's content (opencode's WAL, OPC-12).
SIDE_FILES = ("-wal", "-journal")
# Rows with these warnings say the reading itself went wrong: never kept.
NOT_KEPT = frozenset({"W-CHANGED", "E-INTERNAL", "E-READ"})
# The most a cache file may weigh (a row is about 400 bytes: some 150,000 sessions); a bigger
# file is not read (it is rebuilt) and a bigger cache is not written. userio states it.
MAX_BYTES = LIMITS["cache"]
# The highest count believed: far above any real session (a compaction takes a model call),
# far below a number that would only be a damaged or planted row. A higher count is counted
# again each time, never wrong.
MAX_REBOOTS = 10**7
MAX_TEXT = 64 * 1024  # characters of an id, a path or a message kept
TITLE_CHARS = 200  # session_rows.TITLE_CHARS: a row's title is never longer
ROW_KEYS = frozenset(
    ("host", "id", "title", "modified", "reboots", "warnings", "file", "size", "store")
)
WARNING_KEYS = frozenset(("code", "message"))
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CODE = re.compile(r"`([EW](?:-[A-Z]+)+)`")
ABSENT = [-1, -1, -1, -1, -1, -1]  # the identity of a file that is not there

Row = dict[str, Any]
Stamp = list[list[int]]


def cache_dir(env: Mapping[str, str] | None = None, platform: str = sys.platform) -> str:
    """The folder of rebootspec's cache on this platform."""
    env = os.environ if env is None else env
    if env.get(CACHE_ENV):
        return env[CACHE_ENV]
    home = os.path.expanduser("~")
    if platform == "win32":
        base = env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(base, "rebootspec", "Cache")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "rebootspec")
    return os.path.join(env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "rebootspec")


def _utf8(text: str) -> bool:
    """Whether a name can be kept as JSON text (a file name that is not UTF-8 is never cached:
    it is counted each time, which is always right)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def identity(path: str) -> list[int] | None:
    """What says a file is unchanged: device, inode, size, mtime and ctime in nanoseconds, and
    whether this user can read it (1 or 0); None when it is not there or cannot be looked at."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    readable = 1 if os.access(path, os.R_OK) else 0
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, readable]


def stamp(path: str, sources: Iterable[str] = ()) -> Stamp | None:
    """The identity of what a row was counted from: the file or store, its side files, and the
    other files its answer was read from (missing ones included: ABSENT); None when the file
    itself cannot be looked at or read (such a row is never served from the cache)."""
    own = identity(path)
    if own is None or not own[-1]:
        return None
    parts = [own]
    parts += [identity(path + suffix) or ABSENT for suffix in SIDE_FILES]
    parts += [identity(source) or ABSENT for source in sources]
    return parts


@functools.cache
def known_codes() -> frozenset[str]:
    """The spec's warning and error codes (`E-...`, `W-...` as SPEC.md, STORES.md and the
    hosts' chapters name them): a cached row's codes must be among them."""
    from ...reference.core.paths import SPEC_DIR

    names = [os.path.join(SPEC_DIR, "SPEC.md"), os.path.join(SPEC_DIR, "STORES.md")]
    chapters = os.path.join(SPEC_DIR, "hosts")
    with contextlib.suppress(OSError):
        names += [
            os.path.join(chapters, n) for n in sorted(os.listdir(chapters)) if n.endswith(".md")
        ]
    codes: set[str] = set()
    for name in names:
        with contextlib.suppress(Refused):
            codes.update(_CODE.findall(read_text(name, "text")))
    return frozenset(codes)


def _text(value: Any, limit: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= limit and _CONTROL.search(value) is None


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any, top: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top


def valid_row(row: Any, path: str) -> bool:
    """Whether a cached row is one the listing could have made for the file `path`."""
    from ...reference.core.registry import host_keys

    if not isinstance(row, dict) or row.keys() != ROW_KEYS:
        return False
    modified = row["modified"]
    return (
        row["host"] in host_keys()
        and _text(row["id"])
        and _text(row["title"], TITLE_CHARS)
        and (modified is None or _finite(modified))
        and (row["reboots"] is None or _whole(row["reboots"], MAX_REBOOTS))
        and (row["size"] is None or _whole(row["size"], 2**63))
        and row["file"] == path
        and (row["store"] is None or _text(row["store"]))
        and isinstance(row["warnings"], list)
        and all(_valid_warning(warning) for warning in row["warnings"])
    )


def _valid_warning(warning: Any) -> bool:
    return (
        isinstance(warning, dict)
        and warning.keys() == WARNING_KEYS
        and warning["code"] in known_codes()
        and warning["code"] not in NOT_KEPT
        and _text(warning["message"])
    )


def _valid_entry(key: Any, entry: Any) -> bool:
    """An entry: the file it is keyed on, the files it was read from, their identity, rows."""
    if not (isinstance(key, str) and isinstance(entry, dict)):
        return False
    if entry.keys() != {"stamp", "path", "sources", "rows"}:
        return False
    path, sources, parts, rows = entry["path"], entry["sources"], entry["stamp"], entry["rows"]
    return (
        _text(path)
        and isinstance(sources, list)
        and all(_text(source) for source in sources)
        and isinstance(parts, list)
        and len(parts) == 1 + len(SIDE_FILES) + len(sources)
        and all(
            isinstance(part, list)
            and len(part) == len(ABSENT)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in part)
            for part in parts
        )
        and isinstance(rows, list)
        and all(valid_row(row, path) for row in rows)
    )


def untrusted(folder: str) -> str | None:
    """Why the cache folder cannot be trusted (another user's, or writable by others: anyone
    could plant rows), or None. A folder not made yet is made private on the first save."""
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        return f"cannot be used ({getattr(error, 'strerror', None) or error})"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    if os.name == "posix":
        if info.st_uid != os.geteuid():
            return "belongs to another user"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return "can be written by other users"
    return None


def read_cache(file: str) -> Any:
    """The cache file's JSON, or None: not there, a symbolic link (never followed), not a
    regular file of this user's that only this user can write, bigger than MAX_BYTES, or not
    JSON (userio.read_own says which; a cache is rebuilt, never explained)."""
    try:
        data = read_own(file, "cache")
    except Refused:
        return None
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return None


def digest(entries: Any) -> str:
    """The SHA-256 of the entries as they are written: a file edited by hand or damaged on the
    disk no longer matches and is rebuilt whole. (It is no signature: the user, who may edit
    the cache, may edit the logs too; the folder's check keeps everyone else out.)"""
    import hashlib

    try:
        return hashlib.sha256(orjson.dumps(entries)).hexdigest()
    except TypeError:
        return ""


class Cache:
    """The rows of the previous listings, by file; `get` trusts an entry only while the
    identity of every file it was read from, rebootspec's version and the spec's are unchanged.

    `warn` gets the one line that says why a cache folder is not used."""

    def __init__(
        self, folder: str, version: str, warn: Callable[[str], object] | None = None
    ) -> None:
        from ...reference.core.printable import printable

        self.file = os.path.join(folder, FILE_NAME)
        self.version = version
        self.entries: dict[str, dict[str, Any]] = {}
        self.changed = False
        why = untrusted(folder)
        self.usable = why is None
        if why is not None:
            if warn is not None:
                warn(
                    f"warning: the cache folder {printable(folder)} {why}: not used, every "
                    f"session is counted (set {CACHE_ENV} to a folder of your own)"
                )
            return
        data = read_cache(self.file)
        if not (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("version") == version
            and isinstance(data.get("entries"), dict)
            and data.get("digest") == digest(data["entries"])
        ):
            self.changed = data is not None or os.path.lexists(self.file)  # rebuilt whole
            return
        for key, entry in data["entries"].items():
            if _valid_entry(key, entry):
                self.entries[key] = entry
            else:
                self.changed = True  # a bad entry is counted again and replaced

    def get(self, key: str, path: str) -> list[Row] | None:
        """The cached rows of `key` (a file, or a store's path), or None when they are stale."""
        entry = self.entries.get(key)
        if entry is None or entry["path"] != path:
            return None
        current = stamp(path, entry["sources"])
        if current is None or entry["stamp"] != current:
            return None
        return [
            {**row, "warnings": [dict(warning) for warning in row["warnings"]]}
            for row in entry["rows"]
        ]

    def put(self, key: str, path: str, rows: Iterable[Row], sources: Iterable[str] = ()) -> None:
        """Keep `rows` for `key` unless a reading went wrong, the file changed meanwhile, or a
        row is not one `get` would believe (it is then counted again next time)."""
        kept = list(rows)
        read_from = list(sources)
        current = stamp(path, read_from)
        if (
            current is None
            or not _utf8(key)
            or not all(_utf8(source) and _text(source) for source in read_from)
            or not all(valid_row(row, path) for row in kept)
        ):
            self.entries.pop(key, None)
            self.changed = True
            return
        self.entries[key] = {"stamp": current, "path": path, "sources": read_from, "rows": kept}
        self.changed = True

    def encoded(self, entries: dict[str, dict[str, Any]]) -> bytes:
        """The cache file's bytes for `entries`, sealed with their digest."""
        sealed = {"format": FORMAT, "version": self.version, "digest": digest(entries)}
        return orjson.dumps({**sealed, "entries": entries})

    def forget_missing(self) -> None:
        """Drop the entries of files that are gone (deleted, moved): the cache never grows with
        sessions nobody has any more."""
        stale = [key for key, entry in self.entries.items() if not os.path.lexists(entry["path"])]
        for key in stale:
            del self.entries[key]
        self.changed = self.changed or bool(stale)

    def save(self) -> None:
        """Write the cache whole and rename it into place; a failure leaves the old one."""
        if not self.changed or not self.usable:
            return
        folder = os.path.dirname(self.file)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            if untrusted(folder) is not None:  # made by someone else meanwhile
                return
            try:
                encoded = self.encoded(self.entries)
            except TypeError:  # a title or id that JSON cannot hold: no cache this time
                return
            if len(encoded) > MAX_BYTES:  # it would not be read back: none is better
                encoded = self.encoded({})
            write_bytes(self.file, encoded, private=True)  # atomic; 0600; no symlink
        except (OSError, Refused):
            pass  # a cache that cannot be written costs time next run, never an answer


def version_key() -> str:
    """rebootspec's version, the spec's data and the reference's own files (their sizes and
    times: a checkout's edited counter is a new counter too): an old answer is never trusted."""
    import hashlib

    from ...reference.core.paths import HOSTS_FILE, SPEC_DIR
    from ..versions import suite_version

    hasher = hashlib.sha256()
    for name in (HOSTS_FILE, os.path.join(SPEC_DIR, "eras.toml")):
        with contextlib.suppress(Refused):
            hasher.update(read_bytes(name, "text"))
    reference = os.path.dirname(os.path.dirname(os.path.abspath(HOSTS_FILE)))
    for folder, _, names in sorted(os.walk(os.path.join(reference, "reference"))):
        for name in sorted(names):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                hasher.update(f"{folder}/{name}:{info.st_size}:{info.st_mtime_ns};".encode())
    return f"{suite_version()}+{hasher.hexdigest()[:16]}"
