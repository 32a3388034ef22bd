"""explain tells the truth in its details (issue #35), on real files of the corpus.

What each file should say comes from outside the reference: the harvest's own record of the
scenario it ran (`harvest:codex@0.169.0/auto-mid-turn`: the model was told to report tokens
mid-turn; `/manual`: the script sent `/compact` in a turn of its own), a case's plan, and the
bytes of the input (where a `## Session Restored` heading is).
"""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

from rebootspec.reference.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def case(name: str) -> Path:
    """The folder of the case with this readable name (spec/FIXTURES.md, "Names")."""
    for folder in sorted(FIXTURES.iterdir()):
        toml = folder / "case.toml"
        if toml.is_file() and tomllib.loads(toml.read_text("utf-8")).get("name") == name:
            return folder
    raise LookupError(name)


def explain(path: Path) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["explain", str(path)], out, err) == 0, err.getvalue()
    return out.getvalue().splitlines()


def reboot_rows(path: Path) -> list[str]:
    return [row for row in explain(path) if "REBOOT" in row]


def test_codex_automatic_mid_turn_compactions_are_not_called_manual() -> None:
    """0.169 writes no `user_message` event: the turn's user message is a `UserMessage` item."""
    rows = reboot_rows(case("codex/harvested/auto-mid-turn/0.169.0") / "session.jsonl")
    assert len(rows) == 3  # the harvest's record: three compactions caused
    assert all("trigger auto, when mid-turn" in row for row in rows), rows


def test_codex_manual_compactions_stay_manual() -> None:
    rows = reboot_rows(case("codex/harvested/manual/0.130.0") / "session.jsonl")
    assert rows and all("trigger manual" in row and "when" not in row for row in rows), rows


def test_codex_pre_turn_compactions_say_so() -> None:
    """0.166: the compaction is written in the new turn before its `UserMessage` item."""
    folder = case("codex/harvested/fork/0.166.0")
    data = (folder / "session.jsonl").read_text("utf-8").splitlines()
    rows = reboot_rows(folder / "session.jsonl")
    assert rows
    for row in rows:
        line = int(row.split()[1])
        later = data[line:]
        user = next(i for i, text in enumerate(later) if '"UserMessage"' in text)
        start = next((i for i, text in enumerate(later) if '"task_started"' in text), len(later))
        assert user < start  # the user's message follows in the same turn
        assert "trigger auto, when pre-turn" in row, row


def test_pi_branch_flags_are_words() -> None:
    """The plan of the case: one compaction on the abandoned branch, one on the current path."""
    text = "\n".join(explain(case("pi/abandoned-branch/v3") / "session.jsonl"))
    assert "True" not in text and "False" not in text and "on_path" not in text
    assert text.count("on an abandoned branch, counted too (RBT-4)") == 1
    assert text.count("REBOOT  (on the current path)") == 1


def test_the_chat_loop_timeline_runs_oldest_first_with_each_files_line() -> None:
    folder = case("chat-loop/harvested/compact-twice/1.9.0")
    asked = tomllib.loads((folder / "case.toml").read_text("utf-8"))["input"]
    rows = reboot_rows(folder / "input" / asked)
    names = [row.split(":")[0] for row in rows]
    assert names == sorted(names)  # harvest_<date>_<time>.md: the names are in time order
    assert names[-1] == asked
    for row in rows:
        name, line = row.split()[0].split(":")
        text = (folder / "input" / name).read_text("utf-8").splitlines()
        assert text[int(line) - 1].startswith("## Session Restored (")
