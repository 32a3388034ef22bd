"""The basic-agent-chat-loop reader: a session's markdown file and the chain of sessions it
was restored from -> its reboots (spec/hosts/basic-agent-chat-loop.md, BCL-*).

    the file asked about -> its header and first section (BCL-1, BCL-3)
                         -> restored? 1 + the count of its parent, `<parent id>.md` in the same
                            folder (BCL-4), walked until a session that is not restored
                         -> a link that cannot be walked: E-CHAIN (BCL-6); a chain too long:
                            E-LIMIT (BCL-7)

Only the header and the first section of each file are read: the conversation below them is the
user's and the agent's text, where any line can be quoted (BCL-5). Summary markers are never read.
"""

from __future__ import annotations

import os

from ...core.answer import RecordCount
from ...core.errors import E_CHAIN, E_EMPTY, E_HOST, E_LIMIT, Rejection
from ...core.files import open_regular

HOST = "basic-agent-chat-loop"
READ_BYTES = 128 * 1024  # BCL-7: a file is read only this far (header and first section)
HEADER_BYTES = 64 * 1024  # BCL-1: the header ends within this many bytes ...
HEADER_LINES = 64  # ... and this many lines
MAX_CHAIN = 10_000  # BCL-7: files on one chain
RESTORED = "## Session Restored ("  # BCL-3: the first section of a restored session
CONTEXT = "**Context:** Resumed from "
PREVIOUS = "**Previous Session:** "


class NotASession(Exception):
    """BCL-1: the bytes are no chat-loop session file (the reason says why)."""


class Session:
    """What one session file says about itself: the header's values and its first section."""

    def __init__(
        self, header: dict[str, str], body: list[tuple[int, str]], lines: dict[str, int]
    ) -> None:
        self.header = header
        self.body = body  # (1-based line, text) of the first non-blank lines after `---`
        self.lines = lines  # header key -> its 1-based line

    def anchor(self) -> int:
        """ERR-16, BCL-6: where this file's chain starts, the line its rejection names: the
        `**Resumed From:**` line, else a restored section's heading, else 0."""
        if "Resumed From" in self.lines:
            return self.lines["Resumed From"]
        heading = self.body[0] if self.body else (0, "")
        return heading[0] if heading[1].startswith(RESTORED) else 0

    @property
    def era(self) -> str:
        """BCL-2 (informative): M1 writes `**Agent Path:**`, M0 does not."""
        return "M1" if "Agent Path" in self.header else "M0"

    @property
    def parent(self) -> str | None:
        """BCL-3: the id in `**Resumed From:**`, or None for a session that is not restored."""
        return self.header.get("Resumed From")


def read_session(data: bytes) -> Session:
    """BCL-1: the header (every line before the first `---` line) and the lines of the first
    section; NotASession when the bytes are not a chat-loop session, E-EMPTY when empty."""
    if not data:
        raise Rejection(0, E_EMPTY, "an empty file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    complete = len(data) < READ_BYTES
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if not complete:
        lines.pop()  # cut by the read bound: the last piece is not a whole line
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    title = lines[0] if lines else ""
    if not (title.startswith("# ") and title.endswith(" Conversation")):
        raise NotASession("its first line is not '# <agent> Conversation'")
    header: dict[str, str] = {}
    numbers: dict[str, int] = {}
    size = 0
    for index, line in enumerate(lines[1:], start=2):
        size += len(line.encode("utf-8")) + 1
        if index > HEADER_LINES or size > HEADER_BYTES:
            break
        if line == "---":
            if "Date" not in header or "Agent" not in header:
                raise NotASession("its header has no '**Date:**' or no '**Agent:**' line")
            return Session(header, _first_section(lines, index), numbers)
        key, value = _header_value(line)
        if key is not None and key not in header:
            header[key] = value
            numbers[key] = index
    raise NotASession("no '---' line ends its header within its first 64 lines and 64 KiB")


def _header_value(line: str) -> tuple[str | None, str]:
    """BCL-1: `**Key:** value` -> (Key, value stripped of spaces and tabs); other lines: None."""
    if not line.startswith("**"):
        return None, ""
    end = line.find(":** ", 2)
    if end < 0:
        return None, ""
    return line[2:end], line[end + 4 :].strip(" \t")


def _first_section(lines: list[str], separator: int) -> list[tuple[int, str]]:
    """BCL-3: the first three lines after the header's `---` line (line `separator`), blank
    lines skipped first; fewer when the file ends."""
    out: list[tuple[int, str]] = []
    for number in range(separator + 1, len(lines) + 1):
        line = lines[number - 1]
        if not out and not line.strip(" \t"):
            continue
        out.append((number, line))
        if len(out) == 3:
            break
    return out


def restoration_line(session: Session, name: str) -> int | None:
    """BCL-3, BCL-6 (4): the line of the `## Session Restored` heading of a restored session,
    None for one that is not restored; E-CHAIN when the header and the section disagree."""
    parent = session.parent
    heading = session.body[0][1] if session.body else ""
    if parent is None:
        if heading.startswith(RESTORED):
            raise _chain(f"{name} starts with a restored section, but its header names no parent")
        return None
    texts = [text for _, text in session.body]
    if not heading.startswith(RESTORED):
        raise _chain(f"{name} names {parent!r} as its parent but has no restored section")
    context = texts[1] if len(texts) > 1 else ""
    if not context.startswith(f"{CONTEXT}{parent} ("):
        raise _chain(f"{name}: the restored section's context does not name {parent!r}")
    previous = texts[2] if len(texts) > 2 else ""
    path = previous[len(PREVIOUS) :].strip(" \t") if previous.startswith(PREVIOUS) else ""
    leaf = f"{parent}.md"
    if not (path == leaf or path.endswith((f"/{leaf}", f"\\{leaf}"))):
        raise _chain(f"{name}: the previous session's path does not end with {leaf!r}")
    return session.body[0][0]


def plain_name(session_id: str) -> bool:
    """BCL-6 (3): an id that names a file of the folder itself, never outside it."""
    bad = ("/", "\\", "\x00")
    return session_id not in ("", ".", "..") and not any(c in session_id for c in bad)


def _chain(reason: str) -> Rejection:
    """ERR-16: the chain cannot be walked (`count_chat_loop` names the asked file's line)."""
    return Rejection(0, E_CHAIN, reason)


def _read(path: str) -> tuple[bytes, tuple[int, int]]:
    """The first READ_BYTES of a regular file (ERR-12) and its identity (device, inode)."""
    with open_regular(path) as stream:
        info = os.fstat(stream.fileno())
        return stream.read(READ_BYTES), (info.st_dev, info.st_ino)


def count_chat_loop(path: str | os.PathLike[str]) -> RecordCount:
    """BCL-4: the reboots of the session file at `path`: its restorations and its parents'."""
    name = os.path.basename(os.fspath(path))
    folder = os.path.dirname(os.fspath(path))
    data, identity = _read(os.fspath(path))
    try:
        session = read_session(data)
    except NotASession as error:  # BCL-1, HST-4: a markdown file of no known host
        raise Rejection(0, E_HOST, f"not a basic-agent-chat-loop session: {error}") from None
    count = RecordCount(host=HOST, reboots=0, era=session.era, records=1)
    tried: list[str] = []  # the earlier files of the chain, each as it is looked for
    try:
        _walk(session, identity, folder, name, count, tried)
    except Rejection as rejection:
        if rejection.code == E_CHAIN:
            rejection = Rejection(session.anchor(), E_CHAIN, rejection.reason)
        rejection.sources = tuple(tried)
        raise rejection from None
    count.events.reverse()  # walked from the asked file back; told oldest first
    count.reboots = len(count.events)
    count.sources = tuple(tried)
    return count


def _walk(
    session: Session,
    identity: tuple[int, int],
    folder: str,
    name: str,
    count: RecordCount,
    tried: list[str],
) -> None:
    """BCL-4: one event per restored file, from the asked one up its chain (BCL-6, BCL-7);
    `tried` gets the path of each earlier file looked for (the answer's sources)."""
    seen = {identity}
    while True:
        line = restoration_line(session, name)
        parent = session.parent
        if line is None or parent is None:
            break
        if len(count.events) >= MAX_CHAIN:
            raise Rejection(0, E_LIMIT, f"a chain of more than {MAX_CHAIN} sessions")
        count.events.append({"line": line, "file": name, "from": parent})
        child = identity
        session, identity, name = _parent(folder, name, parent, tried)
        if identity == child:  # BCL-6 (5): two sessions of one second share an id and a file
            raise _chain(f"{name} names itself as its previous session (a cycle of one file)")
        if identity in seen:  # BCL-6 (5): a cycle
            raise _chain(f"{name} is on its own chain of previous sessions (a cycle)")
        seen.add(identity)
        count.records += 1


def _parent(
    folder: str, child: str, parent: str, tried: list[str] | None = None
) -> tuple[Session, tuple[int, int], str]:
    """BCL-4, BCL-6 (1-3): the session file `<parent>.md` beside the child, read."""
    if not plain_name(parent):
        raise _chain(f"{child} names {parent!r} as its parent, which is no file of its folder")
    name = f"{parent}.md"
    path = os.path.join(folder, name)
    if tried is not None:
        tried.append(path)
    try:
        data, identity = _read(path)
    except (OSError, Rejection) as error:
        why = "not in the folder" if isinstance(error, FileNotFoundError) else "not readable"
        raise _chain(f"{child} names {name} as its previous session, which is {why}") from None
    try:
        session = read_session(data)
    except (NotASession, Rejection) as error:
        reason = error.reason if isinstance(error, Rejection) else str(error)
        raise _chain(
            f"{name} (the previous session of {child}) is not a session: {reason}"
        ) from None
    if session.header.get("Session ID") != parent:
        raise _chain(f"{name} (the previous session of {child}) is another session's file")
    return session, identity, name
