"""What a fuzzed case shows, in words a fixture needs: tags, spec rules, a title, the plan.

Tags come from the plan (`generators.hosts.vscode.plan.plan_tags`) and the bytes
(`generators.hosts.vscode.shapes`, the corpus's DETECTED shapes), as for generated cases; rules
follow from the tags through spec/tags.toml (CNT-2 always: every fuzzed case checks a count).
Nothing here looks at a counter's answer.
"""

from __future__ import annotations

import re

from ...generators.corpus.casefile import tag_rules
from ...generators.hosts.vscode.case import DETECTED, stores_summaries
from ...generators.hosts.vscode.plan import (
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
    Step,
    Title,
    Turn,
    TypeUntilRewrite,
    expected_events,
    expected_reboots,
    is_compaction_turn,
    plan_note,
    plan_tags,
)
from ...generators.hosts.vscode.shapes import log_shapes
from ...generators.hosts.vscode.strategies import label_of
from .plans import FuzzCase, Played

_OLD_MARKER = re.compile(rb'"kind":\s*"progressTask"')


# Short phrases for titles, most telling first.
TAG_PHRASES: dict[str, str] = {
    "summaries-array": "summaries[] array",
    "torn-tail": "a torn last line",
    "legacy-json": "legacy .json",
    "request-removed": "a compacted request removed",
    "request-replaced": "a compacted request retried",
    "later-initial": "a later kind-0 line",
    "rewrite-1024": "a 1024-entry rewrite",
    "delete": "a kind-3 delete",
    "push-truncate": "a truncating push",
    "push-index": "a push with i",
    "duplicate-artifact": "re-pushed marker parts",
    "phantom": "a phantom",
    "cancelled": "a cancelled compaction",
    "failed-summary": "a failed summary",
    "manual-compact": "/compact",
    "summary-without-marker": "a summary without marker",
    "server-compaction": "a provider compaction",
    "error-result": "an error result",
    "no-response": "a no-response error",
    "marker-cleared": "a marker cleared by a retry",
    "background-compaction": "a background compaction",
    "fork": "a /fork child",
    "marker-text-elsewhere": "marker text quoted",
    "progress-task-kind": "progressTask markers",
    "set-without-v": "a Set without v",
}


def case_tags(case: FuzzCase, played: Played) -> list[str]:
    """The tags of spec/tags.toml the case shows, read off its plan and its bytes."""
    tags = set(plan_tags(case.plan))
    if case.container == "json":
        tags |= {"legacy-json", "initial-only"}
    else:
        shapes = log_shapes(played.data)
        tags |= shapes & set(DETECTED)
        if played.rewrites:
            tags.add("rewrite-1024")
        if played.duplicated:
            tags.add("duplicate-artifact")
        if case.torn_tail:
            tags.add("torn-tail")
        if not tags:  # a plain log: name the shapes it has
            tags |= shapes
    if case.old_marker_kind and _OLD_MARKER.search(played.data):
        tags.add("progress-task-kind")
    if stores_summaries(case.plan):
        tags.add("singular-summary" if case.plan.summary_field == "summary" else "summaries-array")
    return sorted(tags) or ["initial-only"]


def _rule_key(rule: str) -> tuple[str, int]:
    prefix, number = rule.split("-")
    return prefix, int(number)


def case_rules(case: FuzzCase, tags: list[str]) -> list[str]:
    """CNT-2 always; MRK-1 when a completed marker stays; the rules of each tag."""
    rules = {"CNT-2"}
    table = tag_rules()  # spec/tags.toml, the one tag -> rules table
    if any(is_compaction_turn(t) and t.manual is None for t in case.plan.final_turns()):
        rules.add("MRK-1")
    for tag in tags:
        rules.update(table.get(tag, ()))
    return sorted(rules, key=_rule_key)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_labels(plan: Plan) -> list[str]:
    """The events of the walk (CNT-1) as labels A, B, ... (provider compactions by id)."""
    return [label_of(v) if k == "text" else v for k, v in expected_events(plan)]


def title(case: FuzzCase, tags: list[str], limit: int = 140) -> str:
    """E.g. "fuzz: 2 requests, summaries [A, A], a compacted request removed; 1 reboot"."""
    final = case.plan.final_turns()
    labels = summary_labels(case.plan)
    head = f"fuzz: {_plural(len(final), 'request')}"
    walk = f"summaries [{', '.join(labels)}]" if labels else "no summary"
    tail = f"; {_plural(expected_reboots(case.plan), 'reboot')}"
    phrases = [TAG_PHRASES[tag] for tag in TAG_PHRASES if tag in tags]
    text = f"{head}, {walk}"
    for phrase in phrases:
        if len(text) + len(phrase) + 2 + len(tail) > limit:
            break
        text += f", {phrase}"
    return text + tail


def _compaction_name(compaction: Compaction) -> str:
    if compaction.cancelled:
        return "cancelled"
    return "phantom" if compaction.summary is None else label_of(compaction.summary)


def describe_turn(turn: Turn) -> str:
    """One turn in a few words."""
    if turn.manual is not None:
        return f"/compact storing {label_of(turn.manual)}"
    if turn.compactions:
        names = [_compaction_name(c) for c in turn.compactions]
        first = ", first before any tool round" if turn.marker_first else ""
        where = [str(c.at) for c in turn.compactions if c.at is not None]
        if where:
            first += f", after rounds {'/'.join(where)}"
        if any(c.background for c in turn.compactions):
            first += ", applying a background pass"
        if turn.error is not None:
            first += f", ending in a {turn.error} error"
        if turn.retry is not None:
            first += f", the last fetch retried ({turn.retry})"
        return f"compactions [{', '.join(names)}], {_plural(turn.tools, 'tool round')}{first}"
    extra = []
    if turn.stray_summary is not None:
        extra.append(f"summary {label_of(turn.stray_summary)} stored without a marker")
    if turn.provider:
        extra.append(f"provider compactions {', '.join(turn.provider)} on rounds")
    if turn.mention_marker:
        extra.append("the marker text quoted in the prompt and the answer")
    if turn.background_pass is not None:
        extra.append(f"background pass {label_of(turn.background_pass)} on the last round")
    if turn.other_task:
        extra.append("a workspace-search progress task")
    if turn.error is not None:
        extra.append(f"a {turn.error} error")
    if turn.edits:
        extra.append("a file edit group")
    shown = "; ".join(extra) if extra else "plain"
    return f"{shown}, {_plural(turn.tools, 'tool round')}"


def describe_step(step: Step) -> str:
    """One plan step in a line."""
    if isinstance(step, Send):
        return f"send: {describe_turn(step.turn)}"
    if isinstance(step, Remove):
        return f"remove request {step.index}"
    if isinstance(step, Retry):
        return f"retry request {step.index} (it and later ones go): {describe_turn(step.turn)}"
    if isinstance(step, Churn):
        return f"type in the input box ({_plural(step.saves, 'save')})"
    if isinstance(step, Title):
        return "set the title"
    if isinstance(step, PendingEdits):
        value = "undefined" if step.value is None else str(step.value).lower()
        return f"hasPendingEdits := {value}"
    if isinstance(step, Reinit):
        return "the next save appends a kind-0 line"
    if isinstance(step, TypeUntilRewrite):
        return "type until the writer rewrites the file as one kind-0 line"
    if isinstance(step, Flag):
        kind = "partial undo" if step.partial else "whole request"
        return f"request {step.index} flagged for removal on the next send ({kind})"
    if isinstance(step, Fork):
        return "/fork: the file from here on is the child session's"
    return type(step).__name__


def describe_plan(case: FuzzCase) -> list[str]:
    """The plan and how it was written, one line each (for EXPLAIN.txt and the terminal)."""
    marker = "progressTask" if case.old_marker_kind else case.era.marker_kind
    lines = [
        f"era {case.era.id}, container {case.container}, save rate {case.save_rate:g}, "
        f"writer seed {case.seed}, marker kind {marker}"
        + (", torn tail appended" if case.torn_tail else "")
    ]
    lines += [f"{n:>3}. {describe_step(step)}" for n, step in enumerate(case.plan.steps, 1)]
    labels = summary_labels(case.plan)
    lines.append(
        f"summaries of the walk: [{', '.join(labels)}] -> "
        f"{_plural(expected_reboots(case.plan), 'reboot')} (CNT-2)"
    )
    lines.append(plan_note(case.plan))
    return lines
