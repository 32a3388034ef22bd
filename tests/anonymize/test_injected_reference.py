"""The contribution tools compare with the reference they are given, never one they import.

`anonymize` and `add-fixture` live in the generator package, which may not import the
reference; `rebootspec` hands them a `ReferenceView`. A fake view that disagrees with the real
reference proves the tools use what they were given, for both files they compare.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rebootspec.conformance.commands.contribute import reference_view
from rebootspec.generators.anonymize.command import cli as anonymize
from rebootspec.generators.corpus.add_fixture import cli as add_fixture

# One compaction with summary "Ab3": the real reference counts one reboot.
LOG = (
    b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}\n'
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"Qx1","response":[{"kind":'
    b'"progressTaskSerialized","content":{"value":"Compacted conversation"}}],'
    b'"result":{"metadata":{"summaries":[{"text":"Ab3"}]}}}]}\n'
)
SECRET = ["--secret-hex", "0123abcd"]


def count(reboots: int) -> dict[str, Any]:
    """A count answer in the shape of the reference's OUT-1 JSON."""
    return {
        "outcome": "count",
        "reboots": reboots,
        "reboots_possible": reboots,
        "requests": 1,
        "reboot_events": [],
        "duplicates": [],
        "phantoms": [],
        "removed": [],
        "warnings": [],
    }


class Fake:
    """A reference that answers from a script and records what it was asked about."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.asked: list[Path] = []

    def __call__(self, session: Path) -> tuple[dict[str, Any], str]:
        self.asked.append(session)
        return self.answers[len(self.asked) - 1], "FAKE TIMELINE\n"


def fixture_argv(tmp_path: Path, expect: str) -> list[str]:
    session = tmp_path / "s.jsonl"
    session.write_bytes(LOG)
    (tmp_path / "fixtures").mkdir(exist_ok=True)
    return [
        str(session),
        *["--title", "one compaction with summary Ab3; one reboot", "--rules", "CNT-2"],
        *["--tags", "summaries-array", "--era", "compacted-summaries", "--hand-written"],
        *["--expect-reboots", expect, "--fixtures", str(tmp_path / "fixtures")],
    ]


def written(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "fixtures").iterdir())


def test_the_real_view_answers_as_plain_data(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(LOG)
    answer, text = reference_view(session)
    assert answer["outcome"] == "count" and answer["reboots"] == 1
    assert "REBOOT" in text
    session.write_bytes(b"")
    answer, text = reference_view(session)
    assert (answer["outcome"], answer["error"], answer["line"]) == ("reject", "E-EMPTY", 0)
    assert answer["reason"]
    assert text.startswith(f"error: {session}:0: E-EMPTY: ")


def test_add_fixture_refuses_when_the_given_reference_disagrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real reference says 1, as the person does; the injected one says 5: refused."""
    fake = Fake(count(5))
    assert add_fixture(fixture_argv(tmp_path, "1"), fake) == 3
    assert fake.asked == [tmp_path / "s.jsonl"]
    assert written(tmp_path) == []
    out = capsys.readouterr().out
    assert "FAKE TIMELINE" in out and "the reference says: reboots 5" in out


def test_add_fixture_writes_when_the_given_reference_agrees(tmp_path: Path) -> None:
    """The person and the injected reference say 7 (the real one would say 1): written."""
    assert add_fixture(fixture_argv(tmp_path, "7"), Fake(count(7))) == 0
    assert len(written(tmp_path)) == 1


def test_add_fixture_compares_a_rejection_by_code_and_line(tmp_path: Path) -> None:
    argv = fixture_argv(tmp_path, "1")
    at = argv.index("--expect-reboots")
    argv[at : at + 2] = ["--expect-reject", "E-JSON", "--line", "2"]
    rejected = {"outcome": "reject", "error": "E-JSON", "line": 2, "reason": "fake"}
    assert add_fixture(argv, Fake(rejected)) == 0
    assert add_fixture(argv, Fake({**rejected, "line": 1})) == 3


def test_add_fixture_reports_a_failing_reference_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(session: Path) -> tuple[dict[str, Any], str]:
        raise RuntimeError("boom")

    assert add_fixture(fixture_argv(tmp_path, "1"), broken) == 3
    assert written(tmp_path) == []
    assert "the reference failed" in capsys.readouterr().err


def test_anonymize_asks_the_given_reference_about_both_files(tmp_path: Path) -> None:
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    fake = Fake(count(4), count(4))
    assert anonymize([str(source), str(target), *SECRET], fake) == 0
    assert fake.asked == [source, target]
    assert target.exists()


def test_anonymize_deletes_the_output_when_the_given_reference_sees_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    assert anonymize([str(source), str(target), *SECRET], Fake(count(1), count(2))) == 3
    assert not target.exists()
    err = capsys.readouterr().err
    assert "original:   reboots 1" in err and "anonymized: reboots 2" in err


def test_anonymize_without_check_never_asks_the_reference(tmp_path: Path) -> None:
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    fake = Fake()
    assert anonymize([str(source), str(target), *SECRET, "--no-check"], fake) == 0
    assert fake.asked == []
