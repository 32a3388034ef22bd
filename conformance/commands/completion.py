"""`rebootspec completion SHELL`: tab completion for bash, zsh or fish, made from the parsers.

Why from the parsers: a hand-written completion script forgets the next option. Each subcommand
builds its own argparse parser when it runs; here every subcommand of the CLI's table
(`conformance/cli.py` COMMANDS) is asked for `--help` with argparse's parsing stopped at the
moment it starts, which hands over the parser the subcommand really uses. The three that parse
no argparse line (`run` is pytest, `whoami` and `hook` read their few options by hand) get a
parser made from the same declarations they read (`options.add_settings`, whoami's option
tuples). shtab (PyPI) turns the whole tree into the shell's script; it is imported only here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Iterator

from .usage import UsageParser

PROG = "rebootspec completion"
SHELLS = ("bash", "zsh", "fish")
DESCRIPTION = """\
Print the tab-completion script of every subcommand and option for the shell named, made from
the parsers the subcommands use (so it never lags behind them). Install it once:

  bash: mkdir -p ~/.local/share/bash-completion/completions && rebootspec completion bash \\
          > ~/.local/share/bash-completion/completions/rebootspec
  zsh:  mkdir -p ~/.zfunc && rebootspec completion zsh > ~/.zfunc/_rebootspec
        (with `fpath+=~/.zfunc` before `compinit` in ~/.zshrc)
  fish: mkdir -p ~/.config/fish/completions && rebootspec completion fish \\
          > ~/.config/fish/completions/rebootspec.fish
"""


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog='example: eval "$(rebootspec completion bash)"   (this shell only)',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell the script is for")
    return parser


class _Captured(Exception):
    """Raised in place of parsing: carries the parser a subcommand built."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__("captured")
        self.parser = parser


@contextlib.contextmanager
def _capturing() -> Iterator[None]:
    """argparse's parse methods raise `_Captured` (with the parser) instead of parsing; the
    streams are muted, so a subcommand that prints before it parses prints nowhere."""
    saved = argparse.ArgumentParser.parse_known_args

    def capture(self: argparse.ArgumentParser, *_: object, **__: object) -> None:
        raise _Captured(self)

    argparse.ArgumentParser.parse_known_args = capture  # type: ignore[assignment, method-assign]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        argparse.ArgumentParser.parse_known_args = saved  # type: ignore[method-assign]


def captured(handler: Callable[[list[str]], int]) -> argparse.ArgumentParser | None:
    """The parser `handler` builds for `--help`, or None when it parses without argparse."""
    try:
        with _capturing():
            handler(["--help"])
    except _Captured as caught:
        return caught.parser
    except SystemExit:
        return None
    return None


def _reference(name: str) -> argparse.ArgumentParser:
    """`count` and `explain`: the reference's own parser (its subcommand of that name)."""
    from ...reference.cli import build_parser

    parser = build_parser(prog="rebootspec")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]  # type: ignore[no-any-return]
    raise LookupError(name)


def _run() -> argparse.ArgumentParser:
    """`run`: the conformance settings (pytest's own options are pytest's to complete)."""
    from ..options import add_settings

    parser = argparse.ArgumentParser(prog="rebootspec run", add_help=True)
    add_settings(parser.add_argument)
    return parser


def _hand(name: str) -> argparse.ArgumentParser:
    """`whoami` and `hook`: their option tuples, each a flag or an option with a value."""
    from ...reference.core.registry import host_keys
    from . import whoami

    parser = argparse.ArgumentParser(prog=f"rebootspec {name}")
    for option in whoami.WHOAMI_OPTIONS if name == "whoami" else whoami.HOOK_OPTIONS:
        if option in whoami.FLAGS:
            parser.add_argument(option, action="store_true")
        elif option == "--host":
            parser.add_argument(option, choices=host_keys())
        else:
            parser.add_argument(option)
    return parser


def tree() -> argparse.ArgumentParser:
    """The whole command line as one argparse tree: every subcommand of COMMANDS."""
    from ..cli import COMMANDS

    root = argparse.ArgumentParser(prog="rebootspec")
    root.add_argument("-V", "--version", action="store_true", help="the versions")
    subcommands = root.add_subparsers(dest="subcommand")
    for name, command in COMMANDS.items():
        sub = subcommands.add_parser(name, help=command.summary)
        if name in ("count", "explain"):
            parser: argparse.ArgumentParser | None = _reference(name)
        elif name == "run":
            parser = _run()
        elif name in ("whoami", "hook"):
            parser = _hand(name)
        else:
            parser = captured(command.handler)
        subcommands.choices[name] = parser if parser is not None else sub
    return root


def script(shell: str) -> str:
    import shtab

    return str(shtab.complete(tree(), shell=shell))


def cli(argv: list[str]) -> int:
    shell = build_parser().parse_args(argv).shell
    sys.stdout.write(script(shell))
    return 0
