"""`rebootspec cases`: the corpus's cases, listed or exported for another harness.

A candidate author looks for the cases of a topic (`--tag phantom`, `-k codex/fork`) before
running them (`rebootspec run -k NAME`); a harness in another language takes the whole corpus
as plain files and one manifest (`rebootspec cases export DIR`, runner/export.py). The filters
are the same for both, so an export of one host's cases is `--host pi`.
"""

from __future__ import annotations

import argparse
import sys

import orjson

from ...reference.core.printable import printable
from ...reference.core.userio import shown
from ..options import OptionError, Settings, add_settings
from ..runner.corpus import Case, CorpusError, known_hosts, load_corpus
from ..runner.export import ExportError, export, manifest
from .usage import UsageParser, usage_error

PROG = "rebootspec cases"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG,
        description="List the corpus's cases: ID, name, host, tags and rules (filters combine: "
        "a case is listed when it passes each). `rebootspec cases export DIR` writes the "
        "selected cases as plain files plus DIR/manifest.json (spec/manifest.schema.json), "
        "for a harness in another language.",
        epilog="examples:\n  rebootspec cases --host codex --tag codex-fork-copy\n"
        "  rebootspec cases -k phantom --json\n  rebootspec cases export /tmp/corpus --host pi",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("action", nargs="?", choices=["export"], help="export the cases")
    parser.add_argument("folder", nargs="?", help="export: a new or empty folder")
    parser.add_argument("--host", action="append", default=[], help="only this host's cases")
    parser.add_argument("--tag", action="append", default=[], help="only cases with this tag")
    parser.add_argument("--rule", action="append", default=[], help="only cases citing it")
    parser.add_argument(
        "-k",
        dest="keyword",
        action="append",
        default=[],
        metavar="WORD",
        help="only cases whose ID, name, host, title or a tag contains WORD (any case)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object a line (JSON Lines, as `sessions --json`): each a case of the "
        "manifest's shape",
    )
    add_settings(parser.add_argument, ["corpus"])
    return parser


def selected(cases: list[Case], args: argparse.Namespace) -> list[Case]:
    """The cases that pass every filter given."""

    def keep(case: Case) -> bool:
        words = [case.id, case.name, case.host, case.title, *case.tags]
        text = "\n".join(words).lower()
        return (
            (not args.host or case.host in args.host)
            and all(tag in case.tags for tag in args.tag)
            and all(rule in case.rules for rule in args.rule)
            and all(word.lower() in text for word in args.keyword)
        )

    return [case for case in cases if keep(case)]


def listing(cases: list[Case]) -> str:
    """One line per case: `ID  name  host  tags  rules`, aligned; each field escaped (ERR-10:
    `--corpus` may name any folder, and its case.toml any text)."""
    rows = [
        [printable(text) for text in (case.id, case.name, case.host)]
        + [printable(",".join(words)) for words in (case.tags, case.rules)]
        for case in cases
    ]
    width = max((len(row[1]) for row in rows), default=4)
    hosts = max((len(row[2]) for row in rows), default=4)
    lines = [
        f"{ident:<4}  {name:<{width}}  {host:<{hosts}}  {tags}  {rules}"
        for ident, name, host, tags, rules in rows
    ]
    return "".join(line.rstrip() + "\n" for line in lines)


def cli(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.action is None and args.folder is not None:
        return usage_error(PROG, f"unexpected argument {args.folder!r}")
    if args.action == "export" and not args.folder:
        return usage_error(PROG, "export needs a folder: rebootspec cases export DIR")
    unknown = sorted(set(args.host) - set(known_hosts()))
    if unknown:
        return usage_error(PROG, f"unknown host {unknown[0]!r}; known: {', '.join(known_hosts())}")
    try:
        cases = load_corpus(Settings.of(args).corpus())
    except (OptionError, CorpusError) as error:
        return usage_error(PROG, str(error))
    if not cases:  # an empty folder given as --corpus: say which, not "the filters"
        return usage_error(PROG, f"{Settings.of(args).corpus()}: no case in this corpus folder")
    chosen = selected(cases, args)
    if not chosen:
        return usage_error(PROG, f"the filters select none of the {len(cases)} cases")
    if args.action == "export":
        from pathlib import Path

        try:
            path = export(chosen, Path(args.folder).expanduser())
        except ExportError as error:  # a refusal of what was named: exit 2, as anonymize's
            sys.stderr.write(f"error: {shown(str(error))}\n")
            return 2
        sys.stdout.write(f"wrote {len(chosen)} cases and {printable(str(path))}\n")
        return 0
    if args.json:
        inputs = {case.id: str(case.input) for case in chosen}
        # JSON Lines, one case a line: rows stream, as `sessions --json` (issue 46); the one
        # document with every case is `cases export`'s manifest.json.
        rows = manifest(chosen, inputs)["cases"]
        sys.stdout.write("".join(orjson.dumps(row).decode() + "\n" for row in rows))
        return 0
    sys.stdout.write(listing(chosen))
    return 0
