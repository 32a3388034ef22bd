"""Plays a plan on a live session and saves it at a cadence, giving the file's bytes.

The cadence (how likely a save is after each event) is the scenario's choice; some saves are
forced where the scenario needs the state on disk (the in-progress marker of a cancelled
compaction, the final state). Everything random comes from one `random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import eras as era_table
from .eras import Era
from .legacy import to_export, to_legacy
from .live import Session
from .plan import (
    Churn,
    Compaction,
    Flag,
    Fork,
    PendingEdits,
    Plan,
    Reinit,
    Remove,
    Retry,
    Send,
    Title,
    Turn,
    TypeUntilRewrite,
    positions,
)
from .texts import sentence
from .writer import LogWriter, flat_json


@dataclass
class Player:
    era: Era
    seed: int
    save_rate: float = 0.5
    marker_kind: str | None = None
    brief: bool = False  # shorter answers, for long sessions that must stay small
    writer: LogWriter = field(default_factory=LogWriter)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.session = Session(
            self.era, era_table.manual(), self.rng, self.marker_kind or self.era.marker_kind
        )

    def save(self, force: bool = False) -> None:
        if force or self.rng.random() < self.save_rate:
            self.writer.save(self.session.state)

    def play(self, plan: Plan) -> None:
        if plan.locale != "en":
            text = era_table.translation(plan.locale, self.era.completed)
            # only the completed text of a translation is known: used for both states
            self.session.completed_text = self.session.in_progress_text = text
        if plan.truncate_over is not None:
            self.writer.truncate_over = plan.truncate_over
        for step in plan.steps:
            if isinstance(step, Send):
                self.turn(step.turn)
            elif isinstance(step, Remove):
                self.session.remove(step.index)
                self.save(force=True)
            elif isinstance(step, Retry):
                self.session.truncate(step.index)
                self.turn(step.turn)
            elif isinstance(step, Churn):
                self.churn(step.saves)
            elif isinstance(step, Title):
                self.session.set_title(step.text)
                self.save()
            elif isinstance(step, PendingEdits):
                self.session.set_pending_edits(step.value)
                self.save(force=True)
            elif isinstance(step, Reinit):
                self.writer.append_initial = True
            elif isinstance(step, TypeUntilRewrite):
                rewrites = self.writer.rewrites
                while self.writer.rewrites == rewrites:
                    self.churn(1)
            elif isinstance(step, Flag):
                self.session.flag(step.index, partial=step.partial, hidden=step.hidden)
                self.save(force=True)
            elif isinstance(step, Fork):
                self.fork(step.title)
        self.save(force=True)

    def churn(self, saves: int) -> None:
        """Typing in the input box, one save per keystroke batch."""
        text = ""
        for _ in range(saves):
            text += self.rng.choice(("a", "e", "s", "t", " ", "r", "n"))
            self.session.type_input(text)
            self.writer.save(self.session.state)

    def type_prompt(self, text: str) -> None:
        if self.rng.random() < 0.4:
            cut = max(1, len(text) // 2)
            self.session.type_input(text[:cut])
            self.save()
            self.session.type_input(text)
            self.save()

    def turn(self, turn: Turn) -> None:
        self.type_prompt(turn.prompt)
        if turn.manual is not None:
            self.manual(turn.manual)
            return
        session = self.session
        session.send(turn.prompt)
        self.save()
        if turn.other_task:
            session.other_task(era_table.other_progress_tasks()[0])
            self.save()
        schedule: dict[int, list[Compaction]] = {}
        for compaction, at in zip(turn.compactions, positions(turn), strict=True):
            schedule.setdefault(at, []).append(compaction)
        edit = session.edit_start() if turn.edits else None
        if edit is not None:
            self.save()
        for round_index in range(turn.tools + 1):
            for compaction in schedule.get(round_index, []):
                if compaction.background:
                    session.background_apply(compaction.summary or "")
                    self.save()
                    continue
                index = session.compaction_start()
                self.save(force=compaction.cancelled)
                if compaction.cancelled:
                    session.cancel()
                    self.save()
                    return
                session.compaction_complete(index, compaction.summary)
                self.save()
            self.answer(turn, round_index)
            if round_index == turn.tools and turn.retry is not None:
                session.clear_to_previous_tool_invocation(warning=turn.retry == "filter")
                self.save()
                self.answer(turn, round_index)
            if round_index < turn.tools:
                part = session.tool_start()
                self.save()
                session.tool_finish(part)
                self.save()
        if edit is not None:
            session.edit_done(edit)
        if turn.background_pass is not None:
            session.background_pass(turn.background_pass)
        session.finish(stray_summary=turn.stray_summary, provider=turn.provider, error=turn.error)
        self.save()

    def fork(self, title: str) -> None:
        """The parent is saved, then the child session starts its own file (UNC-7)."""
        self.save(force=True)
        self.session.fork(title)
        self.writer.restart()
        self.save(force=True)

    def answer(self, turn: Turn, round_index: int) -> None:
        """Streamed markdown for one round, saved now and then while it grows."""
        chunks = self.rng.randrange(1, 3 if self.brief else 4)
        for chunk in range(chunks):
            text = (sentence(self.rng, 3, 7) if self.brief else sentence(self.rng)) + " "
            if turn.mention_marker and round_index == 0 and chunk == 0:
                text = f'The "{self.era.completed}" note means the history was summarized. '
            self.session.stream(text)
            self.save()

    def manual(self, summary: str) -> None:
        session = self.session
        session.send(era_table.manual().message_command, slash=True)
        self.save()
        session.manual_start()
        self.save()
        session.manual_done()
        session.finish(manual_summary=summary)
        self.save()

    def bytes(self, container: str) -> bytes:
        """The file as VS Code would have left it: the log, the flat `.json` of the model, or an
        Export Chat document ("export": 2026 keys, "export-old": with the requester fields)."""
        if container == "json":
            return flat_json(to_legacy(self.session.state))
        if container in ("export", "export-old"):
            return flat_json(to_export(self.session.state, old=container == "export-old"))
        return self.writer.bytes()


# An unterminated, unparsable last line, as a writer cut off mid-save leaves it (ERR-9).
TORN_LINE = b'{"kind":1,"k":["inputState","inputText"],"v":"and then'


def marker_test(era: Era) -> Callable[[Any], bool]:
    """Whether a response part is the era's completed compaction marker (of either part kind):
    what a LogWriter `watch` counts to measure the duplicate artifact."""
    kinds = {era.marker_kind, era.old_marker_kind}

    def test(part: Any) -> bool:
        content = part.get("content") if isinstance(part, dict) else None
        return (
            isinstance(content, dict)
            and part.get("kind") in kinds
            and content.get("value") == era.completed
        )

    return test


def play(plan: Plan, era: Era, seed: int, container: str = "jsonl", **options: Any) -> bytes:
    """Play `plan` in `era` with `seed`; the bytes of a `.jsonl` log or a flat `.json`."""
    player = Player(era, seed, **options)
    player.play(plan)
    return player.bytes(container)
