"""The reference's command line: `count` (PRO-1..PRO-4) and `explain` (a timeline for people).

Exit codes follow PRO-2: 0 an answer, 1 a rejection, 2 a usage error (no such file, an unknown
extension, bad arguments), 70 a bug in the reference. No input ever produces a traceback.
"""

from __future__ import annotations

import os
import sys
import time

from . import count_path
from .core.errors import E_EMPTY, E_JSON, E_SESSION, W_RETRIED, Notice, Rejection, os_reason
from .core.printable import dumps, printable

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    import argparse
    from typing import TextIO

    from .core.answer import Answer

EXIT_ANSWER = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70

TRANSIENT = (E_EMPTY, E_JSON)  # ERR-11
RETRY_PAUSE = 0.2


# argparse's own wording for words that no option or positional took.
UNRECOGNIZED = "unrecognized arguments: "
OPTIONS = ("--host", "--retry", "--readable", "--help", "-h")


def _usage_parser() -> type[argparse.ArgumentParser]:
    """argparse, but a usage error is one line and exit 2 (argparse's own code).

    Built on demand: argparse (and what it loads: gettext, locale, shutil) is only needed for
    `--help` and for command lines the quick reading below does not take.
    """
    import argparse

    class UsageParser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            sys.stderr.write(f"usage error: {plain_message(message)} (try --help)\n")
            raise SystemExit(EXIT_USAGE)

    return UsageParser


def plain_message(message: str) -> str:
    """argparse's message, with an unknown option named with the nearest real one (a typo is
    the most common usage error), as the other rebootspec commands name it."""
    if not message.startswith(UNRECOGNIZED):
        return message
    words = message[len(UNRECOGNIZED) :].split(" ")
    for word in words:
        if word.startswith("-") and word != "-":
            import difflib

            name = word.partition("=")[0]
            near = difflib.get_close_matches(name, sorted(OPTIONS), n=1, cutoff=0.6)
            return f"unknown option {name}" + (f"; did you mean {near[0]}?" if near else "")
    return f"unexpected argument {words[0]!r}" if words else "unexpected arguments"


EXAMPLES = {
    "count": "examples: %(prog)s ~/.config/Code/User/workspaceStorage/*/chatSessions/1b2c.jsonl"
    "  |  %(prog)s ~/.codex/sessions/2026/02/23/rollout-2026-02-23T12-54-34-<id>.jsonl"
    "  |  %(prog)s ~/.pi/agent/sessions/--home-me-proj--/<time>_<id>.jsonl"
    "  |  %(prog)s ~/.claude/projects/-home-me-proj/<session id>.jsonl",
    "explain": "examples: %(prog)s session.jsonl | less  |  %(prog)s --session 634638ae",
}
EXAMPLES["count"] += "  |  %(prog)s --session 634638ae (any host's session, by a unique id prefix)"


def host_choices() -> tuple[str, ...]:
    """HST-1: every host `--host` takes, from the registry (spec/hosts.toml)."""
    from .core.registry import host_keys

    return host_keys()


def store_variables() -> str:
    from .core.registry import store_variables

    return store_variables()


def host_names() -> list[str]:
    from .core.registry import hosts

    return [host.name for host in hosts()]


def build_parser(prog: str = "python -m reference") -> argparse.ArgumentParser:
    parser = _usage_parser()(prog=prog, description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("count", "print the reboot count and its details as one JSON object"),
        ("explain", "print a timeline of the compaction events and the total"),
    ):
        sub = commands.add_parser(name, help=text, description=text, epilog=EXAMPLES[name])
        sub.add_argument(
            "path",
            nargs="?",
            help="a session file, or a store of sessions, of any host ("
            + ", ".join(host_names())
            + "); the content says which host wrote it (HST-2)",
        )
        sub.add_argument(
            "in_store",
            nargs="?",
            metavar="SESSION",
            help="after a path that holds several sessions (an opencode database or storage "
            "folder): the session to count (the same as --session ID with a path)",
        )
        sub.add_argument(
            "--session",
            metavar="ID",
            help="without a path: the session with this id (or a unique prefix of it) in "
            "the stores of every host on this machine (spec/STORES.md; "
            f"{store_variables()} move them); with a "
            "path that holds several sessions: the one to count there",
        )
        sub.add_argument(
            "--host",
            choices=host_choices(),
            default=None,
            help="read the file as this host's log instead of detecting the host (HST-3)",
        )
        sub.add_argument(
            "--retry",
            type=_retries,
            default=0,
            metavar="N",
            help="ERR-11: on a live file, re-read up to N times (0.2 s apart) when the file is "
            "empty or a line does not parse (a rewrite in flight); not part of the protocol",
        )
        sub.add_argument(
            "--readable",
            action="store_true",
            help="use only the readable path (the definition) instead of the fast path that "
            "decodes only what the spec reads; the output is the same",
        )
    return parser


def _retries(text: str) -> int:
    import argparse

    stripped = text.strip()
    unsigned = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    digits = unsigned.lstrip("0") or "0"
    try:
        if unsigned.isascii() and unsigned.isdigit():  # int() refuses 4,300 digits and more
            if len(digits) > 3:
                raise argparse.ArgumentTypeError("retries must be between 0 and 100")
            value = int(stripped[: len(stripped) - len(unsigned)] + digits)
        else:
            value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of retries: {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError("retries must be between 0 and 100")
    return value


class Args:
    """The parsed command line (argparse's Namespace has the same attributes)."""

    def __init__(self, command: str, path: str) -> None:
        self.command = command
        self.path = path
        self.retry = 0
        self.readable = False
        self.host: str | None = None
        self.session: str | None = None  # `--session ID` is argparse's: never read here
        self.in_store: str | None = None  # `count PATH SESSION`


def quick_args(argv: list[str]) -> Args | None:
    """The command line read without argparse, for the plain forms only: `count|explain PATH
    [SESSION]` with `--retry N` (0-100, ASCII digits), `--readable` and `--host H`, in any
    order. Anything else (help, `--opt=value`, abbreviations, `--`, a third word, a bad value)
    returns None and argparse reads it, so its answers and messages are argparse's."""
    if not argv or argv[0] not in EXAMPLES:
        return None
    args = Args(argv[0], "")
    path: str | None = None
    words = iter(argv[1:])
    after_path = False  # argparse takes SESSION only right after PATH (one run of positionals)
    for word in words:
        follows, after_path = after_path, False
        if word == "--readable":
            args.readable = True
        elif word == "--retry":
            value = next(words, None)
            if value is None or not (value.isascii() and value.isdigit()) or len(value) > 3:
                return None  # argparse says why (and never meets int()'s digit limit)
            if int(value) > 100:
                return None
            args.retry = int(value)
        elif word == "--host":
            value = next(words, None)
            if value not in host_choices():
                return None
            args.host = value
        elif word.startswith("-") or args.in_store is not None:
            return None
        elif path is None:
            path, after_path = word, True
        elif follows:
            args.in_store = word
        else:
            return None
    if path is None:
        return None
    args.path = path
    return args


HELP = ("-h", "--he", "--hel", "--help")  # argparse takes a unique prefix of --help


def help_among_others(argv: list[str]) -> bool:
    """Whether help is asked beside a path, a session or an option (`count STORE -h`).

    argparse would print help and exit 0 wherever `-h` stands, so a session or path named
    `-h` would answer nothing and succeed. Help is help only when it is the only word after the
    command; anywhere else it is a usage error (exit 2), never a silent success.
    """
    if not argv or argv[0] not in EXAMPLES or len(argv) <= 2:
        return False
    words = argv[1:]
    if "--" in words:
        words = words[: words.index("--")]
    return any(word in HELP for word in words)


def count_with_retry(
    path: str,
    retries: int,
    readable: bool = False,
    host: str | None = None,
    session: str | None = None,
) -> Answer:
    """ERR-11: E-EMPTY and E-JSON may be transient on a file VS Code is rewriting.

    The kind-0 rewrite truncates the file and then writes it, so a reader can see an empty file
    or a prefix of the one line. Re-reading after a pause tells a write in flight from a broken
    log; a rejection that persists is reported as usual.
    """
    attempt = 0
    while True:
        try:
            result = count_path(path, readable=readable, host=host, session=session)
        except Rejection as rejection:
            if attempt >= retries or rejection.code not in TRANSIENT:
                raise
            attempt += 1
            time.sleep(RETRY_PAUSE)
            continue
        if attempt:
            result.notices.append(
                Notice(W_RETRIED, f"the file was re-read {attempt} time(s) before it parsed")
            )
        return result


def main(
    argv: list[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    prog: str = "python -m reference",
) -> int:
    """Run one command and return its exit code; tests and the runner call it in process."""
    out = out or sys.stdout
    err = err or sys.stderr
    if help_among_others(argv):
        err.write(
            "usage error: -h/--help is asked alone (count --help); a session named -h is "
            "named after -- (count PATH -- -h)\n"
        )
        return EXIT_USAGE
    args: Args | argparse.Namespace | None = quick_args(argv)
    if args is None:
        try:
            args = build_parser(prog).parse_args(argv)
        except SystemExit as stop:
            return int(stop.code or 0)
    found: dict[str, str] = {}
    in_store: str | None = getattr(args, "in_store", None)
    if in_store is not None and args.session is not None and in_store != args.session:
        err.write("usage error: two different sessions named (try --help)\n")
        return EXIT_USAGE
    if args.path is None and args.session is None:
        err.write("usage error: give a session file or --session ID (try --help)\n")
        return EXIT_USAGE
    if args.path is not None:  # `PATH SESSION` or `PATH --session ID`: the session in PATH
        in_store = in_store or args.session
    else:
        from .sessions.lookup import resolve  # only here: `count PATH` stays lean

        code = resolve(args.session, found, err)
        if code != EXIT_ANSWER:
            return code
        in_store = found["session"]  # a store of many sessions (opencode) counts that one
    path: str = found.get("file", args.path)
    shown = printable(path)  # ERR-10: a name from the disk never drives the terminal
    problem = unusable(path)
    if problem is not None:  # PRO-2: the caller's mistake, not the log's
        err.write(f"error: {shown}: {problem}\n")
        return EXIT_USAGE
    if args.path is not None and in_store is not None:  # a prefix in a store; never ignored
        from .sessions.lookup import within

        code, in_store = within(path, in_store, err, args.host)
        if code != EXIT_ANSWER:
            return code
    try:
        result = count_with_retry(path, args.retry, args.readable, args.host, in_store)
    except Rejection as rejection:  # ERR-10: exit 1, one line on stderr, nothing on stdout
        if rejection.code == E_SESSION and args.path is not None and in_store is not None:
            from .sessions.lookup import by_prefix  # the store is listed only on a miss

            code, full = by_prefix(path, in_store, err, args.host)
            if code != EXIT_ANSWER:
                return code
            if full is not None:  # one session of the store starts with the given prefix
                again = [args.command, path, "--session", full, "--retry", str(args.retry)]
                again += ["--readable"] * args.readable + ["--host", args.host] * bool(args.host)
                return main(again, out, err, prog)
        reason = printable(rejection.reason)
        err.write(f"error: {shown}:{rejection.line}: {rejection.code}: {reason}\n")
        return EXIT_REJECTED
    except OSError as error:
        err.write(f"error: {shown}: cannot read: {printable(os_reason(error))}\n")
        return EXIT_USAGE
    except MemoryError:
        err.write(f"error: {shown}:0: out of memory\n")
        return EXIT_INTERNAL
    except Exception as error:  # a bug in the reference, never the input's fault
        err.write(
            f"error: {shown}:0: internal error in the reference: {type(error).__name__}: "
            f"{printable(str(error))}\n"
        )
        return EXIT_INTERNAL
    if args.command == "count":
        answer = result.to_json()
        answer.update(found)  # --session: which file was counted, and its full id
        out.write(dumps(answer) + "\n")  # ERR-10: exact, or one defined change
        return EXIT_ANSWER
    if found:
        out.write(f"file: {printable(found['file'])}  (session {printable(found['session'])})\n")
    out.write(result.timeline())
    return EXIT_ANSWER


# What a session can be read from: a log file by its extension (VS Code, Codex, pi, Claude Code,
# Gemini CLI; basic-agent-chat-loop's .md), an opencode database (its SQLite header, whatever
# its name) or an opencode storage folder.
LOG_SUFFIXES = (".json", ".jsonl", ".jsonl.zst", ".md", ".db")
SQLITE_MAGIC = b"SQLite format 3\x00"


def unusable(path: str) -> str | None:
    """Why `path` names nothing a reader takes (exit 2), or None: a missing path, or a file of
    another kind. What a taken file holds is the readers' to judge (exit 1)."""
    if not os.path.lexists(path):
        return "cannot read: no such file"
    if os.path.isdir(path) or path.endswith(LOG_SUFFIXES):
        return None
    from .core.files import open_regular

    try:  # never blocks on a FIFO nor reads a device: the reader refuses those (ERR-12)
        with open_regular(path) as handle:
            if handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:
                return None
    except (OSError, Rejection):
        return None  # the reader reports it (E-READ, or cannot read)
    return "not a .json, .jsonl, .jsonl.zst or .md file, a database or a storage folder"
