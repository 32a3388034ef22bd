"""The corpus as the runner sees it: one `Case` per `fixtures/<ID>/` folder (spec/FIXTURES.md).

Only what the runner needs is read here; the full lint of the metadata (schema, rule coverage,
retired IDs) belongs to `tox -e corpus`. A broken case still stops the run with one line naming
its file, because a run over a corpus it cannot read would gate on nothing.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import SPEC_DIR

# A four-character ID, or a real log's `realworld-<slug>` (spec/FIXTURES.md, "Real logs").
ID_PATTERN = re.compile(r"^(?:[A-HJ-NP-Z2-9]{4}|realworld-[a-z0-9-]+)$")


class CorpusError(Exception):
    """The corpus cannot be read; the message is one line naming the file."""


@dataclass(frozen=True)
class Case:
    """One corpus case: its metadata and the path of its input."""

    id: str
    title: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    era: str
    container: str
    expect: dict[str, Any]
    input: Path

    def expected_answer(self) -> dict[str, Any]:
        """The normative answer as pinned in a snapshot: the count, or only "reject" (PRO-2)."""
        if self.expect["outcome"] == "count":
            return {"outcome": "count", "reboots": self.expect["reboots"]}
        return {"outcome": "reject"}


def load_case(folder: Path) -> Case:
    """Read `folder/case.toml`; raises CorpusError with a one-line reason."""
    meta_path = folder / "case.toml"
    try:
        with meta_path.open("rb") as handle:
            meta = tomllib.load(handle)
    except OSError as error:
        raise CorpusError(f"{meta_path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise CorpusError(f"{meta_path}: not TOML: {error}") from None
    try:
        return _case_from(meta, folder)
    except (KeyError, TypeError, ValueError) as error:
        raise CorpusError(f"{meta_path}: bad metadata: {error}") from None


def _case_from(meta: dict[str, Any], folder: Path) -> Case:
    case_id = meta["id"]
    if case_id != folder.name or not ID_PATTERN.match(str(case_id)):
        raise ValueError(f"id {case_id!r} does not match the folder name {folder.name!r}")
    container = meta["container"]
    if container not in ("jsonl", "json"):
        raise ValueError(f"container {container!r} is not jsonl or json")
    expect = dict(meta["expect"])
    if expect.get("outcome") == "count":
        reboots = expect.get("reboots")
        if not isinstance(reboots, int) or isinstance(reboots, bool) or reboots < 0:
            raise ValueError("expect.reboots must be a non-negative integer")
    elif expect.get("outcome") != "reject":
        raise ValueError(f"expect.outcome {expect.get('outcome')!r} is not count or reject")
    source = folder / f"session.{container}"
    if not source.is_file():
        raise ValueError(f"the input {source.name} is missing")
    return Case(
        id=case_id,
        title=str(meta["title"]),
        rules=tuple(str(rule) for rule in meta["rules"]),
        tags=tuple(str(tag) for tag in meta["tags"]),
        era=str(meta["era"]),
        container=container,
        expect=expect,
        input=source,
    )


def load_corpus(root: Path) -> list[Case]:
    """Every case under `root`, sorted by ID. Folders without case.toml are not cases."""
    if not root.is_dir():
        raise CorpusError(f"{root}: the corpus folder does not exist")
    folders = sorted(p for p in root.iterdir() if p.is_dir() and (p / "case.toml").exists())
    return [load_case(folder) for folder in folders]


def known_tags(spec_dir: Path = SPEC_DIR) -> list[str]:
    """The closed tag list of spec/tags.txt, in its order (the rows of the report's matrix)."""
    try:
        text = (spec_dir / "tags.txt").read_text(encoding="utf-8")
    except OSError:
        return []
    tags = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            tags.append(line.split()[0])
    return tags


def spec_version(spec_dir: Path = SPEC_DIR) -> str:
    """`spec_version` of spec/eras.toml (ERA-1), for report headers; "unknown" if unreadable."""
    try:
        with (spec_dir / "eras.toml").open("rb") as handle:
            return str(tomllib.load(handle).get("spec_version", "unknown"))
    except (OSError, tomllib.TOMLDecodeError):
        return "unknown"
