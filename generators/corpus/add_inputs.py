"""What `add-fixture` copies into a case: one session file, or the files of a folder container.

spec/FIXTURES.md: a `.jsonl`/`.json` log becomes `session.<container>`; a host that keeps a
session in several files gets the folder `input/` and `input` naming what the candidate is given:
- `markdown`: a basic-agent-chat-loop session file and the earlier files its chain links to
  (the header's `**Resumed From:**` id, `<id>.md` in the same folder, BCL-4);
- `sqlite`: an opencode database and its `-wal`/`-journal` (where committed rows may live);
- `storage`: an opencode storage folder (`session/` and `message/` inside), whole.

An input's digest says whether the corpus has it already: the session file's, the asked chat-loop
file's or the database's SHA-256, or for a storage folder the digest of its files' names and
digests; a case's is computed the same way from its `session.*` or `input/<input>`.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-journal")
LINK = re.compile(r"\*\*Resumed From:\*\* (?P<id>[^ /\\]+)")
MAX_CHAIN = 10_000  # BCL-7's bound on a chain


@dataclass
class Inputs:
    """One contributed input: its container, the name the candidate gets, the files to copy."""

    container: str
    input: str | None = None  # folder containers: what {path} names under input/
    files: dict[str, Path] = field(default_factory=dict)  # path under input/ -> the file
    digest: str = ""

    def data(self) -> bytes:
        """Every byte of the input (for the look of a file that was not anonymized)."""
        return b"".join(path.read_bytes() for path in self.files.values())


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree_digest(folder: Path) -> str:
    """A folder's digest: its files' relative names and digests, in order."""
    found = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        found.update(f"{path.relative_to(folder).as_posix()}\0{sha(path)}\n".encode())
    return found.hexdigest()


def inputs_of(path: Path) -> Inputs | str:
    """The input at `path`, or why it is none add-fixture takes."""
    if path.is_dir():
        if not all((path / name).is_dir() for name in ("session", "message")):
            return f"{path}: a folder that is no opencode storage folder (session/, message/)"
        files = {
            f"storage/{p.relative_to(path).as_posix()}": p
            for p in sorted(path.rglob("*"))
            if p.is_file()
        }
        return Inputs("storage", "storage", files, tree_digest(path))
    if not path.is_file():
        return f"{path}: no such file"
    if path.suffix in (".json", ".jsonl"):
        return Inputs(path.suffix.lstrip("."), None, {path.name: path}, sha(path))
    if path.suffix == ".md":
        files = {path.name: path}
        for earlier in chain(path):
            files[earlier.name] = earlier
        return Inputs("markdown", path.name, files, sha(path))
    with path.open("rb") as stream:
        if stream.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:
            files = {"opencode.db": path}
            for suffix in SIDE_FILES:
                side = Path(f"{path}{suffix}")
                if side.is_file():
                    files[f"opencode.db{suffix}"] = side
            return Inputs("sqlite", "opencode.db", files, sha(path))
    return f"{path}: not a .json, .jsonl or .md file, an opencode database or storage folder"


def chain(path: Path) -> list[Path]:
    """The earlier session files a chat-loop file's count walks (those that exist)."""
    found: list[Path] = []
    seen = {path.resolve()}
    current = path
    for _ in range(MAX_CHAIN):
        ident = _link(current)
        if ident is None:
            break
        earlier = current.parent / f"{ident}.md"
        if not earlier.is_file() or earlier.resolve() in seen:
            break
        seen.add(earlier.resolve())
        found.append(earlier)
        current = earlier
    return found


def _link(path: Path) -> str | None:
    """The id in the header's `**Resumed From:**` line (the header ends at `---`)."""
    with path.open("rb") as stream:
        head = stream.read(64 * 1024).decode("utf-8", "replace")
    for line in head.split("\n")[1:64]:
        line = line.removesuffix("\r")
        if line == "---":
            return None
        match = LINK.fullmatch(line.strip(" \t"))
        if match is not None:
            return match.group("id")
    return None


def case_digest(folder: Path) -> str | None:
    """A corpus case's input digest, computed as `inputs_of` computes a new input's."""
    sessions = sorted(folder.glob("session.*"))
    if sessions:
        return sha(sessions[0])
    try:
        with (folder / "case.toml").open("rb") as handle:
            name = tomllib.load(handle).get("input")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    target = folder / "input" / str(name)
    if target.is_dir():
        return tree_digest(target)
    return sha(target) if target.is_file() else None
