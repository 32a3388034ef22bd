"""`rebootspec anonymize IN OUT` for the hosts other than VS Code: every input shape, checked.

The host that claims IN (the injected `HostView`, generators/view.py) gives its policy; its
`format` says the shape:

- `records`: one file (a Codex rollout, a pi session, a Claude Code transcript, a Gemini CLI
  chat), OUT one file of the same suffix;
- `markdown`: a chat-loop session file and the files its count walks (the header's link to the
  previous file, in the same folder, until a file that names none): OUT is the asked file's new
  place, the earlier files go beside it under their new ids;
- `folder`: a session folder of several JSON documents (a Cline family task folder, a Cline SDK
  session folder): OUT a new folder holding every `.json` file rewritten whole; other files
  (images, `settings` of other formats) are left out, and a file named after the folder (the SDK's
  `<id>.messages.json`) is named after OUT;
- `opencode`: a database (OUT a new database holding only the asked session's rows) or a storage
  folder (OUT a new folder with only the asked session's files); `--session` names the session
  when the store holds several.

Everything is written into a private staging folder beside OUT first, and checked there: the
reference counts the staged input and the original alike (count, events, inherited copies,
companions, warnings; the events' members that quote the file's own text by presence only), and
a scan of every staged byte and file name finds none of the strings the run replaced
(generators/anonymize/leaks.py). Only then is it moved into place, never over an existing file,
and "wrote" printed. Otherwise one line says why, exit 1, and nothing is left behind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..corpus.add_inputs import MAX_INPUT_BYTES
from ..usage import shown
from ..view import HostView
from . import opencode
from .hostpolicy import HostPolicy, Ledger, Replacer
from .leaks import first_leak
from .markdown import MarkdownRewriter
from .pseudonym import Pseudonyms
from .records import RecordRewriter, rewrite_file

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
MAX_CHAIN = 10_000  # BCL-7's bound on a chain's files


class Refusal(Exception):
    """Why the run stops (one line, no text of the input in it)."""

    def __init__(self, reason: str, code: int = EXIT_REFUSED) -> None:
        super().__init__(reason)
        self.code = code


class Run:
    """One run: the policy, the pseudonyms, what was replaced and kept."""

    def __init__(self, data: Mapping[str, Any], secret: bytes) -> None:
        self.policy = HostPolicy(data)
        self.ledger = Ledger()
        names = Pseudonyms(secret, self.policy.reserved())
        self.replacer = Replacer(self.policy, names, self.ledger)
        self.records = RecordRewriter.of(self.replacer)


def run(args: argparse.Namespace, data: Mapping[str, Any], hosts: HostView, secret: bytes) -> int:
    """Anonymize `args.input` under the host policy `data`; the exit code."""
    try:
        return _run(args, data, hosts, secret)
    except Refusal as refusal:
        sys.stderr.write(f"error: {shown(refusal)}\n")  # one line, its names escaped
        return refusal.code


def _run(args: argparse.Namespace, data: Mapping[str, Any], hosts: HostView, secret: bytes) -> int:
    source: Path = args.input
    target: Path = args.output
    fmt = str(data["format"])
    run_ = Run(data, secret)
    if fmt == "markdown":  # BCL-1: a chat-loop file is named by its session id, the new one
        target = _chain_place(source, target, run_)
    if target.exists() or target.is_symlink():  # --force is VS Code's rewriter's alone
        raise Refusal(f"{target}: exists (choose a new name; nothing is written over a file)", 2)
    session = _session(args, source) if fmt == "opencode" else None
    _check_output_name(fmt, source, target)
    _check_size(fmt, source, run_, session)
    staging = Path(
        tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    )
    try:
        staged, new_session, extra = _write(fmt, source, staging / target.name, session, run_)
        _check(args, hosts, run_, source, session, staged, new_session, staging)
        written = _move(staging, target, staged, extra)
    except (OSError, ValueError, opencode.StoreProblem) as problem:
        raise Refusal(_oserror(problem, source)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    what = f"{len(written)} files" if len(written) > 1 else "1 file"
    checked = (
        "not checked for the same count (--no-check: run `rebootspec count` on both before "
        "contributing); checked: none of the replaced strings left"
        if args.no_check
        else "checked: same count, none of the replaced strings left"
    )
    print(
        f"wrote {shown(written[0])}: {what}, {run_.replacer.names.replaced} strings replaced, "
        f"{run_.replacer.kept} kept; {checked}"
    )
    if new_session is not None:
        print(
            f"session: {shown(new_session)}   (count it: rebootspec count {shown(target)} "
            f"{shown(new_session)})"
        )
    for path in written[1:]:
        print(f"  beside it: {shown(path.name)}")
    return EXIT_OK


def _oserror(problem: Exception, source: Path) -> str:
    if isinstance(problem, OSError):
        return f"{problem.filename or source}: {problem.strerror or problem}; nothing was written"
    return f"{problem}; nothing was written"


def _session(args: argparse.Namespace, source: Path) -> str:
    """The asked session of a store: `--session`, or the only one (OPC-11); a session the
    store does not hold is E-SESSION (ERR-15), as `count STORE ID` says, and nothing is
    written (a store with no session in it is no case)."""
    try:
        ids = opencode.session_ids(source)
    except (opencode.StoreProblem, OSError) as problem:
        raise Refusal(_oserror(problem, source)) from None
    if args.session is not None:
        if str(args.session) not in ids:
            raise Refusal(
                f"{source}: E-SESSION: no session {args.session!r} in the store "
                f"({len(ids)} sessions); nothing was written"
            )
        return str(args.session)
    if len(ids) == 1:
        return ids[0]
    raise Refusal(f"{source}: the store holds {len(ids)} sessions: name one with --session ID", 2)


def _chain_place(source: Path, target: Path, run_: Run) -> Path:
    """Where a chat-loop file goes: into OUT when OUT is a folder, else beside OUT, and always
    under the name its new session id gives it (BCL-1, BCL-4: a session is `<id>.md`, and the
    id in its text is replaced). Its earlier files get theirs the same way, so the chain still
    walks, and the old id, which is a replaced string, is in no file name."""
    folder = target if target.is_dir() and not target.is_symlink() else target.parent
    if folder is target.parent and target.suffix != ".md":
        raise Refusal(f"{target}: must end in .md like the input, or be a folder", 2)
    return folder / run_.replacer.component(source.name)


def _check_output_name(fmt: str, source: Path, target: Path) -> None:
    if fmt == "records":
        if source.name.endswith(".zst"):
            raise Refusal(f"{source}: decompress it first (zstd -d), then anonymize the .jsonl", 2)
        if target.suffix != source.suffix:
            raise Refusal(f"{target}: must end in {source.suffix} like the input", 2)
    elif fmt == "folder" and not source.is_dir():
        raise Refusal(f"{source}: give the session's folder (its files are counted together)", 2)
    elif fmt == "markdown" and target.suffix != ".md":
        raise Refusal(f"{target}: must end in .md like the input", 2)
    if not target.parent.is_dir():
        raise Refusal(f"{target.parent}: no such folder", 2)


def _write(
    fmt: str, source: Path, staged: Path, session: str | None, run_: Run
) -> tuple[Path, str | None, list[Path]]:
    """Write the anonymized input under the staging folder: (the path to count, the new
    session id for a store, the other files written beside it)."""
    if fmt == "records":
        with source.open("rb") as reader, staged.open("wb") as writer:
            rewrite_file(reader, writer, source.suffix, run_.records)
        return staged, None, []
    if fmt == "markdown":
        return staged, None, _write_chain(source, staged, run_)
    if fmt == "folder":
        _write_folder(source, staged, run_)
        return staged, None, []
    assert session is not None
    if source.is_dir():
        new = opencode.anonymize_storage(source, staged, session, run_.replacer, run_.records)
    else:
        new = opencode.anonymize_database(source, staged, session, run_.replacer, run_.records)
    return staged, new, []


def _folder_documents(source: Path) -> list[Path]:
    """The `.json` documents of a session folder that are rewritten (regular files only)."""
    return [
        item
        for item in sorted(source.iterdir())
        if item.name.endswith(".json") and item.is_file() and not item.is_symlink()
    ]


def _check_size(fmt: str, source: Path, run_: Run, session: str | None) -> None:
    """A chat-loop chain, a session folder or a session of an opencode storage folder is read
    a whole file at a time: all its files together are held to what a corpus case may weigh
    (MAX_INPUT_BYTES, as one log file is in command.py), checked on their sizes before a byte
    is read (an earlier file or a part of 1 GiB)."""
    if fmt == "markdown":
        files = [source, *_chain(source, run_.policy)]
    elif fmt == "folder":
        files = _folder_documents(source)
    elif fmt == "opencode" and source.is_dir() and session is not None:
        try:
            files = [file for file, _ in opencode.session_files(source, session, run_.policy.data)]
        except opencode.StoreProblem as problem:
            raise Refusal(f"{problem}; nothing was written") from None
    else:
        return  # one log: bounded by command.py; a database: SQLite reads a session's rows
    size = sum(file.stat().st_size for file in files)
    if size > MAX_INPUT_BYTES:
        raise Refusal(
            f"{source}: {size:,} bytes in {len(files)} files, more than a corpus case may be "
            f"({MAX_INPUT_BYTES:,}); cut the session first",
            EXIT_USAGE,
        )


def _write_folder(source: Path, staged: Path, run_: Run) -> None:
    """Every `.json` document of the folder, rewritten whole under its name (the folder's own
    name in a file name becomes OUT's: CLN-12 finds `<folder>.messages.json`)."""
    staged.mkdir()
    for item in _folder_documents(source):
        name = item.name
        if name.startswith(source.name + "."):
            name = staged.name + name[len(source.name) :]
        with item.open("rb") as reader, (staged / name).open("wb") as writer:
            rewrite_file(reader, writer, ".json", run_.records)


def _write_chain(source: Path, staged: Path, run_: Run) -> list[Path]:
    rewriter = MarkdownRewriter(run_.replacer)
    staged.write_bytes(rewriter.rewrite(source.read_bytes()))
    beside: list[Path] = []
    for file in _chain(source, run_.policy):
        name = run_.replacer.component(file.name)
        place = staged.parent / name
        if place.exists() or place == staged:
            raise Refusal(f"{file}: two files of the chain would get one name", 1)
        place.write_bytes(rewriter.rewrite(file.read_bytes()))
        beside.append(place)
    return beside


def _chain(source: Path, policy: HostPolicy) -> Iterator[Path]:
    """BCL-4: the earlier files the count of `source` walks (those that exist; a missing or
    looping link ends the walk, and the count of the copy says so as the original's does)."""
    chain = policy.data.get("chain") or {}
    link = re.compile(chain["link"]) if chain else None
    seen = {source.resolve()}
    current = source
    for _ in range(MAX_CHAIN):
        if link is None:
            return
        ident = _link(current, link)
        if ident is None or "/" in ident or "\\" in ident or ident in ("", ".", ".."):
            return
        parent = current.parent / str(chain["file"]).format(id=ident)
        if not parent.is_file() or parent.is_symlink() or parent.resolve() in seen:
            return
        seen.add(parent.resolve())
        yield parent
        current = parent


def _link(path: Path, link: re.Pattern[str]) -> str | None:
    """The id a session file's header links to (the header ends at the first `---` line)."""
    with path.open("rb") as stream:
        head = stream.read(64 * 1024).decode("utf-8", "replace")
    for line in head.split("\n")[1:64]:
        line = line.removesuffix("\r")
        if line == "---":
            return None
        match = link.fullmatch(line.strip(" \t"))
        if match is not None:
            return match.group("id")
    return None


def comparable(answer: dict[str, Any], answer_text: frozenset[str]) -> dict[str, Any]:
    """What must not change: everything the answer says, but the texts it quotes."""
    if answer["outcome"] == "reject":
        return {"outcome": "reject", "error": answer["error"], "line": answer["line"]}
    out = {k: v for k, v in answer.items() if k not in ("warnings", "reboot_events", "title")}
    out["reboot_events"] = [
        {k: (bool(v) if k in answer_text else v) for k, v in event.items()}
        for event in answer.get("reboot_events", [])
    ]
    out["warnings"] = [[w.get("code"), w.get("line")] for w in answer.get("warnings", [])]
    return out


def describe(answer: dict[str, Any]) -> str:
    if answer["outcome"] == "reject":
        return f"rejected: {answer['error']} at line {answer['line']}"
    return f"reboots {answer['reboots']}"


def _check(
    args: argparse.Namespace,
    hosts: HostView,
    run_: Run,
    source: Path,
    session: str | None,
    staged: Path,
    new_session: str | None,
    staging: Path,
) -> None:
    """The count is the original's, and no replaced string is left (else Refusal)."""
    if not args.no_check:
        before = comparable(hosts.count(source, session), run_.policy.answer_text)
        after = comparable(hosts.count(staged, new_session), run_.policy.answer_text)
        if before != after:
            raise Refusal(
                f"{source}: the anonymized copy counts differently ({describe(before)} before, "
                f"{describe(after)} after); nothing was written (a bug in the policy: please "
                "open an issue, never attach the original)"
            )
    leak = first_leak(run_.ledger, _blobs(staging))
    if leak is not None:
        raise Refusal(f"{leak}; nothing was written (please open an issue)")


def _blobs(staging: Path) -> Iterator[tuple[str, bytes]]:
    """Every staged file's name and bytes (a database's side files too)."""
    for folder, _, files in os.walk(staging):
        for name in files:
            path = Path(folder) / name
            relative = str(path.relative_to(staging))
            yield relative, relative.encode("utf-8", "surrogateescape")
            yield relative, path.read_bytes()
        for name in os.listdir(folder):
            yield name, name.encode("utf-8", "surrogateescape")


def _move(staging: Path, target: Path, staged: Path, extra: list[Path]) -> list[Path]:
    """Into place, never over an existing name; on a failure, what was moved goes again."""
    moved: list[Path] = []
    try:
        for path in [staged, *extra]:
            place = target.parent / path.name
            if place.exists() or place.is_symlink():
                raise FileExistsError(17, "exists", str(place))
            if path.is_dir():
                os.rename(path, place)
            else:
                os.link(path, place)
            moved.append(place)
    except BaseException:
        for place in moved:
            opencode.remove(place)
        raise
    return moved
