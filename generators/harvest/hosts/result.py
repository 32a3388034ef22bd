"""What a host run hands back: each thread's file and the compactions it caused itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Thread:
    """One session file and its thread.

    ``role`` is "own" for the thread the scenario drives, "fork" or "subagent" for a thread
    started from it. ``caused`` counts the compactions the script caused in this thread's own
    log per the server log; copies a fork or subagent inherits are not counted. ``answer`` is
    set when the record implies a rejection instead (a chat-loop chain that loops, BCL-6).
    """

    thread: str
    role: str
    path: Path
    caused: int
    answer: str = ""  # the spec's answer when it is not the count (``reject:E-CHAIN``)


@dataclass
class Outcome:
    """The threads of one run and notes on what the host did differently from the script.

    ``files`` are more files the run wrote that belong with the threads (copied out as they
    are); ``record`` is the driver's own account of the run for ``result.json`` (a host without
    the scripted server keeps its evidence there).
    """

    threads: list[Thread]
    notes: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    record: dict[str, object] = field(default_factory=dict)
