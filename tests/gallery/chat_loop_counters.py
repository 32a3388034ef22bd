"""The gallery's basic-agent-chat-loop counters: the reference's chain walk with one rule bent.

Each takes a path and answers like the reference on every file that is not a chat-loop session
(`.md`), so on the other hosts' cases it is the reference; on a chat-loop file it makes exactly
the mistake its SPEC.md §10 row names (BCL-1..BCL-6, RBT-5).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from rebootspec.reference import count_path
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.errors import E_CHAIN, E_HOST, E_UNMEASURABLE, Rejection
from rebootspec.reference.hosts.chat_loop import reader as chat_loop
from rebootspec.reference.hosts.chat_loop.reader import (
    PREVIOUS,
    READ_BYTES,
    NotASession,
    Session,
    read_session,
    restoration_line,
)

Counter = Callable[[str], int]
RESUMED = re.compile(r"\*\*Resumed From:\*\* (.+)")


def _session(path: str) -> Session:
    with open(path, "rb") as stream:
        return read_session(stream.read(READ_BYTES))


def _reference_elsewhere(mistake: Counter) -> Counter:
    """The reference on every file but a chat-loop `.md`, which `mistake` reads."""

    def counter(path: str) -> int:
        if not path.endswith(".md"):
            return count_path(path, readable=True).reboots
        try:
            _session(path)  # the reference's rejections of the file itself (BCL-1)
        except NotASession as error:
            raise Rejection(0, E_HOST, str(error)) from None
        return mistake(path)

    return counter


def _own_section_only(path: str) -> int:
    """BCL-4 bent: a restored file counts 1, its previous sessions are never read."""
    session = _session(path)
    return 0 if restoration_line(session, os.path.basename(path)) is None else 1


def _counts_summary_markers(path: str) -> int:
    """BCL-5 bent: every summary start marker is a compaction."""
    with open(path, "rb") as stream:
        return stream.read().decode("utf-8", "replace").count(chat_loop_marker())


def chat_loop_marker() -> str:
    return "<!-- SESSION_SUMMARY_START -->"


def _resumed_from_anywhere(path: str) -> int:
    """BCL-1 bent: the parent is the first `**Resumed From:**` line anywhere in the file (the
    host's own metadata regex), header or conversation; the walk is otherwise the reference's."""
    folder = os.path.dirname(path)
    seen: set[str] = set()
    hops = 0
    current = path
    while True:
        real = os.path.realpath(current)
        if real in seen:
            raise Rejection(0, E_CHAIN, "a cycle")
        seen.add(real)
        with open(current, encoding="utf-8", errors="replace") as stream:
            found = RESUMED.search(stream.read())
        if found is None:
            return hops
        parent = os.path.join(folder, f"{found[1].strip()}.md")
        if not os.path.isfile(parent):
            raise Rejection(0, E_CHAIN, f"{parent} is missing")
        hops += 1
        current = parent


def _follows_previous_path(path: str) -> int:
    """BCL-4 bent: the parent is the file at the path written after `**Previous Session:**`."""
    hops = 0
    current = path
    while True:
        session = _session(current)
        if restoration_line(session, current) is None:
            return hops
        line = session.body[2][1]
        target = line[len(PREVIOUS) :].strip()
        if hops > 1000 or not os.path.isfile(target):
            raise Rejection(0, E_CHAIN, f"{target} is missing")
        hops += 1
        current = target


def _loops_on_cycle(path: str) -> int:
    """BCL-6 (5) bent: the walk never remembers a file; it gives up after 1,000 links."""
    folder = os.path.dirname(path)
    hops = 0
    session = _session(path)
    name = os.path.basename(path)
    while hops < 1000 and restoration_line(session, name) is not None:
        parent = session.parent or ""
        name = f"{parent}.md"
        target = os.path.join(folder, name)
        if not os.path.isfile(target):
            raise Rejection(0, E_CHAIN, f"{name} is missing")
        session = _session(target)
        hops += 1
    return hops


def _missing_link_ends_chain(path: str) -> int:
    """BCL-6 (1-3) bent: a previous session that cannot be read ends the walk; what was read
    counts."""
    folder = os.path.dirname(path)
    name = os.path.basename(path)
    session = _session(path)
    hops = 0
    seen = {os.path.realpath(path)}
    while restoration_line(session, name) is not None:
        hops += 1
        parent = session.parent or ""
        try:
            session, _, name = chat_loop._parent(folder, name, parent)
        except Rejection:
            return hops
        real = os.path.realpath(os.path.join(folder, name))
        if real in seen:
            raise Rejection(0, E_CHAIN, "a cycle")
        seen.add(real)
    return hops


def _m0_unmeasurable(path: str) -> int:
    """RBT-5 bent: a chat-loop file of before 1.6.0 is taken for an era that recorded nothing."""
    result = count_path(path)
    if isinstance(result, RecordCount) and result.era == "M0":
        raise Rejection(0, E_UNMEASURABLE, "a chat loop of before 1.6.0")
    return result.reboots


CHAT_LOOP_GALLERY: dict[str, Counter] = {
    "own-section-only": _reference_elsewhere(_own_section_only),
    "counts-summary-markers": _reference_elsewhere(_counts_summary_markers),
    "resumed-from-anywhere": _reference_elsewhere(_resumed_from_anywhere),
    "follows-previous-path": _reference_elsewhere(_follows_previous_path),
    "loops-on-cycle": _reference_elsewhere(_loops_on_cycle),
    "missing-link-ends-chain": _reference_elsewhere(_missing_link_ends_chain),
    "chatloop-m0-unmeasurable": _reference_elsewhere(_m0_unmeasurable),
}
