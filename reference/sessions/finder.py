"""Find session files in the hosts' stores (stores.py) and look a session up by its id.

Why its own walker and not `glob`: a listing of a user's machine must say what it could not
read (a folder without permission is a warning, not silence), must not follow a symlink loop
forever, and must pick one file when a host keeps two of one session. Nothing here opens a
session file: the id is in the file's name, so a lookup costs folder listings only.

Imported only by `count --session`, `explain --session` and `rebootspec sessions`; a plain
`count PATH` never loads it.
"""

from __future__ import annotations

import os

from ..core.errors import os_reason
from ..core.plain import Frozen, Plain
from ..core.storetypes import Root, Store
from .stores import all_stores, session_id, stores_of

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

# When a host keeps one session twice in one folder, the first of these suffixes is the one it
# reads: VS Code's log before the flat `.json` it replaced, Codex's plain rollout before its
# compressed copy (CDX-7: the plain `.jsonl` is the newer).
PREFERENCE = (".jsonl", ".json", ".jsonl.zst", ".md")
SESSION_SUFFIXES = PREFERENCE

E_READ = "E-READ"  # a folder that cannot be listed (the file-level code of ERR-12)
W_LOOP = "W-LOOP"  # a folder reached twice through symbolic links: not walked again


# (Plain classes, not dataclasses: `whoami` walks the stores, and `dataclasses` costs more
# start-up than the walk.)


class Found(Frozen):
    """One session file: its host (from the store; the content has the last word), id, path."""

    _fields = ("host", "store", "id", "path", "within")

    def __init__(self, host: str, store: str, id: str, path: str, within: bool = False) -> None:
        self.host = host
        self.store = store
        self.id = id
        self.path = path
        self.within = within  # one session of a store that holds many (counted with the store)

    def with_id(self, ident: str) -> Found:
        return Found(self.host, self.store, ident, self.path, self.within)


class Problem(Frozen):
    """Something the walk could not read, shown to the user beside the sessions."""

    _fields = ("path", "code", "message")

    def __init__(self, path: str, code: str, message: str) -> None:
        self.path = path
        self.code = code
        self.message = message


class Scan(Plain):
    """What a walk found, what it could not read, and which base folders it looked in."""

    _fields = ("found", "problems", "looked")

    def __init__(self) -> None:
        self.found: list[Found] = []
        self.problems: list[Problem] = []
        self.looked: list[tuple[Root, bool]] = []  # (root, it exists)


def scan(roots: Iterable[Root], paths: Iterable[str] = ()) -> Scan:
    """Walk every store under each root, then each extra path (`--path`)."""
    result = Scan()
    for root in roots:
        exists = os.path.isdir(root.path)
        result.looked.append((root, exists))
        if exists:
            for store in stores_of(root.host):
                _walk_store(root.path, store, result)
    for path in paths:
        result.looked.append((Root("any", path, "--path"), os.path.exists(path)))
        _walk_path(path, result)
    return result


def lookup(prefix: str, found: Iterable[Found]) -> list[Found]:
    """The sessions whose id starts with `prefix` (any case); a full id beats longer ids.

    A file answers to every id its host says it has (`Host.session_ids`: a Gemini CLI chat's
    name carries 8 hex digits of the id, its first record the whole id); a match by such an id
    is returned under that id."""
    from ..core.registry import get

    wanted = prefix.lower()
    matches: list[Found] = []
    for item in found:
        # Every id the file answers to (its name's, and for a Gemini CLI chat the one inside it,
        # which `sessions` shows): a host reads its file only when its ids are not in the name.
        ids = [item.id] if item.within else list(get(item.host).session_ids(item.path, item.id))
        hit = next((i for i in ids if i.lower().startswith(wanted)), None)
        if hit is not None:
            matches.append(item if hit == item.id else item.with_id(hit))
    exact = [item for item in matches if item.id.lower() == wanted]
    return exact or matches


def _walk_store(base: str, store: Store, result: Scan) -> None:
    """One store under one base; the folders it walks are remembered to break link loops."""
    seen: set[tuple[int, int]] = set()
    folders = [base]
    for segment in filter(None, store.folders.split("/")):
        following: list[str] = []
        for folder in folders:
            if segment == "*":
                following += [e.path for e in _entries(folder, result) if _is_dir(e)]
            elif os.path.isdir(os.path.join(folder, segment)):
                following.append(os.path.join(folder, segment))
        folders = following
    label = f"{store.host} {store.name}"
    for folder in sorted(folders):
        if store.within:
            _walk_within(folder, store, result, label)
        else:
            _walk_folder(folder, result, seen, store.recursive, label, store)


def _walk_within(folder: str, store: Store, result: Scan, label: str) -> None:
    """A folder of stores that each hold many sessions (opencode's database and storage
    folder, OPC-1): every session inside, by its id, with the store as its path."""

    for entry in _entries(folder, result):
        if store.fullmatch(entry.name) is not None:
            _add_store(entry.path, store, result, label)


def _add_store(path: str, store: Store, result: Scan, label: str) -> None:
    """Every session of one store file or folder; a store that cannot be read is a problem."""
    from ..core.errors import Rejection
    from ..core.registry import get

    try:
        ids = [ident for ident, _ in get(store.host).sessions_in(path)]
    except Rejection as rejection:
        result.problems.append(Problem(path, rejection.code, rejection.reason))
        return
    result.found += [Found(store.host, label, ident, path, True) for ident in ids]


def _walk_path(path: str, result: Scan) -> None:
    """`--path`: a host's base folder (any store's layout under it), else a plain folder."""
    if not os.path.isdir(path):
        stores = [s for s in all_stores() if s.within and s.fullmatch(os.path.basename(path))]
        if stores and os.path.lexists(path):  # a store of many sessions named itself
            _add_store(path, stores[0], result, "path")
        elif os.path.lexists(path):
            _add_file(os.path.dirname(path) or ".", os.path.basename(path), None, "path", result)
        else:
            result.problems.append(Problem(path, E_READ, "no such file"))
        return
    before = len(result.found)
    for store in all_stores():
        top = store.folders.split("/")[0]
        if (top and os.path.isdir(os.path.join(path, top))) or not top:
            _walk_store(path, store, result)
    if len(result.found) == before:
        _walk_folder(path, result, set(), True, "path", None)


def _walk_folder(
    folder: str,
    result: Scan,
    seen: set[tuple[int, int]],
    recursive: bool,
    label: str,
    store: Store | None,
) -> None:
    """The session files of one folder (and its sub-folders when `recursive`), loop-safe."""
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            info = os.stat(current)
        except OSError as error:
            result.problems.append(Problem(current, E_READ, _reason(error)))
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            result.problems.append(
                Problem(current, W_LOOP, "folder already walked (a symbolic link loop?): skipped")
            )
            continue
        seen.add(key)
        chosen: dict[str, tuple[int, Found]] = {}
        subfolders: list[str] = []
        for entry in _entries(current, result):
            if _is_dir(entry):
                if recursive:
                    subfolders.append(entry.path)
                continue
            found = _match(current, entry.name, store, label)
            if found is None:
                continue
            rank = next(i for i, s in enumerate(PREFERENCE) if entry.name.endswith(s))
            if found.id not in chosen or rank < chosen[found.id][0]:
                chosen[found.id] = (rank, found)
        result.found += [item for _, item in sorted(chosen.values(), key=lambda c: c[1].path)]
        pending += sorted(subfolders, reverse=True)


def _add_file(folder: str, name: str, store: Store | None, label: str, result: Scan) -> None:
    found = _match(folder, name, store, label)
    if found is None:
        result.problems.append(
            Problem(os.path.join(folder, name), E_READ, "not a session file name")
        )
    else:
        result.found.append(found)


def _match(folder: str, name: str, store: Store | None, label: str) -> Found | None:
    if not name.endswith(SESSION_SUFFIXES):
        return None
    if store is None:
        named = session_id(name)
        if named is None:
            return None
        host, ident = named
        ident = ident or os.path.basename(folder)  # a name that carries no id: the folder's
    else:
        match = store.fullmatch(name)
        if match is None:
            return None
        # A name that carries no id (the Copilot CLI's `<id>/events.jsonl`): the folder's name.
        host, ident = store.host, match["id"] or os.path.basename(folder)
    return Found(host, label, ident, os.path.join(folder, name))


def _entries(folder: str, result: Scan) -> Iterator[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except FileNotFoundError:
        return  # vanished since it was listed: nothing to report
    except OSError as error:
        result.problems.append(Problem(folder, E_READ, f"cannot list: {_reason(error)}"))
        return
    yield from sorted(entries, key=lambda e: e.name)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _reason(error: OSError) -> str:
    return os_reason(error)
