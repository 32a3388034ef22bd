"""`rebootspec peers`: run every counter people use over the corpus and write the scoreboard.

Glue only: the peers are `presets/peers/`, the runs and the gallery matching `scoreboard/`. It
installs what is missing (npm and PyPI into a cache folder), runs each peer on the cases of the
hosts it claims, names every miss by its gallery row, and writes `peers.json`, `peers.md` and
`peers.html` (and, with `--readme PAGE`, the scoreboard section between the page's markers:
docs/peers.md owns it since issue 46 moved the measurements out of the README). `--from-json`
renders a recorded `peers.json` again without running anything.
"""

from __future__ import annotations

import datetime
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson

from ...reference.core.errors import os_reason
from ...reference.core.userio import (
    Refused,
    read_json,
    read_text,
    shown,
    writable_target,
    write_bytes,
    write_text,
)
from .. import DEFAULT_CORPUS
from ..presets.peers import peer_named
from ..runner.candidates import CandidateError
from ..runner.corpus import Case, CorpusError, load_corpus
from ..scoreboard import board, gallery, render
from ..scoreboard.board import CaseRecord, PeerRecord
from ..versions import suite_version
from .usage import UsageParser, usage_error

PROG = "rebootspec peers"


def _parser() -> UsageParser:
    parser = UsageParser(
        prog=PROG,
        description="Run the counters people use (codeburn, agentsview, ccstatusline, ...) over "
        "the corpus cases of the hosts each claims and write the scoreboard: host x counter "
        "right/claimed, median time per case, and the gallery row each miss matches. Installs "
        "missing peers from npm and PyPI into ~/.cache/rebootspec-peers.",
        epilog="example: rebootspec peers --out reports/peers --readme docs/peers.md",
    )
    parser.add_argument("--peers", default="", help="comma-separated peer names (default: all)")
    parser.add_argument("--hosts", default="", help="comma-separated hosts (default: all claimed)")
    parser.add_argument(
        "--per-host", type=int, default=0, help="only the first N cases of each host (a subset)"
    )
    parser.add_argument("--corpus", type=Path, default=None, help="the corpus folder")
    parser.add_argument("--out", type=Path, default=Path("reports/peers"), help="output folder")
    parser.add_argument(
        "--readme", type=Path, default=None, help="a page (docs/peers.md) to rewrite the table of"
    )
    parser.add_argument("--no-install", action="store_true", help="skip peers not installed")
    parser.add_argument(
        "--big", action="store_true", help="also time each peer on each host's 100 MB file"
    )
    parser.add_argument("--from-json", type=Path, default=None, help="render a peers.json again")
    parser.add_argument(
        "--rematch",
        action="store_true",
        help="with --from-json: name the recorded misses again by the current gallery",
    )
    return parser


def _words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


def _subset(cases: list[Case], hosts: list[str], per_host: int) -> list[Case]:
    kept: list[Case] = []
    seen: dict[str, int] = defaultdict(int)
    for case in cases:
        if hosts and case.host not in hosts:
            continue
        if per_host and seen[case.host] >= per_host:
            continue
        seen[case.host] += 1
        kept.append(case)
    return kept


def _said(record: CaseRecord) -> tuple[str, Any] | None:
    """The peer's answer for matching; no number on a log the spec rejects matches nothing
    (every row's counter rejects it too), so it stays "no answer"."""
    if record.expected.get("outcome") == "reject" and record.actual.get("outcome") != "count":
        return None
    return gallery.peer_answer(record.actual)


def _match(peers: list[PeerRecord], cases: dict[str, Case]) -> None:
    """Name each miss by the gallery rows that make it, best model of the peer first."""
    for peer in peers:
        for host in peer.hosts:
            records = [r for r in peer.records if r.host == host and r.case in cases]
            for record in records:
                said = _said(record)
                if board.is_miss(record) and said is not None:
                    record.rows = gallery.matching_rows(cases[record.case], said)
            candidates = {row for record in records for row in record.rows}
            if len(candidates) < 2:
                continue
            said_all = [(cases[r.case], _said(r)) for r in records]
            scores = gallery.agreement(candidates, said_all)
            for record in records:
                record.rows = gallery.rank(record.rows, frozenset(record.tags), scores)


def _load(path: Path) -> dict[str, Any]:
    """A peers.json: a regular file of bounded size (userio.py), with a `peers` list."""
    try:
        data = read_json(path, "peers")
    except Refused as refused:
        raise ValueError(refused.reason) from None
    if not isinstance(data, dict) or not isinstance(data.get("peers"), list):
        raise ValueError("not a peers.json")
    return data


def _records(data: dict[str, Any]) -> list[PeerRecord]:
    peers = []
    for raw in data["peers"]:
        records = [CaseRecord(**record) for record in raw.get("records", [])]
        declared = peer_named(raw["name"])
        notes = raw.get("notes") or (declared.notes if declared is not None else "")
        peers.append(PeerRecord(**{**raw, "records": records, "notes": notes}))
    return peers


PAGES = ("peers.json", "peers.md", "peers.html")


def write(out: Path, data: dict[str, Any], readme: Path | None) -> str | None:
    """Write the three pages from `data` (peers.json's shape); a README problem, or None."""
    peers = _records(data)
    shown = render.summary(
        peers,
        data.get("own", {}),
        date=data["date"],
        rebootspec_version=data["rebootspec"],
        gallery=data.get("gallery", False),
        big_files=data.get("big_files"),
        load=data.get("load"),
    )
    out.mkdir(parents=True, exist_ok=True)
    for name in PAGES:  # a FIFO or a device under a page's name is refused before any write
        writable_target(out / name)
    write_bytes(out / "peers.json", orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
    table = render.markdown(shown)
    write_text(out / "peers.md", table)
    write_text(out / "peers.html", render.html(shown))
    if readme is not None and not render.rewrite_readme(readme, table):
        return f"{readme} has no peers markers ({render.BEGIN!r} ... {render.END!r})"
    return None


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def _recorded(args: Any) -> dict[str, Any] | int:
    """`--from-json`: the recorded board, its misses named again with `--rematch`."""
    try:
        data = _load(args.from_json)
    except (OSError, ValueError) as error:
        return usage_error(PROG, f"{shown(str(args.from_json))}: {error}")
    if not args.rematch:
        return data
    try:
        cases = {case.id: case for case in load_corpus(args.corpus or DEFAULT_CORPUS)}
    except CorpusError as error:
        return usage_error(PROG, str(error))
    try:
        peers = _records(data)
    except (KeyError, TypeError, ValueError, AttributeError):  # a member of another type
        return usage_error(PROG, f"{shown(str(args.from_json))}: not a peers.json")
    for record in (r for peer in peers for r in peer.records):
        record.rows = []
    _match(peers, cases)
    return {**data, "peers": board.as_dict(peers), "gallery": gallery.available()}


def _measured(args: Any) -> dict[str, Any] | int:
    """Run the peers (installing what is missing) and name their misses."""
    try:
        peer_types = board.select_peers(_words(args.peers))
        corpus = load_corpus(args.corpus or DEFAULT_CORPUS)
    except (CandidateError, CorpusError) as error:
        return usage_error(PROG, str(error))
    chosen = _subset(corpus, _words(args.hosts), args.per_host)
    peers: list[PeerRecord] = []
    for peer_type in peer_types:
        sys.stderr.write(f"{peer_type.name} {peer_type.package.version}: running\n")
        ran = board.run_peer(peer_type, chosen, install=not args.no_install)
        sys.stderr.write(f"{peer_type.name}: {ran.skipped or f'{len(ran.records)} cases'}\n")
        peers.append(ran)
    _match(peers, {case.id: case for case in chosen})
    claimed = {host for peer in peers if not peer.skipped for host in peer.hosts}
    data: dict[str, Any] = {
        "load": round(os.getloadavg()[0], 1),
        "date": datetime.date.today().isoformat(),
        "rebootspec": suite_version(),
        "own": board.own_times(chosen, claimed),
        "gallery": gallery.available(),
        "peers": board.as_dict(peers),
    }
    if args.big:
        ran_types = [
            t for t in peer_types if any(p.name == t.name and not p.skipped for p in peers)
        ]
        data["big_files"] = board.big_file_times(ran_types, sorted(claimed), progress=_say)
    return data


def cli(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    data = _recorded(args) if args.from_json is not None else _measured(args)
    if isinstance(data, int):
        return data
    try:
        problem = write(args.out, data, args.readme)
    except Refused as refused:
        sys.stderr.write(f"error: {shown(str(refused))}\n")
        return 2
    except OSError as error:  # a folder it cannot make
        sys.stderr.write(f"error: {shown(str(args.out))}: cannot write: {os_reason(error)}\n")
        return 2
    except (KeyError, TypeError, ValueError, AttributeError):  # a member missing or of a type
        # the pages cannot show (a hand-made or damaged peers.json)
        sys.stderr.write(f"error: {shown(str(args.from_json))}: not a peers.json\n")
        return 2
    sys.stdout.write(read_text(args.out / "peers.md", "text"))
    if problem is not None:
        sys.stderr.write(f"{PROG}: {shown(problem)}\n")
        return 1
    return 0
