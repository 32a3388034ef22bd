"""The corpus and the snapshots must not change while a run gates on them (the trust model).

`digest_tree` takes a SHA-256 of every file under a folder (a symbolic link is recorded by its
target, never followed) when the run starts; `changes` says, file by file, what differs when it
ends. The combined digest goes into every report's header, so `compare` can tell two corpora
apart.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

CHUNK = 1 << 20


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


def digest_tree(root: Path) -> dict[str, str]:
    """`relative path -> sha256` (or `link:TARGET`, `other`) for everything under `root`."""
    found: dict[str, str] = {}
    if not root.is_dir():
        return found
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        base = Path(folder)
        for name in [*files, *(d for d in dirs if (base / d).is_symlink())]:
            path = base / name
            rel = path.relative_to(root).as_posix()
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                found[rel] = "link:" + os.readlink(path)
            elif stat.S_ISREG(mode):
                found[rel] = file_digest(path) or "unreadable"
            else:
                found[rel] = "other"
    return found


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
