"""The cache of `rebootspec sessions`: a row is counted again only when its file changed.

Why: a listing of thousands of sessions counts every byte of every log; run twice with nothing
changed it should answer at once. Each row is kept under the identity of what it was counted
from — the file's path, size and modification time (for a store of many sessions: the store's
and its side files') — and under the version of rebootspec and of the spec, so a new counter
never trusts an old answer. An entry whose identity differs in any part is counted afresh.

The cache lives in the user's cache folder (`$XDG_CACHE_HOME/rebootspec`, `~/Library/Caches/
rebootspec`, `%LOCALAPPDATA%\\rebootspec\\Cache`; `REBOOTSPEC_CACHE_DIR` moves it), is private
(0700 folder, 0600 file), written whole to a temporary file and renamed, so a run that dies never
leaves half a cache. It holds paths, ids, titles and counts, nothing of a log's content beyond
the title a listing shows anyway. Deleting it is always safe: the next listing rebuilds it. A
cache that cannot be read (damaged, another format) is ignored and rewritten.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

FORMAT = 1
CACHE_ENV = "REBOOTSPEC_CACHE_DIR"
FILE_NAME = "sessions-v1.json"
# Side files whose change changes a store's content (opencode's WAL, OPC-12).
SIDE_FILES = ("-wal", "-journal")
# Rows with these warnings say the reading itself went wrong: never kept.
NOT_KEPT = frozenset({"W-CHANGED", "E-INTERNAL", "E-READ"})

Row = dict[str, Any]


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


def stamp(path: str) -> list[int] | None:
    """The identity of what a row was counted from: (size, mtime_ns) of the file or store and
    of its side files; None when it cannot be read (such a row is never cached)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    parts = [info.st_size, info.st_mtime_ns]
    for suffix in SIDE_FILES:
        try:
            side = os.stat(path + suffix)
        except OSError:
            parts += [-1, -1]
        else:
            parts += [side.st_size, side.st_mtime_ns]
    return parts


class Cache:
    """The rows of the previous listings, by file; `get` trusts an entry only while its stamp,
    rebootspec's version and the spec's version are all unchanged."""

    def __init__(self, folder: str, version: str) -> None:
        self.file = os.path.join(folder, FILE_NAME)
        self.version = version
        self.entries: dict[str, dict[str, Any]] = {}
        self.changed = False
        try:
            with open(self.file, "rb") as handle:
                data = orjson.loads(handle.read())
        except (OSError, orjson.JSONDecodeError):
            return  # no cache yet, or one that cannot be read: rebuilt
        if (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("version") == version
            and isinstance(data.get("entries"), dict)
        ):
            self.entries = data["entries"]

    def get(self, key: str, path: str) -> list[Row] | None:
        """The cached rows of `key` (a file, or a store's path), or None when they are stale."""
        entry = self.entries.get(key)
        current = stamp(path)
        if entry is None or current is None or entry.get("stamp") != current:
            return None
        rows = entry.get("rows")
        return [dict(row) for row in rows] if isinstance(rows, list) else None

    def put(self, key: str, path: str, rows: Iterable[Row]) -> None:
        """Keep `rows` for `key` unless a reading went wrong or the file changed meanwhile."""
        kept = list(rows)
        current = stamp(path)
        if (
            current is None
            or not _utf8(key)
            or any(warning["code"] in NOT_KEPT for row in kept for warning in row["warnings"])
        ):
            self.entries.pop(key, None)
            self.changed = True
            return
        self.entries[key] = {"stamp": current, "path": path, "rows": kept}
        self.changed = True

    def forget_missing(self) -> None:
        """Drop the entries of files that are gone (deleted, moved): the cache never grows with
        sessions nobody has any more."""
        stale = [
            key
            for key, entry in self.entries.items()
            if not isinstance(entry.get("path"), str) or not os.path.lexists(entry["path"])
        ]
        for key in stale:
            del self.entries[key]
        self.changed = self.changed or bool(stale)

    def save(self) -> None:
        """Write the cache whole and rename it into place; a failure leaves the old one."""
        if not self.changed:
            return
        folder = os.path.dirname(self.file)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            data = {"format": FORMAT, "version": self.version, "entries": self.entries}
            try:
                encoded = orjson.dumps(data)
            except TypeError:  # a title or id that JSON cannot hold: no cache this time
                return
            fd, temporary = tempfile.mkstemp(prefix=".sessions-", dir=folder)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(encoded)
                os.replace(temporary, self.file)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            pass  # a cache that cannot be written costs time next run, never an answer


def version_key() -> str:
    """rebootspec's version, the spec's data and the reference's own files (their sizes and
    times: a checkout's edited counter is a new counter too): an old answer is never trusted."""
    import hashlib

    from ...reference.core.paths import HOSTS_FILE, SPEC_DIR
    from ..versions import suite_version

    digest = hashlib.sha256()
    for name in (HOSTS_FILE, os.path.join(SPEC_DIR, "eras.toml")):
        try:
            with open(name, "rb") as handle:
                digest.update(handle.read())
        except OSError:
            pass
    reference = os.path.dirname(os.path.dirname(os.path.abspath(HOSTS_FILE)))
    for folder, _, names in sorted(os.walk(os.path.join(reference, "reference"))):
        for name in sorted(names):
            if name.endswith(".py"):
                info = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}:{info.st_size}:{info.st_mtime_ns};".encode())
    return f"{suite_version()}+{digest.hexdigest()[:16]}"
