"""The Codex and pi fast paths (reference.hosts.*_fast) are indistinguishable from the readable
path (issue 22 item 7).

Both paths must give the same count, details, warnings and explain text, the same rejection
(code, line, reason), or the same crash, on every input: the corpus's Codex and pi cases, the
harvested real files, random mutations of their bytes, lines and members (seeded sweeps and
Hypothesis-drawn ones), hand-made edge cases, and the command line's stdout, stderr and exit
code. `--readable` must change no output.
"""

from __future__ import annotations

import glob
import io
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from log_mutations import byte_or_line_change

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.cli import main
from rebootspec.reference.core import fast, records

ROOT = Path(__file__).resolve().parents[2]


def _host_of_case(input_path: str) -> str | None:
    case_file = os.path.join(os.path.dirname(input_path), "case.toml")
    with open(case_file, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("host = "):
                return line.split("=", 1)[1].strip().strip('"')
    return None


FAST_HOSTS = ("codex", "pi", "claude-code", "gemini-cli")  # the record hosts with a fast path


def _provenance_of_case(path: str) -> str:
    case_file = os.path.join(os.path.dirname(path), "case.toml")
    with open(case_file, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("provenance = "):
                return line.split("=", 1)[1].strip().strip('"')
    return ""


CORPUS = sorted(
    p for p in glob.glob(str(ROOT / "fixtures" / "*" / "*.jsonl")) if _host_of_case(p) in FAST_HOSTS
)
# The harvested session files (kept once, in their corpus cases: provenance harvest:...) and
# the runs' logs in harvested/ (JSON lines of no host).
HARVESTED = sorted(
    {
        *(
            p
            for p in glob.glob(str(ROOT / "fixtures" / "*" / "session.jsonl"))
            if _provenance_of_case(p).startswith("harvest:")
        ),
        *glob.glob(str(ROOT / "harvested" / "**" / "*.jsonl"), recursive=True),
    }
)
SOURCES = sorted({*CORPUS, *HARVESTED})


@contextmanager
def plain_recursion_limit() -> Iterator[None]:
    """Hypothesis raises the recursion limit while it runs a test; the fast path then (rightly)
    refuses to trust msgspec's depth limit and gives up. Restore the interpreter's default so
    the property tests exercise the fast path as a command-line run would."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(min(before, 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


@pytest.fixture(autouse=True)
def fast_path_for_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """count_path takes the fast path only for big files; here it takes it for all."""
    monkeypatch.setattr(records, "FAST_FROM_BYTES", 0)


def outcome(path: str | Path, readable: bool) -> tuple[Any, ...]:
    """Everything a counter shows for a file: the JSON answer and explain text, the rejection,
    or the exception (a crash of the readable path must be the fast path's crash too)."""
    try:
        with plain_recursion_limit():
            result = count_path(path, readable=readable)
    except Rejection as rejection:
        return ("rejected", rejection.line, rejection.code, rejection.reason)
    except Exception as error:
        return ("crash", type(error).__name__, str(error))
    text = result.timeline()
    return ("count", result.to_json(), text)


def assert_same(path: str | Path) -> str | None:
    """Both paths agree on `path`; returns why the fast path gave up (None: it answered, or
    the file is not a Codex or pi one)."""
    fast.last_fallback = None
    quick = outcome(path, readable=False)
    reason = fast.last_fallback
    assert quick == outcome(path, readable=True)
    return reason


def write(tmp: Path, data: bytes) -> Path:
    path = tmp / "session.jsonl"
    path.write_bytes(data)
    return path


# (a) the corpus and the harvested files ------------------------------------------------------


def test_there_are_inputs() -> None:
    assert len(CORPUS) >= 40 and len(HARVESTED) >= 30


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: os.path.relpath(p, ROOT))
def test_fast_path_equals_readable_path(path: str) -> None:
    assert_same(path)


def test_clean_files_are_answered_by_the_fast_path() -> None:
    """Giving up is for odd bytes, warnings and rejections; clean logs are answered fast."""
    answered = fell_back = 0
    for path in SOURCES:
        readable = outcome(path, readable=True)
        if readable[0] != "count" or readable[1]["warnings"]:
            continue
        if assert_same(path) is None:
            answered += 1
        else:
            fell_back += 1
    assert answered >= 60 and fell_back <= answered // 20, (answered, fell_back)


@pytest.mark.parametrize("host", FAST_HOSTS)
def test_each_fast_path_answers_its_clean_cases(host: str) -> None:
    """Issue 37: a fast path that always gave up would pass every equality test; each host's
    fast path answers at least 19 in 20 of its clean corpus cases itself."""
    answered = fell_back = 0
    for path in CORPUS:
        if _host_of_case(path) != host:
            continue
        readable = outcome(path, readable=True)
        # GEM-6: W-INDIRECT is on every measurable Gemini CLI chat; any other warning is odd.
        if readable[0] != "count" or {w["code"] for w in readable[1]["warnings"]} - {"W-INDIRECT"}:
            continue
        if assert_same(path) is None:
            answered += 1
        else:
            fell_back += 1
    assert answered >= 5 and fell_back * 20 <= answered, (answered, fell_back)


# (b) mutations -----------------------------------------------------------------------------

JUNK = [b"{", b"}", b"[", b"]", b'"', b"\\", b",", b":", b"\n", b"\xff", b"\t", b"0", b" ", b"\r"]
KEYS = ["type", "payload", "timestamp", "ordinal", "id", "parentId", "replacement_history",
        "turn_id", "item", "window_id", "message", "version", "parentSession", "kind",
        "subtype", "isSidechain", "isCompactSummary", "slug", "logicalParentUuid", "agentId",
        "uuid", "forkedFrom", "compactMetadata", "$set", "messages", "content"]  # fmt: skip
VALUES: list[Any] = [
    None, 0, 1, 2.0, -1, True, "", "x", [], {}, [{}], {"type": "compaction"},
    "compacted", "compaction", "session_meta", "event_msg", "response_item", "task_started",
    "turn_complete", "user_message", "item_completed", "context_compacted", "branch_summary",
    "compaction_summary", "2026-03-02T09:00:00.000Z", "2020-01-01T00:00:00Z", [1, 2], {"a": 1},
    [{"type": "compaction"}], [{"type": "message"}, {"type": "compaction_summary"}],
    {"type": "ContextCompaction"}, {"kind": "contextCompaction"}, "0.1.0", "0.200.0",
    "system", "compact_boundary", "microcompact_boundary", "summary", "user", "acompact-1",
    {"trigger": "auto", "preTokens": 5}, {"postTokens": 1}, {"trigger": [1]},
    "info", "error", "<state_snapshot>x", [{"text": "<state_snapshot>y"}], {"messages": []},
    {"messages": [{"type": "user", "content": "<state_snapshot>z"}]}, [{"text": 1}, "t"],
]  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random change of the kind a broken, torn, hand-edited or odd log has."""
    lines = data.split(b"\n")
    choice = rng.randrange(13)
    changed = byte_or_line_change(data, lines, choice, rng, JUNK)
    if changed is not None:
        return changed
    if choice == 7 and len(lines) > 1:  # glue two lines (pi writes such lines)
        at = rng.randrange(len(lines) - 1)
        lines[at : at + 2] = [lines[at] + rng.choice([b"", b" ", b"\r"]) + lines[at + 1]]
        return b"\n".join(lines)
    if choice == 8 and lines:  # a blank or whitespace line, or CRLF
        at = rng.randrange(len(lines))
        lines.insert(at, rng.choice([b"", b" ", b"\t", b"\r"]))
        return b"\n".join(lines)
    return _edit_member(lines, rng)


def _edit_member(lines: list[bytes], rng: random.Random) -> bytes:
    """Set, delete or duplicate a member of one record, or of its payload."""
    at = rng.randrange(len(lines)) if lines else 0
    try:
        record = orjson.loads(lines[at])
    except (orjson.JSONDecodeError, IndexError):
        return b"\n".join(lines)
    if not isinstance(record, dict):
        return b"\n".join(lines)
    target = record
    payload = record.get("payload")
    if isinstance(payload, dict) and rng.random() < 0.5:
        target = payload
    key = rng.choice([*KEYS, *target.keys()]) if target else rng.choice(KEYS)
    action = rng.random()
    if action < 0.15:
        target.pop(key, None)
    elif action < 0.25 and key in target:  # a duplicate member: the last one wins
        raw = orjson.dumps(record)
        extra = b',"' + key.encode() + b'":' + orjson.dumps(rng.choice(VALUES)) + b"}"
        if target is record:
            lines[at] = raw[:-1] + extra
        else:
            lines[at] = raw
        return b"\n".join(lines)
    else:
        target[key] = rng.choice(VALUES)
    lines[at] = orjson.dumps(record)
    return b"\n".join(lines)


@pytest.mark.parametrize("seed", range(60))
def test_mutated_files_give_the_same_answer(seed: int, tmp_path: Path) -> None:
    """Many cheap mutations of each source, a slice of the sources per seed."""
    rng = random.Random(seed)
    for source in SOURCES[seed % 6 :: 6]:
        data = Path(source).read_bytes()
        for _ in range(rng.randint(1, 4)):
            data = mutate(data, rng)
        assert_same(write(tmp_path, data))


@settings(deadline=None)  # the profile decides how many (tests/conftest.py)
@given(
    index=st.integers(0, 10_000),
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 6),
)
def test_drawn_mutations_give_the_same_answer(
    index: int, seed: int, count: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rng = random.Random(seed)
    data = Path(SOURCES[index % len(SOURCES)]).read_bytes()
    for _ in range(count):
        data = mutate(data, rng)
    assert_same(write(tmp_path_factory.mktemp("mut"), data))


# (c) shapes the mutations rarely reach -------------------------------------------------------

CODEX_META = (
    b'{"timestamp":"2026-03-01T10:00:00.000Z","type":"session_meta","payload":'
    b'{"id":"01a21063-d0e0-7e93-b95f-905668d942da","cli_version":"0.111.0"}}\n'
)
PI_HEAD = b'{"type":"session","version":3,"id":"s","timestamp":"2026-03-02T10:00:00.000Z"}\n'


def codex(*lines: bytes) -> bytes:
    return CODEX_META + b"".join(line + b"\n" for line in lines)


def pi(*lines: bytes) -> bytes:
    return PI_HEAD + b"".join(line + b"\n" for line in lines)


COMPACTED = b'{"type":"compacted","payload":{"message":"s","replacement_history":[{"type":"m"}]}}'
EDGE_CASES = {
    "codex-plain": codex(COMPACTED),
    "codex-remote": codex(
        b'{"type":"compacted","payload":{"replacement_history":[{"type":"compaction"}]}}'
    ),
    "codex-history-not-list": codex(b'{"type":"compacted","payload":{"replacement_history":"x"}}'),
    "codex-history-object": codex(b'{"type":"compacted","payload":{"replacement_history":{}}}'),
    "codex-history-empty": codex(b'{"type":"compacted","payload":{"replacement_history":[]}}'),
    "codex-history-last-not-object": codex(
        b'{"type":"compacted","payload":{"replacement_history":[{"type":"compaction"},3]}}'
    ),
    "codex-history-last-type-object": codex(
        b'{"type":"compacted","payload":{"replacement_history":[{"type":{}}]}}'
    ),
    "codex-window": codex(b'{"type":"compacted","payload":{"window_id":null}}'),
    "codex-payload-string": codex(b'{"type":"compacted","payload":"x"}'),
    "codex-payload-null": codex(b'{"type":"compacted","payload":null}'),
    "codex-record-array": codex(b"[1,2]", COMPACTED),
    "codex-ordinal-float": codex(b'{"type":"compacted","ordinal":3.0,"payload":{}}'),
    "codex-ordinal-huge": codex(b'{"type":"compacted","ordinal":' + b"9" * 30 + b',"payload":{}}'),
    "codex-ordinal-bool": codex(b'{"type":"compacted","ordinal":true,"payload":{}}'),
    "codex-duplicate-type": codex(b'{"type":"event_msg","payload":{},"type":"compacted"}'),
    "codex-duplicate-payload": codex(
        b'{"type":"compacted","payload":{"replacement_history":[{"type":"compaction"}]},'
        b'"payload":{"message":""}}'
    ),
    "codex-item-completed": codex(
        b'{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"ContextCompaction"}}}'
    ),
    "codex-item-not-object": codex(
        b'{"type":"event_msg","payload":{"type":"item_completed","item":[1]}}'
    ),
    "codex-event-type-object": codex(b'{"type":"event_msg","payload":{"type":{}}}'),
    "codex-second-meta": codex(
        b'{"timestamp":"2026-03-01T10:00:00.000Z","type":"session_meta","payload":{"id":"p"}}',
        b'{"type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}',
        COMPACTED,
    ),
    "codex-escaped-type": codex(b'{"type":"compac\\u0074ed","payload":{}}'),
    "codex-lone-surrogate-skipped": codex(b'{"type":"x","payload":{"text":"\\ud800"}}', COMPACTED),
    "codex-lone-surrogate-read": codex(b'{"type":"\\ud800","payload":{}}', COMPACTED),
    "codex-invalid-utf8-skipped": codex(b'{"type":"x","payload":{"text":"\xff"}}', COMPACTED),
    "codex-invalid-utf8-read": codex(b'{"type":"\xff","payload":{}}', COMPACTED),
    "codex-huge-number-skipped": codex(b'{"type":"x","payload":{"n":1e400}}', COMPACTED),
    "codex-deep-skipped": codex(
        b'{"type":"x","payload":{"n":' + b"[" * 1100 + b"]" * 1100 + b"}}", COMPACTED
    ),
    "codex-deep-history": codex(
        b'{"type":"compacted","payload":{"replacement_history":['
        + b"[" * 1100
        + b"]" * 1100
        + b"]}}"
    ),
    "codex-glued": codex(COMPACTED + COMPACTED),
    "codex-spanning": codex(b'{"type":"compacted",', b'"payload":{}}'),
    "codex-torn-tail": codex(COMPACTED)[:-10],
    "codex-no-final-newline": codex(COMPACTED)[:-1],
    "codex-bom-crlf": b"\xef\xbb\xbf" + codex(COMPACTED, COMPACTED).replace(b"\n", b"\r\n"),
    "codex-blank-lines": codex(b"", COMPACTED, b"  ", COMPACTED),
    "codex-legacy": b'{"id":"x","timestamp":"2025-05-01T00:00:00Z"}\n{"type":"message"}\n',
    "codex-old-version": CODEX_META.replace(b"0.111.0", b"0.1.0") + b'{"type":"x"}\n',
    "codex-long-line": codex(
        b'{"type":"compacted","payload":{"replacement_history":['
        + b",".join([b'{"type":"message","text":"' + b"w" * 5000 + b'"}'] * 600)
        + b',{"type":"compaction"}]}}',
        COMPACTED,
    ),
    "pi-plain": pi(b'{"type":"compaction","id":"a","parentId":null}'),
    "pi-tree": pi(
        b'{"type":"message","id":"a","parentId":null}',
        b'{"type":"compaction","id":"b","parentId":"a"}',
        b'{"type":"compaction","id":"c","parentId":"a"}',
        b'{"type":"message","id":"d","parentId":"b"}',
    ),
    "pi-cycle": pi(
        b'{"type":"compaction","id":"a","parentId":"b"}',
        b'{"type":"message","id":"b","parentId":"a"}',
    ),
    "pi-duplicate-id": pi(
        b'{"type":"compaction","id":"a","parentId":null}',
        b'{"type":"message","id":"a","parentId":"z"}',
        b'{"type":"message","id":"b","parentId":"a"}',
    ),
    "pi-id-not-string": pi(b'{"type":"compaction","id":3,"parentId":null}'),
    "pi-parent-object": pi(b'{"type":"compaction","id":"a","parentId":{"x":1}}'),
    "pi-type-object": pi(b'{"type":{},"id":"a"}'),
    "pi-duplicate-type": pi(b'{"type":"message","id":"a","type":"compaction"}'),
    "pi-branch-summary": pi(b'{"type":"branch_summary","id":"a","parentId":null}'),
    "pi-v1": PI_HEAD.replace(b'"version":3', b'"version":1') + b'{"type":"compaction","id":"a"}\n',
    "pi-version-float": PI_HEAD.replace(b'"version":3', b'"version":3.0')
    + b'{"type":"compaction","id":"a"}\n',
    "pi-fork": PI_HEAD.replace(b'"cwd"', b'"x"').replace(
        b'"id":"s"', b'"id":"s","parentSession":"/p.jsonl"'
    )
    + b'{"type":"compaction","id":"a","timestamp":"2026-03-02T09:00:00.000Z"}\n'
    + b'{"type":"compaction","id":"b","timestamp":"2026-03-02T11:00:00.000Z"}\n',
    "pi-fork-bad-stamp": PI_HEAD.replace(b'"id":"s"', b'"id":"s","branchedFrom":"/p.jsonl"')
    + b'{"type":"compaction","id":"a","timestamp":5}\n',
    "pi-header-array": b"[1]\n" + b'{"type":"compaction","id":"a"}\n',
    "pi-glued": pi(b'{"type":"compaction","id":"a"}{"type":"compaction","id":"b"}'),
    "pi-glued-space": pi(b'{"type":"compaction","id":"a"} {"type":"compaction","id":"b"}'),
    "pi-torn-tail": pi(b'{"type":"compaction","id":"a"}', b'{"type":"compac'),
    "pi-blank": pi(b"", b'{"type":"compaction","id":"a"}', b" \t"),
    "pi-lone-surrogate-id": pi(b'{"type":"compaction","id":"\\udc00"}'),
    "pi-invalid-utf8-skipped": pi(b'{"type":"compaction","id":"a","x":"\xfe"}'),
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_give_the_same_answer(name: str, tmp_path: Path) -> None:
    assert_same(write(tmp_path, EDGE_CASES[name]))


@pytest.mark.parametrize(
    "name", ["codex-plain", "codex-remote", "codex-window", "pi-tree", "pi-fork", "codex-long-line"]
)
def test_clean_edge_cases_are_answered_fast(name: str, tmp_path: Path) -> None:
    assert assert_same(write(tmp_path, EDGE_CASES[name])) is None


def test_lines_across_read_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny read blocks: every line crosses a block boundary, long lines grow the buffer."""
    monkeypatch.setattr(fast, "_CHUNK", 7)
    for name in ("codex-long-line", "pi-tree", "codex-bom-crlf", "pi-blank", "codex-torn-tail"):
        assert_same(write(tmp_path, EDGE_CASES[name]))
    for source in SOURCES[::9]:
        assert_same(source)


@pytest.mark.parametrize("chunk", [64, 300, 4096])
def test_many_blocks_per_file(chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small read blocks: files of many blocks of several lines each, so pi's column-at-a-time
    reading of a block (taken for every block after the header's) meets branch points, repeated
    ids, compactions and odd lines at every place in a block."""
    monkeypatch.setattr(fast, "_CHUNK", chunk)
    for source in SOURCES:
        assert_same(source)
    for data in TREES.values():
        assert_same(write(tmp_path, data + data.split(b"\n", 1)[1] * 3))
    rng = random.Random(chunk)
    for source in SOURCES[::2]:
        data = Path(source).read_bytes()
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        assert_same(write(tmp_path, data))


def test_raised_recursion_limit_gives_up(tmp_path: Path) -> None:
    """With a recursion limit far above orjson's depth limit msgspec is not trusted."""
    path = write(tmp_path, EDGE_CASES["pi-tree"])
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        fast.last_fallback = None
        count_path(path)
        assert fast.last_fallback is not None
    finally:
        sys.setrecursionlimit(before)


def tree(*pairs: tuple[str, str | None], compactions: str = "") -> bytes:
    """A pi session of entries (id, parentId); the ids in `compactions` are compactions."""
    lines = [
        orjson.dumps(
            {"type": "compaction" if i in compactions else "message", "id": i, "parentId": p}
        )
        for i, p in pairs
    ]
    return pi(*lines)


TREES = {
    "linear": tree(("a", None), ("b", "a"), ("c", "b"), ("d", "c"), compactions="bd"),
    "branch": tree(("a", None), ("b", "a"), ("c", "b"), ("d", "a"), ("e", "d"), compactions="ce"),
    "branch-back-to-tail": tree(("a", None), ("b", "a"), ("c", "b"), ("d", "b"), compactions="c"),
    "forward-parent": tree(("a", "c"), ("b", "a"), ("c", None), ("d", "b"), compactions="ac"),
    "parent-names-nothing": tree(("a", "zz"), ("b", "a"), compactions="ab"),
    "root-with-parent": tree(("a", "x"), compactions="a"),
    "cycle-in-run": tree(("a", "c"), ("b", "a"), ("c", "b"), compactions="abc"),
    "cycle-across-runs": tree(("a", None), ("b", "d"), ("c", "b"), ("d", "c"), compactions="abcd"),
    "meets-itself": tree(
        ("a", None),
        ("b", "a"),
        ("c", "b"),
        ("d", "b"),
        ("e", "c"),
        ("f", "e"),
        ("g", "d"),
        compactions="abcdefg",
    ),
    "duplicate-ids": tree(("a", None), ("b", "a"), ("a", "b"), ("c", "a"), compactions="abc"),
    "duplicate-in-run": tree(
        ("a", None), ("b", "a"), ("c", "b"), ("b", "x"), ("d", "c"), compactions="abcd"
    ),
    "duplicate-leaf": tree(("a", None), ("b", "a"), ("c", "b"), ("b", "a"), compactions="abc"),
    "duplicate-then-break": tree(
        ("a", None), ("b", "a"), ("c", "b"), ("b", "c"), ("e", "x"), ("f", "c"), compactions="abcef"
    ),
    "leaf-without-id": tree(("a", None), ("b", "a"), compactions="b") + b'{"type":"message"}\n',
}


@pytest.mark.parametrize("many", [0, 1024])
@pytest.mark.parametrize("name", sorted(TREES))
def test_current_path_walks(
    name: str, many: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PIA-6 by runs of positions (and, with no branch points allowed, by the plain walk)."""
    from rebootspec.reference.hosts.pi import fast as pi_fast

    monkeypatch.setattr(pi_fast, "_MANY_BREAKS", many)
    assert assert_same(write(tmp_path, TREES[name])) is None


def test_current_path_walks_on_every_source(monkeypatch: pytest.MonkeyPatch) -> None:
    from rebootspec.reference.hosts.pi import fast as pi_fast

    monkeypatch.setattr(pi_fast, "_MANY_BREAKS", 0)
    for source in SOURCES:
        assert_same(source)


# (d) the command line ----------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with plain_recursion_limit():
        code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", ["count", "explain"])
def test_readable_flag_changes_no_output(command: str, tmp_path: Path) -> None:
    paths = [*SOURCES[::3]]
    for name in ("codex-torn-tail", "pi-glued", "codex-old-version", "codex-event-type-object"):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(EDGE_CASES[name])
        paths.append(str(path))
    for path in paths:
        assert run_cli([command, path]) == run_cli([command, "--readable", path])


# (e) whitespace: skipped whole runs at a time (issue 37) ----------------------------------

BLANKS = {
    "codex-blank-runs": codex(b"", b"  ", COMPACTED, b"\r", b"\t \r", b"", COMPACTED, b" "),
    "codex-leading-space-record": codex(b"  " + COMPACTED, b"\t" + COMPACTED + b"  "),
    "codex-blank-then-torn": codex(b"", b"", b'{"type":"compac'),
    "codex-crlf-blanks": codex(COMPACTED + b"\r", b"\r", b"\r", COMPACTED + b"\r"),
    "pi-blank-runs": pi(b"", b"", b'{"type":"compaction","id":"a","parentId":null}', b" ", b""),
    "pi-glued-after-blanks": pi(b"\n\n", b'{"type":"compaction","id":"a"}{"type":"x","id":"b"}'),
    "pi-space-lines": pi(*[b" " * n for n in range(40)], b'{"type":"compaction","id":"a"}'),
}


@pytest.mark.parametrize("chunk", [5, 64, 1 << 20])
@pytest.mark.parametrize("name", sorted(BLANKS))
def test_blank_lines_give_the_same_answer(
    name: str, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of blank and whitespace lines anywhere (also across read blocks): the same records
    with the same line numbers, the same torn tail, as `iter_values` reads them."""
    monkeypatch.setattr(fast, "_CHUNK", chunk)
    assert_same(write(tmp_path, BLANKS[name]))


def test_blank_lines_are_answered_fast(tmp_path: Path) -> None:
    """A log padded with a million blank lines and whitespace is still answered by the fast
    path (before issue 37, each blank line cost a failed decode: minutes for 50 MB)."""
    padding = b"\n" * 1_000_000 + b" \t\r\n" * 100_000
    data = codex(COMPACTED) + padding + COMPACTED + b"\n" + padding + COMPACTED + b"\n"
    assert assert_same(write(tmp_path, data)) is None
    assert outcome(tmp_path / "session.jsonl", readable=False)[1]["reboots"] == 3


def test_compressed_rollouts_are_read_as_a_stream_by_the_fast_path(tmp_path: Path) -> None:
    """CDX-7: a `.jsonl.zst` goes through the fast path too, decompressed as a stream (issue
    37); a file that is not zstd data gets the readable path's rejection."""
    zstandard = pytest.importorskip("zstandard")
    data = codex(COMPACTED, b"", COMPACTED) + b"{}\n" * 50_000
    packed = tmp_path / "rollout.jsonl.zst"
    packed.write_bytes(zstandard.ZstdCompressor().compress(data))
    assert assert_same(packed) is None
    assert outcome(packed, readable=False)[1]["reboots"] == 2
    broken = tmp_path / "broken.jsonl.zst"
    broken.write_bytes(b"not zstd at all\n" * 100)
    assert_same(broken)
    assert outcome(broken, readable=False)[0] == "rejected"


# (f) Claude Code (issue 37) ------------------------------------------------------------------

CC_USER = (
    b'{"type":"user","userType":"external","uuid":"u1","sessionId":"s","isSidechain":false,'
    b'"version":"2.1.0"}'
)
CC_BOUNDARY = (
    b'{"type":"system","subtype":"compact_boundary","uuid":"b1","sessionId":"s",'
    b'"compactMetadata":{"trigger":"auto","preTokens":5}}'
)
CLAUDE = {
    "cc-plain": [CC_USER, CC_BOUNDARY, CC_USER],
    "cc-escaped-subtype": [CC_USER, CC_BOUNDARY.replace(b'"subtype"', b'"sub\\u0074ype"')],
    "cc-duplicate-type": [CC_USER, CC_BOUNDARY[:-1] + b',"type":"user"}'],
    "cc-slug-null": [CC_USER[:-1] + b',"slug":null}', CC_BOUNDARY],
    "cc-sidechain-one": [CC_USER, CC_BOUNDARY[:-1] + b',"isSidechain":1}'],
    "cc-forked-null": [CC_USER, CC_BOUNDARY[:-1] + b',"forkedFrom":null}', CC_BOUNDARY],
    "cc-cc0": [CC_USER, b'{"type":"user","uuid":"s1","sessionId":"s","isCompactSummary":true}'],
    "cc-glued": [CC_USER + CC_BOUNDARY, b"", CC_BOUNDARY.replace(b"b1", b"b2")],
    "cc-torn": [CC_USER, CC_BOUNDARY, CC_BOUNDARY[:40]],
    "cc-metadata-cc3": [CC_USER, CC_BOUNDARY.replace(b'"preTokens":5', b'"postTokens":2')],
    "cc-agent": [CC_USER[:-1] + b',"agentId":"acompact-7"}', CC_BOUNDARY],
    "cc-invalid-utf8-skipped": [CC_USER, CC_BOUNDARY[:-1] + b',"message":"\xff"}'],
}


@pytest.mark.parametrize("name", sorted(CLAUDE))
def test_claude_code_cases_give_the_same_answer(name: str, tmp_path: Path) -> None:
    lines = CLAUDE[name]
    data = b"\n".join(lines) + (b"" if name == "cc-torn" else b"\n")
    reason = assert_same(write(tmp_path, data))
    if name in ("cc-plain", "cc-slug-null", "cc-forked-null", "cc-cc0", "cc-agent"):
        assert reason is None  # a clean transcript is answered by the fast path


# (g) Gemini CLI (issue 37) -------------------------------------------------------------------

GM_HEAD = b'{"sessionId":"s","projectHash":"p","kind":"main"}'
GM_CONTEXT = b'{"type":"user","id":"c","content":[{"text":"<session_context>x"}]}'


def gm_set(*messages: bytes) -> bytes:
    return b'{"$set":{"messages":[' + b",".join(messages) + b"]}}"


GM_SNAP = b'{"type":"user","id":"n1","content":[{"text":"<state_snapshot>a"}]}'
GEMINI = {
    "gm-plain": [GM_HEAD, gm_set(GM_CONTEXT), gm_set(GM_CONTEXT, GM_SNAP), gm_set(GM_SNAP)],
    "gm-no-id": [GM_HEAD, gm_set(GM_CONTEXT, GM_SNAP.replace(b'"id":"n1",', b""))],
    "gm-string-content": [GM_HEAD, gm_set(b'{"type":"user","content":"<state_snapshot>b"}')],
    "gm-model-first": [GM_HEAD, gm_set(b'{"type":"gemini","content":[1]}', GM_SNAP)],
    "gm-messages-object": [GM_HEAD, gm_set(GM_SNAP).replace(b"[", b"{", 1)[:-3] + b"}}}"],
    "gm-set-string": [GM_HEAD, b'{"$set":"x","type":"info","id":"i","content":""}', gm_set()],
    "gm-companions": [
        GM_HEAD,
        gm_set(GM_CONTEXT),
        b'{"type":"info","id":"i1","content":"Chat history compressed"}',
        b'{"type":"error","id":"e1","content":[{"text":"COMPRESSION failed"}]}',
        b'{"type":"info","id":"i2","content":"  "}',
        b'{"type":"user","id":"u","content":"<state_snapshot>c"}',
        b'{"type":"info","content":"compress"}',
    ],
    "gm-never-synced": [GM_HEAD, GM_SNAP],
    "gm-escaped-set": [GM_HEAD, gm_set(GM_SNAP).replace(b"$set", b"\\u0024set")],
    "gm-duplicate-set": [GM_HEAD, gm_set(GM_SNAP)[:-1] + b',"$set":{"messages":[]}}'],
    "gm-glued": [GM_HEAD, gm_set(GM_CONTEXT) + gm_set(GM_SNAP), b" "],
    "gm-invalid-utf8-model": [GM_HEAD, gm_set(b'{"type":"gemini","content":"\xff"}', GM_SNAP)],
    "gm-invalid-utf8-user": [GM_HEAD, gm_set(b'{"type":"user","content":"<state_snapshot>\xff"}')],
}


@pytest.mark.parametrize("name", sorted(GEMINI))
def test_gemini_cases_give_the_same_answer(name: str, tmp_path: Path) -> None:
    path = tmp_path / "session-2026-01-01T00-00-abcdef12.jsonl"
    path.write_bytes(b"\n".join(GEMINI[name]) + b"\n")
    reason = assert_same(path)
    if name in ("gm-plain", "gm-no-id", "gm-model-first", "gm-companions"):
        assert reason is None  # a clean chat is answered by the fast path
