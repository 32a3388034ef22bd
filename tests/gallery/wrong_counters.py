"""The gallery: one small counter per row of SPEC.md §10, each making exactly that row's mistake.

A conformance suite is worth what it catches. Every counter here is the reference with one rule
bent, so a counter that passes the whole corpus means the corpus cannot tell that rule from its
mistake (tests/gallery/test_gallery.py fails then). Each answers a session file with a count, or
raises `Rejection` as the spec would.

Three kinds of mistakes:
- reading mistakes (how the file becomes a final state): a replayer that bends one RPL/ERR rule,
  built on the reference's own replayer;
- counting mistakes (what is counted in the final state): functions over the reference's final
  state that bend one SUM/CNT/MRK rule, built on the reference's own helpers;
- host mistakes (Codex and pi, spec 3.0): the reference's host readers fed a record stream read
  or rewritten the wrong way, or their answer read the wrong way, bending one RBT/HST/JSV/CDX/PIA
  rule; VS Code files are left to the reference;
- Claude Code and Gemini CLI mistakes (spec 3.0 part two): the same for those two readers,
  bending one CLC or GEM rule; files of every other host are left to the reference.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO

from rebootspec.reference import count_path
from rebootspec.reference.core import registry
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.errors import (
    E_HOST,
    E_JSON,
    E_LIMIT,
    E_READ,
    E_STATE,
    E_UNMEASURABLE,
    Notice,
    Rejection,
)
from rebootspec.reference.core.jsonvalues import W_SKIPPED, iter_values
from rebootspec.reference.hosts.claude_code import reader as claude_code
from rebootspec.reference.hosts.codex import reader as codex
from rebootspec.reference.hosts.gemini_cli import reader as gemini
from rebootspec.reference.hosts.opencode.reader import count_session
from rebootspec.reference.hosts.opencode.store import Session, read_session
from rebootspec.reference.hosts.pi import reader as pi
from rebootspec.reference.hosts.vscode.count import (
    PROVIDER,
    TEXT,
    Event,
    _metadata,
    _nonempty,
    count_state,
    find_marker,
    is_removed,
    js_truthy,
    mark_reboots,
    requests_of,
    stored_events,
)
from rebootspec.reference.hosts.vscode.eras import vocabulary
from rebootspec.reference.hosts.vscode.replay import BOM, _Replayer, load_path, parse_json
from tests.gallery.chat_loop_counters import CHAT_LOOP_GALLERY
from tests.gallery.cline_counters import CLINE_GALLERY
from tests.gallery.copilot_counters import COPILOT_GALLERY

CLAUDE_CODE, CODEX, GEMINI, OPENCODE, PI = "claude-code", "codex", "gemini-cli", "opencode", "pi"


def detect(path: str) -> str:
    """The host key HST-2 gives the file (the registry's detection)."""
    return registry.detect(path).key


Counter = Callable[[str], int]


class CaseInput(str):
    """A case's input path that also carries the session the case asks about (`{session}`,
    PRO-1): an opencode store names one; every other input is one session and carries None."""

    session: str | None = None

    @classmethod
    def of(cls, path: str, session: str | None) -> CaseInput:
        made = cls(path)
        made.session = session
        return made


def session_of(path: str) -> str | None:
    return getattr(path, "session", None)


VOCAB = vocabulary()
ENGLISH = frozenset(
    text for era in VOCAB.eras for text in era["completed"]
)  # the era rows, without ERA-3's translations


# Reading mistakes -------------------------------------------------------------------------


class _IgnoresI(_Replayer):
    def _push(self, keys: list[str | int], entry: dict[str, Any], line: int) -> None:
        super()._push(keys, {k: v for k, v in entry.items() if k != "i"}, line)


class _IgnoresDeletes(_Replayer):
    def apply(self, entry: Any, line: int) -> None:
        if isinstance(entry, dict) and (
            entry.get("kind") == 3 or (entry.get("kind") == 1 and "v" not in entry)
        ):
            return
        super().apply(entry, line)


class _FirstInitialOnly(_Replayer):
    def apply(self, entry: Any, line: int) -> None:
        if isinstance(entry, dict) and entry.get("kind") == 0 and self.state is not None:
            return
        super().apply(entry, line)


class _SkipsPushes(_Replayer):
    def apply(self, entry: Any, line: int) -> None:
        if isinstance(entry, dict) and entry.get("kind") == 2:
            return
        super().apply(entry, line)


def _replay(
    stream: BinaryIO,
    replayer: _Replayer,
    skip_bad_lines: bool = False,
    reject_torn_tail: bool = False,
) -> dict[str, Any]:
    """The reference's replay loop (RPL-1, ERR-9), with the two line-level mistakes as switches."""
    line = 0
    for raw in stream:
        line += 1
        if raw == b"\n":
            continue
        if line == 1 and raw.startswith(BOM):
            raw = raw[len(BOM) :]
            if raw in (b"", b"\n"):
                continue
        try:
            entry = parse_json(raw, line)
        except Rejection as rejection:
            if skip_bad_lines and rejection.code == E_JSON:
                continue
            if raw.endswith(b"\n") or reject_torn_tail or rejection.code != E_JSON:
                raise
            break
        replayer.apply(entry, line)
    if replayer.state is None:
        raise Rejection(0, "E-EMPTY", "no entries")
    return replayer.state


def reading_mistake(
    replayer: type[_Replayer] = _Replayer,
    skip_bad_lines: bool = False,
    reject_torn_tail: bool = False,
    no_json: bool = False,
) -> Counter:
    def count(path: str) -> int:
        if path.endswith(".json"):
            if no_json:
                raise Rejection(0, E_STATE, "this counter reads only .jsonl")
            return count_state(load_path(path).state).reboots
        with open(path, "rb") as stream:
            state = _replay(stream, replayer(), skip_bad_lines, reject_torn_tail)
        return count_state(state).reboots

    return count


# Counting mistakes ------------------------------------------------------------------------

EventSource = Callable[[int, dict[str, Any]], list[Event]]


def counting_mistake(
    events_of: EventSource = stored_events,
    keep: Callable[[dict[str, Any]], bool] = lambda request: not is_removed(request),
    reboots: Callable[[list[Event]], int] = lambda events: sum(
        e.reboot for e in mark_reboots(events)
    ),
) -> Counter:
    """The reference's walk with one of its three parts replaced."""

    def count(path: str) -> int:
        state = load_path(path).state
        events: list[Event] = []
        for index, request in enumerate(requests_of(state)):
            if isinstance(request, dict) and keep(request):
                events.extend(events_of(index, request))
        return reboots(events)

    return count


def _with_marker(texts: frozenset[str]) -> EventSource:
    """Events only on requests with a completed marker of `texts` or a finished /compact."""

    def events(index: int, request: dict[str, Any]) -> list[Event]:
        marker, completed = find_marker(request, VOCAB)
        if not completed or marker is None:
            return []
        if marker not in texts and marker not in VOCAB.manual_completed:
            return []
        return stored_events(index, request)

    return events


def _raw_events(index: int, request: dict[str, Any]) -> list[Event]:
    """SUM-1, SUM-6, SUM-7, SUM-2 in order, without SUM-8's de-duplication."""
    metadata = _metadata(request)
    found: list[Event] = []
    entries = metadata.get("summaries")
    for entry in entries if isinstance(entries, list) else []:
        text = _nonempty(entry.get("text")) if isinstance(entry, dict) else None
        if text is not None:
            found.append(Event(index, "summaries", TEXT, text))
    found += _round_events(index, metadata)
    summary = metadata.get("summary")
    text = _nonempty(summary.get("text")) if isinstance(summary, dict) else None
    if text is not None:
        found.append(Event(index, "summary", TEXT, text))
    return found


def _round_events(index: int, metadata: dict[str, Any]) -> list[Event]:
    found = []
    rounds = metadata.get("toolCallRounds")
    for round_ in rounds if isinstance(rounds, list) else []:
        if not isinstance(round_, dict):
            continue
        text = _nonempty(round_.get("summary"))
        if text is not None:
            found.append(Event(index, "round", TEXT, text))
        compaction = round_.get("compaction")
        ident = _nonempty(compaction.get("id")) if isinstance(compaction, dict) else None
        if ident is not None:
            found.append(Event(index, "round", PROVIDER, ident))
    return found


def _dedup(events: Iterable[Event]) -> list[Event]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for event in events:
        if (event.kind, event.key) not in seen:
            seen.add((event.kind, event.key))
            kept.append(event)
    return kept


def _ignores_rounds(index: int, request: dict[str, Any]) -> list[Event]:
    return _dedup(e for e in _raw_events(index, request) if e.source != "round")


def _only_rounds(index: int, request: dict[str, Any]) -> list[Event]:
    return _dedup(_round_events(index, _metadata(request)))


def _rounds_first(index: int, request: dict[str, Any]) -> list[Event]:
    """SUM-6/SUM-7 before SUM-1 (then SUM-2), de-duplicated as SUM-8 does."""
    raw = _raw_events(index, request)
    return _dedup([e for e in raw if e.source == "round"] + [e for e in raw if e.source != "round"])


def _only_summary(index: int, request: dict[str, Any]) -> list[Event]:
    return [e for e in _raw_events(index, request) if e.source == "summary"]


def _last_only(index: int, request: dict[str, Any]) -> list[Event]:
    return stored_events(index, request)[-1:]


def _first_only(index: int, request: dict[str, Any]) -> list[Event]:
    return stored_events(index, request)[:1]


def _phantom_is_a_value(index: int, request: dict[str, Any]) -> list[Event]:
    """A marker without an event counts as an event whose text is 'nothing'."""
    events = stored_events(index, request)
    marker, completed = find_marker(request, VOCAB)
    if not events and completed and marker is not None:
        return [Event(index, "phantom", TEXT, "")]
    return events


def _every_entry(events: list[Event]) -> int:
    """Each summaries[] entry is one reboot; other events by CNT-2."""
    return sum(1 for e in events if e.source == "summaries") + sum(
        e.reboot for e in mark_reboots([e for e in events if e.source != "summaries"])
    )


def _entries_of(index: int, request: dict[str, Any]) -> list[Event]:
    """Like _raw_events for summaries[] (every entry), de-duplicated for the rest."""
    raw = _raw_events(index, request)
    return [e for e in raw if e.source == "summaries"] + _dedup(
        e for e in raw if e.source != "summaries"
    )


def _markers(events: list[Event]) -> int:
    return len({e.request for e in events})


def _marker_requests(index: int, request: dict[str, Any]) -> list[Event]:
    """One event per request with a completed marker, whatever is stored."""
    marker, completed = find_marker(request, VOCAB)
    return [Event(index, "marker", TEXT, str(index))] if completed and marker else []


def _provider_per_round(index: int, request: dict[str, Any]) -> list[Event]:
    """Text events de-duplicated, provider compactions once per round that holds one."""
    events = [e for e in stored_events(index, request) if e.kind == TEXT]
    rounds = _metadata(request).get("toolCallRounds")
    for position, round_ in enumerate(rounds if isinstance(rounds, list) else []):
        if isinstance(round_, dict) and isinstance(round_.get("compaction"), dict):
            ident = _nonempty(round_["compaction"].get("id"))
            if ident is not None:
                events.append(Event(index, "round", PROVIDER, f"{ident}#{position}"))
    return events


def _distinct(events: list[Event]) -> int:
    return len({(e.kind, e.key) for e in events})


def _drops_partial(request: dict[str, Any]) -> bool:
    return not (is_removed(request) or js_truthy(request.get("shouldBeRemovedOnSend")))


def _crashes(path: str) -> int:
    """Counts like the reference, but a log it cannot read kills it (a traceback, exit 1)."""
    try:
        return count_state(load_path(path).state).reboots
    except Rejection as rejection:
        raise RuntimeError(f"unhandled: {rejection.reason}") from None


def _wrong_code(path: str) -> int:
    """Counts like the reference, but every rejection carries the code E-JSON."""
    try:
        return count_state(load_path(path).state).reboots
    except Rejection as rejection:
        raise Rejection(rejection.line, E_JSON, rejection.reason) from None


# Host mistakes (Codex, pi) ----------------------------------------------------------------

Records = list[tuple[int, Any]]
Rewrite = Callable[[str, Records], Records]


def _by_value(path: str) -> Records:
    """JSV-1..JSV-3 as the reference reads them (warnings dropped)."""
    notices: list[Notice] = []
    with open(path, "rb") as stream:
        return list(iter_values(stream, notices))


def _by_line(path: str) -> Records:
    """`json.loads` per line, skipping what it refuses, as pi's own loader does: glued records
    (two values on one line) are lost with their line."""
    records = []
    with open(path, "rb") as stream:
        for line, raw in enumerate(stream, 1):
            try:
                records.append((line, json.loads(raw.decode("utf-8", "replace").lstrip("\ufeff"))))
            except ValueError:
                continue
    return records


def _keeps_bom(path: str) -> int:
    """JSV-1 bent: a byte order mark at the start of a Codex or pi file is kept, so line 1 (the
    `session_meta` or pi header) does not parse and the file holds no session: rejected, where
    the spec drops the mark and counts."""
    host = detect(path)
    if host in (CODEX, PI):
        with open(path, "rb") as stream:
            if stream.read(len(BOM)) == BOM:
                raise Rejection(1, E_HOST, "line 1 does not parse (a byte order mark kept)")
    return count_path(path, readable=True, session=session_of(path)).reboots


def _no_depth_limit(path: str) -> int:
    """ERR-8 bent: a Codex rollout or pi session with a value nested deeper than the limit is
    read anyway (JSON.parse and json.loads have no such limit), line by line, and counted, where
    the spec rejects it (E-LIMIT)."""
    try:
        return count_path(path, readable=True, session=session_of(path)).reboots
    except Rejection as rejection:
        host = detect(path)
        if rejection.code != E_LIMIT or host not in (CODEX, PI):
            raise
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        records = _by_line(path)
    finally:
        sys.setrecursionlimit(limit)
    return (codex.count_records if host == CODEX else pi.count_records)(records).reboots


def _rejecting(path: str) -> Records:
    """Reads by value, but a value that does not parse rejects the file as VS Code's ERR-3."""
    notices: list[Notice] = []
    with open(path, "rb") as stream:
        records = list(iter_values(stream, notices))
    for notice in notices:
        if notice.code == W_SKIPPED:
            raise Rejection(notice.line or 0, E_JSON, "a line that does not parse")
    return records


def host_mistake(
    read: Callable[[str], Records] = _by_value,
    rewrite: Rewrite = lambda host, records: records,
    result: Callable[[RecordCount], int] = lambda count: count.reboots,
) -> Counter:
    """The reference on Codex and pi files with one of read / rewrite / result replaced."""

    def count(path: str) -> int:
        host = detect(path)
        if host not in (CODEX, PI):
            return count_path(path, readable=True, session=session_of(path)).reboots
        records = rewrite(host, read(path))
        reader = codex.count_records if host == CODEX else pi.count_records
        return result(reader(records))

    return count


def _payload(value: Any) -> dict[str, Any]:
    payload = value.get("payload") if isinstance(value, dict) else None
    return payload if isinstance(payload, dict) else {}


def _as_compacted(value: dict[str, Any]) -> dict[str, Any]:
    """A Codex record turned into a `compacted` one, keeping its outer ordinal and time stamp."""
    return {**value, "type": "compacted", "payload": {"message": "", "replacement_history": []}}


def _companions_count(host: str, records: Records) -> Records:
    """CDX-4 / PIA-4 bent: announcements and branch summaries are taken for compactions."""
    out: Records = []
    for line, value in records:
        if host == CODEX and isinstance(value, dict) and value.get("type") == "event_msg":
            payload = _payload(value)
            kind = payload.get("type")
            item = payload.get("item")
            item_kind = (item.get("type"), item.get("kind")) if isinstance(item, dict) else ()
            if kind in codex.COMPANION_EVENTS or (
                kind == "item_completed"
                and any(k in codex.COMPACTION_ITEM_KINDS for k in item_kind)
            ):
                value = _as_compacted(value)
        elif host == PI and isinstance(value, dict) and value.get("type") in pi.COMPANIONS:
            value = {**value, "type": "compaction"}
        out.append((line, value))
    return out


def _compaction_items_count(host: str, records: Records) -> Records:
    """CDX-4 bent: every `compaction` item is one more compaction, top-level or nested in a
    `compacted` record's new history (the provider's checkpoint of a remote compaction)."""
    out: Records = []
    for line, value in records:
        if host == CODEX and isinstance(value, dict):
            payload = _payload(value)
            if value.get("type") == "response_item" and payload.get("type") in (
                codex.COMPANION_ITEMS
            ):
                value = _as_compacted(value)
            elif value.get("type") == "compacted":
                history = payload.get("replacement_history")
                for item in history if isinstance(history, list) else []:
                    if isinstance(item, dict) and item.get("type") in codex.COMPANION_ITEMS:
                        out.append((line, _as_compacted(value)))
        out.append((line, value))
    return out


def _any_compacted_payload(host: str, records: Records) -> Records:
    """CDX-3 bent: a `compacted` record counts whatever its payload."""
    return [
        (line, _as_compacted(value))
        if host == CODEX and isinstance(value, dict) and value.get("type") == "compacted"
        else (line, value)
        for line, value in records
    ]


def _no_turn_ids(host: str, records: Records) -> Records:
    """CDX-5 (2) bent: the copy is ended by write times only, turn ids unread."""
    out: Records = []
    for line, value in records:
        payload = _payload(value)
        if host == CODEX and payload.get("type") in codex.TURN_STARTS and "turn_id" in payload:
            value = {**value, "payload": {k: v for k, v in payload.items() if k != "turn_id"}}
        out.append((line, value))
    return out


def _rolled_back_dropped(host: str, records: Records) -> Records:
    """CDX-6 bent: `thread_rolled_back` removes its last `num_turns` turns, compactions included."""
    if host != CODEX:
        return records
    out: Records = []
    turn_starts: list[int] = []  # positions in `out`
    for line, value in records:
        payload = _payload(value)
        kind = payload.get("type")
        if isinstance(value, dict) and value.get("type") == "event_msg":
            if kind in codex.TURN_STARTS:
                turn_starts.append(len(out))
            elif kind == "thread_rolled_back" and isinstance(payload.get("num_turns"), int):
                turns = payload["num_turns"]
                if 0 < turns <= len(turn_starts):
                    cut = turn_starts[-turns]
                    del out[cut:]
                    del turn_starts[-turns:]
        out.append((line, value))
    return out


def _same_summary_once(host: str, records: Records) -> Records:
    """PIA-3 bent: compactions are de-duplicated by their summary text."""
    seen: set[str] = set()
    out: Records = []
    for line, value in records:
        if host == PI and isinstance(value, dict) and value.get("type") == "compaction":
            text = value.get("summary")
            if isinstance(text, str):
                if text in seen:
                    continue
                seen.add(text)
        out.append((line, value))
    return out


def _unmeasurable_as_zero(path: str) -> int:
    """RBT-5 bent: a C0 rollout, which recorded no compaction, counts 0."""
    try:
        return count_path(path, readable=True, session=session_of(path)).reboots
    except Rejection as rejection:
        if rejection.code == E_UNMEASURABLE:
            return 0
        raise


def _nothing_is_unmeasurable(path: str) -> int:
    """RBT-5 bent the other way: a Codex rollout holding no `compacted` record is unmeasurable."""
    result = count_path(path, readable=True, session=session_of(path))
    if isinstance(result, RecordCount) and result.host == CODEX and not result.inherited:
        if result.reboots:
            return result.reboots
        raise Rejection(0, E_UNMEASURABLE, "no compacted record")
    return result.reboots


def _trusts_version_string(path: str) -> int:
    """CDX-8 bent (as it read before issue #38): a Codex rollout without `compacted` is C0 when
    the numbers of its `cli_version`, whatever the string, are below 0.36.0 (pre-release and
    `git describe` suffixes dropped, zeros measurable), whatever records it holds."""
    result = count_path(path, readable=True, session=session_of(path))
    if not isinstance(result, RecordCount) or result.host != CODEX:
        return result.reboots
    if result.reboots or result.inherited or result.host_version is None:
        return result.reboots
    pieces = result.host_version.split("-", 1)[0].split(".")
    numbers = tuple(int("".join(c for c in piece if c.isdigit()) or 0) for piece in pieces)
    if any(numbers) and numbers < (0, 36, 0):
        raise Rejection(0, E_UNMEASURABLE, f"cli_version {result.host_version} is before 0.36.0")
    return result.reboots


def _follows_history_base(path: str) -> int:
    """CDX-5 (1) bent: a fork's `history_base` is followed to the parent's rollout beside it,
    whose compactions are added; a parent that is not there is an I/O error (a crash)."""
    result = count_path(path, readable=True, session=session_of(path))
    if not isinstance(result, RecordCount) or result.host != CODEX:
        return result.reboots
    with open(path, "rb") as stream:
        first = next(iter_values(stream, []), (0, None))[1]
    base = _payload(first).get("history_base")
    if not isinstance(base, dict):
        return result.reboots
    folder = os.path.dirname(path)
    parent = [n for n in os.listdir(folder) if n.endswith(f"{base.get('thread_id')}.jsonl")]
    if not parent:
        raise FileNotFoundError(f"the parent rollout of {base.get('thread_id')}")
    return result.reboots + count_path(os.path.join(folder, parent[0]), readable=True).reboots


def _vscode_rules_for_unknown(path: str) -> int:
    """HST-4 bent (spec 2.0's reader): a file of no known host is read by VS Code's rules."""
    try:
        return count_path(path, readable=True, session=session_of(path)).reboots
    except Rejection as rejection:
        if rejection.code == E_HOST:
            return count_path(path, readable=True, host="vscode").reboots
        raise


def _zero_for_unknown(path: str) -> int:
    """HST-4 bent: a file of no known host has no compaction, so 0."""
    try:
        return count_path(path, readable=True, session=session_of(path)).reboots
    except Rejection as rejection:
        if rejection.code == E_HOST:
            return 0
        raise


GREP = re.compile(rb"compact")


def _greps_compact(path: str) -> int:
    """`grep -c compact`: the lines that mention compaction, on a file of any host."""
    with open(path, "rb") as stream:
        return sum(1 for raw in stream if GREP.search(raw))


# Claude Code and Gemini CLI mistakes (spec 3.0 part two) ---------------------------------


def claude_mistake(
    read: Callable[[str], Records] = _by_value,
    rewrite: Callable[[Records], Records] = lambda records: records,
    result: Callable[[RecordCount, Records], int] = lambda count, records: count.reboots,
) -> Counter:
    """The reference on Claude Code transcripts with one of read / rewrite / result replaced;
    `result` also sees the records the reader was given."""

    def count(path: str) -> int:
        if detect(path) != CLAUDE_CODE:
            return count_path(path, readable=True, session=session_of(path)).reboots
        records = rewrite(read(path))
        return result(claude_code.count_records(records), records)

    return count


def _retyped(match: Callable[[Any], bool]) -> Callable[[Records], Records]:
    """CLC-3 bent: the records `match` picks are taken for `compact_boundary` records (their
    `uuid`, if any, kept: each is a compaction of its own)."""

    def rewrite(records: Records) -> Records:
        return [
            (line, {**value, "type": "system", "subtype": claude_code.BOUNDARY})
            if isinstance(value, dict) and match(value)
            else (line, value)
            for line, value in records
        ]

    return rewrite


def _is_summary_record(value: dict[str, Any]) -> bool:
    return value.get("type") == "user" and value.get("isCompactSummary") is True


def _is_microcompact(value: dict[str, Any]) -> bool:
    return value.get("type") == "system" and value.get("subtype") in (
        claude_code.COMPANION_SUBTYPES
    )


def _is_title_row(value: dict[str, Any]) -> bool:
    return value.get("type") in claude_code.COMPANION_TYPES


def _summarizer_logs(count: RecordCount, records: Records) -> int:
    """CLC-5 bent: each summarizer (`agentId` `acompact-*`) a file logs is one more compaction."""
    agents = {
        value["agentId"]
        for _, value in records
        if isinstance(value, dict)
        and isinstance(value.get("agentId"), str)
        and value["agentId"].startswith("acompact-")
    }
    return count.reboots + len(agents)


def _main_thread_everything(records: Records) -> Records:
    """CLC-5 bent: `isSidechain` is ignored, a subagent's records are the main thread's."""
    return [
        (line, {**value, "isSidechain": False})
        if isinstance(value, dict) and value.get("isSidechain") is True
        else (line, value)
        for line, value in records
    ]


def _copies_too(count: RecordCount, records: Records) -> int:
    """CLC-6 bent: a boundary written again with its uuid is counted again."""
    return count.reboots + sum(len(event.get("copies", [])) for event in count.events)


def _summaries_instead(records: Records) -> Records:
    """CLC-4 bent the other way: the `isCompactSummary` records are taken for the boundaries and
    the real boundaries are dropped, as tools that show "continuation summaries" count."""
    return [
        (line, value)
        for line, value in _retyped(_is_summary_record)(records)
        if not (
            isinstance(value, dict)
            and value.get("subtype") == claude_code.BOUNDARY
            and not value.get("isCompactSummary")
        )
    ]


def _cc0_as_zero(count: RecordCount, records: Records) -> int:
    """CLC-7 bent: no boundary, no compaction; the CC0 summaries are ignored."""
    return 0 if count.era == "CC0" else count.reboots


def gemini_mistake(result: Callable[[RecordCount, Records], int]) -> Counter:
    """The reference on Gemini CLI chats with its answer replaced by `result`, which also sees
    the records; a chat the reference rejects (J0, G0: GEM-7) stays rejected."""

    def count(path: str) -> int:
        if detect(path) != GEMINI or path.endswith(".json"):
            return count_path(path, readable=True, session=session_of(path)).reboots
        records = _by_value(path)
        return result(gemini.count_records(records), records)

    return count


def _histories(records: Records) -> list[list[Any]]:
    """Every `$set.messages` list of a chat, in file order."""
    out = []
    for _, value in records:
        update = value.get("$set") if isinstance(value, dict) else None
        if isinstance(update, dict) and isinstance(update.get("messages"), list):
            out.append(update["messages"])
    return out


def _every_history(count: RecordCount, records: Records) -> int:
    """GEM-3 bent: every history replacement is a compression."""
    return len(_histories(records))


def _every_snapshot_history(count: RecordCount, records: Records) -> int:
    """GEM-4 bent: every replacement holding a snapshot counts, shown before or not."""
    return sum(1 for messages in _histories(records) if gemini.snapshot_key(messages))


def _messages_of(kind: str, records: Records) -> list[str]:
    """The texts of the message records (not `$set`) of one `type`."""
    return [
        gemini._text(value.get("content"))
        for _, value in records
        if isinstance(value, dict) and value.get("type") == kind and "$set" not in value
    ]


def _info_records_too(count: RecordCount, records: Records) -> int:
    """GEM-5 bent: the UI's `info` notes of a compression are compressions too."""
    return count.reboots + len(_messages_of("info", records))


def _snapshot_records_too(count: RecordCount, records: Records) -> int:
    """GEM-5 bent: a message record holding a snapshot is one more compression."""
    return count.reboots + sum(1 for t in _messages_of("user", records) if gemini.SNAPSHOT in t)


def _gemini_unmeasurable_counted(path: str) -> int:
    """GEM-7 bent: a J0 or G0 chat gets a number, the compressions its `info` notes announce
    (none for a headless chat) instead of `E-UNMEASURABLE`."""
    try:
        return count_path(path, readable=True, session=session_of(path)).reboots
    except Rejection as rejection:
        if rejection.code != E_UNMEASURABLE or detect(path) != GEMINI:
            raise
    if path.endswith(".json"):
        with open(path, "rb") as stream:
            messages = json.load(stream).get("messages", [])
        records: Records = [(0, m) for m in messages if isinstance(m, dict)]
    else:
        records = _by_value(path)
    return sum(1 for text in _messages_of("info", records) if "compress" in text.lower())


# opencode mistakes (spec 3.0 part two) ----------------------------------------------------


def opencode_mistake(bend: Callable[[Session], Session | int]) -> Counter:
    """The reference on an opencode session with one rule bent: `bend` changes the session the
    reader read before the reference counts it, or answers a count itself."""

    def count(path: str) -> int:
        if detect(path) != OPENCODE:
            return count_path(path, readable=True, session=session_of(path)).reboots
        bent = bend(read_session(path, session_of(path)))
        return bent if isinstance(bent, int) else count_session(bent).reboots

    return count


def _every_summary(session: Session) -> int:
    """OPC-4 bent: every assistant message with `summary` set is a compaction."""
    return sum(1 for m in session.messages if m.role == "assistant" and js_truthy(m.summary))


def _failed_finish(session: Session) -> Session:
    """OPC-6 bent: a summary counts whether or not it finished, and whatever its error."""
    for message in session.messages:
        message.finish = message.finish or "stop"
        message.error = None
    return session


def _only_stop(session: Session) -> Session:
    """OPC-7 bent: only a summary that finished with "stop" completed."""
    for message in session.messages:
        if message.finish != "stop":
            message.finish = None
    return session


def _pairs_only(session: Session) -> Session:
    """OPC-5 bent: 1.0.0's summary messages are never read; only pairs count."""
    session.database = True
    return session


def _o0_unmeasurable(session: Session) -> Session:
    """RBT-5, OPC-5 bent: a session without any pair is of an era that recorded nothing."""
    if not session.database and not any(m.compaction for m in session.messages):
        raise Rejection(0, E_UNMEASURABLE, "no compaction part")
    return session


def _counts_copies(path: str) -> int:
    """RBT-3, OPC-9 bent: a fork's copied pairs count (the reference's `inherited` added)."""
    result = count_path(path, readable=True, session=session_of(path))
    if isinstance(result, RecordCount) and result.host == OPENCODE:
        return result.reboots + len(result.inherited)
    return result.reboots


def _opencode_tables(path: str) -> tuple[list[tuple[str, Any, Any]], list[Any]]:
    """(session id, time_created, parent id) of every session and every part's data, read
    from a private copy of the database or from the storage files."""
    if os.path.isdir(path):
        sessions = []
        for file in sorted(glob.glob(os.path.join(path, "session", "*", "*.json"))):
            with open(file, "rb") as stream:
                info = json.load(stream)
            sessions.append((info["id"], info["time"]["created"], info.get("parentID")))
        parts = []
        for file in sorted(glob.glob(os.path.join(path, "part", "*", "*.json"))):
            with open(file, "rb") as stream:
                parts.append(json.load(stream))
        return sessions, parts
    with tempfile.TemporaryDirectory() as folder:
        for suffix in ("", "-wal"):
            if os.path.exists(path + suffix):
                shutil.copyfile(path + suffix, os.path.join(folder, "db" + suffix))
        connection = sqlite3.connect(os.path.join(folder, "db"))
        try:
            rows = connection.execute("SELECT id, time_created, parent_id FROM session")
            sessions = [(str(a), b, c) for a, b, c in rows]
            parts = [json.loads(d) for (d,) in connection.execute("SELECT data FROM part")]
        finally:
            connection.close()
    return sessions, parts


def _counts_prune(path: str) -> int:
    """OPC-8 bent: each prune (a moment at which tool outputs were marked compacted) counts."""
    reboots = count_path(path, readable=True, session=session_of(path)).reboots
    if detect(path) != OPENCODE:
        return reboots
    moments = set()
    for part in _opencode_tables(path)[1]:
        state = part.get("state") if isinstance(part, dict) else None
        time = state.get("time") if isinstance(state, dict) else None
        if isinstance(time, dict) and time.get("compacted"):
            moments.add(time["compacted"])
    return reboots + len(moments)


def _counts_children(path: str) -> int:
    """OPC-10 bent: a session's count adds its task tool's child sessions' counts."""
    session = session_of(path)
    reboots = count_path(path, readable=True, session=session).reboots
    if detect(path) != OPENCODE:
        return reboots
    children = [s for s, _, parent in _opencode_tables(path)[0] if parent == session]
    return reboots + sum(
        count_path(path, readable=True, session=child).reboots for child in children
    )


def _newest_session(path: str) -> int:
    """OPC-11 bent: the named id is not read; the store's newest session is counted."""
    if detect(path) != OPENCODE:
        return count_path(path, readable=True, session=session_of(path)).reboots
    sessions = _opencode_tables(path)[0]
    newest = max(sessions, key=lambda row: row[1])[0] if sessions else None
    return count_path(path, readable=True, session=newest).reboots


def _honours_revert(path: str) -> int:
    """OPC-13, RBT-4 bent: the messages a pending revert will delete are left out now."""
    session = session_of(path)
    if detect(path) != OPENCODE:
        return count_path(path, readable=True, session=session).reboots
    revert = _revert_point(path, session)
    read = read_session(path, session)
    if revert is not None:
        read.messages = [m for m in read.messages if m.id < revert]
    return count_session(read).reboots


def _revert_point(path: str, session: str | None) -> str | None:
    """The message id a session's pending revert goes back to, if any."""
    if os.path.isdir(path):
        files = glob.glob(os.path.join(path, "session", "*", f"{session}.json"))
        with open(files[0], "rb") as stream:
            revert = json.load(stream).get("revert")
    else:
        with tempfile.TemporaryDirectory() as folder:
            shutil.copyfile(path, os.path.join(folder, "db"))
            connection = sqlite3.connect(os.path.join(folder, "db"))
            try:
                row = connection.execute(
                    "SELECT revert FROM session WHERE id = ?", (session,)
                ).fetchone()
            finally:
                connection.close()
        revert = json.loads(row[0]) if row and row[0] else None
    return revert.get("messageID") if isinstance(revert, dict) else None


def _ignores_wal(path: str) -> int:
    """OPC-12 bent: the database is read without its WAL (as `immutable=1` opens it)."""
    if detect(path) != OPENCODE or os.path.isdir(path):
        return count_path(path, readable=True, session=session_of(path)).reboots
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "opencode.db")
        shutil.copyfile(path, copy)
        return count_path(copy, readable=True, session=session_of(path)).reboots


def _databases_only(path: str) -> int:
    """OPC-1 bent: only the SQLite era is read; a storage folder is a directory (ERR-12)."""
    if os.path.isdir(path):
        raise Rejection(0, E_READ, "not a regular file (a directory)")
    return count_path(path, readable=True, session=session_of(path)).reboots


# The gallery: a SPEC.md §10 row name -> its counter ----------------------------------------

GALLERY: dict[str, Counter] = {
    "requires-marker": counting_mistake(events_of=_with_marker(VOCAB.completed)),
    "english-markers-only": counting_mistake(events_of=_with_marker(ENGLISH)),
    "counts-markers": counting_mistake(events_of=_marker_requests, reboots=_markers),
    "ignores-rounds": counting_mistake(events_of=_ignores_rounds),
    "only-rounds": counting_mistake(events_of=_only_rounds),
    "every-summaries-entry": counting_mistake(events_of=_entries_of, reboots=_every_entry),
    "no-dedup-in-request": counting_mistake(events_of=_raw_events),
    "rounds-before-summaries": counting_mistake(events_of=_rounds_first),
    "distinct-across-session": counting_mistake(reboots=_distinct),
    "last-event-only": counting_mistake(events_of=_last_only),
    "first-event-only": counting_mistake(events_of=_first_only),
    "provider-per-round": counting_mistake(events_of=_provider_per_round),
    "keeps-removed": counting_mistake(keep=lambda request: True),
    "drops-partial-undo": counting_mistake(keep=_drops_partial),
    "only-singular-summary": counting_mistake(events_of=_only_summary),
    "phantom-as-value": counting_mistake(events_of=_phantom_is_a_value),
    "ignores-i": reading_mistake(_IgnoresI),
    "ignores-deletes": reading_mistake(_IgnoresDeletes),
    "first-initial-only": reading_mistake(_FirstInitialOnly),
    "skips-pushes": reading_mistake(_SkipsPushes),
    "skips-bad-lines": reading_mistake(skip_bad_lines=True),
    "crash-as-rejection": _crashes,
    "wrong-code": _wrong_code,
    "rejects-torn-tail": reading_mistake(reject_torn_tail=True),
    "no-json": reading_mistake(no_json=True),
    # Other hosts (spec 3.0)
    "counts-companions": host_mistake(rewrite=_companions_count),
    "counts-compaction-items": host_mistake(rewrite=_compaction_items_count),
    "any-compacted-payload": host_mistake(rewrite=_any_compacted_payload),
    "reads-by-line": host_mistake(read=_by_line),
    "rejects-bad-records": host_mistake(read=_rejecting),
    # Seen in the peers (issue #36): agentsview loses a pi session that opens with a BOM.
    "keeps-bom": _keeps_bom,
    # Seen in the peers (issue #36): codeburn, agentsview and pi's export count such files.
    "no-depth-limit": _no_depth_limit,
    "counts-inherited": host_mistake(result=lambda count: count.reboots + len(count.inherited)),
    "copy-ends-by-time": host_mistake(rewrite=_no_turn_ids),
    "follows-history-base": _follows_history_base,
    "honours-rollback": host_mistake(rewrite=_rolled_back_dropped),
    "current-path-only": host_mistake(
        result=lambda count: count.reboots if count.on_path is None else count.on_path
    ),
    "same-summary-once": host_mistake(rewrite=_same_summary_once),
    "unmeasurable-as-zero": _unmeasurable_as_zero,
    "nothing-is-unmeasurable": _nothing_is_unmeasurable,
    "trusts-version-string": _trusts_version_string,
    "vscode-rules-for-any-host": _vscode_rules_for_unknown,
    "zero-for-unknown-host": _zero_for_unknown,
    "greps-compact": _greps_compact,
    # Claude Code and Gemini CLI (spec 3.0 part two)
    "claude-counts-summaries": claude_mistake(rewrite=_retyped(_is_summary_record)),
    "claude-counts-microcompact": claude_mistake(rewrite=_retyped(_is_microcompact)),
    "claude-counts-title-rows": claude_mistake(rewrite=_retyped(_is_title_row)),
    "claude-counts-summarizer-log": claude_mistake(result=_summarizer_logs),
    "claude-counts-sidechains": claude_mistake(rewrite=_main_thread_everything),
    "claude-counts-branch-copy": claude_mistake(
        result=lambda count, records: count.reboots + len(count.inherited)
    ),
    "claude-counts-copies": claude_mistake(result=_copies_too),
    "claude-cc0-as-zero": claude_mistake(result=_cc0_as_zero),
    "claude-reads-by-line": claude_mistake(read=_by_line),
    # Seen in the peers (issue #36): what sniffly, claude-code-transcripts, ai-code-sessions
    # count, and what codeburn, ccstatusline and claude-compaction-viewer do with a glued line.
    "claude-summaries-instead": claude_mistake(rewrite=_summaries_instead),
    "claude-boundaries-by-line": claude_mistake(read=_by_line, result=_cc0_as_zero),
    "gemini-every-history": gemini_mistake(_every_history),
    "gemini-snapshot-per-history": gemini_mistake(_every_snapshot_history),
    "gemini-counts-info": gemini_mistake(_info_records_too),
    "gemini-counts-snapshot-records": gemini_mistake(_snapshot_records_too),
    "gemini-unmeasurable-counted": _gemini_unmeasurable_counted,
    # opencode (spec 3.0 part two)
    "counts-every-summary": opencode_mistake(_every_summary),
    "counts-failed-pairs": opencode_mistake(_failed_finish),
    "requires-finish-stop": opencode_mistake(_only_stop),
    "pairs-only": opencode_mistake(_pairs_only),
    "o0-unmeasurable": opencode_mistake(_o0_unmeasurable),
    "counts-fork-copies": _counts_copies,
    "counts-prune": _counts_prune,
    "counts-child-sessions": _counts_children,
    "newest-session": _newest_session,
    "ignores-wal": _ignores_wal,
    "honours-revert": _honours_revert,
    "databases-only": _databases_only,
    **CHAT_LOOP_GALLERY,  # basic-agent-chat-loop (BCL-*): tests/gallery/chat_loop_counters.py
    **COPILOT_GALLERY,  # the Copilot CLI (CPL-*): tests/gallery/copilot_counters.py
    **CLINE_GALLERY,  # the Cline family (CLN-*): tests/gallery/cline_counters.py
}


def answer(counter: Counter, path: str) -> tuple[str, Any]:
    """("count", N), ("reject", code) or ("crash", error): what a counter says.

    Codes are compared, as a profile with `match_codes = true` compares them (PRO-4).
    """
    try:
        return ("count", counter(path))
    except Rejection as rejection:
        return ("reject", rejection.code)
    except Exception as error:
        return ("crash", type(error).__name__)
