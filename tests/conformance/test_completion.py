"""`rebootspec completion SHELL`: the scripts complete what the command line really takes.

Why: a completion script that offers an option the command refuses, or misses a subcommand,
teaches a user the wrong command line. The scripts are made from the parsers; these tests hold
them to the CLI's table and, for bash, run the completion function as bash would on a Tab.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from rebootspec.conformance.cli import COMMANDS
from rebootspec.conformance.commands import completion


def rebootspec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def scripts() -> dict[str, str]:
    return {shell: completion.script(shell) for shell in completion.SHELLS}


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_every_subcommand_is_offered(shell: str, scripts: dict[str, str]) -> None:
    for name in COMMANDS:
        assert name in scripts[shell], (shell, name)


def test_each_subcommands_own_parser_is_found() -> None:
    """Every subcommand with options has its real parser in the tree, not an empty stand-in
    (a subcommand whose parser could not be captured would offer nothing after its name)."""
    import argparse

    tree = completion.tree()
    (subcommands,) = [a for a in tree._actions if isinstance(a, argparse._SubParsersAction)]
    for name in COMMANDS:
        parser = subcommands.choices[name]
        options = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
        assert options or name == "version", name


# Options a user types, one per kind of parser the script is made from.
OPTIONS = {
    "count": "--readable",  # the reference's own parser
    "sessions": "--since",  # a subcommand's build_parser
    "compare": "--allow-different",  # a parser built inside the subcommand's function
    "run": "--known-divergences",  # the conformance settings (run is pytest)
    "whoami": "--field",  # read by hand: whoami's option tuple
    "hook": "--out",
}


def complete_bash(script: str, words: list[str]) -> list[str]:
    """What bash offers on a Tab after `words` (the last one being typed)."""
    program = (
        f"{script}\n"
        f"COMP_WORDS=({' '.join(words)}); COMP_CWORD={len(words) - 1}\n"
        f'COMP_LINE="{" ".join(words)}"; COMP_POINT=${{#COMP_LINE}}\n'
        "_shtab_rebootspec\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "-c", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_bash_completes_a_subcommand(scripts: dict[str, str]) -> None:
    assert complete_bash(scripts["bash"], ["rebootspec", "sess"]) == ["sessions"]
    assert "completion" in complete_bash(scripts["bash"], ["rebootspec", "co"])


@pytest.mark.parametrize(("command", "option"), OPTIONS.items())
def test_bash_completes_each_subcommands_options(
    command: str, option: str, scripts: dict[str, str]
) -> None:
    offered = complete_bash(scripts["bash"], ["rebootspec", command, option[:4]])
    assert option in offered, offered


def test_bash_offers_the_registrys_hosts_for_host(scripts: dict[str, str]) -> None:
    from rebootspec.reference.core.registry import host_keys

    offered = complete_bash(scripts["bash"], ["rebootspec", "count", "--host", "''"])
    assert set(host_keys()) <= set(offered), offered


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_the_script_is_valid_for_its_shell(shell: str, scripts: dict[str, str]) -> None:
    program = shutil.which(shell)
    if program is None:
        pytest.skip(f"{shell} is not installed (the bash script is run above)")
    done = subprocess.run(
        [program, "-n"], input=scripts[shell], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_command_prints_the_script_and_refuses_an_unknown_shell() -> None:
    done = rebootspec("completion", "bash")
    assert done.returncode == 0 and "_shtab_rebootspec" in done.stdout, done.stderr
    wrong = rebootspec("completion", "tcsh")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.count("\n") == 1 and wrong.stderr.startswith("usage error:")
