"""`python -m rebootspec.generators build`: writes the generated cases into fixtures/, or checks.

Only folders whose case.toml says `provenance = "generator:..."` are ever written or removed;
hand-written cases are left alone. A generated folder that no scenario makes any more is
removed and its ID retired (appended to fixtures/retired.txt), so it is never used again.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Protocol, TextIO

from . import casefile, ids
from .cases import all_cases, missing_ids


class Case(Protocol):
    """What the build needs of a case (`cases.Case`, or a test's stand-in).

    A case of one input file names it (`file_name`, `data`); a case whose input is a folder of
    files (spec/FIXTURES.md, "Inputs of several files") also has `files()`, every input file
    by its path relative to the case folder, which `case_files` then uses instead.
    """

    @property
    def id(self) -> str: ...

    @property
    def file_name(self) -> str: ...

    @property
    def data(self) -> bytes: ...

    def toml(self) -> str: ...


def every_missing_id() -> list[str]:
    """The (scenario, era) keys of every host that have no ID yet."""
    return missing_ids()


def every_case(only: str | None) -> list[Case]:
    """Every host's cases, VS Code's first (`hosts/registry.py`)."""
    return list(all_cases(only))


GITATTRIBUTES = (
    b"# Fixtures are byte-exact: git must never touch line ends or encodings.\n* -text\n"
)


def case_files(case: Case) -> dict[str, bytes]:
    """The case's input files by their path relative to its folder (`session.jsonl`, or the
    files under `input/` of a folder container)."""
    several = getattr(case, "files", None)
    if several is not None:
        return dict(several())
    return {case.file_name: case.data}


def expected_files(cases: list[Case]) -> dict[Path, bytes]:
    """Every file a fresh build writes, relative to fixtures/."""
    files: dict[Path, bytes] = {Path(".gitattributes"): GITATTRIBUTES}
    for case in cases:
        files[Path(case.id) / casefile.CASE_FILE] = case.toml().encode("utf-8")
        for name, data in case_files(case).items():
            files[Path(case.id) / name] = data
    return files


def _files_under(folder: Path) -> list[Path]:
    """Every file (and link) under a case folder, sorted, as paths relative to fixtures/."""
    return sorted(
        path.relative_to(folder.parent)
        for path in folder.rglob("*")
        if path.is_file() or path.is_symlink()
    )


def generated_folders(fixtures: Path) -> list[Path]:
    if not fixtures.is_dir():
        return []
    return sorted(
        p
        for p in fixtures.iterdir()
        if p.is_dir() and (casefile.provenance(p) or "").startswith("generator:")
    )


def differences(fixtures: Path, cases: list[Case], whole: bool) -> list[str]:
    """What differs between fixtures/ and a fresh build (empty when they agree)."""
    wanted = expected_files(cases)
    problems = []
    for relative, data in wanted.items():
        path = fixtures / relative
        if not path.exists():
            problems.append(f"missing: {relative}")
        elif path.read_bytes() != data:
            problems.append(f"differs: {relative}")
    case_ids = {case.id for case in cases}
    for folder in generated_folders(fixtures):
        if whole and folder.name not in case_ids:
            problems.append(f"stale generated case: {folder.name} (no scenario makes it)")
        elif folder.name in case_ids:
            for relative in _files_under(folder):
                if relative not in wanted:
                    problems.append(f"extra file: {relative.as_posix()}")
    return problems


def write(fixtures: Path, cases: list[Case], whole: bool, out: TextIO) -> int:
    """Write the cases; remove and retire stale generated folders (only in a whole build)."""
    for folder in (fixtures / case.id for case in cases):
        existing = casefile.provenance(folder)
        if folder.exists() and not (existing or "").startswith("generator:"):
            out.write(f"error: fixtures/{folder.name} is not a generated case; not overwritten\n")
            return 1
    fixtures.mkdir(parents=True, exist_ok=True)
    for relative, data in expected_files(cases).items():
        path = fixtures / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    case_ids = {case.id for case in cases}
    if whole:
        retired = []
        for folder in generated_folders(fixtures):
            if folder.name not in case_ids:
                shutil.rmtree(folder)
                retired.append(folder.name)
        if retired:
            with (fixtures / "retired.txt").open("a", encoding="utf-8") as handle:
                handle.writelines(f"{case_id}\n" for case_id in retired)
            out.write(f"retired {len(retired)} stale generated cases: {', '.join(retired)}\n")
    wanted = expected_files(cases)
    for case in cases:
        for relative in _files_under(fixtures / case.id):
            if relative not in wanted:
                (fixtures / relative).unlink()
        for folder in sorted((fixtures / case.id).rglob("*"), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()  # a folder of the input that no file is in any more
    out.write(f"wrote {len(cases)} generated cases into {fixtures}\n")
    return 0


def assign_ids(out: TextIO) -> None:
    """Choose fresh random IDs for (scenario, era) pairs that have none (a new era or scenario)."""
    missing = every_missing_id()
    if not missing:
        return
    used = ids.taken()
    chosen = {}
    for key in missing:
        chosen[key] = ids.new_id(used)
        used.add(chosen[key])
    ids.append_registry(chosen)
    for key, value in chosen.items():
        out.write(f"new case ID {value} for {key} (recorded in generators/case_ids.toml)\n")


def main(check: bool, only: str | None, assign: bool, fixtures: Path = ids.FIXTURES) -> int:
    out = sys.stdout
    if assign:
        assign_ids(out)
    missing = every_missing_id()
    if missing:
        sys.stderr.write(
            f"error: {len(missing)} scenario/era pairs have no case ID: {', '.join(missing)}; "
            "run `python -m rebootspec.generators build --assign-ids` once to choose them\n"
        )
        return 1
    retired = set(ids.retired(fixtures / "retired.txt"))
    reused = sorted(retired & set(ids.registry().values()))
    if reused:
        sys.stderr.write(f"error: retired IDs in generators/case_ids.toml: {', '.join(reused)}\n")
        return 1
    cases = every_case(only)
    if only is not None and not cases:
        sys.stderr.write(f"error: no generated case has ID {only}\n")
        return 2
    whole = only is None
    if not check:
        return write(fixtures, cases, whole, out)
    problems = differences(fixtures, cases, whole)
    for problem in problems:
        out.write(problem + "\n")
    if problems:
        out.write(f"{len(problems)} differences: run `python -m rebootspec.generators build`\n")
        return 1
    out.write(f"{len(cases)} generated cases match a fresh build\n")
    return 0
