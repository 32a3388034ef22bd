"""opencode's SQLite schema, restated from its database migrations (packages/opencode/migration;
the first one, `20260127222353_familiar_lady_ursula`, ships with 1.2), and the bytes of a
database written with it.

Only the tables a session lives in are kept, with the columns the migrations give them:
`project`, `session`, `message`, `part`, `todo`, `permission`, `session_share` (1.2, era O2);
from 1.14 (era O3) the session gained `workspace_id`, `path`, `agent`, `model`, its usage
columns and `metadata`, and the store gained the `event_sequence` / `event` tables. Every
`data` column holds one JSON object written with `JSON.stringify` (compact).

A generated case must be byte-identical on every build, so the database is written by the
standard library's sqlite3 and then pinned: the header's "SQLite version that last wrote
this" is set to a fixed number, and a WAL's random salts are set to fixed values with its
checksums computed again (the WAL format of sqlite.org/fileformat2.html, section 4).
"""

from __future__ import annotations

import os
import sqlite3
import struct
import tempfile
from collections.abc import Callable

from .plan import base_era

O2_SCHEMA = """
CREATE TABLE `project` (
  `id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text, `icon_url` text,
  `icon_color` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  `time_initialized` integer, `sandboxes` text NOT NULL, `commands` text
);
CREATE TABLE `message` (
  `id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL,
  CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`)
    REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `part` (
  `id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL,
  CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`)
    REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE TABLE `permission` (
  `project_id` text PRIMARY KEY, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL
);
CREATE TABLE `session` (
  `id` text PRIMARY KEY, `project_id` text NOT NULL, `parent_id` text, `slug` text NOT NULL,
  `directory` text NOT NULL, `title` text NOT NULL, `version` text NOT NULL, `share_url` text,
  `summary_additions` integer, `summary_deletions` integer, `summary_files` integer,
  `summary_diffs` text, `revert` text, `permission` text, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `time_compacting` integer, `time_archived` integer,
  CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`)
    REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE TABLE `todo` (
  `session_id` text NOT NULL, `content` text NOT NULL, `status` text NOT NULL,
  `priority` text NOT NULL, `position` integer NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`)
);
CREATE TABLE `session_share` (
  `session_id` text PRIMARY KEY, `id` text NOT NULL, `secret` text NOT NULL,
  `url` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL
);
CREATE INDEX `message_session_idx` ON `message` (`session_id`);
CREATE INDEX `part_message_idx` ON `part` (`message_id`);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
CREATE INDEX `session_project_idx` ON `session` (`project_id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
CREATE INDEX `todo_session_idx` ON `todo` (`session_id`);
"""

O3_CHANGES = """
ALTER TABLE `session` ADD `workspace_id` text;
CREATE INDEX `session_workspace_idx` ON `session` (`workspace_id`);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE TABLE `event_sequence` (`aggregate_id` text PRIMARY KEY, `seq` integer NOT NULL);
CREATE TABLE `event` (
  `id` text PRIMARY KEY, `aggregate_id` text NOT NULL, `seq` integer NOT NULL,
  `type` text NOT NULL, `data` text NOT NULL
);
ALTER TABLE `session` ADD `path` text;
ALTER TABLE `session` ADD `agent` text;
ALTER TABLE `session` ADD `model` text;
ALTER TABLE `session` ADD `cost` real DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `tokens_input` integer DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `tokens_output` integer DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `tokens_reasoning` integer DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `tokens_cache_read` integer DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `tokens_cache_write` integer DEFAULT 0 NOT NULL;
ALTER TABLE `session` ADD `metadata` text;
"""

# Kilo's own tables (spec/hosts/kilo.md, KLO-1), from 7.7 (era K1): its agent board, created
# by Kilo's migrations `..._kilocode_board` on its first start (the columns 7.7.2 and 7.7.9
# give them).
KILO_TABLES = """
CREATE TABLE `kilo_board` (
  `root_session_id` text PRIMARY KEY, `objective` text NOT NULL, `objective_message_id` text,
  `next_seq` integer DEFAULT 1 NOT NULL, `cleared_seq` integer DEFAULT 0 NOT NULL,
  `message_count` integer DEFAULT 0 NOT NULL, `message_bytes` integer DEFAULT 0 NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL,
  CONSTRAINT `fk_kilo_board_root_session_id_session_id_fk` FOREIGN KEY (`root_session_id`)
    REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `kilo_board_message` (
  `id` text PRIMARY KEY, `board_root_session_id` text NOT NULL, `seq` integer NOT NULL,
  `time_created` integer NOT NULL, `sender_session_id` text NOT NULL, `recipient` text NOT NULL,
  `type` text NOT NULL, `body` text NOT NULL, `reply_to` text, `source_message_id` text NOT NULL,
  `source_call_id` text NOT NULL,
  CONSTRAINT `fk_kilo_board_message_board_root_session_id_kilo_board_root_session_id_fk`
    FOREIGN KEY (`board_root_session_id`) REFERENCES `kilo_board`(`root_session_id`)
    ON DELETE CASCADE
);
CREATE UNIQUE INDEX `kilo_board_message_board_seq_idx`
  ON `kilo_board_message` (`board_root_session_id`,`seq`);
"""

PINNED_VERSION = 3_046_000  # the "SQLite version number" the header says last wrote the file
WAL_SALTS = (0x52424F4F, 0x54535043)  # fixed salts ("RBOO", "TSPC") instead of random ones

Write = Callable[[sqlite3.Connection], None]


def schema(era: str) -> str:
    """The statements that create an empty store of this era (O2, O3, or Kilo's K0, K1)."""
    base = base_era(era)
    return O2_SCHEMA + (O3_CHANGES if base == "O3" else "") + (KILO_TABLES if era == "K1" else "")


def database(
    setup: str, writes: list[Write], wal_from: int | None = None, wal_cut: int = 0
) -> dict[str, bytes]:
    """Run `setup` and `writes` (each its own transaction, as opencode writes each message
    and part) and return the files: `opencode.db` and, when `wal_from` is set, the
    `opencode.db-wal` holding every write from that index on, never checkpointed (opencode
    leaves its database in WAL mode). `wal_cut` drops that many bytes from the WAL's end."""
    with tempfile.TemporaryDirectory(prefix="rebootspec-gen-") as folder:
        path = os.path.join(folder, "opencode.db")
        connection = sqlite3.connect(path, isolation_level=None)
        try:
            connection.execute("PRAGMA page_size = 4096")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.executescript(setup)
            split = len(writes) if wal_from is None else wal_from
            for write in writes[:split]:
                write(connection)
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if wal_from is None:
                connection.close()
                return {"opencode.db": _pin_header(_read(path))}
            connection.execute("PRAGMA wal_autocheckpoint = 0")
            for write in writes[split:]:
                write(connection)
            files = {"opencode.db": _read(path), "opencode.db-wal": _read(path + "-wal")}
        finally:
            connection.close()
    wal = pin_wal(files["opencode.db-wal"])
    return {
        "opencode.db": _pin_header(files["opencode.db"]),
        "opencode.db-wal": wal[: len(wal) - wal_cut],
    }


def last_commit_size(wal: bytes) -> int:
    """The bytes of the WAL's last transaction (its frames after the previous commit)."""
    page = struct.unpack(">I", wal[8:12])[0]
    frame = 24 + page
    commits = [
        offset
        for offset in range(32, len(wal), frame)
        if struct.unpack(">I", wal[offset + 4 : offset + 8])[0] != 0
    ]
    previous = commits[-2] + frame if len(commits) > 1 else 32
    return len(wal) - previous


def _read(path: str) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def _pin_header(page: bytes) -> bytes:
    """Set the header's writer version (offset 96) to a fixed number."""
    return page[:96] + struct.pack(">I", PINNED_VERSION) + page[100:]


def pin_wal(wal: bytes) -> bytes:
    """Give the WAL fixed salts (and page 1 a fixed writer version), then compute the header's
    and every frame's checksum again, so the WAL is still valid and always the same bytes."""
    magic, version, page, sequence = struct.unpack(">IIII", wal[:16])
    big_endian = magic & 1
    header = struct.pack(">IIIIII", magic, version, page, sequence, *WAL_SALTS)
    s0, s1 = _checksum(header, 0, 0, big_endian)
    out = bytearray(header + struct.pack(">II", s0, s1))
    frame = 24 + page
    for offset in range(32, len(wal) - frame + 1, frame):
        number, size = struct.unpack(">II", wal[offset : offset + 8])
        data = wal[offset + 24 : offset + frame]
        if number == 1:
            data = _pin_header(data)
        s0, s1 = _checksum(wal[offset : offset + 8] + data, s0, s1, big_endian)
        out += struct.pack(">IIIIII", number, size, *WAL_SALTS, s0, s1) + data
    return bytes(out)


def _checksum(data: bytes, s0: int, s1: int, big_endian: int) -> tuple[int, int]:
    """The WAL checksum: over 32-bit words in pairs, in the byte order the magic names."""
    words = struct.unpack((">" if big_endian else "<") + f"{len(data) // 4}I", data)
    for index in range(0, len(words), 2):
        s0 = (s0 + words[index] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[index + 1] + s0) & 0xFFFFFFFF
    return s0, s1
