"""Run every peer over the corpus cases of the hosts it claims; one record per (peer, case).

The expected answer is the case's own (`case.toml`'s `expect`, from a plan, a script's record or
a person's reading), never the reference's; each run is judged by the runner's `classify`, so a
peer is held to the same table as any candidate. A peer that cannot be installed or is blocked
here is kept with its reason and no records: skipped, never faked.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from ..presets.peers import PEERS
from ..presets.peers.base import Peer
from ..presets.peers.install import cache_root, ensure
from ..runner.candidates import CandidateError, CaseInput, CommandCandidate
from ..runner.corpus import Case
from ..runner.outcome import Outcome, classify

CASE_TIMEOUT = 60.0


@dataclass
class CaseRecord:
    """One peer on one case: what it should say, what it said, and how long it took."""

    case: str
    host: str
    expected: dict[str, Any]
    outcome: str
    actual: dict[str, Any]
    seconds: float
    detail: str = ""
    tags: list[str] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)  # the gallery rows that make the same miss


@dataclass
class PeerRecord:
    """A peer's run: its declaration, whether it ran, and its records."""

    name: str
    version: str
    registry: str
    package: str
    hosts: list[str]
    reads: str
    skipped: str | None = None
    notes: str = ""
    records: list[CaseRecord] = field(default_factory=list)


def own_candidate() -> CommandCandidate:
    """rebootspec itself as a subprocess, so its time per case includes a start-up like a peer's."""
    argv = (
        sys.executable,
        "-m",
        "rebootspec.conformance",
        "count",
        "{path}",
        "--session={session}",
    )
    return CommandCandidate(argv)


def case_input(case: Case) -> CaseInput:
    return CaseInput(case.input, case.input_root, case.session)


def judge(candidate: Any, case: Case, timeout: float = CASE_TIMEOUT) -> CaseRecord:
    """Run one candidate on one case and classify the run against the case's expectation."""
    started = time.monotonic()
    result = candidate.run(case_input(case), timeout)
    seconds = result.duration or (time.monotonic() - started)
    verdict = classify(
        case.expected_answer(),
        result,
        candidate.default_reader(),
        expected_code=case.expect.get("error"),
        expected_line=case.expect.get("line"),
    )
    actual = dict(verdict.actual)
    outcome = str(verdict.outcome)
    detail = verdict.detail
    if result.exit_code == 0 and result.stdout.startswith('{"unreadable"'):
        # The peer ran but its answer could not be read (base.Peer.run): no answer, whatever
        # the case expected, never a count.
        reason = orjson.loads(result.stdout).get("unreadable")
        actual = {"outcome": "bad-output", "reason": str(reason)[:200]}
        outcome = str(Outcome.BAD_OUTPUT)
        detail = f"no answer: {reason}"
    return CaseRecord(
        case=case.id,
        host=case.host,
        expected=case.expected_answer() | _expected_code(case),
        outcome=outcome,
        actual=actual,
        seconds=round(seconds, 4),
        detail=detail[:300],
        tags=list(case.tags),
    )


def _expected_code(case: Case) -> dict[str, Any]:
    error = case.expect.get("error")
    return {"error": error} if error else {}


def run_peer(
    peer_type: type[Peer],
    cases: Sequence[Case],
    *,
    install: bool = True,
    progress: Callable[[str], None] | None = None,
) -> PeerRecord:
    """Install `peer_type` if asked and needed, then run it on every case of its hosts."""
    peer = peer_type(root=cache_root())
    package = peer.package
    record = PeerRecord(
        name=peer.name,
        version=package.version,
        registry=package.registry,
        package=package.name,
        hosts=list(peer.hosts),
        reads=peer.reads,
        notes=peer.notes,
    )
    if peer.blocked:
        record.skipped = peer.blocked
        return record
    for needed in peer.packages():
        if not needed.installed(peer.root):
            if not install:
                record.skipped = f"{needed.spec} is not installed (run without --no-install)"
                return record
            got = ensure(needed, peer.root)
            if isinstance(got, str):
                record.skipped = f"cannot install {needed.spec}: {got}"
                return record
    for case in cases:
        if case.host not in peer.hosts:
            continue
        record.records.append(judge(peer.for_host(case.host), case))
        if progress is not None:
            progress(f"{peer.name} {case.id} {record.records[-1].outcome}")
    return record


def own_times(cases: Iterable[Case], hosts: Iterable[str]) -> dict[str, float]:
    """rebootspec's median seconds per case for each host, run as a subprocess like the peers."""
    wanted = set(hosts)
    candidate = own_candidate()
    times: dict[str, list[float]] = {}
    for case in cases:
        if case.host in wanted:
            result = candidate.run(case_input(case), CASE_TIMEOUT)
            times.setdefault(case.host, []).append(result.duration)
    return {host: round(statistics.median(values), 4) for host, values in times.items()}


def select_peers(names: Sequence[str]) -> list[type[Peer]]:
    """The peers named (all when none is), in the registry's order; an unknown name is an error."""
    if not names:
        return list(PEERS)
    known = {peer.name: peer for peer in PEERS}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise CandidateError(f"unknown peer {unknown[0]!r}; known: {', '.join(known)}")
    return [peer for peer in PEERS if peer.name in names]


def is_miss(record: CaseRecord) -> bool:
    return record.outcome != Outcome.PASS


def as_dict(peers: Sequence[PeerRecord]) -> list[dict[str, Any]]:
    return [asdict(peer) for peer in peers]


# The benchmarks' generator calls Gemini CLI `gemini` (`generators big-host --host`).
BIG_HOSTS = {"codex": "codex", "pi": "pi", "claude-code": "claude-code", "gemini-cli": "gemini"}


def big_file_times(
    peer_types: Sequence[type[Peer]],
    hosts: Iterable[str],
    *,
    size_mb: int = 100,
    timeout: float = 300.0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Whole-process seconds of each installed peer and of rebootspec on the benchmarks' big file
    of each host (`generators big-host`, seed 1), one run each: `{host: {counter: seconds}}`.

    A run past `timeout` shows as `> N`; one that fails shows its outcome, never a time.
    """
    import subprocess
    import tempfile
    from pathlib import Path

    times: dict[str, Any] = {"_order": ["rebootspec"]}
    peers = [peer_type(root=cache_root()) for peer_type in peer_types]
    peers = [peer for peer in peers if all(p.installed(peer.root) for p in peer.packages())]
    times["_order"] += [peer.name for peer in peers]
    with tempfile.TemporaryDirectory(prefix="peers-big-") as folder:
        for host in hosts:
            if host not in BIG_HOSTS:
                continue
            path = Path(folder) / f"{host}-{size_mb}mb.jsonl"
            command = [sys.executable, "-m", "rebootspec.generators", "big-host"]
            command += ["--host", BIG_HOSTS[host], "--size-mb", str(size_mb), "--out", str(path)]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            row: dict[str, str] = {}
            given = CaseInput(path)
            contenders: list[tuple[str, Any]] = [("rebootspec", own_candidate())]
            contenders += [(p.name, p.for_host(host)) for p in peers if host in p.hosts]
            for name, candidate in contenders:
                result = candidate.run(given, timeout)
                if result.timed_out:
                    row[name] = f"> {timeout:.0f}"
                elif result.exit_code != 0 or '"unreadable"' in result.stdout:
                    row[name] = "no answer"
                else:
                    row[name] = f"{result.duration:.1f}"
                if progress is not None:
                    progress(f"big {host} {name}: {row[name]}")
            times[host] = row
            path.unlink()
    return times
