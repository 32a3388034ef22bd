"""Small sessions for the anonymizer's tests, built by hand from a plan that knows its answer.

The session generator of generators/ writes realistic logs; these are deliberately rougher and
full of what an anonymizer can get wrong: private texts with quotes, backslashes, control
characters, non-BMP characters and (optionally) undecodable bytes, URIs as map keys, ids,
`/compact` messages, markers of every era, in-progress texts with a percentage, summaries
that repeat (A,B,A), empty summaries, phantoms, CRLF, a torn tail, a corrupt line, and legacy
`.json`. The expected outcome comes from the plan (CNT-2 over the plan's summary texts),
never from running a counter (spec 2.0: stored texts count, markers only name phantoms).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from rebootspec.reference.hosts.vscode.eras import load_table

TABLE = load_table()
MARKER_KINDS: list[str] = list(TABLE["marker_part_kinds"])
COMPLETED: list[str] = sorted({text for era in TABLE["eras"] for text in era["completed"]})
IN_PROGRESS: list[str] = sorted({text for era in TABLE["eras"] for text in era["in_progress"]})
MANUAL_DONE: str = TABLE["manual"]["completed_markdown"][0]
SLASH: str = TABLE["manual"]["slash_command"]
# Private-use characters that the writer turns into undecodable bytes (invalid-UTF-8 mode).
BAD_BYTES = {"\ue000": b"\xfe", "\ue001": b"\xc0", "\ue002": b"\xc3"}
BASE_TIME = 1767000000000


@dataclass
class Request:
    """One request of a plan: what the user sent, what came back, what was summarized."""

    message: str
    markdown: list[str]
    uri: str
    marker: str | None = None  # a completed marker text, with marker_kind
    marker_kind: str = "progressTaskSerialized"
    manual: str | None = None  # "slash" or the full /compact message text
    in_progress: str | None = None  # an in-progress text left on disk
    summaries: list[str] | None = None  # summaries[] texts ("" = failed)
    summary: str | None = None  # singular summary text


@dataclass
class Session:
    """A plan: requests plus how to write them."""

    requests: list[Request]
    title: str
    ids: list[str]
    crlf: bool = False
    ascii_escapes: bool = False
    bad_bytes: bool = False
    torn_tail: int | None = None  # cut the last line to this many bytes, unterminated
    corrupt_at: int | None = None  # 0-based position of an extra, broken line
    private: set[str] = field(default_factory=set)


def is_compaction(request: Request) -> bool:
    return request.marker is not None or request.manual is not None


def decoded(text: str, session: Session) -> str:
    """What the reference reads for `text` (undecodable bytes become U+FFFD, RPL-2)."""
    if not session.bad_bytes:
        return text
    for char in BAD_BYTES:
        text = text.replace(char, "\ufffd")
    return text


def events_of(request: Request, session: Session) -> list[str]:
    """The texts the request stores, as spec 2.0 reads them (SUM-1, SUM-2, SUM-8).

    The builder writes `summaries` or else `summary`, never rounds; markers play no part.
    """
    if request.summaries is not None:
        texts = [decoded(t, session) for t in request.summaries if t]
    elif request.summary:
        texts = [decoded(request.summary, session)]
    else:
        texts = []
    return list(dict.fromkeys(texts))  # SUM-8: once per request


def expected_reboots(session: Session) -> int:
    """CNT-2 over the plan: an event counts when it differs from the previous one."""
    reboots = 0
    previous: str | None = None
    for request in session.requests:
        for text in events_of(request, session):
            reboots += text != previous
            previous = text
    return reboots


def expected_phantoms(session: Session) -> list[tuple[int, str]]:
    """Requests with a completed marker and no event (SUM-4), with their reason (OUT-3).

    A failed entry here has empty text and an `outcome`: reason `failed`; the builder writes
    no error results and no model state, so anything else is `unknown`.
    """
    return [
        (index, "failed" if "" in (request.summaries or []) else "unknown")
        for index, request in enumerate(session.requests)
        if is_compaction(request) and not events_of(request, session)
    ]


def _request_json(index: int, request: Request, session: Session) -> dict[str, Any]:
    parts: list[Any] = [
        {"value": text, "uris": {request.uri: {"$mid": 1, "path": request.uri}}}
        for text in request.markdown
    ]
    if request.in_progress is not None:
        parts.append({"kind": "progressMessage", "content": {"value": request.in_progress}})
    if request.marker is not None:
        parts.append(
            {"kind": request.marker_kind, "content": {"value": request.marker}, "progress": []}
        )
    if request.manual is not None:
        parts.append({"value": MANUAL_DONE})
    body: dict[str, Any] = {
        "requestId": session.ids[index],
        "timestamp": BASE_TIME + 60_000 * index,
        "message": {
            "text": request.message if request.manual in (None, "slash") else request.manual
        },
        "response": parts,
    }
    if request.manual == "slash":
        body["slashCommand"] = {"name": SLASH, "description": session.title}
    metadata: dict[str, Any] = {}
    if request.summaries is not None:
        metadata["summaries"] = [
            {"toolCallRoundId": session.ids[index], "text": text, "outcome": "success"}
            for text in request.summaries
        ]
    elif request.summary is not None:
        metadata["summary"] = {"toolCallRoundId": session.ids[index], "text": request.summary}
    if metadata:
        body["result"] = {"metadata": metadata, "timings": {"totalElapsed": 1.5e3}}
    return body


def _dump(value: Any, session: Session, indent: int | None = None) -> bytes:
    separators = (",", ":") if indent is None else (",", ": ")
    text = json.dumps(
        value, ensure_ascii=session.ascii_escapes, separators=separators, indent=indent
    )
    data = text.encode("utf-8", "surrogatepass")
    if session.bad_bytes:
        for char, raw in BAD_BYTES.items():
            data = data.replace(char.encode("utf-8"), raw)
    return data


def _log_lines(session: Session) -> list[bytes]:
    """The well-formed lines of the plan's log, without line ends."""
    state = {
        "version": 3,
        "creationDate": BASE_TIME,
        "initialLocation": "panel",
        "customTitle": session.title,
        "requests": [],
    }
    lines = [_dump({"kind": 0, "v": state}, session)]
    for index, request in enumerate(session.requests):
        full = _request_json(index, request, session)
        bare = {key: value for key, value in full.items() if key not in ("response", "result")}
        bare["response"] = []
        lines.append(_dump({"kind": 2, "k": ["requests"], "v": [bare]}, session))
        if full["response"]:
            push = {"kind": 2, "k": ["requests", index, "response"], "v": full["response"]}
            lines.append(_dump(push, session))
        if "result" in full:
            result = {"kind": 1, "k": ["requests", index, "result"], "v": full["result"]}
            lines.append(_dump(result, session))
    lines.append(
        _dump({"kind": 1, "k": ["inputState"], "v": {"inputText": session.title}}, session)
    )
    return lines


def broken_line(session: Session) -> int | None:
    """The 1-based number of the inserted broken line (the expected E-JSON line), or None."""
    if session.corrupt_at is None:
        return None
    return 2 + session.corrupt_at % len(_log_lines(session))


def write_log(session: Session) -> bytes:
    """The plan as a `.jsonl` mutation log, with the malformations it asks for."""
    lines = _log_lines(session)
    line = broken_line(session)
    if line is not None:
        source = lines[line - 2]
        lines.insert(line - 1, source[: max(1, len(source) // 2)])
    end = b"\r\n" if session.crlf else b"\n"
    data = b"".join(line + end for line in lines)
    if session.torn_tail is not None:
        last = lines[-1]
        data += last[: 1 + session.torn_tail % (len(last) - 1)]
    return data


def write_flat(session: Session) -> bytes:
    """The plan as a legacy flat `.json` (VS Code's 2-space pretty print)."""
    requests = [_request_json(i, r, session) for i, r in enumerate(session.requests)]
    state = {"version": 3, "customTitle": session.title, "requests": requests}
    return _dump(state, session, indent=2)


# --- Hypothesis strategies ---------------------------------------------------------------

_TRICKY = st.sampled_from(['"', "\\", "\n", "\t", "\x01", "😀", "é", "/", " ", "…"])


def private_texts(bad_bytes: bool) -> st.SearchStrategy[str]:
    """Texts a person could have typed; with bad_bytes, some become undecodable bytes."""
    plain = st.text(min_size=0, max_size=30)
    tricky = st.lists(st.one_of(_TRICKY, st.text(max_size=4)), max_size=8).map("".join)
    choices = [plain, tricky]
    if bad_bytes:
        choices.append(
            st.lists(
                st.one_of(st.sampled_from(sorted(BAD_BYTES)), st.text(max_size=3)), max_size=6
            ).map("".join)
        )
    return st.one_of(*choices)


@st.composite
def sessions(draw: st.DrawFn, allow_broken: bool = True) -> Session:
    """A random plan: requests, compactions, summaries from a small pool, malformations."""
    bad_bytes = draw(st.booleans())
    text = private_texts(bad_bytes)
    pool = draw(st.lists(text.filter(bool), min_size=1, max_size=3))  # summary texts A, B, C
    summary_text = st.one_of(st.sampled_from(pool), st.just(""), st.sampled_from(COMPLETED))
    requests = []
    for _ in range(draw(st.integers(1, 6))):
        request = Request(
            message=draw(text),
            markdown=draw(st.lists(text, max_size=2)),
            uri="file:///home/" + draw(text) + "/src/" + draw(text.filter(bool)) + ".py",
        )
        shape = draw(st.sampled_from(["plain", "marker", "slash", "message", "in-progress"]))
        if shape == "marker":
            request.marker = draw(st.sampled_from(COMPLETED))
            request.marker_kind = draw(st.sampled_from(MARKER_KINDS))
        elif shape == "slash":
            request.manual = "slash"
        elif shape == "message":
            request.manual = "/compact" + draw(st.sampled_from(["", " ", "\t"])) + draw(text)
            if request.manual.startswith("/compact") and not (
                request.manual == "/compact" or request.manual[8].isspace()
            ):
                request.manual = "/compact"
        elif shape == "in-progress":
            percent = draw(st.sampled_from(["", " (42%)", " " + draw(text)]))
            stem = draw(st.sampled_from(IN_PROGRESS)).removesuffix("...")
            request.in_progress = stem + percent + "..."
        field_kind = draw(st.sampled_from(["summaries", "summary", "none"]))
        if field_kind == "summaries":
            request.summaries = draw(st.lists(summary_text, max_size=3))
        elif field_kind == "summary":
            request.summary = draw(summary_text)
        requests.append(request)
    ids = [
        "request_" + draw(st.text(alphabet="0123456789abcdef-", min_size=6, max_size=36))
        for _ in requests
    ]
    session = Session(
        requests=requests,
        title=draw(text),
        ids=ids,
        crlf=draw(st.booleans()),
        ascii_escapes=draw(st.booleans()) and not bad_bytes,
        bad_bytes=bad_bytes,
        torn_tail=draw(st.none() | st.integers(0, 10_000)) if allow_broken else None,
        corrupt_at=draw(st.none() | st.integers(0, 100)) if allow_broken else None,
    )
    session.private = _private_strings(session)
    return session


def _private_strings(session: Session) -> set[str]:
    found = {session.title, *session.ids}
    for request in session.requests:
        found |= {request.message, request.uri, *request.markdown}
        found |= set(request.summaries or []) | {request.summary or ""}
        if request.manual not in (None, "slash"):
            found.add(request.manual[len("/compact ") :])
        if request.in_progress is not None:
            stem = next(t[:-3] for t in IN_PROGRESS if request.in_progress.startswith(t[:-3]))
            found.add(request.in_progress[len(stem) : -3])
    return {text for text in found if text}
