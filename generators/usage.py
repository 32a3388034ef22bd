"""argparse for the generator's command lines: a usage error is one line and exit 2.

The generator may not import the reference (whose command line has the same rule), so it keeps
its own small parser; the message reads like every other rebootspec usage error. An option
nobody knows is named with the nearest real one (`unknown_words`, also used by the conformance
commands), since a typo is the most common usage error and the fix is one word away.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterable
from typing import NoReturn

EXIT_USAGE = 2

# argparse's own wording for words that no option or positional took.
UNRECOGNIZED = "unrecognized arguments: "


def unknown_words(words: list[str], known: Iterable[str]) -> str:
    """What was typed wrong, in one phrase: the first unknown option and the nearest known one
    (difflib), or the first unexpected word. `words` are argparse's leftovers, in order."""
    for word in words:
        if word.startswith("-") and word != "-":
            name = word.partition("=")[0]
            near = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
            return f"unknown option {name}" + (f"; did you mean {near[0]}?" if near else "")
    return f"unexpected argument {words[0]!r}" if words else "unexpected arguments"


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string a parser accepts (`--candidate`, `-h`...)."""
    return [name for action in parser._actions for name in action.option_strings]


def plain_message(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's error message, with unknown words named as `unknown_words` does."""
    if message.startswith(UNRECOGNIZED):
        return unknown_words(message[len(UNRECOGNIZED) :].split(" "), option_strings(parser))
    return message


class UsageParser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line on stderr and exit 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        # The message may quote what was typed (ERR-10): escaped, one line.
        line = f"usage error: {self.prog}: {plain_message(self, message)} (try --help)"
        sys.stderr.write(f"{shown(line)}\n")
        raise SystemExit(EXIT_USAGE)


def os_reason(error: OSError) -> str:
    """An operating system's refusal in rebootspec's one wording: "no such file" for a missing
    file, else the system's words. The same as `reference.core.errors.os_reason`, written
    again because the generators never import the reference (a test checks they agree)."""
    import errno

    if error.errno == errno.ENOENT:
        return "no such file"
    return error.strerror or str(error)


# ERR-10's escaping of text from the disk, for the contribution tools' messages (a path, an id,
# a title): the same as `reference.core.printable.printable`, written again because the
# generators never import the reference (tests/hostile/test_contribution_output.py checks
# that both give the same text for every character class it names).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def shown(text: object) -> str:
    """`str(text)` with nothing a terminal would act on: one line, no escape sequence; a byte
    of a file name that is not UTF-8 as `\\xNN`. Paths may be passed as they are."""
    value = str(text)
    if value.isprintable():
        return value
    return "".join(_escaped(character) for character in value)


def _escaped(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python decodes file names
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    if character in _BIDI or character in "\u2028\u2029" or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return character
