"""The Copilot CLI harvest driver's own decisions (generators/harvest/hosts/copilot_cli.py),
without running the CLI: which versions can run which scenario, and the terminal's answers
its interactive interface waits for."""

from __future__ import annotations

from rebootspec.generators.harvest.hosts import copilot_cli


def test_versions_before_local_providers_and_fork_are_not_driven() -> None:
    assert not copilot_cli.supports("1.0.9", "mixed")  # no local provider before 1.0.10
    assert copilot_cli.supports("1.0.10", "mixed")
    assert not copilot_cli.supports("1.0.44", "fork")  # /fork came in 1.0.45
    assert copilot_cli.supports("1.0.102", "rewind")
    assert not copilot_cli.supports("1.0.102", "no-such-scenario")


def test_the_terminal_queries_get_a_plain_xterms_answers() -> None:
    chunk = b"\x1b[?2026$p\x1b[>q\x1b[c\x1b[6n\x1b]11;?\x07text"
    replies = copilot_cli._answers(chunk)
    assert b"\x1b[?62;22c" in replies  # device attributes
    assert b"\x1b[1;1R" in replies  # cursor position
    assert b"\x1b[?2026;2$y" in replies  # a private mode: reset
    assert any(r.startswith(b"\x1bP>|") for r in replies)  # name and version
    assert b"\x1b]11;rgb:0000/0000/0000\x1b\\" in replies  # background colour
    assert copilot_cli._answers(b"plain output") == []
