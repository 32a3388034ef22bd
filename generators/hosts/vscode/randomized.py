"""Seeded random plans for long, realistic sessions (the corpus's long scenarios and benchmarks).

Plan generation only calls `choice`, `random` and `randrange` on the generator it is given, so
a `random.Random(seed)` makes a corpus case and any object with those methods (a Hypothesis
`randoms()` draw) makes fuzzing input. The expectation still comes from the plan.
"""

from __future__ import annotations

from typing import Protocol

from .plan import Churn, Compaction, PendingEdits, Remove, Retry, Send, Step, Title, Turn
from .texts import RandomLike, prompt


class LabelSource(Protocol):
    def __call__(self, label: str) -> str: ...


def _next_label(rng: RandomLike, used: list[str]) -> str:
    """Mostly a new summary; sometimes the previous one again (A,A) or an older one (A,B,A)."""
    roll = rng.random()
    if used and roll < 0.12:
        return used[-1]
    if len(used) > 1 and roll < 0.22:
        return rng.choice(used[:-1])
    used.append(f"S{len(used) + 1}")
    return used[-1]


def _compactions(rng: RandomLike, labels: LabelSource, used: list[str]) -> tuple[Compaction, ...]:
    count = 1 if rng.random() < 0.85 else rng.randrange(2, 4)
    out = []
    for _ in range(count):
        roll = rng.random()
        at = rng.randrange(0, 4) if rng.random() < 0.3 else None  # else the plan's default
        if roll < 0.1:
            out.append(Compaction(None, at=at))  # summarization failed: a phantom
        else:
            out.append(Compaction(labels(_next_label(rng, used)), at=at))
    if rng.random() < 0.04:
        out.append(Compaction(None, cancelled=True))
    return tuple(out)


def random_turn(rng: RandomLike, labels: LabelSource, used: list[str], manual: bool) -> Turn:
    """One turn: usually plain, sometimes with compactions or a `/compact`."""
    roll = rng.random()
    tools = rng.randrange(0, 3)
    if manual and roll < 0.03:
        return Turn("/compact", manual=labels(_next_label(rng, used)))
    if roll < 0.15:
        first = rng.random() < 0.3
        return Turn(
            prompt(rng), _compactions(rng, labels, used), tools=max(tools, 1), marker_first=first
        )
    if roll < 0.17:
        return Turn(prompt(rng), stray_summary=labels(_next_label(rng, used)), tools=tools)
    if roll < 0.19:  # the last fetch failed after compactions (UNC-1, UNC-2)
        error = "fetch" if rng.random() < 0.7 else "no-response"
        compactions = _compactions(rng, labels, used)
        return Turn(prompt(rng), compactions, tools=rng.randrange(1, 5), error=error)
    if roll < 0.21:  # the last fetch was retried: markers after the last tool cleared
        retry = "filter" if rng.random() < 0.5 else "network"
        return Turn(prompt(rng), _compactions(rng, labels, used), tools=tools, retry=retry)
    if roll < 0.22:
        return Turn(prompt(rng), tools=tools, other_task=True)
    if manual and roll < 0.23:  # 0.38+: provider compaction, background pass or apply
        kind = rng.random()
        if kind < 0.34:
            ident = "cmp_" + str(rng.randrange(10**8, 10**9))
            return Turn(prompt(rng), provider=(ident,), tools=max(tools, 1))
        text = labels(_next_label(rng, used))
        if kind < 0.67:
            return Turn(prompt(rng), tools=max(tools, 1), background_pass=text)
        return Turn(prompt(rng), (Compaction(text, at=0, background=True),), tools=tools)
    return Turn(prompt(rng), tools=tools, edits=rng.random() < 0.05)


def long_session_steps(rng: RandomLike, labels: LabelSource, size: int, manual: bool) -> list[Step]:
    """About `size` requests with compactions, retries, removals and input churn."""
    steps: list[Step] = []
    used: list[str] = []
    alive = 0
    for _ in range(size):
        roll = rng.random()
        if alive > 2 and roll < 0.03:
            steps.append(Retry(alive - 1, random_turn(rng, labels, used, manual)))
            continue
        if alive > 3 and roll < 0.05:
            steps.append(Remove(rng.randrange(0, alive)))
            alive -= 1
            continue
        if roll < 0.08:
            steps.append(Churn(rng.randrange(1, 6)))
        elif roll < 0.09:
            steps.append(Title(f"Session about {prompt(rng)[:30]}"))
        elif roll < 0.11:
            steps.append(PendingEdits(True if rng.random() < 0.5 else None))
        steps.append(Send(random_turn(rng, labels, used, manual)))
        alive += 1
    return steps
