"""`rebootspec add-fixture SESSION ...`: a contributed session becomes a corpus case.

The person states the expected outcome (FIXTURES.md: expectations come from a person, never
from running a counter). This tool copies the file byte for byte under a fresh case ID, writes
`case.toml`, validates it against spec/case.schema.json, and shows the reference's `explain`
timeline next to the stated expectation (the reference comes in as a `ReferenceView`, see
generators/view.py: this package never imports it). When they disagree it refuses (exit 3) unless
`--force`: then either the expectation is wrong, or the reference is, and the pull request
must say which.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...fixtures import CORPUS_DIR
from ..hosts.vscode.eras import eras
from ..usage import UsageParser, os_reason, shown
from ..view import HostView, ReferenceView
from . import casefile
from .add_inputs import Inputs, case_digest, inputs_of
from .ids import new_id, taken

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_REFUSED = 3
# Byte patterns that a real, un-anonymized session holds and an anonymized one cannot
# (the anonymizer leaves no `/` or `\` in any replaced string).
PRIVATE_HINTS = (b"file:///", b"/Users/", b"/home/", b"C:\\\\", b"vscode-remote://")


@dataclass
class Expectation:
    """What the person says the outcome is."""

    reboots: int | None = None
    error: str | None = None
    line: int | None = None

    def as_toml_table(self) -> dict[str, Any]:
        if self.reboots is not None:
            return {"outcome": "count", "reboots": self.reboots}
        return {"outcome": "reject", "error": self.error, "line": self.line}

    def describe(self) -> str:
        if self.reboots is not None:
            return f"reboots {self.reboots}"
        return f"rejected with {self.error} at line {self.line}"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="rebootspec add-fixture",
        description="Add an (anonymized) session to the corpus with a hand-written expectation.",
        epilog="example: rebootspec add-fixture /tmp/new-era.jsonl --title 'two compactions, "
        "one summary each' --rules CNT-2 --tags aba --era compacted --expect-reboots 2",
    )
    parser.add_argument(
        "session",
        type=Path,
        help="the session: a .jsonl or .json log, a chat-loop .md file (its chain comes "
        "along), an opencode database or storage folder",
    )
    parser.add_argument("--session", dest="session_id", help="opencode: the session asked about")
    parser.add_argument("--title", required=True, help="what the case shows (no 'should')")
    parser.add_argument("--rules", required=True, help="comma-separated rule IDs, e.g. RPL-7,CNT-2")
    parser.add_argument("--tags", required=True, help="comma-separated tags from spec/tags.toml")
    parser.add_argument(
        "--era",
        required=True,
        help="an era of the file's host (spec/hosts.toml; VS Code's: spec/eras.toml), or \"none\"",
    )
    expect = parser.add_mutually_exclusive_group(required=True)
    expect.add_argument("--expect-reboots", type=int, metavar="N", help="the count you expect")
    expect.add_argument("--expect-reject", metavar="E-CODE", help="the error code you expect")
    parser.add_argument("--line", type=int, help="with --expect-reject: the offending line")
    parser.add_argument("--author", default="anonymous", help="your name for the provenance")
    parser.add_argument(
        "--hand-written",
        action="store_true",
        help="the file was written by hand, not anonymized (provenance author:NAME)",
    )
    parser.add_argument("--comment", default="", help="free text for hard cases")
    parser.add_argument("--fixtures", type=Path, default=CORPUS_DIR, help=argparse.SUPPRESS)
    parser.add_argument(
        "--force",
        action="store_true",
        help="write the case although the reference disagrees or the file looks private",
    )
    return parser


def in_checkout(fixtures: Path) -> bool:
    """Whether `fixtures` is the corpus of a rebootspec checkout (its folder holds the project's
    pyproject.toml), not the copy an installed wheel carries in site-packages: a case written
    there would be lost with the next install and break `rebootspec run` (unpinned snapshots)."""
    project = fixtures.resolve().parent / "pyproject.toml"
    try:
        text = project.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return 'name = "rebootspec"' in text


def case_with(fixtures: Path, wanted: str) -> str | None:
    """The id of a case whose input has the digest `wanted` (the same input), or None."""
    for case in sorted(fixtures.glob("*/case.toml")):
        try:
            if case_digest(case.parent) == wanted:
                return case.parent.name
        except OSError:
            continue
    return None


def known_rules() -> set[str] | None:
    """Rule IDs a case may cite (SPEC.md and PROTOCOL.md headings).

    None when there is no SPEC.md (then any well-formed ID is accepted).
    """
    return casefile.citable_rules() if casefile.spec_rules() else None


def _split(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _problems(args: argparse.Namespace, rules: list[str], tags: list[str]) -> list[str]:
    problems = []
    found = inputs_of(args.session)
    if isinstance(found, str):
        problems.append(found)
    if args.expect_reject is not None:
        codes = casefile.error_codes()
        if args.expect_reject not in codes:
            problems.append(f"--expect-reject {args.expect_reject}: not one of {codes}")
        if args.line is None:
            problems.append("--expect-reject needs --line N (0: the whole file)")
    elif args.line is not None:
        problems.append("--line goes with --expect-reject only")
    unknown_tags = sorted(set(tags) - set(casefile.known_tags()))
    if unknown_tags:
        problems.append(f"unknown tags {unknown_tags}: use spec/tags.toml (or add one there)")
    defined = known_rules()
    if defined is not None and set(rules) - defined:
        problems.append(
            f"rules not in spec/SPEC.md or spec/PROTOCOL.md: {sorted(set(rules) - defined)}"
        )
    for name, text in (
        ("--title", args.title),
        ("--comment", args.comment),
        ("--author", args.author),
    ):
        if not _is_text(text):
            problems.append(f"{name}: not valid UTF-8 text")
    known = host_eras()
    if args.era != "none" and not any(args.era in ids_ for ids_ in known.values()):
        listed = "; ".join(f"{host}: {', '.join(ids_)}" for host, ids_ in known.items())
        problems.append(
            f"era {args.era!r} is no host's era ({listed}; or none): add the era first "
            "(spec/hosts.toml, or spec/eras.toml for VS Code; CONTRIBUTING.md)"
        )
    return problems


def host_eras() -> dict[str, list[str]]:
    """HST-1: every host's eras, from the registry's table: VS Code's are the rows of
    spec/eras.toml (ERA-1), every other host's the `eras` of its row of spec/hosts.toml."""
    out: dict[str, list[str]] = {}
    for host, row in casefile.host_table().items():
        if host == casefile.DEFAULT_HOST:
            out[host] = [era.id for era in eras()]
        else:
            out[host] = [str(era) for era in row.get("eras", [])]
    return out


def era_problem(era: str, host: str) -> str | None:
    """The era given is not one of the host's (known once the reference has read the file)."""
    own = host_eras().get(host)
    if era == "none" or own is None or era in own:
        return None
    return f"era {era!r} is not one of {host}'s ({', '.join(own)}; or none)"


def _is_text(text: str) -> bool:
    """Arguments arrive with undecodable bytes as lone surrogates; case.toml must be UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def private_hint(data: bytes) -> str | None:
    """A sign that the file was not anonymized, or None."""
    for hint in PRIVATE_HINTS:
        where = data.find(hint)
        if where >= 0:
            return f"{hint.decode()!r} at byte {where}"
    return None


def answer_expectation(answer: dict[str, Any]) -> Expectation:
    """The reference's answer (generators/view.py) as an expectation like the person's."""
    if answer["outcome"] == "reject":
        return Expectation(error=answer["error"], line=answer["line"])
    return Expectation(reboots=answer["reboots"])


def case_table(
    args: argparse.Namespace, case_id: str, rules: list[str], tags: list[str], found: Inputs
) -> dict[str, Any]:
    provenance = ("author:" if args.hand_written else "anonymized:") + args.author
    table: dict[str, Any] = {
        "id": case_id,
        "title": args.title,
        "rules": rules,
        "tags": tags,
        "era": args.era,
        "container": found.container,
    }
    if found.input is not None:
        table["input"] = found.input
    if args.session_id is not None:
        table["session"] = args.session_id
    table["provenance"] = provenance
    if args.comment:
        table["comment"] = args.comment
    table["expect"] = expectation_of(args).as_toml_table()
    return table


def with_host(table: dict[str, Any], host: str) -> dict[str, Any]:
    """The table with `host` right after `title` (spec/FIXTURES.md's order)."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        out[key] = value
        if key == "title":
            out["host"] = host
    return out


def expectation_of(args: argparse.Namespace) -> Expectation:
    if args.expect_reboots is not None:
        return Expectation(reboots=args.expect_reboots)
    return Expectation(error=args.expect_reject, line=args.line)


NEXT_STEPS = """\
next steps:
  1. read fixtures/{id}/case.toml; sharpen the title (what the case shows, no "should")
  2. if the marker text is new: add the era row to spec/eras.toml, then rebuild the
     generated cases: python -m rebootspec.generators build
  3. pin the outcome: tox -e conformance -- --snapshot-update   (review the snapshot diff)
  4. check: tox -e lint,corpus   then   tox
  5. open a pull request: say where the log came from (VS Code and Copilot Chat versions)
     and why you expect this outcome
"""


def cli(argv: list[str], reference: ReferenceView, hosts: HostView | None = None) -> int:
    """Run `add-fixture`; 0 written, 2 usage error, 3 refused (disagreement or private).

    `reference` gives the reference's answer and timeline for the file (generators/view.py);
    `hosts` counts a folder container's session (a store's session named by `--session`).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    fixtures: Path = args.fixtures
    if fixtures == CORPUS_DIR and not in_checkout(fixtures):
        sys.stderr.write(
            "error: run this in a rebootspec checkout (git clone, then pip install -e .): "
            "an installed copy's corpus is not the place for a new case\n"
        )
        return EXIT_USAGE
    rules, tags = _split(args.rules), _split(args.tags)
    problems = _problems(args, rules, tags)
    if problems:
        for problem in problems:
            sys.stderr.write(f"error: {shown(problem)}\n")
        return EXIT_USAGE
    found = inputs_of(args.session)
    assert not isinstance(found, str)  # _problems said so otherwise
    try:
        data = found.data()
    except OSError as failure:
        sys.stderr.write(f"error: {shown(args.session)}: cannot read: {os_reason(failure)}\n")
        return EXIT_USAGE
    hint = None if args.hand_written else private_hint(data)
    if hint is not None and not args.force:
        sys.stderr.write(
            f"REFUSED: {shown(args.session)} does not look anonymized ({shown(hint)}).\n"
            "  run `rebootspec anonymize IN OUT` first; for a hand-written file "
            "use --hand-written\n"
        )
        return EXIT_REFUSED
    same = case_with(fixtures, found.digest)
    if same is not None:
        sys.stderr.write(f"REFUSED: {shown(args.session)} holds the same bytes as case {same}\n")
        return EXIT_REFUSED
    case_id = new_id(taken(fixtures))
    table = case_table(args, case_id, rules, tags, found)
    table = {"id": case_id, "name": casefile.free_name(table, fixtures)} | table
    errors = casefile.schema_problems(table, root="case")
    if errors:
        for problem in errors:
            sys.stderr.write(f"error: case.toml: {shown(problem)}\n")
        return EXIT_USAGE
    mine = expectation_of(args)
    try:
        if found.input is not None and hosts is not None:  # a folder container (a store)
            answer = hosts.count(args.session, args.session_id)
            timeline = f"{answer.get('host', '?')}: {answer_expectation(answer).describe()}\n"
        else:
            answer, timeline = reference(args.session)
        theirs = answer_expectation(answer)
    except Exception as failure:  # a bug in the reference: say so, write nothing
        sys.stderr.write(
            f"error: the reference failed on {shown(args.session)}: {shown(repr(failure))}\n"
        )
        return EXIT_REFUSED
    host = answer.get("host")
    wrong_era = era_problem(args.era, host if isinstance(host, str) else casefile.DEFAULT_HOST)
    if wrong_era is not None:
        sys.stderr.write(f"error: {shown(wrong_era)}\n")
        return EXIT_USAGE
    if isinstance(host, str) and host != "vscode":  # HST-1: a case of another host names it
        table = with_host(table, host)
        table["name"] = casefile.free_name(table, fixtures)  # its name starts with its host
    print(f"the reference's view of {shown(args.session)}:")
    print(timeline, end="")
    print(f"your expectation:   {mine.describe()}")
    print(f"the reference says: {theirs.describe()}")
    if mine != theirs:
        if not args.force:
            sys.stderr.write(
                "REFUSED: your expectation and the reference disagree; nothing was written.\n"
                "  check the timeline above. If the reference is wrong, rerun with --force and\n"
                "  explain why in --comment and in the pull request.\n"
            )
            return EXIT_REFUSED
        sys.stderr.write(
            "WARNING: writing a case the reference disagrees with (--force): the conformance\n"
            "  suite will fail for the reference until the spec or the reference changes.\n"
        )
    try:
        _write_case(fixtures / case_id, found, table)
    except OSError as failure:
        sys.stderr.write(
            f"error: {shown(fixtures / case_id)}: {os_reason(failure)}; nothing was written\n"
        )
        return EXIT_USAGE
    what = "input/" if found.input is not None else f"session.{found.container}"
    print(f"wrote {shown(fixtures / case_id)}/ ({what}, case.toml)")
    print(NEXT_STEPS.format(id=case_id), end="")
    return EXIT_OK


def _write_case(folder: Path, found: Inputs, table: dict[str, Any]) -> None:
    """Create the case folder (never over an existing one) with both files, or nothing at all.

    Both files are written into a private temporary folder beside it, which is then renamed
    into place in one step; any failure removes that temporary folder and leaves the corpus as
    it was.
    """
    text = casefile.render(table)
    if tomllib.loads(text) != table:  # the writer's own check: what is read is what was meant
        raise AssertionError(f"case.toml does not round-trip:\n{text}")
    if folder.exists() or folder.is_symlink():
        raise FileExistsError(errno.EEXIST, "the case folder exists", str(folder))
    staging = Path(
        tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".partial", dir=folder.parent)
    )
    try:
        if found.input is None:
            (source,) = found.files.values()
            shutil.copyfile(source, staging / f"session.{found.container}")
        for name, source in found.files.items() if found.input is not None else ():
            place = staging / casefile.INPUT_FOLDER / name
            place.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, place)
        (staging / casefile.CASE_FILE).write_text(text, encoding="utf-8", newline="\n")
        os.rename(staging, folder)  # fails if the folder appeared meanwhile (non-empty target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
