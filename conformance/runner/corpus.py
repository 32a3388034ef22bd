"""The corpus as the runner sees it: one `Case` per `fixtures/<ID>/` folder (spec/FIXTURES.md).

Reading case.toml, the tag list and the spec's version belongs to the generator's `casefile`
(the one owner of case metadata); here is only what the runner adds: the normative answer a
snapshot pins, and one error type. The full lint of the metadata (schema, rule coverage,
retired IDs) belongs to `tox -e corpus`. A broken case still stops the run with one line naming
its file, because a run over a corpus it cannot read would gate on nothing.
"""

from __future__ import annotations

from pathlib import Path

from ...generators.corpus import casefile
from ...generators.hosts.vscode import eras
from .. import SPEC_DIR


class CorpusError(Exception):
    """The corpus cannot be read; the message is one line naming the file."""


# A case as the runner sees it is the metadata the corpus's one reader gives.
Case = casefile.CaseMeta


def load_case(folder: Path) -> Case:
    """Read `folder/case.toml`; raises CorpusError with a one-line reason."""
    try:
        return casefile.load_case(folder)
    except casefile.CaseFileError as error:
        raise CorpusError(str(error)) from None


def load_corpus(root: Path) -> list[Case]:
    """Every case under `root`, sorted by ID. Folders without case.toml are not cases. A folder
    that cannot be listed (a name too long, no permission) is a CorpusError naming it."""
    from ...reference.core.errors import os_reason

    try:
        if not root.is_dir():
            raise CorpusError(f"{root}: the corpus folder does not exist")
        name = casefile.CASE_FILE
        folders = sorted(p for p in root.iterdir() if p.is_dir() and (p / name).exists())
    except OSError as error:
        raise CorpusError(f"{root}: cannot read the corpus folder: {os_reason(error)}") from None
    return [load_case(folder) for folder in folders]


def known_tags(spec_dir: Path = SPEC_DIR) -> list[str]:
    """The closed tag list of spec/tags.toml, in its order (the rows of the report's matrix).

    Empty when the table cannot be read: the report then has no matrix rows, nothing worse.
    """
    try:
        return casefile.known_tags(spec_dir)
    except casefile.CaseFileError:
        return []


def spec_version(spec_dir: Path = SPEC_DIR) -> str:
    """`spec_version` of spec/eras.toml (ERA-1), for report headers; "unknown" if unreadable."""
    return eras.spec_version(spec_dir / "eras.toml")


def known_hosts(spec_dir: Path = SPEC_DIR) -> list[str]:
    """The host names of spec/hosts.toml (HST-1); empty when the table cannot be read."""
    try:
        return casefile.known_hosts(spec_dir)
    except casefile.CaseFileError:
        return []
