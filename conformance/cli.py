"""`rebootspec`: the one command line of an installed rebootspec.

Every job is a subcommand with the same conventions: `rebootspec SUBCOMMAND --help` shows its
options and an example; a usage error is one line on stderr and exit 2; 0 means success and 1
means "the thing checked is wrong" (a failing candidate, a rejected log, a broken release).
The subcommands only dispatch: each job lives in the package that owns it (the reference's
`count`/`explain`, the runner, the reports, fuzzing, the corpus tools), so this file is the
map of what an installed rebootspec can do.
"""

from __future__ import annotations

import sys


class Command:
    """A subcommand: what it does, an example, and the `module:function` that runs it.

    The function takes the arguments after the subcommand and returns the exit code; it is
    imported only when its subcommand runs, so `rebootspec count` never loads pytest. (A plain
    class, not a NamedTuple or a dataclass: this module is on the path of every `rebootspec
    count` and `whoami`, and `typing` alone costs milliseconds.)
    """

    __slots__ = ("example", "summary", "target")

    def __init__(self, summary: str, example: str, target: str) -> None:
        self.summary = summary
        self.example = example
        self.target = target

    def handler(self, argv: list[str]) -> int:
        module, _, function = self.target.partition(":")
        name = f"{__package__}{module}"  # `.commands.x` under this package (not importlib:
        __import__(name)  # its package imports `warnings`, on the path of every count)
        run = getattr(sys.modules[name], function)
        return int(run(argv))


COMMANDS: dict[str, Command] = {
    "count": Command(
        "count the reboots of one session log (the reference)",
        "rebootspec count ~/.config/Code/User/workspaceStorage/*/chatSessions/1b2c.jsonl",
        ".commands.reference:count",
    ),
    "explain": Command(
        "a timeline of one log: every event, phantom and warning (the reference)",
        "rebootspec explain --session 634638ae",
        ".commands.reference:explain",
    ),
    "whoami": Command(
        "the reboot count of the session running this command (from its host's environment)",
        "rebootspec whoami --field reboots",
        ".commands.whoami:whoami",
    ),
    "hook": Command(
        "the count of a host hook's session (its JSON on stdin), to stdout or --out FILE",
        "rebootspec hook --out ~/.patch --field reboots",
        ".commands.whoami:hook",
    ),
    "sessions": Command(
        "every session of every host on this machine with its count, newest first",
        "rebootspec sessions --since 7d",
        ".commands.sessions:cli",
    ),
    "run": Command(
        "run the conformance suite against a candidate (pytest arguments work too)",
        'rebootspec run --candidate "./mytool count" --report-dir reports/',
        ".commands.run:run",
    ),
    "cases": Command(
        "list the corpus's cases (id, name, host, tags, rules), or export them for a harness",
        "rebootspec cases --host codex -k fork",
        ".commands.cases:cli",
    ),
    "smoke": Command(
        "easy cases, one per kind of answer and host: is the candidate's adapter wired right?",
        'rebootspec smoke --candidate "./mytool count"',
        ".commands.smoke:cli",
    ),
    "compare": Command(
        "what changed between two reports (the release gate: exit 1 when something broke)",
        "rebootspec compare reports/v1.3/report.json reports/v1.4/report.json",
        ".commands.compare:cli",
    ),
    "fuzz": Command(
        "random sessions until the candidate disagrees with the plan, shrunk",
        'rebootspec fuzz --candidate "./mytool count" --out found/',
        ".fuzzing.differential:cli",
    ),
    "report": Command(
        "render a report.json again as report.md and report.html",
        "rebootspec report reports/report.json --out reports/",
        ".commands.report:cli",
    ),
    "baseline": Command(
        "a known-divergences file from a report (each reason left for a person)",
        "rebootspec baseline reports/report.json --out known-divergences.toml",
        ".commands.baseline:cli",
    ),
    "anonymize": Command(
        "a real session made safe to contribute as a fixture",
        "rebootspec anonymize ~/chatSessions/1b2c.jsonl /tmp/new-era.jsonl",
        ".commands.contribute:anonymize",
    ),
    "add-fixture": Command(
        "a contributed session becomes a corpus case (in a checkout)",
        "rebootspec add-fixture /tmp/new-era.jsonl --reboots 2 --era none --rules CNT-2 "
        '--tags push --title "..."',
        ".commands.contribute:add_fixture",
    ),
    "peers": Command(
        "the counters people use (codeburn, agentsview, ...) over the corpus: the scoreboard",
        "rebootspec peers --out reports/peers --readme docs/peers.md",
        ".commands.peers:cli",
    ),
    "completion": Command(
        "the tab-completion script for bash, zsh or fish, made from these parsers",
        "rebootspec completion bash > ~/.local/share/bash-completion/completions/rebootspec",
        ".commands.completion:cli",
    ),
    "version": Command(
        "the versions of rebootspec, its spec and its corpus",
        "rebootspec version",
        ".commands.version:cli",
    ),
}


def host_names() -> list[str]:
    """HST-1: the hosts, from the registry (spec/hosts.toml), for the overview."""
    from ..reference.core.registry import hosts

    return [host.name for host in hosts()]


def _wrapped(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def overview() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [
        "usage: rebootspec SUBCOMMAND [options]   (rebootspec SUBCOMMAND --help for each)",
        "",
        "The spec, reference counter and conformance suite for compaction reboots in",
        "the session logs of coding-agent hosts:",
        *_wrapped(", ".join(host_names()) + ".", 78),
        "",
        "subcommands:",
    ]
    lines += [f"  {name:<{width}}  {command.summary}" for name, command in COMMANDS.items()]
    lines += ["", "-V, --version: the same as `rebootspec version`"]
    lines += ["", "example:", f"  {COMMANDS['run'].example}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; Ctrl-C, SIGTERM and SIGHUP end it with one line and its private
    files removed (reference/core/endings.py)."""
    from ..reference.core.endings import guarded, program

    if argv is None:  # the program itself (the console script): the collector tuned for it
        return program(lambda: _dispatch(sys.argv[1:]))
    return guarded(lambda: _dispatch(list(argv)))


def unknown_subcommand(word: str) -> str:
    """A mistyped subcommand named with the nearest real one (`cuont`: did you mean count?),
    else the list; the word itself escaped, since it may be anything a shell can pass."""
    import difflib

    from ..reference.core.printable import printable

    near = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    guess = f" did you mean {near[0]}?" if near else ""
    return f"unknown subcommand {printable(repr(word))};{guess} known: {', '.join(COMMANDS)}"


def _dispatch(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        (sys.stdout if args else sys.stderr).write(overview())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        return COMMANDS["version"].handler(args[1:])
    command = COMMANDS.get(args[0])
    if command is None:
        sys.stderr.write(f"usage error: {unknown_subcommand(args[0])} (try --help)\n")
        return 2
    return int(command.handler(args[1:]))


if __name__ == "__main__":
    sys.exit(main())
