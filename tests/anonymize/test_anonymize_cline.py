"""`rebootspec anonymize` on the Cline family's session folders (CLN-1, CLN-12; issue #44).

A secret is planted in the task's first message, in a path inside the api history and in a
summary; the copy must hold it nowhere (bytes and file names), keep the folder's shape, and
count what the case's `case.toml` says (a generator's plan), never what the reference said of
the original.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from tests.anonymize.test_anonymize_hosts import HEX, SECRET, every_file, outcome, run

ROOT = Path(__file__).resolve().parents[2]
FAMILY = ("cline", "roo-code", "kilo-code")


def _cases() -> list[Path]:
    found = []
    for meta in sorted((ROOT / "fixtures").glob("*/case.toml")):
        case = tomllib.loads(meta.read_text("utf-8"))
        if case.get("host") in FAMILY and case["container"] == "folder":
            found.append(meta.parent)
    return found


CASES = _cases()


def _plant(folder: Path) -> None:
    """The secret in every JSON file's first string that is a person's text."""
    for path in folder.glob("*.json"):
        text = path.read_text("utf-8")
        for marker in ('"text":"', '"text": "', '"content": [{"type": "text", "text": "'):
            if marker in text:
                text = text.replace(marker, marker + SECRET + " /home/" + SECRET + "/x ", 1)
                break
        path.write_text(text, "utf-8")


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_a_planted_secret_is_gone_and_the_count_stays(case: Path, tmp_path: Path) -> None:
    meta = tomllib.loads((case / "case.toml").read_text("utf-8"))
    task = Path(meta["input"]).parts[0]  # the folder, also when the case gives its ui file
    source = tmp_path / "in" / task
    shutil.copytree(case / "input" / task, source)
    _plant(source)
    assert any(SECRET.encode() in data for _, data in every_file(source))
    target = tmp_path / "out"
    code, _, err = run([str(source), str(target), *HEX])
    assert code == 0, err
    expect = meta["expect"]
    got = outcome(target, None)
    if expect["outcome"] == "count":
        assert got == {"outcome": "count", "reboots": expect["reboots"]}
    else:
        assert (got["outcome"], got["error"]) == ("reject", expect["error"])
    for where, data in every_file(target):
        assert SECRET.encode() not in data, where
    names = sorted(p.name.replace(source.name, "<id>") for p in source.glob("*.json"))
    assert sorted(p.name.replace("out", "<id>") for p in target.glob("*.json")) == names
    for path in target.glob("*.json"):  # each document parses after exactly when it did before
        before = source / path.name.replace("out", source.name)
        assert _parses(path.read_bytes()) == _parses(before.read_bytes()), path.name


def _parses(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def test_a_file_of_the_folder_is_refused_with_advice(tmp_path: Path) -> None:
    case = CASES[0]
    meta = tomllib.loads((case / "case.toml").read_text("utf-8"))
    ui = case / "input" / Path(meta["input"]).parts[0] / "ui_messages.json"
    code, _, err = run([str(ui), str(tmp_path / "out.json"), *HEX])
    assert code == 2 and "folder" in err


def test_every_member_mark_survives_anonymizing() -> None:
    """CLN-2: the says and asks that name a member are kept, or an anonymized Roo or Kilo folder
    would be answered as Cline's (the policy's lists are a copy of the marks': checked here)."""
    from rebootspec.reference.hosts.cline import anonymize, marks

    assert marks.ROO_SAYS <= anonymize.SAYS
    assert marks.ROO_ASKS | marks.KILO_ASKS | {"condense"} <= anonymize.ASKS
