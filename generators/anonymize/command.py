"""`rebootspec anonymize IN OUT`: a real session made safe to contribute as a fixture.

Every string that could hold private text (messages, markdown, tool output, paths, URIs, ids,
summary texts) becomes a keyed pseudonym of the same length; everything a counter's answer
depends on stays byte for byte: lines and their ends, kinds, `k` paths, `i`, keys, numbers,
part kinds, the era table's strings, the slash-command name, empty summaries. Equal strings
stay equal and different ones stay different, so the summary-repeat relation (CNT-2) and the
count survive. Malformed input stays malformed the same way (see generators/anonymize/scan.py), so
a broken real file can become a rejection fixture.

The secret that keys the pseudonyms is random per run and never stored: nobody, including the
contributor, can test guesses against the output. `--secret-hex` makes a run reproducible for
tests only; a file meant for the corpus must never be made with a secret anyone knows.

After writing, the reference counts both files (through the `ReferenceView` the caller passes:
this package never imports the reference); if the outcome differs (count, reboot events,
phantoms, warnings, or the rejection and its line) the output is deleted and the exit code is
3: that would be a bug in the anonymizer, worth an issue (without the private file).
"""

from __future__ import annotations

import argparse
import errno
import os
import secrets
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..corpus.add_inputs import MAX_INPUT_BYTES
from ..usage import UsageParser, shown
from ..view import HostView, ReferenceView
from .policy import Policy
from .pseudonym import Pseudonyms
from .scan import Rewriter

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_CHANGED = 3
BOM = b"\xef\xbb\xbf"
CONTAINERS = (".jsonl", ".json")
# The most a session file to anonymize may weigh is what a corpus case may (MAX_INPUT_BYTES,
# generators/corpus/add_inputs.py; a store's database is read by SQLite, a session at a time,
# and is not bounded here). The bound is checked before a byte is read, so a huge or sparse
# file (1 GiB of NULs) is refused at once instead of rewritten for minutes.


def input_problem(source: Path) -> str | None:
    """Why IN cannot be read at all, told before anything else: missing, or not a regular file
    or a folder (a FIFO would block, a device never ends), checked without opening it."""
    import stat

    try:
        info = os.stat(source)
    except FileNotFoundError:
        return f"{source}: no such file" if not source.is_symlink() else f"{source}: a broken link"
    except OSError as error:
        return f"{source}: cannot read: {error.strerror or error}"
    if stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode):
        return None
    return f"{source}: not a regular file (a FIFO, a socket or a device is never read)"


def too_big(source: Path) -> str | None:
    """IN is a file above MAX_INPUT_BYTES (see there), or None. A SQLite database (an
    opencode store, by its header) is not bounded: only the asked session's rows are read."""
    size = source.stat().st_size if source.is_file() else 0
    if size <= MAX_INPUT_BYTES:
        return None
    with source.open("rb") as stream:
        if stream.read(16) == b"SQLite format 3\x00":
            return None
    return (
        f"{source}: {size:,} bytes, more than a corpus case may be ({MAX_INPUT_BYTES:,}); "
        "cut the session first"
    )


def no_record(source: Path) -> str | None:
    """Why IN is no log of any host, told before anything is written, or None.

    Every host's log or document begins with a JSON object (a VS Code log's kind-0 entry, a
    record, a flat session), torn or whole; the rewriter keeps what a counter reads of it. A file
    whose first bytes (after a BOM and blank space) are anything else holds no record a host
    wrote, so no host's rules say what in it is private: its "copy" would be masked noise. Such
    a file, if it is worth a case, is written by hand (`add-fixture --hand-written`)."""
    with source.open("rb") as stream:
        head = stream.read(1 << 16)
    body = head[len(BOM) :] if head.startswith(BOM) else head
    start = body.lstrip(b" \t\r\n")[:1]
    if start == b"{":
        return None
    what = "holds nothing but blank lines" if not start else "does not begin with a JSON object"
    return (
        f"{shown(source)}: {what}, so it is no log of any host: nothing to anonymize (a file "
        "like it is written by hand: add-fixture --hand-written)"
    )


def output_mode() -> int:
    """The mode of every file anonymize writes, whichever host: what a shell's `>` gives (0666
    less the umask, 0644 under the usual 022), as every other file rebootspec writes. The
    output is meant to be committed and read by others; nothing private is left in it (the
    check refuses any replaced string), and a user who wants private files sets umask 077."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def new_rewriter(secret: bytes) -> Rewriter:
    """A rewriter for one run: the era table's policy and a fresh pseudonym table."""
    policy = Policy()
    return Rewriter(policy, Pseudonyms(secret, policy.reserved()))


def _rewrite_with_bom(rewriter: Rewriter, body: bytes, log_line: bool) -> bytes:
    """A leading BOM is not JSON (RPL-2 drops it): keep it as it is, rewrite what follows."""
    if body.startswith(BOM):
        return BOM + rewriter.rewrite(body[len(BOM) :], log_line)
    return rewriter.rewrite(body, log_line)


def anonymize_stream(source: BinaryIO, target: BinaryIO, container: str, rewriter: Rewriter) -> int:
    """Anonymize a `.jsonl` log line by line (LF splits, as RPL-1) or a flat `.json` whole.

    Returns the number of lines written. Each line keeps its terminator: LF, CR LF (the CR is
    part of the body and stays there), or nothing on an unterminated last line.
    """
    if container == ".json":
        data = source.read()
        target.write(_rewrite_with_bom(rewriter, data, log_line=False))
        return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    lines = 0
    for raw in source:
        lines += 1
        terminated = raw.endswith(b"\n")
        body = raw[:-1] if terminated else raw
        if lines == 1:
            body = _rewrite_with_bom(rewriter, body, log_line=True)
        else:
            body = rewriter.rewrite(body, log_line=True)
        target.write(body + b"\n" if terminated else body)
    return lines


def anonymize_bytes(data: bytes, container: str, secret: bytes) -> bytes:
    """Anonymize a whole file held in memory (tests, small tools)."""
    import io

    target = io.BytesIO()
    anonymize_stream(io.BytesIO(data), target, container, new_rewriter(secret))
    return target.getvalue()


@dataclass
class Report:
    """What one run did, for the person running it."""

    lines: int
    replaced: int
    kept: int
    masked: int


def anonymize_path(source: Path, target: Path, secret: bytes, force: bool = False) -> Report:
    """Anonymize `source` into `target`, atomically: a private temporary file in the target's
    folder, then renamed into place. Without `force` an existing target is never replaced (the
    rename is a hard link, which fails when the name exists); a symlinked target is refused; a
    failure leaves only what was there before (the temporary file is ours alone, so nobody
    else's `OUT.partial` is ever touched).
    """
    if target.is_symlink():
        raise FileExistsError(
            errno.EEXIST, "is a symbolic link; refusing to write through it", str(target)
        )
    rewriter = new_rewriter(secret)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".partial", dir=target.parent
    )
    partial = Path(temporary)
    try:
        with source.open("rb") as reader, os.fdopen(handle, "wb") as writer:
            lines = anonymize_stream(reader, writer, source.suffix, rewriter)
        os.chmod(partial, output_mode())  # mkstemp's is 0600: one mode for every host
        if force:
            os.replace(partial, target)
        else:
            os.link(partial, target)  # FileExistsError when the name appeared meanwhile
    finally:
        partial.unlink(missing_ok=True)
    return Report(lines, rewriter.names.replaced, rewriter.kept, rewriter.masked)


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """The parts of the reference's answer (see generators/view.py) anonymization must keep.

    Compared between the original and the output; messages of warnings and rejections are
    left out (a rejection's reason may quote a path element), codes and positions are in.
    """
    if answer["outcome"] == "reject":
        return {"outcome": "reject", "error": answer["error"], "line": answer["line"]}
    details = answer
    return {
        "outcome": "count",
        "reboots": details["reboots"],
        "requests": details["requests"],
        "reboots_possible": details["reboots_possible"],
        "reboot_events": [[e["request"], e["source"]] for e in details["reboot_events"]],
        "duplicates": [[e["request"], e["source"]] for e in details["duplicates"]],
        "phantoms": [[p["request"], p["reason"]] for p in details["phantoms"]],
        "removed": details["removed"],
        "warnings": [[w["code"], w.get("line"), w.get("request")] for w in details["warnings"]],
    }


def describe(outcome: dict[str, Any]) -> str:
    """One line for a person: the count or the rejection."""
    if outcome["outcome"] == "reject":
        return f"rejected: {outcome['error']} at line {outcome['line']}"
    events = _short([event[0] for event in outcome["reboot_events"]])
    phantoms = _short([phantom[0] for phantom in outcome["phantoms"]])
    warnings = _short(sorted({warning[0] for warning in outcome["warnings"]}))
    return (
        f"reboots {outcome['reboots']}, reboot events at requests {events}, "
        f"phantoms {phantoms}, warnings {warnings}"
    )


def _short(items: list[Any], limit: int = 8) -> str:
    if len(items) <= limit:
        return str(items)
    return str(items[:limit])[:-1] + f", ... ({len(items)} in all)]"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="rebootspec anonymize",
        description="Replace every private string of a chat session file with a pseudonym, "
        "keeping everything a reboot counter reads.",
        epilog="example: rebootspec anonymize ~/chatSessions/1b2c.jsonl /tmp/new-era.jsonl",
    )
    parser.add_argument(
        "input",
        type=Path,
        help="the real session: a log file of any host, a chat-loop session file (its chain "
        "comes along), an opencode database or storage folder",
    )
    parser.add_argument(
        "output",
        type=Path,
        help="where to write it (same extension; a new database or folder for opencode; for "
        "a chat-loop file a folder, or a name whose folder is taken: each file of the chain is "
        "named by its new session id, as the host names it)",
    )
    parser.add_argument("--session", help="opencode: the session of the store to take")
    parser.add_argument(
        "--secret-hex",
        help="key the pseudonyms with this secret instead of a random one (tests only: "
        "anyone who knows it can test guesses; never use it for a file you contribute)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="overwrite OUTPUT if it exists (VS Code logs; other hosts never overwrite)",
    )
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="skip counting both files with the reference (for files too large to count twice)",
    )
    return parser


def _usage_problem(args: argparse.Namespace) -> str | None:
    source: Path = args.input
    target: Path = args.output
    if source.suffix not in CONTAINERS:
        return f"{source}: not a .json or .jsonl file"
    if target.suffix != source.suffix:
        return f"{target}: must end in {source.suffix} like the input (it names the container)"
    if not source.is_file():
        return f"{source}: no such file"
    if target.is_symlink():
        return f"{target}: is a symbolic link (refusing to write through it)"
    if target.exists() and not target.is_file():  # --force never replaces a FIFO or a device
        return f"{target}: exists and is not a regular file: left as it is"
    if target.exists() and target.resolve() == source.resolve():
        return f"{target}: would overwrite the input"
    if target.exists() and not args.force:
        return f"{target}: exists (use --force to overwrite)"
    return None


def _secret(args: argparse.Namespace) -> bytes | None:
    if args.secret_hex is None:
        return secrets.token_bytes(32)
    try:
        secret = bytes.fromhex(args.secret_hex)
    except ValueError:
        return None
    return secret or None


def cli(argv: list[str], reference: ReferenceView, hosts: HostView | None = None) -> int:
    """Run `anonymize`; returns the exit code (0 written, 2 usage or I/O error, 3 changed).

    `reference` counts a file (see generators/view.py); it is called only to check the output.
    `hosts` gives the policy of the host that claims the input: a host other than VS Code is
    anonymized by its policy (generators/anonymize/hosts.py: 0 written, 1 refused, 2 usage);
    VS Code's logs, and files no host claims, by VS Code's rewriter as before.
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    problem = input_problem(args.input)
    if problem is not None:
        sys.stderr.write(f"error: {shown(problem)}\n")
        return EXIT_USAGE
    problem = too_big(args.input)  # before a host is asked: detecting reads the first line
    if problem is not None:
        sys.stderr.write(f"error: {shown(problem)}\n")
        return EXIT_USAGE
    policy = hosts.policy(args.input) if hosts is not None else None
    if policy is not None and policy.get("format") != "vscode":
        assert hosts is not None
        return _other_host(args, policy, hosts)
    problem = _usage_problem(args) or no_record(args.input)
    if problem is not None:
        sys.stderr.write(f"error: {shown(problem)}\n")
        return EXIT_USAGE
    secret = _secret(args)
    if secret is None:
        sys.stderr.write("error: --secret-hex must be a non-empty hexadecimal string\n")
        return EXIT_USAGE
    if args.secret_hex is not None:
        sys.stderr.write(
            "warning: a known secret makes the pseudonyms guessable; never contribute this file\n"
        )
    try:
        report = anonymize_path(args.input, args.output, secret, force=args.force)
    except OSError as error:
        sys.stderr.write(
            f"error: {shown(error.filename or args.input)}: {shown(error.strerror or error)}\n"
        )
        return EXIT_USAGE
    print(
        f"wrote {shown(args.output)}: {report.lines} lines, {report.replaced} strings replaced, "
        f"{report.kept} kept, {report.masked} broken pieces masked"
    )
    if args.no_check:
        print(f"not checked: run `rebootspec explain {shown(args.output)}` before contributing")
        return EXIT_OK
    return _check(args.input, args.output, reference)


def _other_host(args: argparse.Namespace, policy: Any, hosts: HostView) -> int:
    from .hosts import run

    secret = _secret(args)
    if secret is None:
        sys.stderr.write("error: --secret-hex must be a non-empty hexadecimal string\n")
        return EXIT_USAGE
    if args.secret_hex is not None:
        sys.stderr.write(
            "warning: a known secret makes the pseudonyms guessable; never contribute this file\n"
        )
    return run(args, policy, hosts, secret)


def _check(source: Path, target: Path, reference: ReferenceView) -> int:
    before = comparable(reference(source)[0])
    after = comparable(reference(target)[0])
    if before != after:
        target.unlink(missing_ok=True)
        sys.stderr.write(
            "error: the anonymized file gives a different reference result, so it was deleted\n"
            f"  original:   {describe(before)}\n"
            f"  anonymized: {describe(after)}\n"
            "  this is a bug in the anonymizer: please open an issue (never attach the original)\n"
        )
        return EXIT_CHANGED
    print(f"reference result unchanged: {describe(after)}")
    print(f"next: read it (`rebootspec explain {shown(target)}`), then `add-fixture`")
    return EXIT_OK
