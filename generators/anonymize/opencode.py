"""An opencode session taken out of its store into a new, anonymized store of its own.

A database: the original (with its `-wal` and `-journal`, where committed rows may live) is
copied into a private folder and read there, never opened in place (OPC-12's reason: opening a
WAL database can write beside it). The new database is created empty, given the original's
schema (the `CREATE` statements of its tables and indexes: opencode's structure, no person's
text), and filled with the rows the policy's `tables` select for the asked session, each value
rewritten: numbers stay, JSON columns go through the record rewriter, other text through the
policy's string rules. It is written fresh, never a copy with other sessions' rows deleted, so no
free page can still hold them; it is left in rollback-journal mode with no side files.

A storage folder: the asked session's info, messages and parts, at the places the policy's
`storage` patterns give, under the pseudonyms of their names.
"""

from __future__ import annotations

import fnmatch
import shutil
import sqlite3
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .hostpolicy import Replacer
from .records import RecordRewriter, rewrite_document

SIDE_FILES = ("-wal", "-journal")


class StoreProblem(Exception):
    """The store cannot be read as the policy says (the message names the place)."""


def copy_database(source: Path, folder: Path) -> Path:
    """The database and its side files, copied into `folder` (a private temporary one)."""
    copy = folder / "original.db"
    shutil.copyfile(source, copy)
    for suffix in SIDE_FILES:
        side = Path(str(source) + suffix)
        if side.is_file():
            shutil.copyfile(side, Path(str(copy) + suffix))
    return copy


def session_ids(source: Path) -> list[str]:
    """The ids of a database's or storage folder's sessions (to name one when there are several)."""
    if source.is_dir():
        return sorted(p.stem for p in source.glob("session/*/*.json"))
    with tempfile.TemporaryDirectory(prefix="rebootspec-anonymize-") as folder:
        connection = sqlite3.connect(copy_database(source, Path(folder)))
        try:
            return sorted(str(row[0]) for row in connection.execute("SELECT id FROM session"))
        except sqlite3.Error as error:
            raise StoreProblem(f"{source}: not a readable opencode database ({error})") from None
        finally:
            connection.close()


def anonymize_database(
    source: Path, target: Path, session: str, replacer: Replacer, rewriter: RecordRewriter
) -> str:
    """Write a new database at `target` holding the session's rows, anonymized; returns the
    session's new id."""
    tables: tuple[tuple[str, str], ...] = tuple(replacer.policy.data["tables"])
    json_columns = frozenset(replacer.policy.data.get("json_columns", ()))
    with tempfile.TemporaryDirectory(prefix="rebootspec-anonymize-") as folder:
        original = sqlite3.connect(copy_database(source, Path(folder)))
        original.text_factory = bytes
        created = sqlite3.connect(target, isolation_level=None)
        try:
            created.execute("PRAGMA journal_mode = DELETE")
            created.execute("BEGIN")
            for (statement,) in original.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index')"
                " AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid"
            ):
                created.execute(statement.decode("utf-8"))
            for table, where in tables:
                cursor = original.execute(
                    f'SELECT * FROM "{table}" WHERE {where}', (session,) * where.count("?")
                )
                columns = [column[0] for column in cursor.description]
                marks = ", ".join("?" for _ in columns)
                names = ", ".join(f'"{name}"' for name in columns)
                for row in cursor:
                    values = [
                        _value(name, value, name in json_columns, replacer, rewriter)
                        for name, value in zip(columns, row, strict=True)
                    ]
                    created.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
            created.execute("COMMIT")
            created.execute("VACUUM")
        except sqlite3.Error as error:
            raise StoreProblem(f"{source}: not a readable opencode database ({error})") from None
        finally:
            created.close()
            original.close()
    return replacer.ident(session)


def _value(
    column: str, value: Any, is_json: bool, replacer: Replacer, rewriter: RecordRewriter
) -> Any:
    """One column's value: numbers and NULL stay, text is rewritten, a blob is zeroed."""
    if isinstance(value, bytes) and is_json:
        rewritten = rewrite_document(value, rewriter)
        try:
            return rewritten.decode("utf-8")
        except UnicodeDecodeError:  # bytes that are not UTF-8 stay so (0xFF, scan.py)
            return rewritten
    if isinstance(value, bytes):
        return replacer.value(value.decode("utf-8", "replace"), column)
    return value


def anonymize_storage(
    source: Path, target: Path, session: str, replacer: Replacer, rewriter: RecordRewriter
) -> str:
    """Write the session's files of a storage folder under `target`; returns its new id."""
    for file, pattern in session_files(source, session, replacer.policy.data):
        relative = file.relative_to(source).parts
        place = target.joinpath(
            *(
                part if literal == part else replacer.component(part)  # layout names stay
                for part, literal in zip(relative, pattern, strict=True)
            )
        )
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_bytes(rewrite_document(file.read_bytes(), rewriter))
    # OPC-1: a storage folder has its `session` and `message` folders, even when empty.
    for name in ("session", "message"):
        (target / name).mkdir(exist_ok=True)
    return replacer.ident(session)


def session_files(
    source: Path, session: str, policy: Mapping[str, Any]
) -> list[tuple[Path, list[str]]]:
    """The files of one session in a storage folder (its info, messages and their parts), each
    with the layout's pattern it matched; StoreProblem when the folder does not hold it."""
    layout: dict[str, str] = dict(policy["storage"])
    infos = _matching(source, layout["session"], session=session)
    if not infos:
        raise StoreProblem(f"{source}: no session {session!r} in this storage folder")
    messages = _matching(source, layout["messages"], session=session)
    files = infos + messages
    for message, _ in messages:
        files += _matching(source, layout["parts"], message=message.stem)
    return files


def _matching(root: Path, template: str, **ids: str) -> list[tuple[Path, list[str]]]:
    """The regular files under `root` whose relative path matches `template` with `ids` put
    in, sorted, each with the template's parts (a part that is neither `*` nor an id is a
    literal name of the layout, kept as it is)."""
    literal = template.split("/")
    parts = template.format(**ids).split("/")
    found: list[Path] = [root]
    for part in parts:
        found = [
            child
            for folder in found
            if folder.is_dir()
            for child in sorted(folder.iterdir())
            if fnmatch.fnmatchcase(child.name, part)
        ]
    return [(path, literal) for path in found if path.is_file() and not path.is_symlink()]


def remove(path: Path) -> None:
    """Whatever was written at `path` (a file or a folder)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
    for suffix in SIDE_FILES:
        Path(str(path) + suffix).unlink(missing_ok=True)
