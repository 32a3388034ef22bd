"""The Claude Code reader: a transcript's records -> its reboots (spec/hosts/claude-code.md, CLC-*).

    records (JSV-1) -> the main thread's records (CLC-5: `isSidechain: true` ones are not)
                    -> its `compact_boundary` records, one per distinct `uuid` (CLC-3, CLC-6)
                    -> less the inherited ones (`forkedFrom`, CLC-6, RBT-3)
                    -> the count; with no boundary at all, the CC0 summaries (CLC-7)

Companions are seen and tallied, never counted (CLC-4). Every record of the file is read, never
a walk of the `parentUuid` chain, which a boundary breaks (CLC-9). Only the boundaries (and, for
CC0, the flagged summaries) are kept, a few fields each, so memory is the longest line, not the
file.
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

HOST = "claude-code"
BOUNDARY = "compact_boundary"  # CLC-3: the subtype of the primary record
COMPANION_SUBTYPES = frozenset({"microcompact_boundary"})  # CLC-4: tool results cleared only
COMPANION_TYPES = frozenset({"summary"})  # CLC-4: resume-picker titles, not compactions
W_LOW_CONFIDENCE = "W-LOW-CONFIDENCE"  # CLC-7: a CC0 count read from summary records
# CLC-2 (informative): compactMetadata members that only CC3 builds write.
CC3_METADATA = frozenset({"postTokens", "preservedSegment", "preservedMessages", "durationMs"})


# (Plain classes, not dataclasses: this module is on the path of every count of a transcript,
# and `dataclasses` costs more to import than a small one takes to count.)


class Mark(Plain):
    """One primary record (a boundary, or a CC0 summary): where it is and what it says."""

    _fields = ("line", "key", "forked", "trigger", "pre_tokens")

    def __init__(
        self,
        line: int,
        key: str | tuple[str, int],
        forked: bool,
        trigger: str,
        pre_tokens: int | None,
    ) -> None:
        self.line = line
        self.key = key  # its `uuid`, or its position when it has none (CLC-6)
        self.forked = forked  # it carries `forkedFrom`: a /branch copy (CLC-6)
        self.trigger = trigger
        self.pre_tokens = pre_tokens


class Transcript(Plain):
    """What the reader keeps of a transcript while it streams (CLC-1)."""

    _fields = (
        "records",
        "version",
        "boundaries",
        "summaries",
        "any_boundary",
        "companions",
        "marks",
    )

    def __init__(self) -> None:
        self.records = 0
        self.version: str | None = None
        self.boundaries: list[Mark] = []
        self.summaries: list[Mark] = []  # CC0 evidence, used only without a boundary
        self.any_boundary = False  # a compact_boundary anywhere, sidechains included (CLC-7)
        self.companions = 0
        self.marks: set[str] = set()  # era marks seen (CLC-2)

    def add(self, line: int, value: Any) -> None:
        """Take one record (a JSON value of the file, starting on `line`)."""
        index = self.records
        self.records += 1
        if not isinstance(value, dict):
            return
        version = value.get("version")
        if self.version is None and isinstance(version, str):
            self.version = version
        if "slug" in value or "logicalParentUuid" in value:
            self.marks.add("CC2")
        agent = value.get("agentId")
        if isinstance(agent, str) and agent.startswith("acompact-"):
            self.marks.add("CC2")  # CLC-5: the summarizer's side file of 2026 builds
        kind = _name(value.get("type"))  # an object or array there names nothing (CLC-10)
        subtype = _name(value.get("subtype"))
        if kind == "system" and subtype == BOUNDARY:
            self.any_boundary = True
        if value.get("isSidechain") is True:  # CLC-5: not the main thread's records
            return
        if kind == "system" and subtype == BOUNDARY:  # CLC-3
            self.boundaries.append(_mark(line, index, value))
            metadata = value.get("compactMetadata")
            if isinstance(metadata, dict) and CC3_METADATA & metadata.keys():
                self.marks.add("CC3")
        elif kind == "system" and subtype in COMPANION_SUBTYPES:  # CLC-4
            self.companions += 1
            self.marks.add("CC3")
        elif kind in COMPANION_TYPES:  # CLC-4
            self.companions += 1
        elif kind == "user" and value.get("isCompactSummary") is True:  # CLC-4, CLC-7
            self.companions += 1
            self.summaries.append(_mark(line, index, value))


def count_records(records: Iterable[tuple[int, Any]]) -> RecordCount:
    """Count the reboots of one Claude Code transcript given its `(line, value)` records."""
    transcript = Transcript()
    for line, value in records:
        transcript.add(line, value)
    count = RecordCount(host=HOST, reboots=0, records=transcript.records)
    count.host_version = transcript.version
    if transcript.any_boundary or not transcript.summaries:
        primaries = transcript.boundaries  # CLC-3: CC1 and later
        count.era = _era(transcript) if transcript.any_boundary else _era_without(transcript)
        count.companions = transcript.companions
    else:  # CLC-7: CC0, the flagged summaries are the only record of each compaction
        primaries = transcript.summaries
        count.era = "CC0"
        count.companions = transcript.companions - len(transcript.summaries)
    own, inherited, copies = distinct(primaries)
    count.reboots = len(own)
    count.inherited = [mark.line for mark in inherited]
    count.events = [_event_json(mark, copies.get(mark.key, [])) for mark in own]
    if primaries is transcript.summaries and own:
        count.notices.append(
            Notice(
                W_LOW_CONFIDENCE,
                "a CC0 transcript: no compact_boundary, counted from its isCompactSummary"
                " records (CLC-7)",
            )
        )
    return count


def distinct(marks: list[Mark]) -> tuple[list[Mark], list[Mark], dict[Any, list[int]]]:
    """CLC-6: one compaction per distinct key; a key with a `forkedFrom` copy is inherited.

    Returns the thread's own (first record of each key), the inherited ones (first record of
    each key), and for each key the lines of its later records (the re-appended copies).
    """
    first: dict[Any, Mark] = {}
    forked: set[Any] = set()
    copies: dict[Any, list[int]] = {}
    for mark in marks:
        if mark.forked:
            forked.add(mark.key)
        if mark.key in first:
            copies.setdefault(mark.key, []).append(mark.line)
        else:
            first[mark.key] = mark
    own = [m for key, m in first.items() if key not in forked]
    inherited = [m for key, m in first.items() if key in forked]
    return own, inherited, copies


def _mark(line: int, index: int, value: dict[str, Any]) -> Mark:
    uuid = value.get("uuid")
    key: str | tuple[str, int] = uuid if isinstance(uuid, str) else ("record", index)
    metadata = value.get("compactMetadata")
    trigger = "unknown"
    pre_tokens = None
    if isinstance(metadata, dict):  # CLC-8 (informative)
        said = metadata.get("trigger")
        if said in ("manual", "auto"):
            trigger = str(said)
        tokens = metadata.get("preTokens")
        if isinstance(tokens, int) and not isinstance(tokens, bool):
            pre_tokens = tokens
    forked = value.get("forkedFrom") is not None
    return Mark(line, key, forked, trigger, pre_tokens)


def _era(transcript: Transcript) -> str:
    """CLC-2 (informative): the latest era whose mark a file with a boundary shows."""
    for era in ("CC3", "CC2"):
        if era in transcript.marks:
            return era
    return "CC1"


def _era_without(transcript: Transcript) -> str | None:
    """A transcript with neither a boundary nor a summary: its marks, if it shows any."""
    for era in ("CC3", "CC2"):
        if era in transcript.marks:
            return era
    return None


def _event_json(mark: Mark, copies: list[int]) -> dict[str, Any]:
    """CLC-8 (informative): where the counted record is, manual or automatic, its size."""
    event: dict[str, Any] = {"line": mark.line, "trigger": mark.trigger}
    if mark.pre_tokens is not None:
        event["preTokens"] = mark.pre_tokens
    if copies:
        event["copies"] = copies  # CLC-6: the same uuid again (#92089), not counted again
    return event


def _name(value: Any) -> str | None:
    """A record's `type` or `subtype` when it is a string; any other JSON value names nothing."""
    return value if isinstance(value, str) else None
