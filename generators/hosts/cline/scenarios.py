"""The named scenarios of the Cline family's corpus cases (spec/hosts/cline.md).

A scenario is a plan per era plus what the case cites. The expected answer comes from the plan
(`plan.expected`), never from reading the folder back. Each (scenario, era) pair is one case; its
ID is chosen once and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    CLINE,
    KILO,
    ROO,
    AutoCompact,
    Condense,
    EditLast,
    Restore,
    Resume,
    SdkCompact,
    SlidingWindow,
    Smol,
    StrayCondenseRow,
    TaskPlan,
    Truncate,
    Turn,
)

BASE_RULES = ("HST-1", "HST-2", "RBT-1", "RBT-2", "CLN-1", "CLN-2", "CLN-3", "OUT-4")
CORE = ("CLN-4", "CLN-5")
ROO_LINE = ("CLN-10",)
VERSIONS = {"L0": "3.12.3", "L1": "3.17.0", "L2": "3.52.0"}


def _task(member: str, *steps: Any, **options: Any) -> Callable[[str], TaskPlan]:
    def plan(era: str) -> TaskPlan:
        rest = {key: value for key, value in options.items() if key != "version"}
        version = options.get("version", VERSIONS.get(era)) if member == CLINE else None
        return TaskPlan(member=member, era=era, steps=tuple(steps), version=version, **rest)

    return plan


def _cline(*steps: Any, **options: Any) -> Callable[[str], TaskPlan]:
    return _task(CLINE, *steps, **options)


SCENARIOS: tuple[Scenario[TaskPlan], ...] = (
    # -- Cline's core ----------------------------------------------------------------------
    Scenario(
        "cline-fresh",
        CLINE,
        ("L0", "L2"),
        "a task that never compacted; none",
        CORE,
        ("cline-core",),
        _cline(Turn("fix it", 2), Turn("and the tests", 1)),
    ),
    Scenario(
        "cline-auto-compact-once",
        CLINE,
        ("L2",),
        "auto-compact once: one answered summarize_task result; one reboot",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next")),
    ),
    Scenario(
        "cline-auto-compact-twice",
        CLINE,
        ("L2",),
        "auto-compact twice, each result with the continuation prompt; two reboots",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next"), AutoCompact(), Turn("more")),
    ),
    Scenario(
        "cline-auto-compact-native",
        CLINE,
        ("L2",),
        "auto-compact twice with native tool calls: tool_result blocks; two reboots",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next"), AutoCompact(), native=True),
    ),
    Scenario(
        "cline-parallel-image-read",
        CLINE,
        ("L2",),
        "parallel native calls: an image read's list result after the summary's; one reboot",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(image_after=True), Turn("next"), native=True),
        comment="With parallel tool calling the model called read_file on an image beside "
        "summarize_task; both results are in one user message, the image's as a list of blocks.",
    ),
    Scenario(
        "cline-given-ui-file",
        CLINE,
        ("L2",),
        "the counter is given ui_messages.json, not the folder: the same count; one reboot",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next")),
        options="ui-file",
    ),
    Scenario(
        "cline-smol-accepted",
        CLINE,
        ("L1", "L2"),
        "/smol accepted: the accepted condense result; one reboot",
        (*CORE, "CLN-6"),
        ("cline-core", "cline-smol"),
        _cline(Turn(), Smol(accepted=True), Turn("next")),
    ),
    Scenario(
        "cline-smol-feedback",
        CLINE,
        ("L1", "L2"),
        "/smol answered with feedback: the summary was made but not applied; none",
        (*CORE, "CLN-6"),
        ("cline-core", "cline-smol", "cline-smol-feedback"),
        _cline(Turn(), Smol(accepted=False), Turn("next")),
    ),
    Scenario(
        "cline-smol-feedback-then-accepted",
        CLINE,
        ("L2",),
        "/smol with feedback, then /smol accepted, then auto-compact; two reboots",
        (*CORE, "CLN-6"),
        ("cline-core", "cline-smol", "cline-smol-feedback", "cline-auto-compact"),
        _cline(Turn(), Smol(accepted=False), Smol(accepted=True), Turn(), AutoCompact()),
    ),
    Scenario(
        "cline-legacy-truncation",
        CLINE,
        ("L0", "L2"),
        "legacy truncation twice: new deleted ranges, no summary; none",
        (*CORE, "CLN-7"),
        ("cline-core", "cline-truncation"),
        _cline(Turn(), Truncate(), Turn("next"), Truncate(), Turn("more")),
    ),
    Scenario(
        "cline-truncation-and-compact",
        CLINE,
        ("L2",),
        "a truncation then an auto-compact: the range changes four times; one reboot",
        (*CORE, "CLN-7"),
        ("cline-core", "cline-truncation", "cline-auto-compact"),
        _cline(Turn(), Truncate(), Turn("next"), AutoCompact(), Turn("more")),
    ),
    Scenario(
        "cline-failed-summary",
        CLINE,
        ("L2",),
        "the summary request fails on every retry: no result; none",
        CORE,
        ("cline-core", "cline-failed-summary"),
        _cline(Turn(), AutoCompact(gave_up=True), Turn("try again")),
    ),
    Scenario(
        "cline-summary-retried",
        CLINE,
        ("L2",),
        "the summary request fails twice, then is answered: one result; one reboot",
        CORE,
        ("cline-core", "cline-failed-summary", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(failures=2), Turn("next")),
    ),
    Scenario(
        "cline-resume",
        CLINE,
        ("L2",),
        "a compaction, the task resumed, a second compaction: nothing copied; two reboots",
        (*CORE, "CLN-9"),
        ("cline-core", "cline-resume", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Resume(), Turn("next"), AutoCompact()),
    ),
    Scenario(
        "cline-checkpoint-restore",
        CLINE,
        ("L2",),
        "a restore to the first turn removes a later compaction; one left, W-REWOUND",
        (*CORE, "CLN-8", "RBT-4"),
        ("cline-core", "cline-restore", "cline-auto-compact"),
        _cline(
            Turn(),
            AutoCompact(),
            Turn("second"),
            AutoCompact(),
            Turn("third"),
            Restore(2),
            Turn("after the restore"),
        ),
    ),
    Scenario(
        "cline-no-version",
        CLINE,
        ("L2",),
        "an older folder with no environment_history: the era from the records; one reboot",
        CORE,
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next"), version=None),
    ),
    Scenario(
        "cline-missing-history",
        CLINE,
        ("L2",),
        "a task folder without api_conversation_history.json; E-READ",
        ("CLN-13", "ERR-12"),
        ("cline-core",),
        _cline(Turn(), AutoCompact(), drop_api=True),
        reject="E-READ",
    ),
    Scenario(
        "cline-history-not-array",
        CLINE,
        ("L2",),
        "a task folder whose api_conversation_history.json is an object, not an array; E-READ",
        ("CLN-13", "ERR-12"),
        ("cline-core",),
        _cline(Turn(), AutoCompact(), Turn("next"), api_not_array=True),
        reject="E-READ",
        comment="Cline writes the api history as an array of messages; this one was rewritten "
        "by another tool with the messages under a member.",
    ),
    Scenario(
        "cline-history-cut-short",
        CLINE,
        ("L2",),
        "a task folder whose api history was cut short mid-copy; E-JSON at line 1",
        ("CLN-13", "ERR-3"),
        ("cline-core",),
        _cline(Turn(), AutoCompact(), Turn("next"), api_cut=True),
        reject="E-JSON",
        comment="Cline writes the history whole, on one line (JSON.stringify), through a "
        "temporary file; this copy of it stopped halfway, so the document ends inside line 1.",
    ),
    Scenario(
        "cline-stray-values",
        CLINE,
        ("L2",),
        "values that are no objects among the rows, messages and blocks are skipped; one reboot",
        (*CORE, "CLN-13"),
        ("cline-core", "cline-auto-compact"),
        _cline(Turn(), AutoCompact(), Turn("next"), strays=True),
        comment="Cline writes none; another tool's edit left a null row, a string message and a "
        "null block before the summary's result.",
    ),
    # -- Roo Code --------------------------------------------------------------------------
    Scenario(
        "roo-condense",
        ROO,
        ("R2", "R3"),
        "a manual and an automatic condense: two condense_context rows; two reboots",
        ROO_LINE,
        ("roo-condense",),
        _task(ROO, Turn(), Condense("manual"), Turn("next"), Condense("automatic")),
    ),
    Scenario(
        "roo-condense-three",
        ROO,
        ("R2",),
        "three condenses: the api history keeps only the latest summary; three reboots",
        ROO_LINE,
        ("roo-condense", "roo-latest-summary-only"),
        _task(ROO, Turn(), Condense(), Turn(), Condense(), Turn(), Condense(), Turn()),
    ),
    Scenario(
        "roo-condense-kept-summaries",
        ROO,
        ("R2",),
        "Roo 3.18-3.28.0: three condenses, every summary kept; three reboots",
        ROO_LINE,
        ("roo-condense",),
        _task(
            ROO,
            Turn(),
            Condense(),
            Turn(),
            Condense("manual"),
            Turn(),
            Condense(),
            Turn(),
            roo_history="inserted",
        ),
    ),
    Scenario(
        "roo-condense-tagged",
        ROO,
        ("R3",),
        "Roo 3.36-3.42's condense, then a forced one after a context-window error; two reboots",
        ROO_LINE,
        ("roo-condense",),
        _task(
            ROO,
            Turn(),
            Condense("manual"),
            Turn(),
            Condense("forced"),
            Turn(),
            roo_history="tagged",
        ),
        comment="3.36-3.42 tag the middle `condenseParent` and insert the summary before the last "
        "three; the forced condense's row has no condenseId.",
    ),
    Scenario(
        "roo-condense-error",
        ROO,
        ("R2", "R3"),
        "a condense that fails, then one that completes; one reboot",
        ROO_LINE,
        ("roo-condense", "roo-condense-error"),
        _task(ROO, Turn(), Condense(fails=True), Turn(), Condense()),
    ),
    Scenario(
        "roo-stray-condense-rows",
        ROO,
        ("R2",),
        "a partial condense_context row and one without contextCondense beside a completed "
        "condense; one reboot",
        ROO_LINE,
        ("roo-condense", "roo-stray-condense-row"),
        _task(
            ROO,
            Turn(),
            StrayCondenseRow(partial=True),
            Turn(),
            StrayCondenseRow(partial=False),
            Condense(),
            Turn(),
        ),
        comment="Roo stores neither row (the partial one is the web view's spinner); another "
        "tool put them in. Only a completed row with a contextCondense object counts (CLN-10).",
    ),
    Scenario(
        "roo-stray-values",
        ROO,
        ("R2",),
        "a value that is no object among the ui rows, before two condenses; two reboots",
        (*ROO_LINE, "CLN-13"),
        ("roo-condense",),
        _task(ROO, Turn(), Condense(), Turn(), Condense(), Turn(), strays=True),
        comment="Roo writes none; another tool's edit left a null row after the first and a "
        "string among the api messages.",
    ),
    Scenario(
        "roo-edit-after-condense",
        ROO,
        ("R2", "R3"),
        "the message before the only condense edited: its row goes; the summary stays before 3.36",
        (*ROO_LINE, "CLN-8", "RBT-4"),
        ("roo-condense", "roo-rewind"),
        _task(ROO, Turn(), Condense(), EditLast(), Turn("next")),
        comment="R2: the summary outlives its row, E-UNMEASURABLE; R3: MessageManager removes "
        "the summary with its row, none.",
    ),
    Scenario(
        "roo-edit-after-second-condense",
        ROO,
        ("R2",),
        "the message before the second of two condenses edited: one row left; one reboot",
        (*ROO_LINE, "CLN-8", "RBT-4"),
        ("roo-condense", "roo-rewind"),
        _task(ROO, Turn(), Condense(), Turn(), Condense(), EditLast(), Turn("next")),
        comment="A lower bound without a warning: the second condense happened, and its "
        "summary is still in the api history, but its row is gone.",
    ),
    Scenario(
        "roo-sliding-window",
        ROO,
        ("R3",),
        "a sliding-window truncation, then a condense; one reboot",
        (*ROO_LINE, "CLN-7"),
        ("roo-condense", "roo-sliding-window"),
        _task(ROO, Turn(tools=3), SlidingWindow(), Turn(), Condense()),
    ),
    Scenario(
        "roo-no-condense",
        ROO,
        ("R2",),
        "a Roo task that never condensed; none",
        ROO_LINE,
        ("roo-condense",),
        _task(ROO, Turn(), Turn("next")),
    ),
    Scenario(
        "roo-317-summary",
        ROO,
        ("R1",),
        "Roo 3.17: a summary in the api history and no ui row; E-UNMEASURABLE",
        (*ROO_LINE, "RBT-5", "ERR-14"),
        ("roo-condense", "roo-unmeasurable"),
        _task(ROO, Turn(), Condense(), Turn("next")),
        reject="E-UNMEASURABLE",
    ),
    # -- the Kilo Code extension -----------------------------------------------------------
    Scenario(
        "kilo-smol-accepted",
        KILO,
        ("KX1", "KX2"),
        "/smol accepted writes Cline's result and Roo's row: counted once; one reboot",
        (*ROO_LINE, "CLN-11", "CLN-6"),
        ("kilo-smol",),
        _task(KILO, Turn(), Smol(accepted=True), Turn("next")),
    ),
    Scenario(
        "kilo-smol-feedback",
        KILO,
        ("KX1",),
        "/smol answered with feedback, then a condense; one reboot",
        (*ROO_LINE, "CLN-11", "CLN-6"),
        ("kilo-smol", "cline-smol-feedback"),
        _task(KILO, Turn(), Smol(accepted=False), Turn(), Condense()),
    ),
    Scenario(
        "kilo-smol-condense-fails",
        KILO,
        ("KX1",),
        "/smol accepted but Roo's condense fails: an accepted result, no row; none",
        (*ROO_LINE, "CLN-11"),
        ("kilo-smol", "roo-condense-error"),
        _task(KILO, Turn(), Smol(accepted=True, condense_fails=True), Turn("next")),
    ),
    # -- the SDK session folder ------------------------------------------------------------
    Scenario(
        "cline-sdk-fresh",
        CLINE,
        ("S1",),
        "an SDK session that never compacted: no compaction file; none",
        ("CLN-12",),
        ("cline-sdk",),
        _cline(Turn("a"), Turn("b"), task_id="01KB2Q7XG3N5V8ZP4R6T9W1Y3C"),
    ),
    Scenario(
        "cline-sdk-compacted",
        CLINE,
        ("S1",),
        "an SDK session that compacted twice keeps the latest only; E-UNMEASURABLE",
        ("CLN-12", "RBT-5", "ERR-14"),
        ("cline-sdk", "cline-sdk-compacted"),
        _cline(
            Turn("a"),
            SdkCompact(),
            Turn("b"),
            SdkCompact("basic"),
            Turn("c"),
            task_id="01KB2Q7XG3N5V8ZP4R6T9W1Y3D",
        ),
        reject="E-UNMEASURABLE",
    ),
)
