"""The plan of a Gemini CLI chat: what happened, in order; the count comes from here.

A plan lists the chat's prompts, compressions and history rewrites (resume, masking, rewind)
and damage done to the file afterwards. The writer (`writer.py`) turns a plan into bytes;
`expected_reboots` reads the plan alone: one reboot per completed compression (GEM-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Prompt:
    """A user prompt, `tools` shell calls with their results, the model's answer. `pasted`:
    the prompt also holds that many bytes of a pasted log (the model's first message then
    starts that far into the file; HST-2 reads a `.json` chat's first 64 KiB)."""

    tools: int = 1
    pasted: int = 0


@dataclass(frozen=True)
class Compress:
    """One compression (GEM-3). `trigger` "auto" (before a model request) or "manual"
    (`/compress`): both write the same `$set.messages` in G1. `done=False`: the summary request
    failed or the snapshot came back empty, nothing is replaced (GEM-8); a G1 chat rolls its
    history back (a `$set.messages` with the old snapshot). `interactive`: the UI also writes its
    `info` (and, for a failure, `error`) record (GEM-5). `text` fixes the snapshot's text (two
    compressions may share it; each has its own message id, GEM-4). `recorded`: the snapshot and
    the acknowledgement are also written as message records before the `$set` (GEM-5: some
    versions record the new history's messages one by one; companions, never counted)."""

    trigger: Literal["auto", "manual"] = "auto"
    done: bool = True
    interactive: bool = False
    text: str | None = None
    recorded: bool = False


@dataclass(frozen=True)
class GemResume:
    """`--resume`: a fresh metadata record and session context, then the whole history again with
    the same ids, appended to the same file (GEM-4, GEM-8)."""


@dataclass(frozen=True)
class Mask:
    """Tool-output masking: the history is rewritten with `<tool_output_masked>` tool results and
    the same snapshot (or none): a `$set.messages` that is not a compression (GEM-4)."""


@dataclass(frozen=True)
class Rewind:
    """`/rewind` to the last prompt (`$rewindTo`), then a roll-back `$set.messages` re-showing
    the current snapshot: not a compression (GEM-4, GEM-8)."""


@dataclass(frozen=True)
class GemGarbage:
    """A line that does not parse, followed by LF (JSV-3, GEM-8)."""


GemStep = Prompt | Compress | GemResume | Mask | Rewind | GemGarbage


@dataclass(frozen=True)
class GemPlan:
    """A Gemini CLI chat in one era (spec/hosts.toml): `J0` (a whole-file `.json`, up to 0.38),
    `G0` (`.jsonl` without history sync, 0.39-0.43), `G1` (0.44 and later). `torn`: the file
    ends inside a half-written `$set` record. `odd`: shapes no version is known to write but
    the chapter reads (GEM-3, GEM-4, JSV-1): a value that is not an object, a `null` first in
    every history, white space before `<session_context>`, snapshot messages without an `id`,
    the first snapshot's text split across two parts. `kind_first`: the metadata record
    begins with its `kind` member (HST-2 reads Gemini CLI's row before VS Code's). `bom`: the
    file begins with a UTF-8 byte order mark (JSV-1, GEM-1)."""

    era: str
    steps: tuple[GemStep, ...] = field(default=())
    torn: bool = False
    seed: int = 1
    odd: bool = False
    kind_first: bool = False
    bom: bool = False


def gemini_own_compactions(plan: GemPlan) -> int:
    """The completed compressions of the chat (GEM-3); 0 too for J0/G0, which are rejected."""
    return sum(1 for step in plan.steps if isinstance(step, Compress) and step.done)


def gemini_unmeasurable(plan: GemPlan) -> bool:
    """GEM-7: J0 and G0 chats never recorded a compression."""
    return plan.era in ("J0", "G0")


def expected_reboots(plan: GemPlan) -> int:
    """The normative count of the plan's own file: its completed compressions (GEM-3)."""
    return gemini_own_compactions(plan)
