"""The contribution tools (`anonymize`, `add-fixture`) print names as every command does (ERR-10).

The generators never import the reference, so `generators/usage.py` holds its own `shown`; it
must give what `reference.core.printable.printable` gives, character class by character class
(the classes ERR-10 names), or a name would be escaped one way by `count` and another by
`add-fixture`. Then each tool, given a file whose name holds an escape sequence, a line break
and a byte that is not UTF-8, prints it escaped on one line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebootspec.conformance.commands.contribute import add_fixture, anonymize
from rebootspec.generators.usage import shown
from rebootspec.reference.core.printable import printable

ROOT = Path(__file__).resolve().parents[2]
CLAUDE = ROOT / "fixtures" / "446W" / "session.jsonl"  # claude-code/sidechain/cc1: one reboot

# One of each class ERR-10 names: C0, DEL, C1, the two separators, a bidirectional override,
# a lone surrogate, a byte of a name that is not UTF-8; and text that stays as it is.
CLASSES = "a\x00\x1b\n\x7f\x85\x9f\u2028\u2029\u202e\u2066\ud800\udcff\udc80é中 \t\\"


@pytest.mark.parametrize("character", list(CLASSES))
def test_each_class_is_escaped_as_the_reference_escapes_it(character: str) -> None:
    assert shown(character) == printable(character)


@given(st.text(alphabet=st.characters(codec=None), max_size=40))
def test_any_text_is_escaped_as_the_reference_escapes_it(text: str) -> None:
    assert shown(text) == printable(text)


def test_a_path_is_shown_by_its_text() -> None:
    assert shown(Path("a\x1bb")) == printable("a\x1bb") == "a\\x1bb"


NAME = os.fsdecode(b"x\x1b[31mRED\x1b]0;pwned\x07\nerror: forged-\xff.jsonl")


def _one_line_named(stderr: str) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert printable(NAME) in lines[0], lines[0]
    assert not [c for c in stderr if ord(c) < 32 and c != "\n"], stderr


def test_anonymize_names_a_strange_file_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / NAME
    source.write_bytes(b"not a session of any host\n")
    assert anonymize([str(source), str(tmp_path / "out.jsonl")]) == 2
    _one_line_named(capsys.readouterr().err)
    assert not (tmp_path / "out.jsonl").exists()


def test_add_fixture_names_a_strange_file_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reference's view and the refusal name the file escaped; nothing is written."""
    source = tmp_path / NAME
    source.write_bytes(CLAUDE.read_bytes())
    corpus = tmp_path / "corpus"
    args = ["--title", "a strange name given as a session", "--rules", "CNT-2"]
    args += ["--tags", "push-append", "--era", "none", "--expect-reboots", "7", "--hand-written"]
    assert add_fixture([str(source), *args, "--fixtures", str(corpus)]) == 3  # 1 reboot, not 7
    out = capsys.readouterr()
    assert f"the reference's view of {printable(str(source))}:" in out.out
    assert not [c for c in out.out + out.err if ord(c) < 32 and c != "\n"], out
    assert not corpus.exists() or not any(corpus.iterdir())
