"""Presets: adapters for existing tools that look a session up by id instead of taking a path.

This is the registry: a preset's name (what comes before the colon of `--candidate NAME:PATH`)
maps to the adapter that builds its candidate from PATH. Each adapter is one module here (it
lays the case's input into a fake VS Code tree, see `vscode_tree`, runs the tool and says how
its answer is read); adding a preset is one such file plus its line in `PRESETS`.

`parse_candidate` turns a `--candidate` value into a candidate. It lives here, not in
`runner.candidates`, so the runner's base types never import the adapters built on them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..runner.candidates import (
    Candidate,
    CandidateError,
    CommandCandidate,
    Isolation,
    ReferenceCandidate,
)
from .qhoami import QhoamiPreset
from .reboot_count import RebootCountPreset

Adapter = Callable[[Path, Isolation | None], Candidate]

PRESETS: dict[str, Adapter] = {
    QhoamiPreset.name: QhoamiPreset.create,
    RebootCountPreset.name: RebootCountPreset.create,
}

REFERENCE_NAMES = ("", "reference")

# What reads as a preset name before a colon: a lowercase word (no space, path separator or
# drive letter), so `nosuch:DIR` is an unknown preset while `./tool:x` or `C:\tool` are commands.
_PRESET_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def known_presets() -> str:
    """The presets as they are written on a command line: `qhoami:PATH, reboot-count:PATH`."""
    return ", ".join(f"{name}:PATH" for name in PRESETS)


def parse_candidate(spec: str | None, isolation: Isolation | None = None) -> Candidate:
    """`None`/"reference" -> the in-process reference; `NAME:PATH` -> a preset; else a command.

    A `NAME:` whose NAME looks like a preset's but is none is refused (listing the known ones)
    rather than run as a program called `NAME:PATH`, which is nearly always a typo.
    """
    if spec is None or spec.strip() in REFERENCE_NAMES:
        return ReferenceCandidate()
    name, sep, argument = spec.partition(":")
    if sep and _PRESET_NAME.fullmatch(name) and len(name) > 1:
        adapter = PRESETS.get(name)
        if adapter is None:
            raise CandidateError(
                f"unknown preset {name!r} in {spec!r}; known presets: {known_presets()} "
                "(to run a program of that name, give its path)"
            )
        if not argument:
            raise CandidateError(f"the preset {name} needs a path: {name}:PATH")
        return adapter(Path(argument).expanduser(), isolation)
    command = CommandCandidate.parse(spec)
    return CommandCandidate(command.argv, isolation) if isolation else command
