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

from ..usage import shown

SQLITE_MAGIC = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-journal")
LINK = re.compile(r"\*\*Resumed From:\*\* (?P<id>[^ /\\]+)")
MAX_CHAIN = 10_000  # BCL-7's bound on a chain
# The most a contributed input may weigh, all its files together: a corpus case is a file people
# review and a repository keeps (a longer session is cut first). Checked on the sizes before a
# byte is read, so a huge or sparse file (1 GiB of NULs) is refused at once, not hashed and
# counted for a minute; `anonymize` holds its input to the same bound.
MAX_INPUT_BYTES = 256 * 2**20


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
    """The file's SHA-256, read a chunk at a time (never the whole file in memory)."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def tree_digest(folder: Path) -> str:
    """A folder's digest: its files' relative names and digests, in order."""
    found = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        found.update(f"{path.relative_to(folder).as_posix()}\0{sha(path)}\n".encode())
    return found.hexdigest()


def inputs_of(path: Path) -> Inputs | str:
    """The input at `path`, or why it is none add-fixture takes (one line, the name escaped)."""
    found = _inputs_of(path)
    if isinstance(found, str):
        return found
    size = sum(file.stat().st_size for file in found.files.values())
    if size > MAX_INPUT_BYTES:
        return (
            f"{shown(path)}: {size:,} bytes, more than a corpus case may be "
            f"({MAX_INPUT_BYTES:,}); cut the session first"
        )
    found.digest = tree_digest(path) if path.is_dir() else sha(path)
    return found


def _inputs_of(path: Path) -> Inputs | str:
    if path.is_dir():
        if not all((path / name).is_dir() for name in ("session", "message")):
            return (
                f"{shown(path)}: a folder that is no opencode storage folder (session/, message/)"
            )
        files = {
            f"storage/{p.relative_to(path).as_posix()}": p
            for p in sorted(path.rglob("*"))
            if p.is_file()
        }
        return Inputs("storage", "storage", files)
    if not path.is_file():
        if path.exists():  # ERR-12: never opened (a FIFO would block, a device never ends)
            return f"{shown(path)}: not a regular file (a FIFO, a socket or a device is never read)"
        return f"{shown(path)}: no such file"
    if path.suffix in (".json", ".jsonl"):
        return Inputs(path.suffix.lstrip("."), None, {path.name: path})
    if path.suffix == ".md":
        files = {path.name: path}
        for earlier in chain(path):
            files[earlier.name] = earlier
        return Inputs("markdown", path.name, files)
    with path.open("rb") as stream:
        if stream.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:
            files = {"opencode.db": path}
            for suffix in SIDE_FILES:
                side = Path(f"{path}{suffix}")
                if side.is_file():
                    files[f"opencode.db{suffix}"] = side
            return Inputs("sqlite", "opencode.db", files)
    return f"{shown(path)}: not a .json, .jsonl or .md file, an opencode database or storage folder"


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
