"""`rebootspec whoami` and `rebootspec hook`: an agent's own count, for its `0.0.PATCH`.

`whoami` runs inside a host's shell tool: it finds the calling session from what the host put
in the environment (WHO-1..WHO-3), counts its file as `count` does, and prints `count`'s JSON
plus `host`, `id`, `file` and `source`. `hook` runs as a host's hook: the same answer from the
hook's JSON on stdin (WHO-4), written to stdout or, atomically, to `--out FILE`.

Why its own reading of the command line rather than argparse: a status line or a hook calls this
on every render or every turn, and argparse (with gettext, locale, shutil) is a good part of the
start-up; `--help` is plain text here. A usage error is one line and exit 2, as everywhere.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every turn
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TextIO

    from ...reference.sessions.own import Own

EXIT_ANSWER = 0
EXIT_REJECTED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70

WHOAMI_HELP = """\
usage: rebootspec whoami [--json] [--field NAME] [--host HOST] [--guess] [--readable]

{intro}
Prints the JSON `rebootspec count` prints for that session's file, plus host, id, file and
source (the variable that named it).

options:
  --json          the whole answer as one JSON object (the default)
  --field NAME    only this member of the answer, bare (--field reboots: the PATCH number)
  --host HOST     when two hosts' variables are set (a host started in another's shell)
  --guess         no id in the environment: the newest session file of every store, marked
                  W-GUESSED (with --field, as a `warning: W-GUESSED: ...` line on stderr);
                  refused when another was written within 10 s of it. Never for a version
                  string: it is wrong whenever two sessions run at once.
  --readable      count with the readable path only (same answer)

Exit 0 an answer, 1 the session's log is rejected, 2 no session could be named (the message
says what was looked for and how to make it work with each host).
example: rebootspec whoami --field reboots
"""

HOOK_HELP = """\
usage: rebootspec hook [--out FILE] [--field NAME] [--readable]

Reads a host hook's JSON on stdin (Codex, Claude Code and Gemini CLI hooks give session_id and
transcript_path; the pi extension and the opencode plugin of conformance/hooks give
session_id) and writes the session's count: the JSON of `rebootspec whoami`, or one member of it
with --field. Use it on an AFTER-compaction event (Codex and Claude Code PostCompact, Claude
Code SessionStart "compact", pi session_compact, opencode session.compacted): a
before-compaction hook never bumps the count, since that compaction can still fail.

options:
  --out FILE      write there, not to stdout: atomically (a reader never sees half a file),
                  a new file 0666 less the umask, a replaced one keeping its mode; a FIFO,
                  device, folder or symlink there is refused and left as it is
  --field NAME    only this member of the answer, bare (--field reboots)
  --readable      count with the readable path only (same answer)
Exit 0 an answer, 1 the session's log is rejected, 2 no session could be named or stdin is
not a hook's JSON (closed, empty, over 1 MiB, not JSON; a UTF-8 byte-order mark is fine).
example: rebootspec hook --out ~/.patch --field reboots   (a PostCompact hook's command)
"""


# The options each command takes, read by hand below and by `rebootspec completion`.
WHOAMI_OPTIONS = ("--json", "--field", "--host", "--guess", "--readable")
HOOK_OPTIONS = ("--out", "--field", "--readable")
FLAGS = ("--json", "--guess", "--readable")  # the options that take no value


class Options:
    def __init__(self) -> None:
        self.field: str | None = None
        self.host: str | None = None
        self.out: str | None = None
        self.guess = False
        self.readable = False


def _options(argv: list[str], allowed: tuple[str, ...], err: TextIO) -> Options | int:
    """The command line, or an exit code (help printed, or a one-line usage error)."""
    options = Options()
    words = iter(argv)
    for word in words:
        name, eq, inline = word.partition("=")
        if name not in allowed:
            if word in ("-h", "--help"):
                return -1
            what = f"unknown option {name}" if word.startswith("-") else f"unexpected {word!r}"
            err.write(f"usage error: {what} (try --help)\n")
            return EXIT_USAGE
        if name in FLAGS:
            if eq:
                err.write(f"usage error: {name} takes no value (try --help)\n")
                return EXIT_USAGE
            if name != "--json":
                setattr(options, name[2:], True)
            continue
        value = inline if eq else next(words, None)
        if not value:
            err.write(f"usage error: {name} needs a value (try --help)\n")
            return EXIT_USAGE
        setattr(options, name[2:], value)
    if options.host is not None:
        from ...reference.core.registry import host_keys as keys

        if options.host not in keys():
            err.write(
                f"usage error: --host {options.host!r}: known hosts are {', '.join(keys())}\n"
            )
            return EXIT_USAGE
    return options


def whoami(
    argv: list[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """`rebootspec whoami`: the calling session from the environment (WHO-1..WHO-3, WHO-5)."""
    out, err = out or sys.stdout, err or sys.stderr
    options = _options(argv, WHOAMI_OPTIONS, err)
    if options == -1:
        import textwrap

        intro = "The reboot count of the session that runs this command: the host names it in "
        intro += f"the environment of its shell tool ({_variables()})."
        out.write(WHOAMI_HELP.format(intro=textwrap.fill(intro, 94)))
        return EXIT_ANSWER
    if isinstance(options, int):
        return options
    from ...reference.sessions.own import Refusal, from_environment, guess

    env = os.environ if env is None else env
    try:
        try:
            own = from_environment(env, options.host)
        except Refusal as refusal:
            if not (options.guess and refusal.nothing):
                raise
            own = guess(env, options.host)
    except Refusal as refusal:
        err.writelines(refusal.lines())
        return EXIT_USAGE
    return _answer(own, options, out, err)


def _variables() -> str:
    """Every host's session variables, from the registry (WHO-1), for the help."""
    from ...reference.core.registry import hosts

    named = [(host, " or ".join(host.identity.names())) for host in hosts()]
    return "; ".join(f"{host.name}: {names}" for host, names in named if names)


def hook(
    argv: list[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    stdin: Any = None,
) -> int:
    """`rebootspec hook`: the session of a hook's JSON on stdin (WHO-4)."""
    out, err = out or sys.stdout, err or sys.stderr
    options = _options(argv, HOOK_OPTIONS, err)
    if options == -1:
        out.write(HOOK_HELP)
        return EXIT_ANSWER
    if isinstance(options, int):
        return options
    from ...reference.core.errors import Rejection
    from ...reference.core.jsontext import parse_json
    from ...reference.core.userio import Refused, read_stdin
    from ...reference.sessions.own import Refusal, from_hook, shown

    if stdin is None and sys.stdin is not None and sys.stdin.isatty():
        err.write("usage error: hook reads a host hook's JSON on stdin (try --help)\n")
        return EXIT_USAGE  # a person typed it: nothing would ever arrive
    try:
        data = read_stdin("stdin", stdin)  # bounded; closed (`<&-`) is one line; BOM dropped
    except Refused as refused:
        err.write(f"error: hook: {refused}\n")
        return EXIT_USAGE
    if not data.strip():
        err.write("error: hook: stdin is empty: a host's hook gives its JSON there (try --help)\n")
        return EXIT_USAGE
    try:
        payload = parse_json(data.strip(), 1)
    except Rejection as rejection:
        reason = shown(rejection.reason)
        err.write(f"error: hook: stdin:1: {rejection.code}: {reason}\n")
        return EXIT_USAGE
    try:
        own = from_hook(payload, os.environ if env is None else env)
    except Refusal as refusal:
        err.writelines(refusal.lines())
        return EXIT_USAGE
    return _answer(own, options, out, err)


def _answer(own: Own, options: Options, out: TextIO, err: TextIO) -> int:
    """Count the session's file as `count` does, and print or write the answer."""
    from ...reference.cli import EXIT_INTERNAL as INTERNAL
    from ...reference.cli import count_with_retry, unusable
    from ...reference.core.errors import W_GUESSED, Notice, Rejection, os_reason
    from ...reference.sessions.own import shown

    path = own.file
    problem = unusable(path)
    if problem is not None:
        err.write(f"error: {shown(path)}: {problem}\n")
        return EXIT_USAGE
    try:
        result = count_with_retry(path, 0, options.readable, None, own.in_store)
    except Rejection as rejection:  # ERR-10: a reason can quote a file name or a value
        reason = shown(rejection.reason)
        err.write(f"error: {shown(path)}:{rejection.line}: {rejection.code}: {reason}\n")
        return EXIT_REJECTED
    except OSError as error:
        err.write(f"error: {shown(path)}: cannot read: {shown(os_reason(error))}\n")
        return EXIT_USAGE
    except Exception as error:  # a bug in the reference, never the input's fault
        err.write(f"error: {shown(path)}:0: internal error: {type(error).__name__}\n")
        return INTERNAL
    if own.guessed:
        guessed = Notice(W_GUESSED, "no host named this session: the newest session file was taken")
        result.notices.append(guessed)
        if options.field is not None:  # a bare member has no room for it: told on stderr
            err.write(f"warning: {guessed.code}: {guessed.message}\n")
    answer = result.to_json()
    if options.field is None or options.field not in answer:  # else the session's are unread
        for key, value in own.to_json().items():
            answer.setdefault(key, value)  # the answer's own `host` (its content's) comes first
    text = _render(answer, options.field)
    if text is None:
        err.write(f"usage error: --field {options.field!r}: the answer has {', '.join(answer)}\n")
        return EXIT_USAGE
    if options.out is None:
        out.write(text)
        return EXIT_ANSWER
    from ...reference.core.userio import Refused, write_text

    try:
        write_text(options.out, text)  # atomic; a FIFO, device or folder is left alone
    except Refused as refused:
        err.write(f"error: --out {refused}\n")
        return EXIT_USAGE
    return EXIT_ANSWER


def _render(answer: dict[str, Any], field: str | None) -> str | None:
    """The answer as `count` prints it (exact JSON; a file name that is not UTF-8 also as its
    bytes, core/printable.py), or one member of it bare; a string member is escaped like
    everything read from outside."""
    from ...reference.core.printable import dumps
    from ...reference.sessions.own import shown

    if field is None:
        return dumps(answer) + "\n"
    if field not in answer:
        return None
    value = answer[field]
    if isinstance(value, str):
        return shown(value) + "\n"
    return dumps(value) + "\n"
