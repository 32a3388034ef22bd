"""`python -m conformance run|smoke|compare|fuzz`: the command line over the plugin's engine.

`run` is pytest (the plugin) with the package as the test path, so there is only one runner;
`smoke` runs five cases without pytest; `compare` diffs two report.json files and is the
release gate (exit 1 when something newly broke); `fuzz` hands a candidate's author the
smallest random session it gets wrong (conformance/fuzz.py). Exit 2 is a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance import DEFAULT_CORPUS, PACKAGE_DIR


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "run":
        import pytest

        # Hypothesis's pytest plugin costs seconds at start-up and the suite has no property tests.
        plugins = ["-p", "conformance.plugin", "-p", "no:hypothesispytest"]
        return int(pytest.main([str(PACKAGE_DIR), *plugins, *args[1:]]))
    if args and args[0] == "fuzz":
        from conformance.fuzz import cli

        return cli(args[1:])
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="run the suite (pytest arguments follow)")
    commands.add_parser("fuzz", help="random sessions until the candidate disagrees, shrunk")
    smoke = commands.add_parser("smoke", help="five easy cases: is the adapter wired right?")
    smoke.add_argument(
        "--candidate", default=None, help="as for the plugin (default: the reference)"
    )
    smoke.add_argument("--answer-key", default=None)
    smoke.add_argument("--answer-pointer", default=None)
    smoke.add_argument("--answer-last-int", action="store_true")
    smoke.add_argument("--case-timeout", type=float, default=10.0)
    smoke.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    smoke.add_argument("--conformance-snapshots", type=Path, default=None)
    compare = commands.add_parser(
        "compare", help="what changed between two reports (the release gate)"
    )
    compare.add_argument("old", type=Path)
    compare.add_argument("new", type=Path)
    compare.add_argument(
        "--allow-different",
        default="",
        metavar="ASPECTS",
        help="accept reports that differ in these (comma-separated: corpus,profile,selection)",
    )
    base = commands.add_parser(
        "baseline", help="a known-divergences file from a report (reasons left for a person)"
    )
    base.add_argument("report", type=Path)
    base.add_argument("--out", type=Path, default=None, help="write here (never overwrites)")
    options = parser.parse_args(args)
    if options.command == "baseline":
        return _baseline(options.report, options.out)
    if options.command == "compare":
        allow = {a.strip() for a in options.allow_different.split(",") if a.strip()}
        unknown = sorted(allow - {"corpus", "profile", "selection"})
        if unknown:
            parser.error(f"--allow-different: unknown aspects {', '.join(unknown)}")
        return _compare(options.old, options.new, frozenset(allow))
    return _smoke(options)


def _baseline(report: Path, out: Path | None) -> int:
    from conformance.baseline import write_baseline

    try:
        text = write_baseline(report, out)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    if out is None:
        sys.stdout.write(text)
    else:
        print(f"wrote {out}: fill in every reason, then pass it with --known-divergences")
    return 0


def _compare(old_path: Path, new_path: Path, allow: frozenset[str]) -> int:
    from conformance.compare import compare, format_comparison
    from conformance.report import load

    try:
        old, new = load(old_path), load(new_path)
    except ValueError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    result = compare(old, new, allow)
    sys.stdout.write(format_comparison(result, str(old_path), str(new_path)))
    return 1 if result.failed else 0


def _smoke(options: argparse.Namespace) -> int:
    from conformance.answers import AnswerReader, JsonPointerReader, LastIntegerReader
    from conformance.candidates import CandidateError, parse_candidate
    from conformance.corpus import CorpusError, load_corpus
    from conformance.profiles import load_profile
    from conformance.smoke import smoke
    from conformance.snapshots import ExpectationSnapshots

    ExpectationSnapshots.root = options.conformance_snapshots
    try:
        candidate = parse_candidate(options.candidate)
        cases = load_corpus(options.corpus)
    except (CandidateError, CorpusError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    reader: AnswerReader = candidate.default_reader()
    if options.answer_key:
        reader = JsonPointerReader.for_key(options.answer_key)
    elif options.answer_pointer is not None:
        reader = JsonPointerReader(options.answer_pointer)
    elif options.answer_last_int:
        reader = LastIntegerReader()
    text, ok = smoke(cases, candidate, reader, load_profile(None, []), options.case_timeout)
    sys.stdout.write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
