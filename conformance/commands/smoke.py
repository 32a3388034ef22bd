"""`rebootspec smoke`: five easy cases, to see that a candidate's adapter is wired right."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import DEFAULT_CORPUS
from ..runner.answers import AnswerReader, JsonPointerReader, LastIntegerReader, pointer_tokens
from ..runner.candidates import CandidateError, parse_candidate
from ..runner.corpus import CorpusError, load_corpus
from ..runner.profiles import load_profile
from ..runner.smoke import smoke
from ..runner.snapshots import ExpectationSnapshots
from .usage import UsageParser


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="rebootspec smoke",
        description="Five easy cases (a count, a Push, a phantom, a rejection, a legacy .json): "
        "exit 0 when the candidate gets all five right.",
        epilog='example: rebootspec smoke --candidate "mytool count"',
    )
    parser.add_argument("--candidate", default=None, help="as for run (default: the reference)")
    parser.add_argument("--answer-key", default=None)
    parser.add_argument("--answer-pointer", default=None)
    parser.add_argument("--answer-last-int", action="store_true")
    parser.add_argument("--case-timeout", type=float, default=10.0)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--conformance-snapshots", type=Path, default=None)
    return parser


def cli(argv: list[str]) -> int:
    options = build_parser().parse_args(argv)
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
        try:
            pointer_tokens(options.answer_pointer)
        except ValueError as error:
            sys.stderr.write(f"usage error: --answer-pointer: {error}\n")
            return 2
        reader = JsonPointerReader(options.answer_pointer)
    elif options.answer_last_int:
        reader = LastIntegerReader()
    text, ok = smoke(cases, candidate, reader, load_profile(None, []), options.case_timeout)
    sys.stdout.write(text)
    return 0 if ok else 1
