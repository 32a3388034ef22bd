"""Deterministic filler text: prompts, streamed answers, summaries, ids.

Everything comes from a `random.Random`; nothing reads the clock or hashes strings, so a seed
gives the same words on every machine and Python version.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol


class RandomLike(Protocol):
    """What the text and plan generators need of a `random.Random` (Hypothesis' too)."""

    def random(self) -> float: ...

    def randrange(self, start: int, stop: int, /) -> int: ...

    def choice(self, seq: Sequence[str], /) -> str: ...

    def getrandbits(self, k: int, /) -> int: ...


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


WORDS = _split(
    "the test fixture parser config module handler cache request session file function "
    "value error build update check path index array object line entry state result "
    "schema writer reader token budget summary round tool call history prompt model "
    "context window branch commit change refactor import export type field option flag"
)

FILES = _split(
    "src/app.ts src/server/index.ts src/util/paths.py tests/test_parser.py README.md "
    "package.json src/components/List.tsx lib/cache.go cmd/main.go docs/setup.md"
)

TOOLS = (
    "copilot_readFile",
    "copilot_findTextInFiles",
    "copilot_replaceString",
    "copilot_runInTerminal",
    "copilot_listDirectory",
    "copilot_getErrors",
)


def uid(rng: RandomLike) -> str:
    """A version-4 UUID drawn from the RNG."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def words(rng: RandomLike, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def sentence(rng: RandomLike, low: int = 6, high: int = 14) -> str:
    text = words(rng, rng.randrange(low, high + 1))
    return text[0].upper() + text[1:] + "."


def prompt(rng: RandomLike) -> str:
    verb = rng.choice(("Fix", "Explain", "Refactor", "Add tests for", "Review", "Speed up"))
    return f"{verb} {rng.choice(FILES)}: {words(rng, rng.randrange(3, 9))}"


def summary_text(label: str, rng: RandomLike) -> str:
    """A conversation summary; equal labels in one plan must map to equal texts."""
    body = " ".join(sentence(rng) for _ in range(rng.randrange(3, 6)))
    return (
        f"<conversation-summary>\n## Overview ({label})\n{body}\n"
        f"## Files\n- {rng.choice(FILES)}\n- {rng.choice(FILES)}\n</conversation-summary>"
    )


class Labels:
    """Maps labels ("A", "B") to summary texts, the same text for the same label."""

    def __init__(self, rng: RandomLike) -> None:
        self.rng = rng
        self.texts: dict[str, str] = {}

    def __call__(self, label: str) -> str:
        if label not in self.texts:
            self.texts[label] = summary_text(label, self.rng)
        return self.texts[label]
