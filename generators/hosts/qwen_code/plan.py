"""The plan of a Qwen Code session: what happened, in order; the count comes from here.

A plan lists the session's steps (turns, compressions by a summary or by rules, failed ones,
resumes, a rewind, titles), the `--fork-session` copy it started from, and damage done to the
file afterwards. The writer (`writer.py`) turns a plan into bytes; `expected_reboots` reads the
plan alone (QWN-3, QWN-4, QWN-6, RBT-1, RBT-3, RBT-4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class QwenTurn:
    """A user prompt, `tools` shell calls with their results, and the answer."""

    tools: int = 1


@dataclass(frozen=True)
class QwenCompress:
    """One compression. `trigger`: `manual` (`/compress`, its slash-command records around
    it) or `auto` (before the next request, once the prompt passed the threshold). `done=False`:
    every summary request failed (or the new history was larger, status 2): nothing is
    written (QWN-9). `fast`: `/compress-fast` (0.24), rule-based, no model call and no summary;
    it writes a `chat_compression` record all the same (QWN-4)."""

    trigger: Literal["manual", "auto"] = "auto"
    done: bool = True
    fast: bool = False


@dataclass(frozen=True)
class QwenResume:
    """The session is resumed (`--resume <id>`, `--continue`): a new process appends to the
    same file, its history rebuilt from the last compression record; nothing about the
    compressions is written again (QWN-9)."""


@dataclass(frozen=True)
class QwenRewind:
    """A rewind (0.24 `/rewind` or ACP `rewindSession`) to the user turn `turn` (0-based):
    a `rewind` record re-roots the `parentUuid` chain before that turn; the abandoned records
    stay in the file (QWN-8)."""

    turn: int = 0


@dataclass(frozen=True)
class QwenTitle:
    """A `custom_title` record (`/rename`, or the generated title): a companion (QWN-5)."""

    text: str = "fix the parser"


@dataclass(frozen=True)
class QwenGarbage:
    """A line that does not parse, followed by LF (JSV-3, QWN-10)."""


@dataclass(frozen=True)
class QwenStray:
    """A line holding a JSON value that is no object (`null`), put in by another tool: Qwen's
    loader skips it and reads on (QWN-1, JSV-3)."""


@dataclass(frozen=True)
class QwenAgentTurn:
    """A sub-agent's turn whose records (`isSidechain: true`) sit in this file: Qwen writes
    them to the sub-agent's own file, so these were joined to it afterwards (a merge of a
    session's files). They are never the main thread's (QWN-7)."""

    tools: int = 1


# QWN-3, QWN-4: how a `chat_compression` record Qwen never writes differs from a real one.
NearMissKind = Literal[
    "status-2",  # `compressionStatus` 2 (the new history was larger): never written
    "status-true",  # a JSON `true` where the number 1 belongs: no status
    "no-payload",  # no `systemPayload`
    "info-text",  # `info` a string, not an object: no status
    "no-history",  # status 1 and no `compressedHistory`
    "empty-ack",  # the model turn after the summary has no parts: no acknowledgement
    "ack-by-user",  # the acknowledgement's text in a `user` turn, not the model's
    "summary-text",  # the head of the new history a bare string, not a content
    "not-system",  # a whole completed compression payload on a `user` record
]


@dataclass(frozen=True)
class QwenNearMiss:
    """A `chat_compression` record no Qwen version writes, put in the file by another tool:
    it differs from a completed summary compression in one thing `QWN-3`/`QWN-4` require, so
    it is no reboot. Its summary text is new to the file."""

    kind: NearMissKind


QwenStep = (
    QwenTurn
    | QwenCompress
    | QwenResume
    | QwenRewind
    | QwenTitle
    | QwenGarbage
    | QwenStray
    | QwenAgentTurn
    | QwenNearMiss
)


@dataclass(frozen=True)
class QwenFork:
    """The session starts as a `--fork-session` copy of `parent` (QWN-6): the parent's live
    chain, each record stamped `forkedFrom`, the session id rewritten, the chain relinked."""

    parent: QwenPlan


@dataclass(frozen=True)
class QwenPlan:
    """A Qwen Code session in one era (`Q0`, `Q1`). `version`: the CLI version its records
    carry (Q1; 0.8 and 0.15 write no `triggerReason`, 0.24 writes `provenance`). `subagent`:
    the file is a sub-agent's transcript under `subagents/` (QWN-7). `torn`: the file ends
    inside a half-written record (JSV-2)."""

    era: str
    steps: tuple[QwenStep, ...] = field(default=())
    version: str = "0.24.4"
    copy: QwenFork | None = None
    subagent: bool = False
    torn: bool = False
    seed: int = 1


def own_compressions(plan: QwenPlan) -> int:
    """The completed summary compressions of the session's own thread: failed ones wrote
    nothing, a `/compress-fast` replaced no history by a summary (RBT-1), a fork's copied ones
    are its source's (RBT-3), and a rewind removes none (RBT-4). Near-miss records, stray
    values and a sub-agent's turns are other steps, never compressions."""
    return sum(
        1 for step in plan.steps if isinstance(step, QwenCompress) and step.done and not step.fast
    )


def inherited_compressions(plan: QwenPlan) -> int:
    """The source's compressions a fork copied (every compression of a source with no rewind
    is on its live chain)."""
    return 0 if plan.copy is None else own_compressions(plan.copy.parent)


def expected_reboots(plan: QwenPlan) -> int:
    """The normative count of the plan's own file: its own completed summary compressions."""
    return own_compressions(plan)
