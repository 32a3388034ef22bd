"""The opencode reader: one session of a database or a storage folder -> its reboots
(spec/hosts/opencode.md, OPC-*).

    a database or a storage folder (OPC-1) -> the named session (OPC-3, E-SESSION)
        -> its messages and their parts (opencode_read.py; the input is never changed, OPC-12)
        -> the messages the session copied from another one when it was forked (OPC-9)
        -> its completed compaction pairs (OPC-4..OPC-7); in a session of era O0, which
           wrote no pair, its completed summary messages (OPC-5)

A pair is found by a join, not by one record: a user message holding a `compaction` part, and
an assistant child (`parentID`) whose `summary` is set, that `finish`ed and has no `error` —
the test opencode itself applies when it cuts the model's history at a summary. Member values
are judged as opencode's JavaScript judges them (`js_truthy`), so a hostile value of another type
gets the answer opencode's own loader would give it (OPC-12).
"""

from __future__ import annotations

import os

from ...core.answer import RecordCount
from ...core.jsontext import js_truthy
from .store import Message, Session, read_session

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

HOST = "opencode"
ABORTED = "MessageAbortedError"  # OPC-5: the error name of a summary the user stopped


def count_opencode(path: str | os.PathLike[str], session: str | None) -> RecordCount:
    """Count the reboots of one opencode session; raises Rejection (E-READ, E-SESSION...)."""
    return count_session(read_session(os.fspath(path), session))


def count_session(session: Session) -> RecordCount:
    """OPC-4..OPC-10: the session's own completed compactions, from its messages."""
    messages = sorted(session.messages, key=_order)
    position = {m.id: index for index, m in enumerate(messages, 1)}
    by_id = {m.id: m for m in messages}
    # OPC-2, OPC-5: only 1.0.0's storage folders (era O0) wrote summaries without a pair
    pairs = session.database or any(m.compaction is not None for m in messages)
    count = RecordCount(host=HOST, reboots=0, records=len(messages))
    count.host_version = session.version
    count.era = _era(session, messages, pairs)
    counted: set[str] = set()
    for message in messages:
        if message.role != "assistant" or not js_truthy(message.summary):
            continue
        if pairs:
            parent = by_id.get(message.parent) if message.parent is not None else None
            done = (
                parent is not None
                and parent.role == "user"
                and parent.compaction is not None  # OPC-4: the user half of the pair
                and js_truthy(message.finish)  # OPC-6, OPC-7: finished, also cut short
                and not js_truthy(message.error)  # OPC-6: failed or aborted
            )
            key = parent.id if parent is not None else message.id
        else:
            done = _o0_completed(message)  # OPC-5
            key = message.id
        if not done:
            count.companions += 1  # OPC-6, OPC-8: a summary that replaced nothing
            continue
        if _copied(message, session):  # OPC-9: a fork's copy of its source's compaction
            count.inherited.append(position[message.id])
            continue
        if key in counted:
            continue  # one compaction, however many finished summaries it holds
        counted.add(key)
        count.events.append(_event(message, by_id.get(key), position[message.id]))
    count.reboots = len(counted)
    return count


def _o0_completed(message: Message) -> bool:
    """OPC-5: opencode 1.0.0 called a summary done when it had no error, or when the user
    stopped it after some text had arrived."""
    if not js_truthy(message.error):
        return True
    error = message.error
    name = error.get("name") if isinstance(error, dict) else None
    return name == ABORTED and message.has_text


def _copied(message: Message, session: Session) -> bool:
    """OPC-9: a fork copies its source's messages with their own creation time, which is
    earlier than the fork session's; a session's own messages are never older than it."""
    created, start = message.created, session.created
    return created is not None and start is not None and created < start


def _era(session: Session, messages: list[Message], pairs: bool) -> str | None:
    """OPC-2 (informative): the era the storage and the record shapes show."""
    if not session.database:
        if pairs:
            return "O1"
        if any(m.role == "assistant" and js_truthy(m.summary) for m in messages):
            return "O0"
        return None
    if any(m.compaction is not None and m.compaction.marks_tail for m in messages):
        return "O3"
    return "O3" if _at_least(session.version, (1, 14)) else "O2"


def _event(message: Message, user: Message | None, position: int) -> dict[str, Any]:
    """OUT-4 (informative): where the counted summary is and how the compaction began."""
    event: dict[str, Any] = {"line": position, "message": message.id}
    part = user.compaction if user is not None else None
    if part is not None:
        if part.trigger is not None:
            event["trigger"] = part.trigger
        if part.overflow:
            event["overflow"] = True
    if message.finish == "unknown":
        event["cut_short"] = True  # OPC-7
    return event


def _order(message: Message) -> tuple[int, str]:
    """opencode lists a session's messages by creation time, then id."""
    created = message.created
    return (created if created is not None else 0, message.id)


def _at_least(version: str | None, wanted: tuple[int, int]) -> bool:
    if version is None:
        return False
    numbers: list[int] = []
    for piece in version.split(".")[:2]:
        if not piece.isdigit():
            return False
        numbers.append(int(piece))
    return tuple(numbers) >= wanted
