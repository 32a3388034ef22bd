"""Plans of Codex, pi, Claude Code and Gemini CLI threads: what happened, in order; the count
comes from here.

A plan lists the thread's own events (turns, compactions and how each one ended, manual or
automatic, rollbacks, branches, resumes), the copy it started from (a fork, a subagent, a pi
branch), and damage done to the file afterwards (a torn tail, a bad line, glued records). The
writer models (`codex.py`, `pi.py`) turn a plan into bytes; `expected_reboots` reads the plan
alone: one reboot per completed compaction of the thread's own log (RBT-1), wherever it sits
(RBT-4: rolled back or on an abandoned branch still counts), never one of the copy (RBT-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# -- Codex ---------------------------------------------------------------------------------

Kind = Literal["local", "remote"]
When = Literal["pre", "mid"]


@dataclass(frozen=True)
class Compact:
    """One automatic compaction inside a user turn (CDX-9): before its user message or mid-turn.

    `done=False` is a compaction that failed (context-window error, exhausted retries): Codex
    returns before the `compacted` line, so nothing of it reaches the file (CDX-3).
    `glued` writes its line with no LF before it (JSV-1); `huge` gives it a long new history.
    """

    kind: Kind = "local"
    when: When = "mid"
    done: bool = True
    glued: bool = False
    huge: bool = False


@dataclass(frozen=True)
class Turn:
    """A user turn: its message, `tools` tool calls, an answer; compactions where they say."""

    tools: int = 1
    compactions: tuple[Compact, ...] = ()
    aborted: bool = False  # the user interrupted the turn (`turn_aborted`), e.g. mid-compaction


@dataclass(frozen=True)
class Manual:
    """`/compact` (or `thread/compact/start`): a turn of its own with no user message (CDX-9).

    `done=False`: the user interrupted it; `task_started` then `turn_aborted`, no `compacted`.
    """

    kind: Kind = "local"
    done: bool = True


@dataclass(frozen=True)
class Rollback:
    """`thread/rollback`: one `thread_rolled_back` event; nothing is removed (CDX-6)."""

    turns: int = 1


@dataclass(frozen=True)
class Resume:
    """The thread is resumed later and appends to the same file (CDX-7)."""

    hours: float = 20.0


@dataclass(frozen=True)
class Garbage:
    """A line that does not parse, followed by LF (JSV-3): a record cut short by an editor."""


@dataclass(frozen=True)
class OddCompacted:
    """`compacted` records whose payload is not an object (a string, an array): not compactions
    (CDX-3), skipped like any record Codex cannot deserialise (JSV-3)."""


@dataclass(frozen=True)
class ThirdParty:
    """What other tools write beside Codex's records: an `item_completed` event carrying a
    ContextCompaction item and a top-level `response_item` of type `compaction` (CDX-4)."""


@dataclass(frozen=True)
class Deep:
    """A record nested `depth` levels deep (JSV-4, ERR-8): the file is rejected at its line."""

    depth: int = 1100


@dataclass(frozen=True)
class Copy:
    """The thread starts from another one (CDX-5): `fork` (`thread/fork`) or `subagent`
    (`spawn_agent` with the parent's context). C1-C4 copy the parent's whole rollout; C5 marks
    a subagent's copy with ordinals and a fork copies nothing (`history_base`).
    `same_second`: the subagent's first own turn starts within the copy's second."""

    parent: CodexPlan
    how: Literal["fork", "subagent"] = "fork"
    same_second: bool = False


@dataclass(frozen=True)
class Freeform:
    """A user turn whose edit goes through the free-form `apply_patch` tool: a
    `custom_tool_call` and its output, which 0.34.0 already wrote (no mark, CDX-8); `ghost`
    puts the turn's `ghost_snapshot` item (the `/undo` commit, 0.53.0 on: a mark) before it."""

    ghost: bool = False


CodexStep = (
    Turn | Manual | Rollback | Resume | Garbage | OddCompacted | ThirdParty | Deep | Freeform
)


@dataclass(frozen=True)
class CodexPlan:
    """A Codex thread in one era (spec/hosts.toml): its copy, then its own steps, then damage.

    `version` is the CLI version the model writes (`session_meta.cli_version`; None: absent,
    the envelope's first days). `torn`: the file ends inside a half-written `compacted` line.
    `legacy`: the pre-envelope C0 format (CDX-1).
    """

    era: str
    steps: tuple[CodexStep, ...]
    version: str | None = None
    copy: Copy | None = None
    torn: bool = False
    legacy: bool = False
    seed: int = 1


def codex_own_compactions(plan: CodexPlan) -> int:
    """The completed compactions this thread wrote itself (RBT-1, RBT-4; not the copy, RBT-3)."""
    count = 0
    for step in plan.steps:
        if isinstance(step, Turn):
            count += sum(1 for c in step.compactions if c.done)
        elif isinstance(step, Manual) and step.done:
            count += 1
    return count


def codex_all_compactions(plan: CodexPlan) -> int:
    """Every completed compaction of the thread's history, its ancestors' included."""
    inherited = codex_all_compactions(plan.copy.parent) if plan.copy else 0
    return inherited + codex_own_compactions(plan)


# -- pi ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exchange:
    """A user prompt, the assistant's tool calls and results, the answer."""

    tools: int = 1
    bash: bool = False  # a `!command` the user ran (role bashExecution)


@dataclass(frozen=True)
class PiCompact:
    """One compaction entry (PIA-3). Manual and automatic write the same entry; `trigger`
    only changes what happens around it (an overflowed assistant message before an automatic
    one). `done=False`: cancelled or failed, nothing written. `glued`: its value shares a line
    with the previous entry (PIA-7). `summary` fixes the text (two compactions may share it)."""

    trigger: Literal["manual", "auto"] = "auto"
    done: bool = True
    from_hook: bool = False
    glued: bool = False
    summary: str | None = None


@dataclass(frozen=True)
class Extras:
    """Entries that are not compactions (PIA-4): model and thinking changes, extension data,
    a label, the session name, an extension message."""


@dataclass(frozen=True)
class Navigate:
    """`/tree`: the user goes back `back` entries; the next entry's parent is that earlier
    entry, so what follows it is an abandoned branch kept in the file (PIA-6). With
    `summary`, pi writes a `branch_summary` of the branch left (PIA-4)."""

    back: int
    summary: bool = True


@dataclass(frozen=True)
class PiGarbage:
    """A line that does not parse, followed by LF (JSV-3, PIA-9)."""


PiStep = Exchange | PiCompact | Extras | Navigate | PiGarbage | Deep


@dataclass(frozen=True)
class PiCopy:
    """The session starts as a copy of another (PIA-5): `fork` (format 2+, `parentSession`,
    all entries or a path copied verbatim) or format 1's branch (`branchedFrom`)."""

    parent: PiPlan


@dataclass(frozen=True)
class PiPlan:
    """A pi session in one format (`v1`, `v2`, `v3`); `migrated`: written in format 1, then
    rewritten as format 3 by a newer pi (PIA-8). `torn`: ends in a half-written entry."""

    era: str
    steps: tuple[PiStep, ...] = field(default=())
    copy: PiCopy | None = None
    migrated: bool = False
    torn: bool = False
    seed: int = 1


def pi_own_compactions(plan: PiPlan) -> int:
    """The completed compactions this session wrote, on every branch (PIA-3, PIA-6)."""
    return sum(1 for step in plan.steps if isinstance(step, PiCompact) and step.done)


# -- Claude Code -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaudeTurn:
    """A user prompt, `tools` tool calls and their results, the answer (CLC-1)."""

    tools: int = 1


@dataclass(frozen=True)
class ClaudeCompact:
    """One compaction (CLC-3): `manual` (`/compact`, its command records after the summary) or
    `auto` (right after a tool result, the turn goes on). `done=False`: it failed or was
    cancelled, no boundary and no summary is written (a failed `/compact` leaves its command
    records). `glued`: the boundary shares a line with the record before it (JSV-1).
    `uuid=False`: the primary record (the boundary; in CC0 the summary) has no `uuid`, as a tool
    writing transcripts might (CLC-3: it counts on its own). `legacy`: a CC0 compaction in a
    later era's file (a CC0 session resumed by a newer CLI): the summary only, no boundary."""

    trigger: Literal["manual", "auto"] = "auto"
    done: bool = True
    glued: bool = False
    uuid: bool = True
    legacy: bool = False


@dataclass(frozen=True)
class Microcompact:
    """A `microcompact_boundary` (CC3): old tool results cleared, no summary (CLC-4)."""


@dataclass(frozen=True)
class TitleRows:
    """`summary` title rows for the resume picker (CLC-4), written where the step is."""


@dataclass(frozen=True)
class Sidechain:
    """A subagent's records written inline (`isSidechain: true`), holding a boundary and a
    summary of its own (CLC-5): not the main thread's."""


@dataclass(frozen=True)
class Reappend:
    """anthropics/claude-code#92089: the records from the first boundary up to the last one are
    written again, verbatim (same `uuid`, `parentUuid`, `timestamp`; CLC-6)."""


@dataclass(frozen=True)
class ClaudeGarbage:
    """A line that does not parse, followed by LF (JSV-3, CLC-10)."""


@dataclass(frozen=True)
class ClaudeSystemNote:
    """A `system` record of another subtype (`turn_duration`): a companion (CLC-4)."""


@dataclass(frozen=True)
class ClaudeOddType:
    """A conversation record whose `type` is an array and `subtype` an object: it names
    nothing (CLC-10)."""


ClaudeStep = (
    ClaudeTurn
    | ClaudeCompact
    | Microcompact
    | TitleRows
    | Sidechain
    | Reappend
    | ClaudeGarbage
    | ClaudeSystemNote
    | ClaudeOddType
)


@dataclass(frozen=True)
class ClaudeBranch:
    """The transcript starts as a `/branch` copy of another (CLC-6): the source's records with
    their `uuid`s, each stamped `forkedFrom`."""

    parent: ClaudePlan


@dataclass(frozen=True)
class ClaudePlan:
    """A Claude Code transcript in one era (`CC0`..`CC3`). `side_file`: the file is the
    summarizer's `agent-acompact-*` transcript (CLC-5), not a session; `titles_first`: the file
    begins with `summary` title rows; `torn`: it ends inside a half-written boundary.
    `bom_long_first`: the file begins with a BOM and its first record (a prompt with a pasted
    log) is longer than detection's first read of 64 KiB (HST-2, JSV-1)."""

    era: str
    steps: tuple[ClaudeStep, ...] = field(default=())
    copy: ClaudeBranch | None = None
    side_file: bool = False
    titles_first: bool = False
    torn: bool = False
    seed: int = 1
    bom_long_first: bool = False


def claude_own_compactions(plan: ClaudePlan) -> int:
    """The completed compactions of the main thread this file wrote itself (CLC-3, CLC-5):
    a side file's are none, a branch's copied ones are the source's (RBT-3), and a re-appended
    boundary is the same compaction (CLC-6)."""
    if plan.side_file:
        return 0
    done = [step for step in plan.steps if isinstance(step, ClaudeCompact) and step.done]
    with_boundary = [step for step in done if plan.era != "CC0" and not step.legacy]
    # CLC-7: a file with a boundary counts its boundaries only (a resumed CC0 session's older
    # summaries are a lower bound's loss); a file with none counts its flagged summaries.
    return len(with_boundary) if with_boundary else len(done)


# -- Gemini CLI ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    """A user prompt, `tools` shell calls with their results, the model's answer."""

    tools: int = 1


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


def expected_reboots(plan: CodexPlan | PiPlan | ClaudePlan | GemPlan) -> int:
    """The normative count of the plan's own file: its own completed compactions."""
    if isinstance(plan, CodexPlan):
        return codex_own_compactions(plan)
    if isinstance(plan, ClaudePlan):
        return claude_own_compactions(plan)
    if isinstance(plan, GemPlan):
        return gemini_own_compactions(plan)
    return pi_own_compactions(plan)
