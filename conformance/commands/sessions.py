"""`rebootspec sessions`: every session on this machine with its count, newest first.

Why here and not in the reference: the listing uses a progress bar (tqdm) and a process pool,
and the reference may import only the standard library and its JSON decoders. The lookup it
lists from is the reference's (`finder.py` over the table of `stores.py`), so `count --session`
and this listing always agree on where sessions live.

Every file is a row, and nothing stops the scan: a folder that cannot be listed, a symbolic
link loop, a file that vanished, grew or is rejected is a warning on its row (the rejection's
code), never a traceback. Exit 0 whenever the listing was made, warnings or not.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from datetime import datetime
from typing import TextIO

from ...reference.cli import host_choices, host_names, store_variables
from ...reference.core.printable import dumps, printable
from ...reference.sessions.finder import Found, Problem, Scan, scan
from ...reference.sessions.stores import roots
from .session_rows import E_INTERNAL, PRIVATE, Row, cache_key, count_batch
from .usage import UsageParser

SERIAL_BELOW = 24  # fewer files than this are counted in this process: a pool costs more
MAX_BATCH = 32  # files per pool task (small enough that the cores share the tail evenly)
# ProcessPoolExecutor refuses more than 61 workers on Windows (WaitForMultipleObjects' limit).
MAX_WORKERS = 61 if sys.platform == "win32" else 1024
TITLE_WIDTH = 48
ID_MIN = 8  # ids are shown by their shortest unique prefix, at least this long

EXAMPLES = """examples:
  rebootspec sessions                          every session of every host here
  rebootspec sessions --host codex --since 7d  Codex sessions changed in the last 7 days
  rebootspec sessions --since 2026-11-01 --json | jq -r 'select(.reboots > 0) | .file'
  rebootspec sessions --path /mnt/old-laptop/.codex --path ~/saved-chats
then: rebootspec explain --session ID (any unique prefix of an id shown)"""


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="rebootspec sessions",
        description=textwrap.fill(
            "List every session of "
            + ", ".join(host_names())
            + " on this machine, newest first, with its reboot count and warnings. The stores "
            "are looked up as spec/STORES.md says ("
            + store_variables()
            + " move them; basic-agent-chat-loop's .chat-sessions is looked for in the current "
            "folder).",
            78,
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host", action="append", choices=host_choices(), help="only this host (repeatable)"
    )
    parser.add_argument(
        "--since",
        type=since_type,
        metavar="WHEN",
        help="only sessions modified since WHEN: a date (2026-11-01), a date and time, or an "
        "age such as 30m, 12h, 7d, 2w",
    )
    parser.add_argument(
        "--path",
        action="append",
        metavar="DIR",
        help="look here instead of the default stores (repeatable): a host's folder (a VS Code "
        "user data folder, a Codex home, a pi agent folder) or any folder of session files",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="count every session again, and leave the cache alone (it lives in the user's "
        "cache folder; REBOOTSPEC_CACHE_DIR moves it; deleting it is always safe)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes that count (default: every core)",
    )
    return parser


AGE = re.compile(r"(\d+)([mhdw])")
AGE_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def since_type(text: str, now: float | None = None) -> float:
    """`--since`: an age (`7d`) or a local date / date-time, as a POSIX time."""
    match = AGE.fullmatch(text.strip())
    if match:
        now = time.time() if now is None else now
        return now - int(match[1]) * AGE_SECONDS[match[2]]
    try:
        return datetime.fromisoformat(text.strip()).timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a date or an age: {text!r} (e.g. 2026-11-01 or 7d)"
        ) from None


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return value


def cli(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    missing = [path for path in args.path or () if not os.path.lexists(path)]
    if missing:  # a typo in a folder is the caller's slip, told before anything is walked
        err.write(
            f"usage error: rebootspec sessions: --path {printable(missing[0])}: cannot read: no "
            "such file "
            "(try --help)\n"
        )
        return 2
    files = [path for path in args.path or () if not os.path.isdir(path)]
    if files:  # a file is counted by `count`; a listing of one file would hide a typo
        shown = printable(files[0])
        err.write(
            f"usage error: rebootspec sessions: --path {shown}: not a folder (`rebootspec "
            "count FILE` counts one file) (try --help)\n"
        )
        return 2
    hosts = tuple(args.host) if args.host else None
    walked = scan([] if args.path else roots(hosts), args.path or ())
    items = _select(walked.found, hosts if args.path is None else None, args.since)
    started = time.perf_counter()
    if args.no_cache:
        rows = count_all(items, args.jobs, progress=err if err.isatty() else None)
    else:
        rows = count_cached(items, args.jobs, progress=err if err.isatty() else None, err=err)
    seconds = time.perf_counter() - started
    rows = [r for r in rows if hosts is None or r["host"] in hosts]
    if args.since is not None:
        rows = [r for r in rows if r["modified"] is None or r["modified"] >= args.since]
    rows.sort(key=lambda r: (r["modified"] is not None, r["modified"] or 0), reverse=True)
    mark_copies(rows)
    rows += [_problem_row(p) for p in walked.problems]
    if args.json:
        out.writelines(dumps(_json_row(r)) + "\n" for r in rows)  # ERR-10: exact JSON
    else:
        out.write(table(rows))
    _summary(rows, walked, seconds, args.jobs, err)
    return 0


W_COPY = "W-COPY"


def mark_copies(rows: list[Row]) -> None:
    """VS Code's profile storage holds migrated copies of legacy files (spec/STORES.md): when one
    session id is both a legacy file and a profile file, the profile file is the copy. Both are
    listed, each with its own count; the copy's row says so, and counts are never added."""
    legacy = {
        (row["host"], row["id"]): row["file"]
        for row in rows
        if row["id"] and str(row.get("store") or "").startswith("legacy-")
    }
    for row in rows:
        original = legacy.get((row["host"], row["id"]))
        if original and row.get("store") == "profile":
            row["warnings"].append(
                {
                    "code": W_COPY,
                    "message": f"VS Code's migrated copy of {original}: one session, not two",
                }
            )


def _select(found: list[Found], hosts: tuple[str, ...] | None, since: float | None) -> list[Found]:
    """The files to count: the asked hosts, modified since, biggest first (the pool's tail)."""
    sized: list[tuple[int, Found]] = []
    for item in found:
        if hosts is not None and item.host not in hosts:
            continue
        try:
            info = os.stat(item.path)
        except OSError:
            sized.append((0, item))  # its row says why
            continue
        if since is None or info.st_mtime >= since:
            sized.append((info.st_size, item))
    sized.sort(key=lambda pair: pair[0], reverse=True)
    return [item for _, item in sized]


def count_all(items: Sequence[Found], jobs: int, progress: TextIO | None = None) -> list[Row]:
    """Every file's row, on `jobs` processes; a dead worker is a warning on its files' rows.

    `progress`: a terminal to draw a progress bar on (the caller passes one only when stderr is
    a TTY, so a pipe or a log file never gets bar noise).
    """
    update = _progress(len(items), progress) if progress is not None else None
    rows: list[Row] = []
    if processes(len(items), jobs) == 1:
        rows += count_batch([item for item in items if item.within])
        for item in items:
            if not item.within:
                rows += count_batch([item])
            if update:
                update(1)
    else:
        size = max(1, min(MAX_BATCH, len(items) // (jobs * 8)))
        files = [item for item in items if not item.within]
        batches = [list(files[i : i + size]) for i in range(0, len(files), size)]
        by_store: dict[str, list[Found]] = {}
        for item in items:
            if item.within:  # a store's sessions go together: the store is read once
                by_store.setdefault(item.path, []).append(item)
        # A store is one task, read once: it goes first, so the files fill the other cores
        # meanwhile instead of leaving one core alone with it at the end.
        batches[:0] = list(by_store.values())
        with ProcessPoolExecutor(max_workers=min(jobs, MAX_WORKERS)) as pool:
            futures: dict[Future[list[Row]], list[Found]] = {
                pool.submit(count_batch, batch): batch for batch in batches
            }
            for future in as_completed(futures):
                batch = futures[future]
                try:
                    rows += future.result()
                except Exception as error:  # the worker died (killed, out of memory)
                    rows += [_dead_row(item, error) for item in batch]
                if update:
                    update(len(batch))
    if update:
        update(0, close=True)
    return rows


def count_cached(
    items: Sequence[Found],
    jobs: int,
    progress: TextIO | None = None,
    err: TextIO | None = None,
) -> list[Row]:
    """`count_all`, less the files whose rows the cache holds for their present identity
    (sessions_cache.py); the new rows are kept for the next listing. `err` gets the one line
    that says why a cache folder is not used."""
    from .sessions_cache import Cache, cache_dir, version_key

    warn = err or sys.stderr
    cache = Cache(cache_dir(), version_key(), warn=lambda line: warn.write(line + "\n"))
    groups: dict[str, list[Found]] = {}  # a store's sessions share one entry: its file's
    for item in items:
        groups.setdefault(cache_key(item), []).append(item)
    rows: list[Row] = []
    todo: list[Found] = []
    for key, group in groups.items():
        cached = cache.get(key, group[0].path)
        if cached is None:
            todo += group
        else:
            rows += cached
    counted = count_all(todo, jobs, progress)
    fresh: dict[str, list[Row]] = {}
    for row in counted:
        fresh.setdefault(str(row.get("cache_key")), []).append(row)
    for key, kept in fresh.items():
        if key in groups:
            sources = sorted({str(path) for r in kept for path in r.get("sources") or ()})
            cache.put(key, groups[key][0].path, [_public(r) for r in kept], sources)
    cache.forget_missing()
    cache.save()
    return rows + counted


def processes(files: int, jobs: int) -> int:
    """How many processes count_all uses for this many files."""
    return 1 if jobs <= 1 or files < SERIAL_BELOW else jobs


def _progress(total: int, stream: TextIO) -> Callable[..., None]:
    """A tqdm bar on `stream` (imported only here: a listing in a pipe never loads it)."""
    import tqdm as progress_bars
    from tqdm import tqdm

    # No monitor thread: worker processes are forked while the bar is drawn, and a fork with
    # a live thread in the parent can deadlock.
    progress_bars.tqdm.monitor_interval = 0
    bar = tqdm(total=total, unit="file", desc="counting", file=stream, leave=False)

    def update(done: int, close: bool = False) -> None:
        bar.update(done)
        if close:
            bar.close()

    return update


def _dead_row(item: Found, error: Exception) -> Row:
    return {
        "host": item.host,
        "id": item.id,
        "title": "",
        "modified": None,
        "reboots": None,
        "warnings": [{"code": E_INTERNAL, "message": f"the counting process died: {error}"}],
        "file": item.path,
        "size": None,
        "store": item.store,
    }


def _problem_row(problem: Problem) -> Row:
    return {
        "host": "-",
        "id": None,
        "title": "",
        "modified": None,
        "reboots": None,
        "warnings": [{"code": problem.code, "message": problem.message}],
        "file": problem.path,
        "size": None,
        "store": None,
    }


def _public(row: Row) -> Row:
    """A row as it is shown: without what only the cache uses (its key, a chain's files)."""
    return {name: value for name, value in row.items() if name not in PRIVATE}


def _json_row(row: Row) -> Row:
    return {**_public(row), "modified": _iso(row["modified"])}


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")


def table(rows: list[Row]) -> str:
    """The listing for people: one line a row, ids by their shortest unique prefix."""
    short = short_ids([r["id"] for r in rows if r["id"]])
    wide = max([4, *(len(r["host"]) for r in rows)])  # the longest host name sets the column
    # The id column fits the longest id shown (a chat-loop id's unique prefix runs past 13:
    # `agent_20260302_0905...`), so the titles stay in one column whatever the ids are.
    ids = max([13, *(len(printable(short[r["id"]])) for r in rows if r["id"])])
    lines = [
        f"{'modified':<16}  {'host':<{wide}}  {'reboots':>7}  {'id':<{ids}}  {'title':<48}  "
        "warnings"
    ]
    for row in rows:
        when = "-" if row["modified"] is None else _local(row["modified"])
        reboots = "-" if row["reboots"] is None else str(row["reboots"])
        ident = printable(short.get(row["id"], "-")) if row["id"] else "-"
        if row["id"]:  # ERR-10: a title or a path from the disk never drives the terminal
            title = printable(row["title"])
            title = title if len(title) <= TITLE_WIDTH else title[: TITLE_WIDTH - 1] + "…"
        else:  # a folder or file the scan could not read: its path, the end of it kept
            title = printable(row["file"])
            title = title if len(title) <= TITLE_WIDTH else "…" + title[1 - TITLE_WIDTH :]
        codes = _codes(row)
        lines.append(
            f"{when:<16}  {row['host']:<{wide}}  {reboots:>7}  {ident:<{ids}}  {title:<48}  {codes}"
        )
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _codes(row: Row) -> str:
    codes: list[str] = []
    for warning in row["warnings"]:
        if warning["code"] not in codes:
            codes.append(warning["code"])
    return " ".join(codes)


def _local(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")


def short_ids(ids: list[str]) -> dict[str, str]:
    """Each id's shortest prefix (at least ID_MIN characters) that no other id shares."""
    ordered = sorted(set(ids), key=str.lower)
    short: dict[str, str] = {}
    for index, ident in enumerate(ordered):
        need = ID_MIN
        for other in ordered[max(0, index - 1) : index + 2]:
            if other != ident:
                need = max(need, _common(ident.lower(), other.lower()) + 1)
        short[ident] = ident[:need]
    return short


def _common(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


def _summary(rows: list[Row], walked: Scan, seconds: float, jobs: int, err: TextIO) -> None:
    sessions = [r for r in rows if r["id"]]
    warned = sum(1 for r in rows if r["warnings"])
    if not sessions:
        err.write("no sessions found; looked in:\n")
        for root, exists in walked.looked:
            shown = printable(root.path)
            err.write(f"  {root.host:<6}  {shown}{'' if exists else '  (not there)'}\n")
        return
    err.write(
        f"{len(sessions)} session(s), {warned} row(s) with warnings; counted in "
        f"{seconds:.2f} s ({processes(len(sessions), jobs)} process(es))\n"
    )
