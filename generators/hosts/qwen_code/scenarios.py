"""The named scenarios of the Qwen Code corpus cases (spec/hosts/qwen-code.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`) or, for a file the spec rejects, from what the plan put in it (a
Q0 chat, a sub-agent's transcript). Each (scenario, era) pair is one case; its ID is chosen once
and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    QwenAgentTurn,
    QwenCompress,
    QwenFork,
    QwenGarbage,
    QwenNearMiss,
    QwenPlan,
    QwenResume,
    QwenRewind,
    QwenStray,
    QwenTitle,
    QwenTurn,
)

BASE_RULES = (
    *("HST-1", "HST-2", "JSV-1", "RBT-1", "RBT-2"),
    *("QWN-1", "QWN-2", "QWN-3", "QWN-5", "OUT-4"),
)


def _qwen(*steps: Any, **options: Any) -> Callable[[str], QwenPlan]:
    return lambda era: QwenPlan(era=era, steps=tuple(steps), **options)


def _fork(era: str) -> QwenPlan:
    """A `--fork-session` of a session with one compression, which then compresses once by a
    summary and once by rules (the latter keeps the inherited summary at its head)."""
    parent = QwenPlan(era=era, steps=(QwenTurn(2), QwenCompress("auto"), QwenTurn(1)), seed=2)
    steps = (QwenTurn(1), QwenCompress(fast=True), QwenTurn(1), QwenCompress("manual"), QwenTurn(1))
    return QwenPlan(era=era, steps=steps, copy=QwenFork(parent), seed=3)


SCENARIOS: tuple[Scenario[QwenPlan], ...] = (
    Scenario(
        "qwen-no-compression",
        "qwen-code",
        ("Q1",),
        "a Qwen Code 0.24 session of three turns with its telemetry and checkpoints; no reboot",
        (),
        ("qwen-companions",),
        _qwen(QwenTurn(1), QwenTurn(2), QwenTitle(), QwenTurn(0)),
        comment="ui_telemetry, branch_checkpoint and custom_title records are companions.",
    ),
    Scenario(
        "qwen-manual-compress",
        "qwen-code",
        ("Q1",),
        "one /compress between its slash-command records; one reboot",
        (),
        ("qwen-manual",),
        _qwen(QwenTurn(2), QwenCompress("manual"), QwenTurn(1)),
    ),
    Scenario(
        "qwen-auto-compress",
        "qwen-code",
        ("Q1",),
        "one automatic compression written by 0.15 (no triggerReason); one reboot",
        (),
        ("qwen-auto",),
        _qwen(QwenTurn(3), QwenCompress("auto"), QwenTurn(1), version="0.15.10"),
    ),
    Scenario(
        "qwen-two-compressions",
        "qwen-code",
        ("Q1",),
        "a /compress and an automatic compression (triggerReason manual, token_limit); two reboots",
        ("QWN-4",),
        ("qwen-manual", "qwen-auto"),
        _qwen(
            QwenTurn(2),
            QwenCompress("manual"),
            QwenTurn(2),
            QwenCompress("auto"),
            QwenTurn(1),
            version="0.21.10",
        ),
    ),
    Scenario(
        "qwen-failed-compress",
        "qwen-code",
        ("Q1",),
        "a /compress and an automatic compression whose every summary request failed; no reboot",
        ("QWN-10",),
        ("qwen-failed-compression", "qwen-manual"),
        _qwen(
            QwenTurn(2),
            QwenCompress("manual", done=False),
            QwenTurn(1),
            QwenCompress("auto", done=False),
            QwenTurn(1),
        ),
        comment="A failed compression writes no chat_compression record, only the command's "
        "own slash_command records.",
    ),
    Scenario(
        "qwen-across-resume",
        "qwen-code",
        ("Q1",),
        "0.8: a failed automatic compression, resumed, compressed; resumed again, /compress; "
        "two reboots",
        ("QWN-10",),
        ("qwen-resume", "qwen-failed-compression", "qwen-auto"),
        _qwen(
            QwenTurn(2),
            QwenCompress("auto", done=False),
            QwenResume(),
            QwenCompress("auto"),
            QwenTurn(1),
            QwenResume(),
            QwenCompress("manual"),
            QwenTurn(1),
            version="0.8.2",
        ),
        comment="A resume appends to the same file and writes no compression record again.",
    ),
    Scenario(
        "qwen-compress-fast",
        "qwen-code",
        ("Q1",),
        "/compress-fast before and after a /compress: rule-based, no summary; one reboot",
        ("QWN-4",),
        ("qwen-compress-fast", "qwen-manual"),
        _qwen(
            QwenTurn(3),
            QwenCompress(fast=True),
            QwenTurn(1),
            QwenCompress("manual"),
            QwenTurn(2),
            QwenCompress(fast=True),
            QwenTurn(1),
        ),
        comment="Each /compress-fast writes a chat_compression with status 1 whose new history "
        "is the old one with tool results cleared: the first starts with the first prompt, the "
        "second with the summary of the /compress before it (QWN-4).",
    ),
    Scenario(
        "qwen-rewind-dead-branch",
        "qwen-code",
        ("Q1",),
        "an ACP rewind to turn 0 after a /compress leaves the compression off the live chain; "
        "one reboot",
        ("QWN-8", "RBT-4"),
        ("qwen-rewind", "qwen-manual"),
        _qwen(
            QwenTurn(1),
            QwenTurn(2),
            QwenCompress("manual"),
            QwenTurn(1),
            QwenRewind(0),
            QwenTurn(1),
            QwenTurn(1),
        ),
        comment="The rewind re-roots the parentUuid chain before the first prompt; the "
        "summary stays in the model's history (QWN-8).",
    ),
    Scenario(
        "qwen-fork-copy",
        "qwen-code",
        ("Q1",),
        "a --fork-session copy of a session with one compression, then a /compress-fast and a "
        "/compress of its own; one reboot",
        ("QWN-4", "QWN-6", "RBT-3"),
        ("qwen-fork", "qwen-compress-fast"),
        _fork,
        comment="The copied records carry forkedFrom; the fork's /compress-fast keeps the "
        "inherited summary at the head of its history.",
    ),
    Scenario(
        "qwen-torn-tail",
        "qwen-code",
        ("Q1",),
        "a compression record cut short at the end of the file is ignored; one reboot",
        ("JSV-2", "QWN-10"),
        ("torn-tail", "qwen-auto"),
        _qwen(QwenTurn(1), QwenCompress("auto"), QwenTurn(1), torn=True),
    ),
    Scenario(
        "qwen-skipped-line",
        "qwen-code",
        ("Q1",),
        "a line that does not parse between two compressions is skipped; two reboots",
        ("JSV-3", "QWN-10"),
        ("json-value-skip", "qwen-auto"),
        _qwen(
            QwenTurn(1),
            QwenCompress("auto"),
            QwenGarbage(),
            QwenTurn(1),
            QwenCompress("auto"),
            QwenTurn(1),
        ),
    ),
    Scenario(
        "qwen-stray-value",
        "qwen-code",
        ("Q1",),
        "a line holding `null`, no record, between two compressions is skipped; two reboots",
        ("JSV-3", "QWN-10"),
        ("json-value-skip", "qwen-auto"),
        _qwen(
            QwenTurn(1),
            QwenCompress("auto"),
            QwenStray(),
            QwenTurn(1),
            QwenCompress("auto"),
            QwenTurn(1),
        ),
        comment="Qwen's loader skips a line that is no object and reads on (QWN-1).",
    ),
    Scenario(
        "qwen-sidechain-in-main",
        "qwen-code",
        ("Q1",),
        "a sub-agent's turns joined into the main transcript, before and after its /compress; "
        "one reboot",
        ("QWN-7",),
        ("qwen-sidechain-records", "qwen-manual"),
        _qwen(
            QwenTurn(1),
            QwenAgentTurn(2),
            QwenTurn(1),
            QwenCompress("manual"),
            QwenAgentTurn(1),
            QwenTurn(1),
        ),
        comment="Qwen writes a sub-agent's records to its own file; these were joined to the "
        "main one afterwards. Records with isSidechain are not the main thread's (QWN-7): the "
        "file is counted by its main thread, not rejected as a sub-agent's transcript.",
    ),
    Scenario(
        "qwen-status-near-miss",
        "qwen-code",
        ("Q1",),
        "chat_compression records with status 2, status true or no object where the status "
        "belongs, beside one completed /compress; one reboot",
        ("QWN-4",),
        ("qwen-not-compression", "qwen-manual"),
        _qwen(
            QwenTurn(1),
            QwenNearMiss("status-2"),
            QwenNearMiss("status-true"),
            QwenNearMiss("no-payload"),
            QwenNearMiss("info-text"),
            QwenTurn(1),
            QwenCompress("manual"),
            QwenTurn(1),
        ),
        comment="Qwen writes a chat_compression record only with status 1 (QWN-3); these were "
        "put in by another tool, each with a summary new to the file.",
    ),
    Scenario(
        "qwen-history-near-miss",
        "qwen-code",
        ("Q1",),
        "status-1 chat_compression records with no summary-and-acknowledgement head, and "
        "one on a user record; one reboot",
        ("QWN-4",),
        ("qwen-not-compression", "qwen-auto"),
        _qwen(
            QwenTurn(1),
            QwenNearMiss("no-history"),
            QwenNearMiss("empty-ack"),
            QwenNearMiss("ack-by-user"),
            QwenNearMiss("summary-text"),
            QwenNearMiss("not-system"),
            QwenTurn(1),
            QwenCompress("auto"),
            QwenTurn(1),
        ),
        comment="No Qwen version writes these (QWN-3, QWN-4); each carries a summary new to "
        "the file, so only its shape keeps it from counting.",
    ),
    Scenario(
        "qwen-subagent-transcript",
        "qwen-code",
        ("Q1",),
        "a sub-agent's transcript (subagents/…/agent-*.jsonl): its compressions are recorded "
        "nowhere; E-UNMEASURABLE",
        ("QWN-7", "RBT-5", "ERR-14"),
        ("qwen-subagent", "rejection"),
        _qwen(QwenTurn(3), QwenCompress("auto"), QwenTurn(2), subagent=True),
        reject="E-UNMEASURABLE",
    ),
    Scenario(
        "qwen-q0-whole-file",
        "qwen-code",
        ("Q0",),
        "a 0.1.x whole-file .json chat whose compression reached no file; E-UNMEASURABLE",
        ("QWN-9", "RBT-5", "ERR-14"),
        ("qwen-q0", "rejection"),
        _qwen(QwenTurn(2), QwenCompress("auto"), QwenTurn(1), version="0.1.4"),
        reject="E-UNMEASURABLE",
    ),
)
