"""The fast path (reference.fastpath) is indistinguishable from the readable path (issue 17).

Both paths must give the same count, details, warnings and explain text, or the same rejection
(code, line, reason), on every input: the whole corpus, random generated sessions, and random
mutations of their bytes. `--readable` must change no output of the command line.
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
from hypothesis import given
from hypothesis import strategies as st
from log_mutations import byte_or_line_change

from rebootspec.generators.hosts.vscode.strategies import drawn_sessions
from rebootspec.reference import count_path
from rebootspec.reference.cli import main
from rebootspec.reference.core import records
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode import fastpath

ROOT = Path(__file__).resolve().parents[2]


def _vscode_case(input_path: str) -> bool:
    """The fast path is VS Code's (hosts/vscode.md); other hosts' cases name their `host`."""
    case_file = os.path.join(os.path.dirname(input_path), "case.toml")
    with open(case_file, encoding="utf-8") as handle:
        return not any(line.startswith("host = ") for line in handle)


CORPUS = sorted(
    p
    for p in glob.glob(str(ROOT / "fixtures" / "*" / "*"))
    if os.path.splitext(p)[1] in (".json", ".jsonl") and _vscode_case(p)
)


@contextmanager
def plain_recursion_limit() -> Iterator[None]:
    """Hypothesis raises the recursion limit while it runs a test; the fast path then (rightly)
    refuses to trust msgspec's depth limit and falls back. Restore the interpreter's default so
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
    """Everything a counter shows for a file: the JSON answer and explain text, or the error."""
    try:
        with plain_recursion_limit():
            count = count_path(path, readable=readable)
    except Rejection as rejection:
        return ("rejected", rejection.line, rejection.code, rejection.reason)
    return ("count", count.to_json(), count.timeline())


def assert_same(path: str | Path) -> str | None:
    """Both paths agree on `path`; returns why the fast path fell back (None: it answered)."""
    fast = outcome(path, readable=False)
    reason = fastpath.last_fallback
    assert fast == outcome(path, readable=True)
    return reason


# (a) the corpus ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: os.path.relpath(p, ROOT / "fixtures"))
def test_corpus_fast_path_equals_readable_path(path: str) -> None:
    assert_same(path)


def test_corpus_is_mostly_answered_by_the_fast_path() -> None:
    """Fallback is for rejections and odd bytes; ordinary sessions are answered fast."""
    answered = [p for p in CORPUS if outcome(p, readable=True)[0] == "count"]
    fell_back = []
    for path in answered:
        if assert_same(path) is not None:
            fell_back.append(path)
    assert len(fell_back) <= len(answered) // 10, fell_back


# (b) generated sessions and mutations of them ----------------------------------------------


def write(tmp: Path, data: bytes, suffix: str) -> Path:
    path = tmp / f"session{suffix}"
    path.write_bytes(data)
    return path


@given(case=drawn_sessions(), container=st.sampled_from(["jsonl", "jsonl", "json", "export"]))
def test_generated_sessions_are_answered_fast_and_alike(
    case: Any, container: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = case.play().bytes(container)
    suffix = ".jsonl" if container == "jsonl" else ".json"
    path = write(tmp_path_factory.mktemp("gen"), data, suffix)
    assert assert_same(path) is None  # VS Code-shaped logs never need the readable path


# Names a mutated path may use: declared members, undeclared ones, and what VS Code walks into.
PATH_KEYS: list[Any] = [
    "requests", "response", "result", "metadata", "summaries", "toolCallRounds", "summary",
    "text", "modelState", "inputState", "inputText", "variableData", "message", "content",
    "value", "kind", "isHidden", "shouldBeRemovedOnSend", "customTitle", "nope",
    0, 1, 2, 3, 7, 100_000, -1, 1.0, 2.5, None, True, [0], {"a": 1},
]  # fmt: skip
JUNK = [b"{", b"}", b"[", b"]", b'"', b"\\", b",", b":", b"\n", b"\xff", b"\t", b"0", b"-", b" "]
VALUES: list[Any] = [None, 0, 2, "", "A", [], {}, [None], {"text": "A"}, {"value": 2}, True]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random change of the kind a broken, torn, hand-edited or odd log has."""
    lines = data.split(b"\n")
    choice = rng.randrange(11)
    changed = byte_or_line_change(data, lines, choice, rng, JUNK)
    if changed is not None:
        return changed
    # Edit one entry: a path element, the kind, `v` or `i`.
    at = rng.randrange(len(lines)) if lines else 0
    try:
        entry = orjson.loads(lines[at])
    except (orjson.JSONDecodeError, IndexError):
        return data
    if not isinstance(entry, dict):
        return data
    if choice in (7, 8) and isinstance(entry.get("k"), list):
        keys = entry["k"]
        if keys and rng.random() < 0.8:
            keys[rng.randrange(len(keys))] = rng.choice(PATH_KEYS)
        elif rng.random() < 0.5:
            keys.append(rng.choice(PATH_KEYS))
        else:
            keys[:] = keys[:-1]
    elif choice == 9:
        entry["kind"] = rng.choice([0, 1, 2, 3, 4, 1.0, "1", None])
    elif rng.random() < 0.5:
        entry["v"] = rng.choice(VALUES)
    else:
        entry["i"] = rng.choice([0, 1, 5, 70_000, -1, 1.5, None])
    lines[at] = orjson.dumps(entry)
    return b"\n".join(lines)


@given(
    case=drawn_sessions(max_turns=8),
    container=st.sampled_from(["jsonl", "jsonl", "jsonl", "json"]),
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 4),
)
def test_mutated_sessions_give_the_same_answer_or_rejection(
    case: Any, container: str, seed: int, count: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rng = random.Random(seed)
    data = case.play().bytes(container)
    for _ in range(count):
        data = mutate(data, rng)
    assert_same(write(tmp_path_factory.mktemp("mut"), data, "." + container))


@pytest.mark.parametrize("seed", range(40))
def test_mutated_vs_code_shapes_many_seeds(seed: int, tmp_path: Path) -> None:
    """Many cheap mutations of one realistic log, beside the shrinking property above."""
    rng = random.Random(seed)
    base = sorted(p for p in CORPUS if p.endswith(".jsonl"))[seed % 7 :: 7]
    for source in base[:4]:
        data = Path(source).read_bytes()
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        assert_same(write(tmp_path, data, ".jsonl"))


# Shapes the mutations rarely reach, each one a rule the fast path must not get wrong.
STATE = {
    "requests": [
        {
            "requestId": "r0",
            "message": {"text": "go", "parts": []},
            "response": [
                {"kind": "progressTaskSerialized", "content": {"value": "Compacted conversation"}}
            ],
            "result": {"metadata": {"summary": {"text": "A"}, "toolCallResults": {"x": 1}}},
            "variableData": {"variables": []},
        }
    ],
    "inputState": {"inputText": ""},
}


def log(*entries: dict[str, Any]) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in ({"kind": 0, "v": STATE}, *entries))


EDGE_CASES = {
    "walk-through-undeclared": log({"kind": 1, "k": ["requests", 0, "variableData", "x"], "v": 1}),
    "walk-through-undeclared-null": log(
        {"kind": 1, "k": ["requests", 0, "variableData"], "v": None},
        {"kind": 1, "k": ["requests", 0, "variableData", "x"], "v": 1},
    ),
    "push-into-undeclared": log({"kind": 2, "k": ["requests", 0, "variableData"], "v": [1]}),
    "push-into-undeclared-absent": log({"kind": 2, "k": ["requests", 0, "followups"], "v": [1]}),
    "set-undeclared": log({"kind": 1, "k": ["requests", 0, "agent"], "v": {"id": "x"}}),
    "delete-undeclared": log({"kind": 3, "k": ["requests", 0, "variableData"]}),
    "index-on-object": log({"kind": 1, "k": ["requests", 0, 3], "v": 1}),
    "key-on-array": log({"kind": 1, "k": ["requests", "0"], "v": 1}),
    "walk-into-skipped-metadata-member": log(
        {"kind": 1, "k": ["requests", 0, "result", "metadata", "toolCallResults", "y"], "v": 2}
    ),
    "result-becomes-array": log(
        {"kind": 2, "k": ["requests", 0, "result", "metadata", "summary"], "v": [1]}
    ),
    "push-into-object": log({"kind": 2, "k": ["requests", 0, "result"], "v": [1]}),
    "push-with-holes": log({"kind": 2, "k": ["requests", 0, "response"], "v": [], "i": 60}),
    "too-many-holes": log({"kind": 1, "k": ["requests", 70_000], "v": 1}),
    "set-whole-request-odd": log({"kind": 1, "k": ["requests", 0], "v": [1, {"a": 2}]}),
    "request-string-response": log({"kind": 1, "k": ["requests", 0, "response"], "v": "text"}),
    "summary-text-number": log(
        {"kind": 1, "k": ["requests", 0, "result", "metadata", "summary", "text"], "v": 5}
    ),
    "summary-null-vs-absent": log(
        {
            "kind": 1,
            "k": ["requests", 0, "result"],
            "v": {
                "errorDetails": {},
                "metadata": {"toolCallRounds": [{}], "summary": None, "summaries": []},
            },
        },
    ),
    "summary-absent": log(
        {
            "kind": 1,
            "k": ["requests", 0, "result"],
            "v": {"errorDetails": {}, "metadata": {"toolCallRounds": [{}], "summaries": None}},
        },
    ),
    "kind-float": log({"kind": 1.0, "k": ["requests", 0, "isHidden"], "v": True}),
    "k-float-index": log({"kind": 1, "k": ["requests", 0.0, "isHidden"], "v": 1}),
    "big-int": log() + b'{"kind":1,"k":["requests",0,"timestamp"],"v":' + b"9" * 30 + b"}\n",
    "big-int-path": log() + b'{"kind":1,"k":["requests",' + b"9" * 30 + b'],"v":1}\n',
    "duplicate-k": log()
    + b'{"kind":1,"k":["inputState"],"v":{"summary":{"text":"B"}},'
    + b'"k":["requests",0,"result","metadata"]}\n',
    "duplicate-kind": log() + b'{"kind":1,"k":["requests",0,"isHidden"],"kind":3}\n',
    # issue 37: the shortcut for `["requests", N, member]` lines checks what the general way does
    "duplicate-k-bool-index": log()
    + b'{"kind":2,"k":["requests",1,"response"],"v":[{"kind":"x"}],'
    + b'"k":["requests",true,"response"]}\n',
    "duplicate-k-float-index": log()
    + b'{"kind":1,"k":["requests",0,"isHidden"],"v":true,"k":["requests",0.0,"isHidden"]}\n',
    "duplicate-kind-push": log()
    + b'{"kind":2,"k":["requests",0,"response"],"v":[{"kind":"x"}],"kind":1}\n',
    "push-into-string-response": log(
        {"kind": 1, "k": ["requests", 0, "response"], "v": "text"},
        {"kind": 2, "k": ["requests", 0, "response"], "v": [{"kind": "x"}]},
    ),
    "push-repushed-marker": log(
        {"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "a"}], "i": 0},
        {"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "ab"}], "i": 0},
    ),
    "set-past-the-last-request": log({"kind": 1, "k": ["requests", 3, "isHidden"], "v": True}),
    "delete-request-member": log({"kind": 3, "k": ["requests", 0, "result"]}),
    "set-request-member-no-v": log({"kind": 1, "k": ["requests", 0, "result"]}),
    "kind0-duplicate-v": b'{"kind":0,"v":{"requests":[]},"v":' + orjson.dumps(STATE) + b"}\n",
    "escaped-key": log() + b'{"kind":1,"k":["requests",0,"is\\u0048idden"],"v":true}\n',
    "bracket-in-key": log() + b'{"kind":1,"k":["requests",0,"a]b"],"v":true}\n',
    "escaped-kind-zero": b'{"ki\\u006ed":0,"v":' + orjson.dumps(STATE) + b"}\n",
    "bom-crlf": b"\xef\xbb\xbf" + log().replace(b"\n", b"\r\n"),
    "lone-surrogate-skipped": log() + b'{"kind":1,"k":["requests",0,"agent"],"v":"\\ud800"}\n',
    "lone-surrogate-read": log()
    + b'{"kind":1,"k":["requests",0,"result","metadata","summary","text"],"v":"\\ud800"}\n',
    "invalid-utf8-skipped": log() + b'{"kind":1,"k":["requests",0,"agent"],"v":"\xff"}\n',
    "invalid-utf8-read": log()
    + b'{"kind":1,"k":["requests",0,"result","metadata","summary","text"],"v":"A\xff"}\n',
    "huge-number-skipped": log() + b'{"kind":1,"k":["requests",0,"agent"],"v":1e400}\n',
    "deep-skipped": log()
    + b'{"kind":1,"k":["requests",0,"agent"],"v":'
    + b"[" * 1100
    + b"]" * 1100
    + b"}\n",
    "control-char-skipped": log() + b'{"kind":1,"k":["requests",0,"agent"],"v":"a\tb"}\n',
    "torn-tail": log() + b'{"kind":1,"k":["inputState","inputText"],"v":"and',
    "no-newline-at-end": log()[:-1],
    "empty": b"",
    "whitespace-line": log() + b"  \n",
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_give_the_same_answer_or_rejection(name: str, tmp_path: Path) -> None:
    assert_same(write(tmp_path, EDGE_CASES[name], ".jsonl"))


def test_undeclared_member_patches_are_applied_to_nothing(tmp_path: Path) -> None:
    """RPL-6/RPL-8 on a member the count never reads: answered fast, no fallback."""
    for name in ("set-undeclared", "delete-undeclared"):
        assert assert_same(write(tmp_path, EDGE_CASES[name], ".jsonl")) is None


# (c) the command line ---------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", ["count", "explain"])
def test_readable_switch_changes_no_output_on_the_corpus(command: str) -> None:
    for path in CORPUS:
        assert run_cli([command, path]) == run_cli([command, "--readable", path]), path


# The schema covers everything count.py reads -----------------------------------------------


class Recorder(dict):  # type: ignore[type-arg]
    """A dict that records which members the counting code reads, by path pattern."""

    def __init__(self, value: dict[str, Any], where: tuple[str, ...], seen: set[Any]) -> None:
        super().__init__(value)
        self.where = where
        self.seen = seen

    def get(self, key: Any, default: Any = None) -> Any:
        self.seen.add((*self.where, key))
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.seen.add((*self.where, key))
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add((*self.where, key))
        return super().__contains__(key)


def record(value: Any, where: tuple[str, ...], seen: set[Any]) -> Any:
    if isinstance(value, dict):
        inner = {k: record(v, (*where, k), seen) for k, v in value.items()}
        return Recorder(inner, where, seen)
    if isinstance(value, list):
        return [record(v, (*where, "#"), seen) for v in value]
    return value


def declared(path: tuple[Any, ...]) -> bool:
    node = fastpath._ROOT
    for key in path:
        if node.shape == "any":
            return True
        if node.shape == "array":
            assert key == "#"
            assert node.element is not None
            node = node.element
        elif key == "#":
            return True  # an array where an object is declared: kept whole
        elif key not in node.members:
            return False
        else:
            node = node.members[key]
    return True


def test_the_schema_declares_every_member_the_count_reads() -> None:
    """If count.py starts reading a new member, the fast path must decode it too."""
    from rebootspec.reference.hosts.vscode.count import count_state
    from rebootspec.reference.hosts.vscode.replay import load_path

    seen: set[Any] = set()
    for path in CORPUS:
        try:
            state = load_path(path).state
        except Rejection:
            continue
        try:
            count_state(record(state, (), seen))
        except (Rejection, RecursionError):  # the nesting fixtures: nothing to record
            continue
    missing = sorted(map(str, (p for p in seen if not declared(p))))
    assert not missing


def test_appended_shape_steps_aside_to_the_readable_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: on a big log of a short first line and short patches (an appended shape) the
    fast path is not faster, so it is not started; on one whose first line holds most bytes, or
    whose patches are long, it answers."""
    from rebootspec.reference.hosts.vscode import shape

    (tmp_path / "a").mkdir()
    (tmp_path / "r").mkdir()
    patch = b'{"kind":2,"k":["requests"],"v":[{"requestId":"r","response":[]}]}\n'
    appended = write(tmp_path / "a", log() + patch * 200, ".jsonl")
    state = dict(STATE, inputState={"inputText": "x" * 20_000})
    first = orjson.dumps({"kind": 0, "v": state}) + b"\n"
    rewritten = write(tmp_path / "r", first + patch, ".jsonl")
    (tmp_path / "l").mkdir()
    long_patch = orjson.dumps({"kind": 1, "k": ["inputState"], "v": {"x": "y" * 5000}}) + b"\n"
    long_lines = write(tmp_path / "l", log() + long_patch * 20, ".jsonl")
    monkeypatch.setattr(shape, "APPENDED_FROM_BYTES", 1000)
    assert shape.appended(appended) and not shape.appended(rewritten)
    assert not shape.appended(long_lines)  # long patches: the fast path skips most bytes
    assert assert_same(long_lines) is None
    fastpath.last_fallback = "not run"
    assert outcome(appended, readable=False) == outcome(appended, readable=True)
    assert fastpath.last_fallback == "not run"  # count_fast was never called
    assert assert_same(rewritten) is None  # answered by the fast path
