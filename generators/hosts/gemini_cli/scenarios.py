"""The named scenarios of the Gemini CLI corpus cases (spec/hosts/gemini-cli.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`) or, for a file the spec rejects, from what the plan put in it (a
J0 or G0 chat). Each (scenario, era) pair is one case; its ID is chosen once and kept in
`corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    Compress,
    GemGarbage,
    GemPlan,
    GemResume,
    Mask,
    Prompt,
    Rewind,
)

BASE_RULES = ("HST-1", "HST-2", "JSV-1", "RBT-1", "GEM-1", "GEM-2", "GEM-3", "GEM-6", "OUT-4")


def _gem(*steps: Any, **options: Any) -> Callable[[str], GemPlan]:
    return lambda era: GemPlan(era=era, steps=tuple(steps), **options)


SNAPSHOT_A = (
    "<state_snapshot>\nthe parser is fixed; next: the tests of the reader\n</state_snapshot>"
)


SNAPSHOT_B = "<state_snapshot>\nthe tests pass; next: the release notes\n</state_snapshot>"


SCENARIOS: tuple[Scenario[GemPlan], ...] = (
    # -- Gemini CLI ------------------------------------------------------------------------
    Scenario(
        "gemini-auto-compressions",
        "gemini-cli",
        ("G1",),
        "two automatic compressions, each a $set.messages with a new snapshot; two reboots",
        ("GEM-4",),
        ("gemini-snapshot",),
        _gem(Prompt(1), Prompt(2), Compress(), Prompt(1), Compress(), Prompt(1)),
        comment="Every $set.messages before the first compression holds the session context "
        "alone or no snapshot (GEM-3).",
    ),
    Scenario(
        "gemini-manual-interactive",
        "gemini-cli",
        ("G1",),
        "interactive /compress, an automatic compression and a failed one with their info and "
        "error records; two reboots",
        ("GEM-5", "GEM-8", "RBT-2"),
        ("gemini-snapshot", "gemini-info-companion", "gemini-failed-compression"),
        _gem(
            Prompt(1),
            Compress("manual", interactive=True),
            Prompt(1),
            Compress("auto", interactive=True),
            Prompt(1),
            Compress("manual", done=False, interactive=True),
            Prompt(1),
        ),
        comment="The empty info of /compress and the text info of the automatic one are "
        "companions; the failed compression only rolls the history back (old snapshot).",
    ),
    Scenario(
        "gemini-resume-repeats-snapshot",
        "gemini-cli",
        ("G1",),
        "a chat resumed twice writes its snapshot again with the same id each time; one reboot",
        ("GEM-4", "GEM-8"),
        ("gemini-snapshot", "gemini-resume"),
        _gem(
            Prompt(1),
            Prompt(1),
            Compress(),
            Prompt(1),
            GemResume(),
            Prompt(1),
            GemResume(),
            Prompt(1),
        ),
        comment="Each resume writes a metadata record, the session context alone, then the "
        "whole history with the snapshot's id unchanged.",
    ),
    Scenario(
        "gemini-masking",
        "gemini-cli",
        ("G1",),
        "tool-output masking rewrites the history without a new snapshot; one reboot",
        ("GEM-4",),
        ("gemini-masking", "gemini-snapshot"),
        _gem(Prompt(3), Mask(), Prompt(1), Compress(), Prompt(2), Mask(), Prompt(1)),
    ),
    Scenario(
        "gemini-same-snapshot-text",
        "gemini-cli",
        ("G1",),
        "three compressions, the third with the first one's text under a new id; three reboots",
        ("GEM-4",),
        ("gemini-same-snapshot-text", "gemini-snapshot"),
        _gem(
            Prompt(1),
            Compress(text=SNAPSHOT_A),
            Prompt(1),
            Compress(text=SNAPSHOT_B),
            Prompt(1),
            Compress(text=SNAPSHOT_A),
            Prompt(1),
        ),
        comment="GEM-4: each compression creates its snapshot message with a fresh id; equal "
        "text is no reason to skip one (A, B, A' is three).",
    ),
    Scenario(
        "gemini-two-equal-snapshots",
        "gemini-cli",
        ("G1",),
        "two compressions in a row with the same snapshot text; two reboots",
        ("GEM-4",),
        ("gemini-same-snapshot-text", "gemini-snapshot"),
        _gem(Prompt(1), Compress(text=SNAPSHOT_A), Prompt(1), Compress(text=SNAPSHOT_A), Prompt(1)),
    ),
    Scenario(
        "gemini-rewind",
        "gemini-cli",
        ("G1",),
        "a rewind after a compression shows the same snapshot again; one reboot",
        ("GEM-4", "GEM-8", "RBT-4"),
        ("gemini-rewind", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), Rewind(), Prompt(1)),
    ),
    Scenario(
        "gemini-snapshot-records",
        "gemini-cli",
        ("G1",),
        "two compressions whose snapshot and acknowledgement are also message records; two reboots",
        ("GEM-5", "RBT-2"),
        ("gemini-snapshot-record", "gemini-snapshot"),
        _gem(
            Prompt(1),
            Compress(recorded=True),
            Prompt(1),
            Compress(recorded=True),
            Prompt(1),
        ),
        comment="The user records holding <state_snapshot> are companions; each compression is "
        "its $set.messages (GEM-3, GEM-5).",
    ),
    Scenario(
        "gemini-odd-shapes",
        "gemini-cli",
        ("G1",),
        "odd shapes: a non-object value, null in histories, snapshots without an id; two reboots",
        ("GEM-3", "GEM-4", "JSV-1"),
        ("gemini-odd-shapes", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), Compress(), Prompt(1), odd=True),
        comment="The snapshot is the first user message after the context (non-messages "
        "skipped), its parts' texts joined; without an id it is keyed by its text (GEM-3, "
        "GEM-4).",
    ),
    Scenario(
        "gemini-kind-first",
        "gemini-cli",
        ("G1",),
        "a chat whose metadata record begins with its kind member; one reboot",
        ("HST-2", "GEM-1"),
        ("gemini-kind-first", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), kind_first=True),
        comment="HST-2 reads Gemini CLI's row (string sessionId and projectHash) before VS "
        "Code's (kind): a first line starting with {\"kind\" is not VS Code's by that alone.",
    ),
    Scenario(
        "gemini-no-compression",
        "gemini-cli",
        ("G1",),
        "a G1 chat that never compressed: its start-up $set.messages holds no snapshot; none",
        ("GEM-2",),
        ("gemini-start-sync",),
        _gem(Prompt(1), Prompt(2)),
    ),
    Scenario(
        "gemini-unmeasurable",
        "gemini-cli",
        ("J0", "G0"),
        "a chat of Gemini CLI 0.43 or earlier: its compressions never reached the file; "
        "rejected as unmeasurable",
        ("GEM-7", "RBT-5", "ERR-14", "ERR-10", "GEM-5"),
        ("gemini-unmeasurable", "gemini-info-companion", "rejection"),
        _gem(Prompt(1), Prompt(1), Compress(interactive=True), Prompt(1), Compress(), Prompt(1)),
        reject="E-UNMEASURABLE",
        comment="The interactive info record says a compression happened; it is a companion "
        "and the file holds no history sync (GEM-7).",
    ),
    Scenario(
        "gemini-json-bom",
        "gemini-cli",
        ("J0",),
        "a whole-file .json chat that begins with a BOM: still Gemini CLI's, unmeasurable",
        ("GEM-1", "GEM-7", "HST-2", "RBT-5", "ERR-14", "ERR-10"),
        ("gemini-json", "gemini-unmeasurable", "bom", "rejection"),
        _gem(Prompt(1), Compress(), Prompt(1), bom=True),
        reject="E-UNMEASURABLE",
        comment="The BOM is not part of the document (JSV-1): the chat is told from a VS Code "
        "session by its members (GEM-1) and rejected (GEM-7).",
    ),
    Scenario(
        "gemini-json-long-prompt",
        "gemini-cli",
        ("J0",),
        "a .json chat whose first prompt pastes 48 KiB: its first gemini message is far in, "
        "still Gemini CLI's; unmeasurable",
        ("GEM-1", "GEM-7", "HST-2", "RBT-5", "ERR-14", "ERR-10"),
        ("gemini-json", "gemini-unmeasurable", "near-miss", "rejection"),
        _gem(Prompt(1, pasted=48 * 1024), Compress(), Prompt(1)),
        reject="E-UNMEASURABLE",
        comment="Gemini CLI's row knows its chat by a message of type gemini, which Qwen Code "
        "0.1's same-shaped document never has (GEM-1, HST-2); the row looks for it in the first "
        "64 KiB, into the messages array.",
    ),
    Scenario(
        "gemini-torn-tail",
        "gemini-cli",
        ("G1",),
        "a $set.messages cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "GEM-8"),
        ("torn-tail", "gemini-snapshot"),
        _gem(Prompt(1), Compress(), Prompt(1), torn=True),
    ),
    Scenario(
        "gemini-bad-line",
        "gemini-cli",
        ("G1",),
        "a line that does not parse is skipped, as Gemini CLI's loader does; one reboot",
        ("JSV-3", "GEM-8"),
        ("gemini-snapshot",),
        _gem(Prompt(1), GemGarbage(), Prompt(1), Compress(), Prompt(1)),
    ),
)
