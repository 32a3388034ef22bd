"""Reading one opencode session out of its store, never changing the store (OPC-1, OPC-3,
OPC-11, OPC-12).

Two stores (spec/hosts/opencode.md, OPC-2):
- the SQLite database `opencode.db` (opencode 1.2 and later): the `session`, `message` and
  `part` tables, each message and part a JSON `data` column;
- the JSON storage folder (before 1.2): `session/<project>/<session>.json`,
  `message/<session>/<message>.json`, `part/<message>/<part>.json`.

opencode leaves its database in WAL mode: recent writes may live only in `opencode.db-wal`.
Opening the database in place, even read-only, can create `-shm` and `-wal` files beside it,
and `immutable=1` would not see the WAL at all; so the database and its `-wal` (and a
`-journal`) are copied into a private temporary folder and the copy is opened (OPC-12).
Only what the count needs is kept of each message: a few members, not its parts' text.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from functools import partial

import orjson

from ...core.errors import E_HOST, E_LIMIT, E_READ, E_SESSION, Rejection
from ...core.files import open_regular
from ...core.plain import Plain

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, TypeVar

    T = TypeVar("T")

SQLITE_MAGIC = b"SQLite format 3\x00"  # OPC-1, HST-2: the first 16 bytes of a database
TABLES = ("session", "message", "part")
SIDE_FILES = ("-wal", "-journal")  # copied with the database: committed content lives there


class Compaction(Plain):
    """A user message's `compaction` part (OPC-4): how the compaction began."""

    _fields = ("trigger", "overflow", "marks_tail")

    def __init__(self, data: dict[str, Any]) -> None:
        auto = data.get("auto")  # 1.0.98 wrote none: the trigger is then unknown
        self.trigger = {True: "auto", False: "manual"}.get(auto) if isinstance(auto, bool) else None
        self.overflow = data.get("overflow") is True
        self.marks_tail = "overflow" in data or "tail_start_id" in data  # OPC-2: O3


class Message(Plain):
    """What the count reads of one message and its parts."""

    _fields = ("id", "created", "role", "parent", "summary", "finish", "error", "compaction")

    def __init__(self, message_id: str, created: int | None, data: dict[str, Any]) -> None:
        self.id = message_id
        self.created = created
        role = data.get("role")
        self.role = role if isinstance(role, str) else None
        parent = data.get("parentID")
        self.parent = parent if isinstance(parent, str) else None
        self.summary: Any = data.get("summary")
        self.finish: Any = data.get("finish")
        self.error: Any = data.get("error")
        self.compaction: Compaction | None = None
        self.has_text = False

    def add_part(self, data: Any) -> None:
        """OPC-4, OPC-5: a `compaction` part, or a text part with some text."""
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "compaction" and self.compaction is None:
            self.compaction = Compaction(data)
        elif kind == "text" and isinstance(data.get("text"), str) and data["text"]:
            self.has_text = True


class Session(Plain):
    """One session: when it was created, by which version, and its messages."""

    _fields = ("id", "created", "version", "database", "messages")

    def __init__(self, session_id: str, created: Any, version: Any, database: bool) -> None:
        self.id = session_id
        self.created = _integer(created)
        self.version = version if isinstance(version, str) else None
        self.database = database
        self.messages: list[Message] = []


def read_session(path: str, session: str | None) -> Session:
    """OPC-1: a storage folder or a database file; OPC-3: the session in it."""
    if os.path.isdir(path):
        return read_storage(path, session)
    return read_database(path, session)


def is_storage(path: str) -> bool:
    """OPC-1, HST-2: a folder holding opencode's `session` and `message` folders."""
    return all(os.path.isdir(os.path.join(path, name)) for name in ("session", "message"))


# -- the database (OPC-1, OPC-12) -----------------------------------------------------------


def read_database(path: str, session: str | None) -> Session:
    """Copy the database (with its WAL) to a private folder and read the session there."""
    return _with_copy(path, lambda connection: _read_tables(connection, session))


def session_ids(path: str) -> list[str]:
    """OPC-3: the ids of every session of a store (a database or a storage folder), for the
    lookup of a session by its id (reference/sessions/finder.py)."""
    if os.path.isdir(path):
        return sorted(dict(_session_files(path))) if is_storage(path) else []

    def ids(connection: sqlite3.Connection) -> list[str]:
        _check_tables(connection)
        return sorted(str(row[0]) for row in connection.execute("SELECT id FROM session"))

    return _with_copy(path, ids)


def _with_copy(path: str, read: Callable[[sqlite3.Connection], T]) -> T:
    """OPC-12: `read` a private copy of the database and its `-wal` (and `-journal`); the copy
    is removed however the run ends (core/endings.py: SIGTERM, SIGHUP and Ctrl-C unwind)."""
    from ...core.endings import copy_prefix, remove_stale

    remove_stale(tempfile.gettempdir())  # copies a killed run could not remove (OPC-12)
    with tempfile.TemporaryDirectory(prefix=copy_prefix()) as folder:
        copy = os.path.join(folder, "opencode.db")
        _copy(path, copy, SQLITE_MAGIC)
        for suffix in SIDE_FILES:
            if os.path.lexists(path + suffix):  # a dangling link or a FIFO is refused, not missed
                _copy(path + suffix, copy + suffix, b"")
        try:
            connection = sqlite3.connect(copy, isolation_level=None)
            connection.text_factory = _text  # bytes that are not UTF-8 become U+FFFD
        except sqlite3.Error as error:
            raise Rejection(0, E_READ, f"not a readable SQLite database ({error})") from None
        try:
            return read(connection)
        except sqlite3.Error as error:
            raise Rejection(0, E_READ, f"not a readable SQLite database ({error})") from None
        finally:
            connection.close()


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


COPY_CHUNK = 1 << 20


def _copy(source: str, target: str, header: bytes) -> None:
    """OPC-12: copy a regular file that starts with `header`, at most the size `fstat` gave at
    open. A device (a link to /dev/zero), a FIFO or a socket is never read (ERR-12), and a file
    that grows while it is copied cannot fill the disk: the bytes past that size are a write
    the copy does not see, as if it had come a moment later."""
    name = os.path.basename(source)
    try:
        stream = open_regular(source)
    except Rejection as rejection:
        raise Rejection(0, E_READ, f"{name}: {rejection.reason}") from None
    except OSError as error:
        raise Rejection(0, E_READ, f"cannot read {name} ({_reason(error)})") from None
    with stream:
        try:
            left = os.fstat(stream.fileno()).st_size
            if stream.read(len(header)) != header:
                raise Rejection(0, E_READ, f"{name}: not a SQLite database (no SQLite header)")
            stream.seek(0)
            out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with open(out, "wb") as sink:
                while left > 0:
                    chunk = stream.read(min(COPY_CHUNK, left))
                    if not chunk:
                        break  # the file shrank since it was opened: the copy is what is there
                    sink.write(chunk)
                    left -= len(chunk)
        except OSError as error:
            raise Rejection(0, E_READ, f"cannot read {name} ({_reason(error)})") from None


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def _check_tables(connection: sqlite3.Connection) -> None:
    """OPC-1: a database without opencode's tables is of no known host (HST-4)."""
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not set(TABLES) <= names:
        raise Rejection(0, E_HOST, "a SQLite database without opencode's session tables")


def _read_tables(connection: sqlite3.Connection, session: str | None) -> Session:
    _check_tables(connection)
    chosen = _choose(session, [row[0] for row in connection.execute("SELECT id FROM session")])
    row = connection.execute(
        "SELECT time_created, version FROM session WHERE id = ?", (chosen,)
    ).fetchone()
    found = Session(chosen, row[0], row[1], database=True)
    by_id: dict[str, Message] = {}
    rows = connection.execute(
        "SELECT id, time_created, data FROM message WHERE session_id = ?", (chosen,)
    )
    for message_id, created, data in rows:
        value = _json(data, f"message {message_id}")
        message = Message(str(message_id), _integer(created), _object(value))
        by_id[message.id] = message
        found.messages.append(message)
    parts = connection.execute(
        "SELECT part.message_id, part.id, part.data FROM part JOIN message"
        " ON part.message_id = message.id WHERE message.session_id = ?",
        (chosen,),
    )
    for message_id, part_id, data in parts:
        by_id[str(message_id)].add_part(_json(data, f"part {part_id}"))
    return found


# -- the storage folder (OPC-1) -------------------------------------------------------------


def read_storage(path: str, session: str | None) -> Session:
    """Read the session's info, messages and parts from the JSON files of a storage folder."""
    if not is_storage(path):
        raise Rejection(0, E_READ, "not a regular file (a directory)")  # ERR-12
    infos = dict(_session_files(path))
    chosen = _choose(session, sorted(infos))
    _plain(chosen, infos[chosen])  # a session file named `..json` names the folder `message/.`
    info = _object(_load(infos[chosen]))
    found = Session(chosen, _time(info), info.get("version"), database=False)
    for name, file in _files(os.path.join(path, "message", chosen)):
        data = _object(_load(file))
        message_id = data.get("id")
        message = Message(message_id if isinstance(message_id, str) else name, _time(data), data)
        _plain(message.id, file)
        for _, part in _files(os.path.join(path, "part", message.id)):
            message.add_part(_load(part))
        found.messages.append(message)
    return found


def _plain(ident: str, where: str) -> str:
    """OPC-12: an id the storage folder names a folder by must be a plain name, so the reader
    never opens a file outside the store: not empty, `.` or `..`, no separator (`/`, `\\`),
    no NUL, no drive. An id read from a record's content is the store's data, not a path."""
    if (
        ident in ("", ".", "..")
        or any(character in ident for character in "/\\\0")
        or os.path.isabs(ident)
        or os.path.splitdrive(ident)[0]
    ):
        place = f"{where}: " if where else ""
        raise Rejection(0, E_READ, f"{place}the id {ident!r} is not a plain name")
    return ident


def _session_files(path: str) -> Iterator[tuple[str, str]]:
    """`session/<project>/<id>.json`: every session of every project (OPC-3)."""
    for _, project in _folders(os.path.join(path, "session")):
        yield from _files(project)


def _folders(path: str) -> Iterator[tuple[str, str]]:
    for entry in _entries(path):
        if entry.is_dir(follow_symlinks=False):
            yield entry.name, entry.path


def _files(path: str) -> Iterator[tuple[str, str]]:
    """The `.json` files of a folder, by name (opencode lists them sorted); none if absent.

    Every entry so named that is not a folder is yielded, whatever it is: a FIFO, a device or
    a symbolic link loop under a record's name is a record that cannot be read (OPC-12, E-READ
    when it is loaded), never one silently left out of the count.
    """
    for entry in _entries(path):
        if entry.name.endswith(".json") and not _is_folder(entry):
            yield entry.name[: -len(".json")], entry.path


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _entries(path: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as found:
            return sorted(found, key=lambda entry: entry.name)
    except FileNotFoundError:
        return []
    except OSError as error:
        raise Rejection(0, E_READ, f"cannot list {path} ({error.strerror})") from None


def _load(file: str) -> Any:
    """One record file: a regular file (ERR-12), never a FIFO or a device behind its name."""
    try:
        with open_regular(file) as stream:
            data = stream.read()
    except Rejection as rejection:
        raise Rejection(0, E_READ, f"{file}: {rejection.reason}") from None
    except OSError as error:
        raise Rejection(0, E_READ, f"cannot read {file} ({_reason(error)})") from None
    return _json(data, file)


# -- shared ---------------------------------------------------------------------------------


def _choose(session: str | None, ids: list[str]) -> str:
    """OPC-11: the named session, or the only one; E-SESSION otherwise."""
    if session is not None:
        if session in ids:
            return session
        raise Rejection(0, E_SESSION, f"no session {session!r} in this store")
    if len(ids) == 1:
        return ids[0]
    raise Rejection(0, E_SESSION, f"the store holds {len(ids)} sessions: name one")


def _json(data: Any, where: str) -> Any:
    """OPC-12: a record opencode could not parse makes the session unreadable (E-READ); one
    nested deeper than 1024 levels is refused (E-LIMIT, ERR-8)."""
    if data is None or isinstance(data, (int, float)):
        return data  # a number stored in a JSON column parses as itself: no object
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        if "depth limit" in str(error):  # orjson's own bound is JSV-4's
            raise Rejection(0, E_LIMIT, f"{where}: nested deeper than 1024 levels") from None
        reason = str(error)
    return _as_javascript(data.decode("utf-8", "replace"), where, reason)


def _as_javascript(text: str, where: str, reason: str) -> Any:
    """What orjson refuses and JavaScript's JSON.parse reads (a lone surrogate, a number too
    big for a double), read as JSON.parse reads it (reference/core/jsonvalues.py); else E-READ."""
    from ...core.jsonvalues import _decode_one, _skip_space

    try:
        value, end = _decode_one(text, _skip_space(text, 0), 0)
    except ValueError:
        raise Rejection(0, E_READ, f"{where}: not JSON ({reason})") from None
    if _skip_space(text, end) != len(text):
        raise Rejection(0, E_READ, f"{where}: not JSON (text after the value)")
    return value


def _object(value: Any) -> dict[str, Any]:
    """A record that is not a JSON object has none of the members the count reads."""
    return value if isinstance(value, dict) else {}


def _time(data: dict[str, Any]) -> int | None:
    """`time.created`: JavaScript milliseconds."""
    time = data.get("time")
    return _integer(time.get("created")) if isinstance(time, dict) else None


def _integer(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if value == value and abs(value) < 2**63 else None


# -- every session of a store at once (sessions, OPC-11) -------------------------------------


def read_all(path: str) -> list[tuple[str, str, Session | Rejection]]:
    """(id, title, the session or why it cannot be read) of every session of a store, from one
    private copy of a database (OPC-12), so that a listing reads each store once."""
    if os.path.isdir(path):
        if not is_storage(path):
            raise Rejection(0, E_READ, "not a regular file (a directory)")  # ERR-12
        found: list[tuple[str, str, Session | Rejection]] = []
        for ident, file in sorted(dict(_session_files(path)).items()):
            title = _title(_safe_load(file))
            found.append((ident, title, _attempt(partial(read_storage, path, ident))))
        return found

    def every(connection: sqlite3.Connection) -> list[tuple[str, str, Session | Rejection]]:
        _check_tables(connection)
        columns = {row[1] for row in connection.execute("PRAGMA table_info(session)")}
        query = (
            "SELECT id, title FROM session" if "title" in columns else "SELECT id, '' FROM session"
        )
        rows = sorted((str(ident), title) for ident, title in connection.execute(query))
        return [
            (ident, title if isinstance(title, str) else "",
             _attempt(partial(_read_tables, connection, ident)))
            for ident, title in rows
        ]  # fmt: skip

    return _with_copy(path, every)


def _attempt(read: Callable[[], Session]) -> Session | Rejection:
    try:
        return read()
    except Rejection as rejection:
        return rejection


def _safe_load(file: str) -> Any:
    try:
        return _load(file)
    except Rejection:
        return None


def _title(info: Any) -> str:
    title = info.get("title") if isinstance(info, dict) else None
    return title if isinstance(title, str) else ""
