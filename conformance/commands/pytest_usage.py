"""pytest's refusal of a `rebootspec run` command line, in rebootspec's words.

pytest answers an option typo with its usage line, `pytest.main(): error: ...` and the ini file
and rootdir inside the installed package: nothing a user typed. `OwnUsageErrors`, a plugin of
that one run, turns it into `CommandLineError` with one phrase (the nearest option for a typo),
which `rebootspec run` prints as its usage error. The option names come from the parser pytest
hands every plugin, so pytest's own options and other plugins' count too. Imported only when a
suite runs: it needs pytest.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from ..options import PYTEST_PREFIXED, SETTINGS
from .usage import unknown_words

UNRECOGNIZED = "unrecognized arguments: "


class CommandLineError(Exception):
    """pytest refused the command line; the message is one phrase saying what was wrong.
    `usage` is False for a run that cannot start for another reason (`error:`, not a slip)."""

    def __init__(self, message: str, *, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


class OwnUsageErrors:
    """The plugin: remembers pytest's parser, and rewords a usage error raised while parsing
    or while the run is set up and collected (a bad setting, a `-k` that selects nothing, a
    test path that does not exist), so each is one line of rebootspec's and exit 2."""

    # The conformance plugin asks for this (plugin._own_errors) before raising rather than
    # printing pytest's `Exit:` banner.
    rebootspec_own_errors = True

    def __init__(self) -> None:
        self.parser: pytest.Parser | None = None

    @pytest.hookimpl(wrapper=True)
    def pytest_cmdline_main(self) -> Generator[None, object, object]:
        from ..plugin import NOT_A_SLIP

        try:
            return (yield)
        except pytest.UsageError as error:
            usage = not getattr(error, NOT_A_SLIP, False)
            raise CommandLineError(" ".join(str(error).split()), usage=usage) from None

    def pytest_addoption(self, parser: pytest.Parser) -> None:
        self.parser = parser

    @pytest.hookimpl(wrapper=True)
    def pytest_cmdline_parse(self) -> Generator[None, pytest.Config, pytest.Config]:
        try:
            return (yield)
        except pytest.UsageError as error:
            raise CommandLineError(message(str(error), self.known_options())) from None

    def known_options(self) -> list[str]:
        """Every option name `rebootspec run` accepts (its short names, not pytest's)."""
        argparser = getattr(self.parser, "optparser", None)
        actions = getattr(argparser, "_actions", [])
        names = {name for action in actions for name in action.option_strings}
        names |= {setting.flag for setting in SETTINGS.values()}
        # `rebootspec run` takes --profile and --corpus (options.pytest_argv renames them)
        names -= {SETTINGS[dest].pytest_flag for dest in PYTEST_PREFIXED}
        return sorted(names)


def message(text: str, known: list[str]) -> str:
    """The phrase of argparse's error inside pytest's usage error; a typo gets its nearest."""
    lines = text.strip().splitlines() or [text]
    line = next((ln for ln in lines if ": error: " in ln), lines[-1])
    phrase = line.split(": error: ", 1)[-1].strip()
    if phrase.startswith(UNRECOGNIZED):
        return unknown_words(phrase[len(UNRECOGNIZED) :].split(" "), known)
    for dest in PYTEST_PREFIXED:  # the names `rebootspec run` takes, as the user typed them
        phrase = phrase.replace(SETTINGS[dest].pytest_flag, SETTINGS[dest].flag)
    return phrase
