"""`python -m rebootspec.generators lint`: the corpus is consistent with the spec.

Checks every case folder (generated and hand-written): the ID matches the folder, is well
formed and not retired; case.toml is valid against spec/case.schema.json; the input file named by
`container` is there; era, tags and rules exist. Then coverage: every rule of spec/SPEC.md has a
case and every tag of spec/tags.toml is used; every rule a tag lists exists in SPEC.md and is
cited by some case with that tag. Prints the rule -> cases table. The metadata itself is read
through `casefile`, the one owner of case.toml, tags and rules.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, TextIO

from ..hosts.vscode.eras import eras
from . import casefile, ids

SPEC = casefile.SPEC
# Used only while spec/SPEC.md does not exist yet (the IDs of the common brief); lint fails then.
FALLBACK_RULES = (
    [f"RPL-{n}" for n in range(1, 11)]
    + [f"ERR-{n}" for n in range(1, 11)]
    + ["LEG-1", "LEG-2"]
    + [f"MRK-{n}" for n in range(1, 6)]
    + [f"SUM-{n}" for n in range(1, 6)]
    + [f"CNT-{n}" for n in range(1, 5)]
    + ["ERA-1", "ERA-2", "OUT-1", "OUT-2"]
)


# Rules that no corpus case can show, and the test that checks them instead. A corpus case is a
# regular file in git, so a FIFO, a device or a directory can only be made by a test.
NOT_IN_CORPUS = {
    "ERR-12": "(tests/hostile/test_reference_hostile.py: a FIFO, /dev/zero, a directory)",
}


def spec_rules(spec: Path = SPEC) -> tuple[list[str], bool]:
    """Rule IDs from SPEC.md headings (`### RPL-4 ...`), and whether SPEC.md exists."""
    if not (spec / "SPEC.md").exists():
        return list(FALLBACK_RULES), False
    return casefile.spec_rules(spec), True


protocol_rules = casefile.protocol_rules
known_tags = casefile.known_tags


def _generated(folder: Path) -> bool:
    return (casefile.provenance(folder) or "").startswith("generator:")


def _rule_key(rule: str) -> tuple[str, int]:
    prefix, number = rule.split("-")
    return prefix, int(number)


class Lint:
    def __init__(self, fixtures: Path, spec: Path) -> None:
        self.fixtures = fixtures
        self.spec = spec
        self.errors: list[str] = []
        self.by_rule: dict[str, list[str]] = defaultdict(list)
        self.by_tag: dict[str, list[str]] = defaultdict(list)
        self.rules, self.has_spec = spec_rules(spec)
        self.citable = set(self.rules) | set(protocol_rules(spec))
        self.tag_rules = casefile.tag_rules(spec)
        self.tags = list(self.tag_rules)
        self.cited_by_tag: dict[str, set[str]] = defaultdict(set)
        self.eras = {era.id for era in eras()} | {"none"}
        # HST-1: another host's eras are listed in spec/hosts.toml; VS Code's in eras.toml.
        self.host_eras = {
            name: set(row.get("eras", [])) | {"none"}
            for name, row in casefile.host_table(spec).items()
            if name != casefile.DEFAULT_HOST
        }
        self.retired = ids.retired(fixtures / "retired.txt")
        self.names: dict[str, str] = {}  # a case's readable name -> the first ID that has it

    def error(self, text: str) -> None:
        self.errors.append(text)

    def run(self) -> None:
        if not self.fixtures.is_dir():
            self.error(f"{self.fixtures} does not exist")
            return
        for name in self.retired:
            if not ids.is_id(name):
                self.error(f"retired.txt: {name!r} is not an ID")
        if len(set(self.retired)) != len(self.retired):
            self.error("retired.txt lists an ID twice")
        self.check_registry()
        for folder in sorted(self.fixtures.iterdir()):
            if ids.is_case_folder_name(folder):
                self.check_case(folder)

    def check_registry(self) -> None:
        table = ids.registry()
        seen: dict[str, str] = {}
        for key, case_id in table.items():
            if not ids.is_id(case_id):
                self.error(f"case_ids.toml: {key}: {case_id!r} is not an ID")
            if case_id in seen:
                self.error(f"case_ids.toml: {case_id} is used by {seen[case_id]} and {key}")
            seen[case_id] = key
            if case_id in self.retired:
                self.error(f"case_ids.toml: {key}: {case_id} is retired")
            folder = self.fixtures / case_id
            if (folder / casefile.CASE_FILE).exists() and not _generated(folder):
                self.error(f"case_ids.toml: {key}: {case_id} is the ID of a hand-written case")

    def check_case(self, folder: Path) -> None:
        where = f"fixtures/{folder.name}"
        if not ids.is_case_id(folder.name):
            self.error(f"{where}: the folder name is not an ID")
        if folder.name in self.retired:
            self.error(f"{where}: the ID is retired")
        if not (folder / casefile.CASE_FILE).is_file():
            self.error(f"{where}: no case.toml")
            return
        try:
            meta: dict[str, Any] = casefile.read_meta(folder)
        except casefile.CaseFileError as broken:
            self.error(f"{where}/case.toml: {broken.reason}")
            return
        for problem in casefile.schema_problems(meta, self.spec):
            self.error(f"{where}/case.toml: {problem}")
        if meta.get("id") != folder.name:
            self.error(f"{where}/case.toml: id {meta.get('id')!r} differs from the folder name")
        self.check_name(where, folder.name, meta.get("name"))
        container = meta.get("container")
        files = sorted(p.name for p in folder.iterdir() if p.name != casefile.CASE_FILE)
        # A real log keeps its licence notice beside the copy (spec/FIXTURES.md, "Real logs").
        wanted = [f"session.{container}"]
        if ids.is_realworld_id(folder.name):
            wanted = sorted([*wanted, "LICENSE"])
        if container in ("json", "jsonl") and files != wanted:
            named = " and ".join(wanted)
            self.error(f"{where}: expected exactly {named} beside case.toml, found {files}")
        host = meta.get("host", casefile.DEFAULT_HOST)
        if host != casefile.DEFAULT_HOST and host not in self.host_eras:
            self.error(f"{where}/case.toml: unknown host {host!r}")
        elif meta.get("era") not in self.host_eras.get(host, self.eras):
            self.error(f"{where}/case.toml: unknown era {meta.get('era')!r}")
        for tag in meta.get("tags", []):
            if tag not in self.tags:
                self.error(f"{where}/case.toml: unknown tag {tag!r}")
            self.by_tag[tag].append(folder.name)
            self.cited_by_tag[tag] |= set(meta.get("rules", []))
        for rule in meta.get("rules", []):
            if rule not in self.citable:
                self.error(f"{where}/case.toml: rule {rule} does not exist in the spec")
            self.by_rule[rule].append(folder.name)

    def check_name(self, where: str, case_id: str, name: object) -> None:
        """Every case has a readable name (spec/FIXTURES.md, "Names"), and no two share one:
        a name selects a case (`rebootspec run -k NAME`) as surely as its ID."""
        if not isinstance(name, str):
            self.error(f"{where}/case.toml: no name (a path-like name such as codex/fork/base)")
            return
        first = self.names.setdefault(name, case_id)
        if first != case_id:
            self.error(f"{where}/case.toml: name {name!r} is already the name of {first}")

    def coverage(self, out: TextIO) -> None:
        out.write("rule     cases\n")
        for rule in sorted(set(self.rules) | set(self.by_rule), key=_rule_key):
            cases = self.by_rule.get(rule, [])
            shown = " ".join(cases[:12]) + (
                f" ... ({len(cases)} in all)" if len(cases) > 12 else ""
            )
            elsewhere = NOT_IN_CORPUS.get(rule)
            out.write(f"{rule:<8} {shown or elsewhere or '-- no case --'}\n")
            if rule in self.rules and not cases and elsewhere is None:
                self.error(f"rule {rule} has no case")
        for tag in self.tags:
            if not self.by_tag.get(tag):
                self.error(f"tag {tag!r} of spec/tags.toml is used by no case")
        self.check_tag_rules()

    def check_tag_rules(self) -> None:
        """spec/tags.toml's rules: each a rule of SPEC.md, each shown by a case with the tag."""
        for tag, rules in self.tag_rules.items():
            where = f"spec/tags.toml: [{tag}] lists"
            for rule in rules:
                if rule not in self.rules:
                    self.error(f"{where} {rule}, not a rule of spec/SPEC.md")
                elif self.by_tag.get(tag) and rule not in self.cited_by_tag[tag]:
                    self.error(f"{where} {rule}, which no case with the tag cites")


def main(fixtures: Path = ids.FIXTURES, spec: Path = SPEC, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    lint = Lint(fixtures, spec)
    lint.run()
    lint.coverage(out)
    if not lint.has_spec:
        lint.error("spec/SPEC.md is missing: rule IDs came from the built-in list of the brief")
    cases = len([p for p in fixtures.iterdir() if p.is_dir()]) if fixtures.is_dir() else 0
    for text in lint.errors:
        out.write(f"error: {text}\n")
    if lint.errors:
        out.write(f"lint: {len(lint.errors)} problems in {cases} cases\n")
        return 1
    out.write(f"lint: {cases} cases, every rule and tag covered\n")
    return 0
