"""Every setting of a conformance run, defined once: its option, its environment variable, its help.

The pytest plugin (`rebootspec run`, `pytest --candidate ...`), `smoke` and `fuzz` all read their
settings through this table, so `CONFORMANCE_CANDIDATE` means the same everywhere and a new
setting is one entry here. A command-line value wins over the environment; an empty variable
counts as unset.
"""

from __future__ import annotations

import os

DEFAULT_TIMEOUT = 10.0

# option name -> (environment fallback, help)
OPTIONS: dict[str, tuple[str, str]] = {
    "candidate": (
        "CONFORMANCE_CANDIDATE",
        'the candidate: a command ("{path}" or appended), qhoami:DIR, reboot-count:SCRIPT; '
        "default: the bundled reference, in process",
    ),
    "answer_key": ("CONFORMANCE_ANSWER_KEY", "read the count at this key of stdout's JSON"),
    "answer_pointer": ("CONFORMANCE_ANSWER_POINTER", "read the count at this JSON pointer"),
    "case_timeout": ("CONFORMANCE_CASE_TIMEOUT", f"seconds per case (default {DEFAULT_TIMEOUT:g})"),
    "profile": (
        "CONFORMANCE_PROFILE",
        "claimed features: spec-v2 (default), spec-v1, seed-rubric-2026-02, or a TOML file",
    ),
    "known_divergences": (
        "CONFORMANCE_KNOWN_DIVERGENCES",
        "TOML: [ID] reason = ... (strict expected failures)",
    ),
    "case_memory": (
        "CONFORMANCE_CASE_MEMORY",
        "cap each case's address space at this many MiB (RLIMIT_AS; POSIX)",
    ),
    "report_dir": ("CONFORMANCE_REPORT_DIR", "write report.json, report.md and report.html here"),
    "corpus": ("CONFORMANCE_CORPUS", "the fixtures folder (default: fixtures/ of this repository)"),
    "conformance_snapshots": (
        "CONFORMANCE_SNAPSHOTS",
        "the snapshot folder (default: conformance/__snapshots__)",
    ),
}


def from_environment(name: str) -> str | None:
    """The environment fallback of setting `name` (None when unset or empty)."""
    return os.environ.get(OPTIONS[name][0]) or None


def describe_options() -> str:
    """The settings as help lines: `--name  text [env VAR]`."""
    lines = []
    for name, (env, text) in OPTIONS.items():
        lines.append(f"  --{name.replace('_', '-'):<22} {text} [env {env}]")
    return "\n".join(lines)
