"""Small pieces both host models share: a deterministic clock, ids and compact JSON lines.

Both hosts write one compact JSON value a line (Rust's serde_json and JavaScript's
`JSON.stringify` without indent agree on the compact form for the values modelled here), and
both stamp records with the UTC time of writing in milliseconds. A generated case must come out
byte-identical on every build, so time and ids come from a seeded RNG and a clock the plan
moves, never from the machine.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any


def line(value: Any) -> bytes:
    """One record as the hosts write it: compact JSON, non-ASCII kept, then LF."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


DEEP = "\u0000deep\u0000"


def deep_line(value: Any, depth: int) -> bytes:
    """`line(value)` with the string DEEP replaced by arrays nested `depth` levels deep.

    Python's own encoder recurses per level, so the nesting is written as text (ERR-8)."""
    marker = json.dumps(DEEP).encode("utf-8")
    nested = b"[" * depth + b'"bottom"' + b"]" * depth
    return line(value).replace(marker, nested, 1)


def iso(moment: datetime) -> str:
    """`2026-02-23T11:54:52.352Z`: the millisecond UTC stamp both hosts write."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Clock:
    """The writer's wall clock: starts at a fixed instant and only moves when told."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def tick(self, ms: int = 3) -> str:
        """Advance a little (the time one record takes to write) and stamp."""
        self.now += timedelta(milliseconds=ms)
        return iso(self.now)

    def stamp(self) -> str:
        """The current time, without moving (records of one burst share it)."""
        return iso(self.now)

    def wait(self, seconds: float) -> None:
        """Time passes between turns (the user reads, the model thinks)."""
        self.now += timedelta(seconds=seconds)

    def epoch_ms(self) -> int:
        """The current time as JavaScript milliseconds (pi's message `timestamp`)."""
        return int(self.now.timestamp() * 1000)


def start(text: str) -> datetime:
    """A clock start from an ISO date-time (no zone: UTC)."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def uuid(rng: random.Random, version: int = 7) -> str:
    """A UUID-shaped id drawn from the RNG (Codex thread ids are v7, pi session ids v4)."""
    digits = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    variant = rng.choice("89ab")
    return (
        f"{digits[:8]}-{digits[8:12]}-{version}{digits[13:16]}-{variant}{digits[17:20]}-"
        f"{digits[20:32]}"
    )


def uuid7(rng: random.Random, clock: Clock) -> str:
    """A UUIDv7 as Codex mints it: the first 48 bits are the clock's millisecond, the rest random.

    Codex thread and turn ids are time-ordered this way, which is how a fork's own turns are
    told from the turns it copied (CDX-5): the model must mint them from its clock, not at random.
    """
    stamp = f"{clock.epoch_ms():012x}"
    tail = uuid(rng, 7)
    return f"{stamp[:8]}-{stamp[8:12]}-{tail[14:]}"


def hex8(rng: random.Random) -> str:
    """pi's entry id: 8 hex digits (`generateId` cuts a random UUID)."""
    return "".join(rng.choice("0123456789abcdef") for _ in range(8))


VOCABULARY = [
    "parser",
    "test",
    "build",
    "module",
    "fix",
    "error",
    "refactor",
    "config",
    "reader",
    "summary",
    "plan",
    "step",
    "file",
    "cache",
    "index",
    "branch",
    "token",
    "window",
    "history",
    "value",
    "record",
    "line",
    "host",
    "thread",
    "turn",
    "tool",
]


def words(rng: random.Random, count: int) -> str:
    """Filler prose for messages and summaries; deterministic for a seed."""
    return " ".join(rng.choice(VOCABULARY) for _ in range(count))


@dataclass(frozen=True)
class Deep:
    """A record nested `depth` levels deep (JSV-4, ERR-8): the file is rejected at its line."""

    depth: int = 1100
