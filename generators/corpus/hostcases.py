"""From a Codex, pi, Claude Code or Gemini CLI (scenario, era) pair to a case: its bytes and
its case.toml metadata.

The host scenarios live in `hosts/scenarios.py`; their writers in `hosts/codex.py`,
`hosts/pi.py` and `hosts/claude_code.py`. The expectation comes from the plan
(`hosts.plan.expected_reboots`) or from the rejection the plan's content calls for; the bytes
are never read back to decide it. The case.toml layout is the VS Code cases' with a `host` key
right after `title`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hosts.chat_loop import writer as chat_loop
from ..hosts.chat_loop.writer import ChatPlan
from ..hosts.claude_code import writer as claude_code
from ..hosts.codex import writer as codex
from ..hosts.gemini_cli import writer as gemini
from ..hosts.pi import writer as pi
from ..hosts.plan import (
    ClaudePlan,
    CodexPlan,
    GemPlan,
    PiPlan,
    codex_all_compactions,
    expected_reboots,
)
from ..hosts.scenarios import SCENARIOS, HostScenario
from . import casefile, ids


@dataclass
class HostCase:
    """One generated Codex, pi, Claude Code or host-less case, ready for fixtures/<id>/."""

    id: str
    scenario: HostScenario
    era: str
    data: bytes
    expect: dict[str, Any]
    note: str
    inputs: dict[str, bytes] | None = None  # a folder container: the files of input/ by name
    input_name: str | None = None  # the one of them the candidate is given (`input`)

    @property
    def key(self) -> str:
        return f"{self.scenario.name}/{self.era}"

    @property
    def container(self) -> str:
        """`json` for a whole-file Gemini CLI chat (GEM-1, era J0); `markdown` for a folder of
        basic-agent-chat-loop sessions (BCL-4); `jsonl` for every other."""
        if self.inputs is not None:
            return "markdown"
        return "json" if self.scenario.host == "gemini-cli" and self.era == "J0" else "jsonl"

    def files(self) -> dict[str, bytes]:
        """The input files by their path in the case folder (spec/FIXTURES.md)."""
        if self.inputs is None:
            return {self.file_name: self.data}
        return {f"{casefile.INPUT_FOLDER}/{name}": data for name, data in self.inputs.items()}

    @property
    def file_name(self) -> str:
        return f"session.{self.container}"

    @property
    def provenance(self) -> str:
        return f"generator:{self.scenario.name}/era={self.era}/seed=1"

    def table(self) -> dict[str, Any]:
        """The case.toml table: the VS Code layout plus `host` after `title` (HST-1)."""
        table: dict[str, Any] = {"id": self.id, "title": self.scenario.title}
        if self.scenario.host is not None:
            table["host"] = self.scenario.host
        rules = {*self.scenario.base_rules(), *self.scenario.rules}
        if self.expect["outcome"] == "reject":
            rules -= {"OUT-4"}
        table["rules"] = sorted(rules, key=_rule_sort)
        table["tags"] = sorted(self.scenario.tags)
        table["era"] = self.era
        table["container"] = self.container
        if self.input_name is not None:
            table["input"] = self.input_name
        table["provenance"] = self.provenance
        comment = " ".join(t for t in (self.scenario.comment, self.note) if t)
        table["comment"] = comment
        table["expect"] = self.expect
        return table

    def toml(self) -> str:
        return casefile.render(self.table())


def _rule_sort(rule: str) -> tuple[str, int]:
    prefix, number = rule.split("-")
    return prefix, int(number)


def plan_of(
    scenario: HostScenario, era: str
) -> CodexPlan | PiPlan | ClaudePlan | GemPlan | ChatPlan | None:
    return scenario.plan(era) if scenario.plan is not None else None


def render(plan: CodexPlan | PiPlan | ClaudePlan | GemPlan) -> tuple[bytes, int | None]:
    """The plan's file, and the line of the value the plan made too deep (if any)."""
    if isinstance(plan, GemPlan):
        return gemini.play(plan).bytes(), None
    if isinstance(plan, CodexPlan):
        rollout = codex.play(plan)
        return rollout.bytes(), rollout.reject_line
    if isinstance(plan, ClaudePlan):
        return claude_code.play(plan).bytes(), None
    session = pi.play(plan)
    data = session.bytes()
    if plan.torn:
        data += pi.torn_tail(session)
    return data, session.reject_line()


def plan_note(plan: CodexPlan | PiPlan | ClaudePlan | GemPlan) -> str:
    """What the plan holds, in the comment: own and inherited compactions."""
    own = expected_reboots(plan)
    if isinstance(plan, GemPlan):
        return f"plan: {own} completed compressions."
    if isinstance(plan, CodexPlan):
        inherited = codex_all_compactions(plan) - own
    else:
        inherited = expected_reboots(plan.copy.parent) if plan.copy else 0
    note = f"plan: {own} own completed compactions"
    return note + (f", {inherited} inherited (copied, not counted)." if inherited else ".")


def generate_chat_loop(scenario: HostScenario, plan: ChatPlan, case_id: str) -> HostCase:
    """A basic-agent-chat-loop case: the plan's session folder, the asked file, the plan's
    answer (BCL-4, BCL-6), never read back from the files."""
    folder = chat_loop.play(plan)
    name = folder.name_of(plan.ask)
    inputs = folder.output()
    outcome, value = chat_loop.expected(plan)
    expect: dict[str, Any]
    if outcome == "count":
        expect = {"outcome": "count", "reboots": value}
    else:
        # ERR-16: E-CHAIN names the asked file's `**Resumed From:**` line (BCL-6); E-HOST and
        # E-EMPTY the whole file (BCL-1).
        line = chat_loop.RESUMED_FROM_LINE if value == "E-CHAIN" else 0
        expect = {"outcome": "reject", "error": value, "line": line}
    if scenario.reject is not None:
        assert scenario.reject == value, f"{scenario.name}: the plan says {value}"
    note = f"plan: {outcome} {value}; the folder holds {len(inputs)} files."
    return HostCase(case_id, scenario, plan.era, inputs[name], expect, note, inputs, name)


def generate(scenario: HostScenario, era: str, case_id: str) -> HostCase:
    plan = plan_of(scenario, era)
    if isinstance(plan, ChatPlan):
        return generate_chat_loop(scenario, plan, case_id)
    note = ""
    line: int | None = None
    if plan is None:
        data = scenario.raw or b""
    else:
        data, line = render(plan)
        note = plan_note(plan)
    expect: dict[str, Any]
    if scenario.reject is None:
        assert plan is not None, scenario.name
        expect = {"outcome": "count", "reboots": expected_reboots(plan)}
    else:
        # ERR-10: the line of the value at fault, 0 when the whole file is (E-HOST, E-EMPTY,
        # E-UNMEASURABLE).
        at = line if scenario.reject == "E-LIMIT" else 0
        if at is None:
            raise ValueError(f"{scenario.name}/{era}: E-LIMIT but the plan holds no deep value")
        expect = {"outcome": "reject", "error": scenario.reject, "line": at}
    return HostCase(case_id, scenario, era, data, expect, note)


def pairs() -> list[tuple[HostScenario, str]]:
    return [(s, era) for s in SCENARIOS for era in s.eras]


def missing_ids() -> list[str]:
    return ids.missing_keys(pairs())


def all_cases(only: str | None = None) -> list[HostCase]:
    return ids.registered_cases(pairs(), generate, only)
