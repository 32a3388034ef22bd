"""Hypothesis strategies for generated sessions (property tests and differential fuzzing).

A drawn case is a seeded random plan, an era, a save cadence and a rewrite threshold; playing it
gives a log whose expected count is the plan's. Hypothesis is a test dependency, so only tests
and fuzzers import this module.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import strategies as st

from .eras import Era, eras
from .plan import Plan
from .player import Player
from .randomized import long_session_steps
from .texts import Labels
from .writer import LogWriter


@dataclass(frozen=True)
class Drawn:
    """A random plan and how to write it."""

    plan: Plan
    era: Era
    seed: int
    save_rate: float
    rewrite_after: int

    def play(self) -> Player:
        player = Player(
            self.era,
            self.seed,
            save_rate=self.save_rate,
            writer=LogWriter(rewrite_after=self.rewrite_after),
        )
        player.play(self.plan)
        return player


@st.composite
def drawn_sessions(draw: st.DrawFn, max_turns: int = 25) -> Drawn:
    era = draw(st.sampled_from(eras()))
    rng: random.Random = draw(st.randoms(use_true_random=False))
    turns = draw(st.integers(1, max_turns))
    manual = draw(st.booleans())
    steps = long_session_steps(rng, Labels(rng), turns, manual=manual)
    return Drawn(
        plan=Plan(tuple(steps), era.summary_field),
        era=era,
        seed=draw(st.integers(0, 2**32 - 1)),
        save_rate=draw(st.sampled_from([0.0, 0.3, 0.7, 1.0])),
        rewrite_after=draw(st.sampled_from([4, 40, 1024])),
    )
