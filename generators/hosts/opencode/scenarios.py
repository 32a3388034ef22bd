"""The named scenarios of the opencode corpus cases (spec/hosts/opencode.md).

A scenario is a store plan per era plus what the case cites: its rules and tags. The expected
answer comes from the plan (`opencode_plan.expected_reboots`) or from the rejection the plan's
content calls for (`expected_rejection`). Each (scenario, era) pair is one case; its ID is
chosen once and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..scenario import Scenario
from .plan import (
    Damage,
    OcCompact,
    OcOdd,
    OcPrompt,
    OcPrune,
    OcRevert,
    OcSession,
    OcStep,
    OcStore,
    OcTask,
)

HOST = "opencode"
KILO = "kilo"  # a member of opencode's family: its cases are played by opencode's writer model
BASE_RULES = ("HST-1", "HST-2", "RBT-1", "OPC-1", "OPC-2", "OPC-3", "OPC-4", "OUT-4")
KILO_RULES = ("KLO-1", "KLO-2", "KLO-3")
MANUAL = OcCompact("manual")
AUTO = OcCompact("auto")


def _one(*steps: OcStep, damage: Damage = "none", seed: int = 1) -> Callable[[str], OcStore]:
    return lambda era: OcStore(era, (OcSession(tuple(steps)),), damage=damage, seed=seed)


def _fork(own: tuple[OcStep, ...], seed: int) -> Callable[[str], OcStore]:
    def store(era: str) -> OcStore:
        source = OcSession((OcPrompt(2), MANUAL, OcPrompt(1), AUTO, OcPrompt(1)), title="source")
        return OcStore(era, (source, OcSession(own, fork_of=source)), selected=1, seed=seed)

    return store


def _subagent(child: bool) -> Callable[[str], OcStore]:
    """A session whose task tool ran a child session that compacted twice; the session itself
    compacts once. `child` asks about the child session instead of the session."""

    def store(era: str) -> OcStore:
        task = (OcPrompt(1), AUTO, OcPrompt(1), MANUAL, OcPrompt(1))
        steps = (OcPrompt(1), OcTask(task), MANUAL, OcPrompt(1))
        return OcStore(era, (OcSession(steps, title="parent"),), child=child, seed=40)

    return store


def _several(era: str) -> OcStore:
    sessions = (
        OcSession((OcPrompt(1), MANUAL, OcPrompt(1), AUTO), title="first"),
        OcSession((OcPrompt(2), AUTO, OcPrompt(1)), title="second"),
        OcSession((OcPrompt(1), MANUAL, OcPrompt(1), MANUAL, OcPrompt(1), AUTO), title="third"),
    )
    return OcStore(era, sessions, selected=1, seed=50)


def _renamed(name: str, seed: int) -> Callable[[str], OcStore]:
    """A store saved under the other member's file name (a copy): its content decides."""
    steps = (OcPrompt(1), MANUAL, OcPrompt(1), AUTO, OcPrompt(1))
    return lambda era: OcStore(era, (OcSession(steps),), name=name, seed=seed)


def _both(era: str) -> OcStore:
    """KLO-1: Kilo 7.7 pointed (`KILO_DB`) at a store opencode 1.18 began: Kilo adds its tables
    and its own session beside opencode's. The rows carry both members' marks."""
    theirs = OcSession((OcPrompt(1), MANUAL, OcPrompt(1)), title="opencode's", version="1.18.33")
    ours = OcSession((OcPrompt(1), AUTO, OcPrompt(1)), title="kilo's")
    return OcStore(era, (theirs, ours), selected=1, name="opencode.db", seed=61)


def _neither(era: str) -> OcStore:
    """KLO-1: a store whose only session a development build wrote (`version` "local", no
    release number) and which has no Kilo table: the rows carry neither member's marks."""
    session = OcSession((OcPrompt(1), MANUAL, OcPrompt(1)), version="local")
    return OcStore(era, (session,), name="opencode.db", seed=62)


def _missing(era: str) -> OcStore:
    return OcStore(era, (OcSession((OcPrompt(1), MANUAL, OcPrompt(1))),), ask_missing=True)


SCENARIOS: tuple[Scenario[OcStore], ...] = (
    Scenario(
        "opencode-pair",
        HOST,
        ("O1", "O2", "O3"),
        "a /compact pair and an automatic pair, each with a finished summary; two reboots",
        (),
        ("opencode-pair",),
        _one(OcPrompt(2), MANUAL, OcPrompt(1), AUTO, OcPrompt(1), seed=2),
    ),
    Scenario(
        "opencode-o0-summaries",
        HOST,
        ("O0",),
        "opencode 1.0.0: summary messages without pairs; done, stopped after text, failed,"
        " stopped before text; three reboots",
        ("OPC-5",),
        ("opencode-o0-summary", "opencode-failed-compaction"),
        _one(
            OcPrompt(1),
            MANUAL,
            OcPrompt(1),
            AUTO,
            OcPrompt(1),
            OcCompact("manual", "failed"),
            OcCompact("manual", "aborted"),
            OcCompact("manual", "aborted-empty"),
            OcPrompt(1),
            seed=3,
        ),
        comment="OPC-5: 1.0.0 announced a summary as done when it had no error, or was stopped"
        " after some text.",
    ),
    Scenario(
        "opencode-failed-rerun",
        HOST,
        ("O2", "O3"),
        "a failed pair keeps its error; the next prompt's re-run summary replaces nothing;"
        " then a finished pair; one reboot",
        ("OPC-6",),
        ("opencode-pair", "opencode-failed-compaction", "opencode-rerun-summary"),
        _one(
            OcPrompt(1),
            OcCompact("auto", "failed", rerun=True),
            OcPrompt(1),
            OcPrompt(1),
            MANUAL,
            OcPrompt(1),
            seed=4,
        ),
    ),
    Scenario(
        "opencode-aborted",
        HOST,
        ("O1", "O3"),
        "a pair the user stopped after some summary text, then a finished pair; one reboot",
        ("OPC-6",),
        ("opencode-pair", "opencode-failed-compaction"),
        _one(OcPrompt(1), OcCompact("manual", "aborted"), OcPrompt(1), AUTO, OcPrompt(1), seed=5),
    ),
    Scenario(
        "opencode-cut-short",
        HOST,
        ("O2", "O3"),
        "a summary whose stream ended early (finish unknown, no error) still counts; two reboots",
        ("OPC-7",),
        ("opencode-pair", "opencode-cut-short"),
        _one(OcPrompt(1), OcCompact("auto", "cut-short"), OcPrompt(1), MANUAL, seed=6),
    ),
    Scenario(
        "opencode-prune-only",
        HOST,
        ("O2",),
        "tool outputs pruned (time.compacted) and no compaction; no reboots",
        ("OPC-8", "RBT-2"),
        ("opencode-prune",),
        _one(OcPrompt(3), OcPrompt(3), OcPrune(), OcPrompt(1), seed=7),
    ),
    Scenario(
        "opencode-fork-copy",
        HOST,
        ("O1", "O2", "O3"),
        "a fork copies its source's two compaction pairs and compacts nothing itself; no reboots",
        ("OPC-9", "RBT-3"),
        ("opencode-fork-copy", "opencode-several-sessions"),
        _fork((OcPrompt(1),), seed=8),
    ),
    Scenario(
        "opencode-fork-own",
        HOST,
        ("O2", "O3"),
        "a fork copies its source's two pairs, then compacts once itself; one reboot",
        ("OPC-9", "RBT-3"),
        ("opencode-fork-copy", "opencode-pair"),
        _fork((OcPrompt(1), AUTO, OcPrompt(1)), seed=9),
    ),
    Scenario(
        "opencode-subagent-parent",
        HOST,
        ("O2",),
        "a session whose task tool's child session compacted twice: the child's compactions"
        " are not the parent's; one reboot",
        ("OPC-10",),
        ("opencode-subagent", "opencode-pair"),
        _subagent(False),
    ),
    Scenario(
        "opencode-subagent-child",
        HOST,
        ("O3",),
        "the child session of a task tool call, asked about by its own id; two reboots",
        ("OPC-10", "OPC-11"),
        ("opencode-subagent", "opencode-pair", "opencode-several-sessions"),
        _subagent(True),
    ),
    Scenario(
        "opencode-revert-pending",
        HOST,
        ("O1", "O3"),
        "the user reverted to the prompt before a compaction; until the next prompt deletes"
        " them, its messages are in the store and count; one reboot",
        ("OPC-13", "RBT-4"),
        ("opencode-revert", "opencode-pair"),
        _one(OcPrompt(1), OcPrompt(1), MANUAL, OcPrompt(1), OcRevert(1), seed=16),
    ),
    Scenario(
        "opencode-several-sessions",
        HOST,
        ("O1", "O2"),
        "three sessions in one store; the named one compacted once; one reboot",
        ("OPC-11",),
        ("opencode-several-sessions", "opencode-pair"),
        _several,
    ),
    Scenario(
        "opencode-unknown-session",
        HOST,
        ("O1", "O3"),
        "the named session is not in the store: rejected",
        ("OPC-11", "ERR-15", "ERR-10"),
        ("opencode-unknown-session", "rejection"),
        _missing,
    ),
    Scenario(
        "opencode-wal-only",
        HOST,
        ("O2", "O3"),
        "the second compaction is committed only in opencode.db-wal; two reboots",
        ("OPC-12",),
        ("opencode-wal", "opencode-pair"),
        _one(OcPrompt(1), MANUAL, OcPrompt(1), AUTO, OcPrompt(1), damage="wal-only", seed=10),
    ),
    Scenario(
        "opencode-wal-torn",
        HOST,
        ("O3",),
        "the last summary's finishing write is cut short in the WAL, so it never finished;"
        " one reboot",
        ("OPC-12", "OPC-6"),
        ("opencode-wal", "opencode-pair"),
        _one(OcPrompt(1), AUTO, OcPrompt(1), MANUAL, damage="wal-torn", seed=11),
    ),
    Scenario(
        "opencode-truncated-db",
        HOST,
        ("O2",),
        "a database cut after its first page: rejected",
        ("OPC-12", "ERR-12", "ERR-10"),
        ("opencode-damaged-store", "rejection"),
        _one(OcPrompt(2), MANUAL, OcPrompt(1), damage="truncated", seed=12),
    ),
    Scenario(
        "opencode-not-a-database",
        HOST,
        ("O3",),
        "a file with SQLite's header and nothing SQLite can read after it: rejected",
        ("OPC-12", "ERR-12", "ERR-10"),
        ("opencode-damaged-store", "rejection"),
        _one(OcPrompt(1), damage="not-a-database", seed=13),
    ),
    Scenario(
        "opencode-torn-json",
        HOST,
        ("O1",),
        "a message file of the session cut short while it was written: rejected",
        ("OPC-12", "ERR-12", "ERR-10"),
        ("opencode-damaged-store", "rejection"),
        _one(OcPrompt(1), MANUAL, OcPrompt(1), damage="torn-json", seed=14),
    ),
    Scenario(
        "opencode-hostile-values",
        HOST,
        ("O2", "O3"),
        "rows of other JSON types and members of other types; one odd pair counts by"
        " JavaScript's truthiness, beside a real one; two reboots",
        ("OPC-12",),
        ("opencode-hostile-values", "opencode-pair"),
        _one(OcPrompt(1), MANUAL, OcOdd(), OcPrompt(1), seed=15),
    ),
    # -- Kilo (spec/hosts/kilo.md): opencode's writer model with Kilo's differences --------
    Scenario(
        "kilo-pair",
        KILO,
        ("K0", "K1"),
        "Kilo: a /compact pair and an automatic pair, each with a finished summary; two reboots",
        KILO_RULES,
        ("kilo-database", "opencode-pair"),
        _one(OcPrompt(2), MANUAL, OcPrompt(1), AUTO, OcPrompt(1), seed=52),
    ),
    Scenario(
        "kilo-failed-rerun",
        KILO,
        ("K0", "K1"),
        "Kilo: a failed pair keeps its error; the next prompt's re-run summary replaces nothing;"
        " then a finished pair; one reboot",
        (*KILO_RULES, "OPC-6"),
        ("kilo-database", "opencode-pair", "opencode-failed-compaction", "opencode-rerun-summary"),
        _one(
            OcPrompt(1),
            OcCompact("auto", "failed", rerun=True),
            OcPrompt(1),
            OcPrompt(1),
            MANUAL,
            OcPrompt(1),
            seed=54,
        ),
    ),
    Scenario(
        "kilo-fork-own",
        KILO,
        ("K1",),
        "Kilo: a fork copies its source's two pairs, then compacts once itself; one reboot",
        (*KILO_RULES, "OPC-9", "RBT-3"),
        ("kilo-database", "opencode-fork-copy", "opencode-pair"),
        _fork((OcPrompt(1), AUTO, OcPrompt(1)), seed=55),
    ),
    Scenario(
        "kilo-named-opencode",
        KILO,
        ("K0", "K1"),
        "a Kilo store saved as opencode.db (K0: opencode 1.2's very tables): its sessions'"
        " Kilo versions make it Kilo's; two reboots, host kilo",
        KILO_RULES,
        ("kilo-database", "family-near-miss", "opencode-pair"),
        _renamed("opencode.db", seed=56),
        comment="KLO-1: the name is never read; a counter that reads opencode.db as opencode's"
        " answers host opencode with Kilo's 7.x as its version.",
    ),
    Scenario(
        "opencode-named-kilo",
        HOST,
        ("O2", "O3"),
        "an opencode store saved as kilo.db: its sessions' opencode versions and no Kilo table"
        " make it opencode's; two reboots, host opencode",
        ("KLO-1",),
        ("family-near-miss", "opencode-pair"),
        _renamed("kilo.db", seed=57),
        comment="KLO-1: the name is never read; a counter that reads kilo.db as Kilo's answers"
        " host kilo.",
    ),
    Scenario(
        "kilo-both-marks",
        KILO,
        ("K1",),
        "an opencode 1.18 session, a Kilo 7.7 session and Kilo's tables in one store: the"
        " content names both hosts; rejected",
        ("KLO-1", "HST-4", "ERR-13", "ERR-10"),
        ("family-near-miss", "rejection"),
        _both,
        comment="KLO-1: Kilo's KILO_DB pointed at an opencode.db; a database whose rows carry"
        " both members' marks is attributed to neither (E-HOST), whichever session is asked"
        " about.",
    ),
    Scenario(
        "kilo-no-marks",
        KILO,
        ("K0",),
        "a store whose one session has a development build's version and no Kilo table: the"
        " content names neither host; rejected",
        ("KLO-1", "HST-4", "ERR-13", "ERR-10"),
        ("family-near-miss", "rejection"),
        _neither,
        comment="KLO-1: neither member's marks: E-HOST, never a made-up host.",
    ),
)
