"""The OpenAI Codex CLI reader: a rollout's records -> its reboots (spec/hosts/codex.md, CDX-*).

Three steps, each small:

    records (JSV-1)  ->  a light summary of each record (Rollout.add)
                     ->  which `compacted` records are the thread's own (CDX-5)
                     ->  the count, or E-UNMEASURABLE for a C0 rollout (CDX-8)

Only top-level `compacted` records with an object payload count (CDX-3); companions are seen
and tallied, never counted (CDX-4). Rollback and undo events remove nothing, so the compactions
before them still count (CDX-6): the reader does not act on them. Nothing of a record is kept
but a few fields, so memory is the longest line, not the file.
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.errors import E_UNMEASURABLE, Rejection
from ...core.jsontext import as_int
from ...core.plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

HOST = "codex"

# CDX-4: event and item types that accompany a compaction and never count.
COMPANION_EVENTS = frozenset({"context_compacted"})
COMPANION_ITEMS = frozenset({"compaction", "compaction_summary"})
COMPACTION_ITEM_KINDS = frozenset({"ContextCompaction", "context_compaction", "contextCompaction"})
TURN_STARTS = frozenset({"task_started", "turn_started"})
TURN_ENDS = frozenset({"task_complete", "turn_complete", "turn_aborted"})
# CDX-8: the marks, record shapes that no CLI before the first one recording `compacted` wrote.
LATER_TAGS = frozenset(
    {
        "turn_context",
        "world_state",
        "token_usage_record",
        "inter_agent_communication",
        "inter_agent_communication_metadata",
        "security_risk_score",
    }
)
LATER_ITEMS = frozenset({"ghost_snapshot"})
LATER_EVENTS = frozenset({"context_compacted", "thread_rolled_back"})
LATER_META = (
    "forked_from_id",
    "history_base",
    "forked_from_ordinal_exclusive",
    "subagent_history_start_ordinal",
)
# (Plain classes, not dataclasses, and no regular expression: this module is on the path of
# every count of a rollout, and `dataclasses` and `re` cost more to import than a small one.)


class Compaction(Plain):
    """One `compacted` record (CDX-3), with what CDX-9 reads about it."""

    _fields = ("index", "line", "timestamp", "ordinal", "remote", "turn", "after_user")

    def __init__(
        self,
        index: int,
        line: int,
        timestamp: str | None,
        ordinal: int | None,
        remote: bool,
        turn: int | None,
        after_user: bool = False,
    ) -> None:
        self.index = index  # position among the file's records
        self.line = line
        self.timestamp = timestamp
        self.ordinal = ordinal
        self.remote = remote
        self.turn = turn  # the turn it sits in (index of the turn's start record), None outside
        self.after_user = after_user  # CDX-9: the turn's user message came before it (mid-turn)


class Rollout(Plain):
    """What the reader keeps of a rollout while it streams (CDX-1)."""

    _fields = (
        "records",
        "legacy",
        "meta",
        "copy_start",
        "compactions",
        "companions",
        "turn_starts",
        "copy_stamp",
        "turn",
        "turns_with_user",
        "closed_turns",
        "marks",
        "later",
    )

    def __init__(self) -> None:
        self.records = 0
        self.legacy = False  # CDX-1: the first record is the pre-envelope header (C0)
        self.meta: dict[str, Any] | None = None  # the thread's own session_meta payload
        self.copy_start: int | None = None  # CDX-5: index of the second session_meta (a copy)
        self.compactions: list[Compaction] = []
        self.companions = 0
        # Per turn start after the copy starts: (index, outer timestamp, turn id); CDX-5.
        self.turn_starts: list[tuple[int, str | None, str | None]] = []
        self.copy_stamp: str | None = None  # the outer timestamp of the copied session_meta
        self.turn: int | None = None  # index of the open turn's start record
        self.turns_with_user: set[int] = set()
        self.closed_turns: set[int] = set()
        self.marks: set[str] = set()  # era marks seen (CDX-2)
        self.later = False  # CDX-8: a mark of a CLI that records compactions was seen

    def add(self, line: int, value: Any) -> None:
        """Take one record (a JSON value of the file, starting on `line`)."""
        index = self.records
        self.records += 1
        if not isinstance(value, dict):
            return
        kind = _name(value.get("type"))
        payload = value.get("payload")
        if index == 0 and kind is None and "kind" not in value:
            self.legacy = "id" in value and "timestamp" in value
        ordinal = as_int(value.get("ordinal"))
        if ordinal is not None:
            self.marks.add("C5")
        stamp = value.get("timestamp")
        timestamp = stamp if isinstance(stamp, str) else None
        payload_type = _name(payload.get("type")) if isinstance(payload, dict) else None
        if (
            ordinal is not None
            or kind in LATER_TAGS
            or (kind == "response_item" and payload_type in LATER_ITEMS)
            or (kind == "event_msg" and payload_type in LATER_EVENTS)
        ):
            self.later = True  # CDX-8
        if self.copy_start is not None and kind == "event_msg" and payload_type in TURN_STARTS:
            turn_id = payload.get("turn_id") if isinstance(payload, dict) else None
            self.turn_starts.append(
                (index, timestamp, turn_id if isinstance(turn_id, str) else None)
            )
        if kind == "session_meta" and isinstance(payload, dict):
            self._session_meta(index, payload, timestamp)
        elif kind == "compacted" and isinstance(payload, dict):  # CDX-3
            self._compacted(index, line, payload, timestamp, ordinal)
        elif kind == "event_msg" and isinstance(payload, dict):
            self._event(index, payload_type, payload)
        elif kind == "response_item" and payload_type in COMPANION_ITEMS:  # CDX-4
            self.companions += 1

    def _session_meta(self, index: int, payload: dict[str, Any], timestamp: str | None) -> None:
        if self.meta is None:
            self.meta = payload
            if any(key in payload for key in LATER_META):
                self.later = True  # CDX-8
            if "forked_from_id" in payload:
                self.marks.add("C4")
            if _has_c5_base(payload):
                self.marks.add("C5")
        elif self.copy_start is None:  # CDX-5 (2): the copied parent's header
            self.copy_start = index
            self.copy_stamp = timestamp

    def _compacted(
        self,
        index: int,
        line: int,
        payload: dict[str, Any],
        timestamp: str | None,
        ordinal: int | None,
    ) -> None:
        history = payload.get("replacement_history")
        remote = _is_remote(history)
        self.marks.add("C2" if remote else "C1")
        if isinstance(history, list) and not remote:
            self.marks.add("C4")
        if any(key in payload for key in ("window_number", "window_id", "first_window_id")):
            self.marks.add("C5")
        after = self.turn is not None and self.turn in self.turns_with_user
        self.compactions.append(
            Compaction(index, line, timestamp, ordinal, remote, self.turn, after)
        )

    def _event(self, index: int, kind: Any, payload: dict[str, Any]) -> None:
        if kind in COMPANION_EVENTS:  # CDX-4
            self.companions += 1
            self.marks.add("C3")
        elif kind == "item_completed" and _is_compaction_item(payload.get("item")):
            self.companions += 1
        elif kind in TURN_STARTS:
            self.turn = index
        elif _is_user_input(kind, payload) and self.turn is not None:
            self.turns_with_user.add(self.turn)
        elif kind in TURN_ENDS and self.turn is not None:
            self.closed_turns.add(self.turn)
            self.turn = None


def count_records(records: Iterable[tuple[int, Any]]) -> RecordCount:
    """Count the reboots of one rollout given its `(line, value)` records (CDX-1..CDX-9)."""
    rollout = Rollout()
    for line, value in records:
        rollout.add(line, value)
    own, inherited = split_inherited(rollout)
    meta = rollout.meta or {}
    version = meta.get("cli_version")
    host_version = version if isinstance(version, str) else None
    if not rollout.compactions and is_unmeasurable(rollout):  # CDX-8
        raise Rejection(
            0,
            E_UNMEASURABLE,
            "a Codex rollout of era C0: this CLI compacted in memory and recorded no compaction",
        )
    return RecordCount(
        host=HOST,
        reboots=len(own),
        era=_era(rollout),
        host_version=host_version,
        records=rollout.records,
        events=[_event_json(rollout, c) for c in own],
        inherited=[c.line for c in inherited],
        companions=rollout.companions,
    )


# CDX-5: inherited records ------------------------------------------------------------------


def split_inherited(rollout: Rollout) -> tuple[list[Compaction], list[Compaction]]:
    """The thread's own compactions and the inherited ones (RBT-3, CDX-5)."""
    meta = rollout.meta or {}
    start = as_int(meta.get("subagent_history_start_ordinal"))
    if start is not None:  # CDX-5 (1): the copy is marked by ordinals
        inherited = [c for c in rollout.compactions if c.ordinal is not None and c.ordinal < start]
    elif _has_c5_base(meta) or rollout.copy_start is None:  # CDX-5 (1), (3): nothing copied
        inherited = []
    else:  # CDX-5 (2): the unmarked copy of C1-C4
        end = copy_end(rollout)
        inherited = [c for c in rollout.compactions if c.index < end]
    own = [c for c in rollout.compactions if c not in inherited]
    return own, inherited


def copy_end(rollout: Rollout) -> int:
    """CDX-5 (2): the index of the first record of the thread's own, after an unmarked copy.

    The copy ends where the thread's first own turn starts. Turn and thread ids are UUIDv7,
    minted from the clock: every copied turn was minted by the parent before the fork, so
    before this thread's id; every own turn after it. Without such ids (older rollouts) the
    write times are the only sign: the copy is written in one burst at start-up, so the first
    turn start a second or more after the copied header is the thread's own.
    """
    meta = rollout.meta or {}
    own_id = meta.get("id")
    born = uuid7_millis(own_id) if isinstance(own_id, str) else None
    copied_at = _instant(rollout.copy_stamp)
    for index, stamp, turn_id in rollout.turn_starts:
        minted = uuid7_millis(turn_id) if turn_id else None
        if born is not None and minted is not None:
            if minted >= born:
                return index
            continue
        when = _instant(stamp)
        if when is None or copied_at is None or when - copied_at >= 1.0:
            return index
    return rollout.records


def uuid7_millis(value: str) -> int | None:
    """The millisecond a UUIDv7 was minted (its first 48 bits); None for any other string."""
    if len(value) != 36 or value[14] != "7" or value.count("-") != 4:
        return None
    try:
        return int(value[:8] + value[9:13], 16)
    except ValueError:
        return None


def _instant(stamp: str | None) -> float | None:
    """An RFC 3339 time stamp as seconds since the epoch (None when it is not one)."""
    if not stamp:
        return None
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return moment.timestamp() if moment.tzinfo is not None else None


# CDX-8: C0 -----------------------------------------------------------------------------------


def is_unmeasurable(rollout: Rollout) -> bool:
    """CDX-8: a rollout without `compacted` written before Codex recorded compactions.

    The records decide: one mark of a later writer makes the file measurable. The version
    string only seconds them, and only a plain release can: forks, checkouts and pre-releases
    stamp what they like (issue #38: a December 2025 rollout stamped `0.2.0-alpha.2-...`).
    """
    if rollout.legacy:
        return True
    meta = rollout.meta
    if meta is None or rollout.later:
        return False
    version = meta.get("cli_version")
    if version is None:  # the envelope's first builds named none
        return True
    key = release_key(version)
    return key is not None and key < (release_key(first_recording_version()) or ())


def first_recording_version() -> str:
    """`first_recording_version` of spec/hosts.toml's [codex] row (CDX-8)."""
    import os
    import tomllib

    from ...core.paths import SPEC_DIR

    with open(os.path.join(SPEC_DIR, "hosts.toml"), "rb") as handle:
        return str(tomllib.load(handle)["codex"]["first_recording_version"])


def release_key(version: Any) -> tuple[int, ...] | None:
    """CDX-8: `0.34.0` -> (0, 34, 0); None for what says nothing about an era: anything but a
    plain release (a `git describe`, a pre-release, a fork's numbering, not a string) and a
    release of zeros (a build from source)."""
    if not isinstance(version, str):
        return None
    parts = version.split(".")  # CDX-8: three runs of ASCII digits, `0.34.0`, nothing else
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts):
        return None
    key = tuple(int(part) for part in parts)
    return key if any(key) else None


# helpers --------------------------------------------------------------------------------------


def _name(value: Any) -> str | None:
    """A record's `type` (or another name) when it is a string: any other JSON value names
    nothing (an object or array there is no record type Codex knows, and must not crash)."""
    return value if isinstance(value, str) else None


def _has_c5_base(meta: dict[str, Any]) -> bool:
    return "history_base" in meta or "forked_from_ordinal_exclusive" in meta


def _is_remote(history: Any) -> bool:
    """CDX-9: remote when the new history ends in the provider's opaque checkpoint item."""
    if not isinstance(history, list) or not history:
        return False
    last = history[-1]
    return isinstance(last, dict) and _name(last.get("type")) in COMPANION_ITEMS


def _is_compaction_item(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    kinds = (_name(item.get("type")), _name(item.get("kind")))
    return any(kind in COMPACTION_ITEM_KINDS for kind in kinds)


def _is_user_input(kind: Any, payload: dict[str, Any]) -> bool:
    """CDX-9: the user's message of a turn, as either generation records it: a `user_message`
    event, or (releases that write thread items, 0.16x and later) an `item_completed` whose
    item is a `UserMessage`."""
    if kind == "user_message":
        return True
    item = payload.get("item") if kind == "item_completed" else None
    return isinstance(item, dict) and _name(item.get("type")) == "UserMessage"


def _era(rollout: Rollout) -> str:
    """CDX-2 (informative): the latest era whose mark the file shows."""
    if rollout.legacy:
        return "C0"
    for era in ("C5", "C4", "C3", "C2", "C1"):
        if era in rollout.marks:
            return era
    return "C1"


def _event_json(rollout: Rollout, compaction: Compaction) -> dict[str, Any]:
    """CDX-9 (informative): where the counted record is, local or remote, manual or auto."""
    turn = compaction.turn
    when: str | None = None
    if turn is None:
        trigger = "unknown"
    elif turn in rollout.turns_with_user:
        trigger = "auto"
        when = "mid-turn" if compaction.after_user else "pre-turn"
    elif turn in rollout.closed_turns:
        trigger = "manual"
    else:
        trigger = "unknown"
    event: dict[str, Any] = {
        "line": compaction.line,
        "kind": "remote" if compaction.remote else "local",
        "trigger": trigger,
    }
    if when is not None:
        event["when"] = when
    return event
