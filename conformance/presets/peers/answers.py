"""How each peer's answer is read: pure functions from what the tool printed or wrote to a count.

Each returns `(count, None)` or `(None, reason)` and never raises, like the runner's readers
(`runner.answers`): a tool that printed something unexpected is `bad-output`, never a guess.
They are kept apart from the code that runs the tools so the tests can feed them recorded
outputs without npm, PyPI or the network.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from ...runner.answers import MAX_COUNT

Answer = tuple[int | None, str | None]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def _count(value: Any, where: str) -> Answer:
    if isinstance(value, bool) or not isinstance(value, int):
        return None, f"{where} is not an integer"
    if value < 0 or value > MAX_COUNT:
        return None, f"{where} is out of range: {value}"
    return value, None


def json_member(stdout: str, member: str) -> Answer:
    """A top-level integer member of one JSON document (codeburn's `compactions`)."""
    try:
        document = orjson.loads(stdout)
    except orjson.JSONDecodeError:
        return None, "stdout is not one JSON document"
    if not isinstance(document, dict) or member not in document:
        return None, f"the JSON has no top-level {member!r}"
    return _count(document[member], member)


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


# ccstatusline's compaction counter, format `text-and-number`: "Compactions: N".
_STATUS_COUNT = re.compile(r"Compactions:\s*(\d+)")


def status_line(stdout: str) -> Answer:
    """ccstatusline's rendered status line: the number after `Compactions:` (colours removed)."""
    found = _STATUS_COUNT.findall(strip_ansi(stdout).replace("\u00a0", " "))
    if len(found) != 1:
        return None, f"the status line shows {len(found)} compaction counters, not one"
    return _count(int(found[0]), "the compaction counter")


# claude-code-transcripts and ai-code-sessions render each continuation summary as this element.
_CONTINUATION = re.compile(r"<details class=\"continuation\">")


def continuation_blocks(pages: Iterable[str]) -> Answer:
    """The `<details class="continuation">` blocks over every page of an HTML transcript."""
    texts = list(pages)
    if not texts:
        return None, "the tool wrote no HTML page"
    return sum(len(_CONTINUATION.findall(text)) for text in texts), None


# claude-code-log marks a compacted-summary message with the classes `message user compacted`.
_COMPACTED_MESSAGE = re.compile(r"class='message user compacted[ ']")


def compacted_messages(html: str) -> Answer:
    """claude-code-log's rendered compacted-summary messages in one HTML transcript."""
    if "<html" not in html[:2000].lower():
        return None, "the output is not an HTML page"
    return len(_COMPACTED_MESSAGE.findall(html)), None


_SESSION_DATA = re.compile(
    r"<script[^>]*id=\"session-data\"[^>]*>\s*([A-Za-z0-9+/=\s]*?)\s*</script>", re.S
)


def pi_export(html: str) -> Answer:
    """pi's `--export` page: the `N compactions` of its header.

    The page embeds the session as base64 JSON (`<script id="session-data">`) and its script
    counts, for the header, the `entries` whose `type` is `compaction` (`computeStats`). This
    decodes the same data and counts the same entries, which is what a reader of the page sees
    without running a browser.
    """
    match = _SESSION_DATA.search(html)
    if match is None:
        return None, "the page has no session-data block"
    try:
        data = _deep_json(base64.b64decode("".join(match[1].split()), validate=True))
    except (binascii.Error, ValueError, RecursionError):
        return None, "the session-data block is not base64 JSON"
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None, "the session data has no entries list"
    return sum(1 for e in entries if isinstance(e, dict) and e.get("type") == "compaction"), None


def _deep_json(raw: bytes) -> Any:
    """orjson, or for a document nested deeper than its 1024 levels (a browser's JSON.parse has
    no such limit, so the page still shows its header) the standard library with room to
    recurse."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            return json.loads(raw)
        finally:
            sys.setrecursionlimit(limit)


def harness_line(stdout: str) -> Answer:
    """The one JSON line `{"compactions": N}` a peer's small harness prints."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    if not lines:
        return None, "the harness printed nothing"
    return json_member(lines[-1], "compactions")


def agentsview_store(database: Path, laid: Path, session: str | None) -> Answer:
    """agentsview's `compaction_count` of the case's session in its SQLite store.

    The session is the one whose source is the laid file (for opencode: whose id ends with the
    case's session id); when the tool split the file into a parent and its subagents, the row
    without a parent. Opened read-only, after the tool has exited.
    """
    if not database.is_file():
        return None, "agentsview wrote no sessions.db"
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            rows = connection.execute(
                "SELECT id, file_path, parent_session_id, compaction_count FROM sessions"
                " WHERE deleted_at IS NULL"
            ).fetchall()
    except sqlite3.Error as error:
        return None, f"cannot read agentsview's store: {error}"
    return pick_session(rows, str(laid), session)


def pick_session(rows: list[tuple[Any, ...]], laid: str, session: str | None) -> Answer:
    """The case's row among agentsview's `(id, file_path, parent, compaction_count)` rows."""
    if session is not None:
        mine = [row for row in rows if str(row[0]).endswith(session)]
    else:
        mine = [row for row in rows if row[1] == laid]
    if len(mine) > 1:
        mine = [row for row in mine if not row[2]]
    if len(mine) != 1:
        return None, f"agentsview stored {len(mine)} sessions for the case, not one"
    return _count(mine[0][3], "compaction_count")
