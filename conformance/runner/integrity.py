"""The corpus and the snapshots must not change while a run gates on them (the trust model).

`digest_tree` takes a SHA-256 of every file under a folder (a symbolic link is recorded by its
target, never followed) when the run starts; `changes` says, file by file, what differs when it
ends. The combined digest goes into every report's header, so `compare` can tell two corpora
apart.

The check at the end re-reads only what may have changed (`scan` with `earlier`): a file whose
`lstat` signature (size, modification and change times in nanoseconds, inode, device) is the one
seen at the start keeps its digest. Every write to a file moves its change time, which no program
can set back, so an unchanged signature means unchanged bytes, except for a write within the same
clock tick as the start's reading: a file changed less than `RACY_NS` before the start is read
again at the end whatever its signature (git's "racy clean" rule). Hashing the corpus twice was
half of a small run's start-up.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

CHUNK = 1 << 20
# A file whose change time is this close to the start's reading may change again within the
# same clock tick of the file system: its signature is not trusted at the end.
RACY_NS = 2_000_000_000

Signature = tuple[int, int, int, int, int]


def file_digest(path: Path) -> str | None:
    """The SHA-256 of a regular file (not through a link), or None when it is not one."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


class Scan:
    """A tree's digests (`relative path -> sha256`, `link:TARGET` or `other`) and, for regular
    files, the `lstat` signature each had when it was read (None: read again next time)."""

    __slots__ = ("digests", "signatures")

    def __init__(self) -> None:
        self.digests: dict[str, str] = {}
        self.signatures: dict[str, Signature | None] = {}


def signature(info: os.stat_result) -> Signature:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def scan(root: Path, earlier: Scan | None = None) -> Scan:
    """Every file under `root`, as `digest_tree` says; a regular file whose signature is the one
    `earlier` trusted keeps `earlier`'s digest unread."""
    found = Scan()
    if not root.is_dir():
        return found
    racy_after = time.time_ns() - RACY_NS
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        base = Path(folder)
        for name in [*files, *(d for d in dirs if (base / d).is_symlink())]:
            path = base / name
            rel = path.relative_to(root).as_posix()
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                found.digests[rel] = "link:" + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                before = signature(info)
                if earlier is not None and earlier.signatures.get(rel) == before:
                    found.digests[rel] = earlier.digests[rel]
                    found.signatures[rel] = before
                    continue
                found.digests[rel] = file_digest(path) or "unreadable"
                found.signatures[rel] = _trusted(path, before, racy_after)
            else:
                found.digests[rel] = "other"
    return found


def _trusted(path: Path, before: Signature, racy_after: int) -> Signature | None:
    """The signature to trust next time: None when the file changed while it was read or too
    close to the start of the reading to tell a later write in the same tick."""
    try:
        after = signature(os.lstat(path))
    except OSError:
        return None
    if after != before or before[2] >= racy_after:
        return None
    return before


def digest_tree(root: Path) -> dict[str, str]:
    """`relative path -> sha256` (or `link:TARGET`, `other`) for everything under `root`."""
    return scan(root).digests


def combined(tree: dict[str, str]) -> str:
    """One digest for a whole tree (sorted paths and their digests)."""
    digest = hashlib.sha256()
    for rel in sorted(tree):
        digest.update(f"{rel}\0{tree[rel]}\n".encode())
    return digest.hexdigest()


def changes(before: dict[str, str], after: dict[str, str], label: str) -> list[str]:
    """`label/path (changed|deleted|added)` for every difference, sorted."""
    out = []
    for rel in sorted(before.keys() | after.keys()):
        if rel not in after:
            out.append(f"{label}/{rel} (deleted)")
        elif rel not in before:
            out.append(f"{label}/{rel} (added)")
        elif before[rel] != after[rel]:
            out.append(f"{label}/{rel} (changed)")
    return out


def input_digest(path: Path) -> str | None:
    """The digest of a case's input as copied for a candidate: a file's own, or for a folder
    input (`input/`) the combined digest of its tree; None when it is neither any more."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            return combined(digest_tree(path))
    except OSError:
        return None
    return file_digest(path)


def subtree_digest(tree: dict[str, str], rel: str) -> str | None:
    """`input_digest` of the file or folder `rel` from a `digest_tree` taken at the start."""
    if rel in tree:
        return tree[rel]
    prefix = rel.rstrip("/") + "/"
    inner = {key[len(prefix) :]: value for key, value in tree.items() if key.startswith(prefix)}
    return combined(inner) if inner else None
