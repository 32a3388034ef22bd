"""The scripted model server: loopback only, a bounded number of requests, a bounded lifetime.

A harvest run starts one server per host run. It speaks the OpenAI Responses API (``POST
/v1/responses``), Chat Completions (``POST /v1/chat/completions``), ``GET /v1/models``, and the
Gemini API (``POST .../models/<model>:streamGenerateContent`` over SSE, ``:generateContent``,
``:countTokens``); the answers come from ``script.decide``. Every request is logged (path, model,
classification, usage reported): that log is the evidence of how many compactions the script
caused, so the expected count never comes from a counter. The server refuses any address but
127.0.0.1, answers 503 and shuts down once its request budget is spent, and shuts down by itself
when its time is up, so a stuck host cannot keep it alive.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from . import script, wire

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class LogEntry:
    """One request as the evidence records it."""

    seq: int
    method: str
    path: str
    model: str
    classification: str  # "turn", "tool-call", "summary", "summary-cut" (a summary streamed cut
    # short), "summary-failed", "models", "refused", "count-tokens"; Cline's labels
    # (cline_script): "continued", "condense", "condense-accepted", "condense-feedback"
    input_tokens: int
    status: int
    digest: str
    thread: str = ""  # the host's session/thread id header, when it sends one
    seconds: float = 0.0  # since the server started: the order of steps and requests
    whoami: str = ""  # the output of a `rebootspec whoami` tool call this request answers
    # The digests of the scripted summaries this request carries (script.carried): a summary
    # whose digest a later request carries reached the model's context.
    carries: tuple[str, ...] = ()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, owner: ScriptedServer) -> None:
        self.owner = owner
        super().__init__((LOOPBACK, 0), _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the owner's log is the record, stderr stays the host's."""

    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        owner = self.server.owner
        if not owner.admit(self.command, self.path):
            self._send_json(503, {"error": {"message": "harvest server: request budget spent"}})
            return
        if self.path.rstrip("/").endswith("/models"):
            owner.record(self.command, self.path, "", "models", 0, 200, "")
            models = [
                {"id": name, "object": "model", "owned_by": "harvest"} for name in owner.models
            ]
            self._send_json(200, {"object": "list", "data": models, "models": models})
            return
        owner.record(self.command, self.path, "", "unknown", 0, 404, "")
        self._send_json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not owner.admit(self.command, self.path):
            self._send_json(503, {"error": {"message": "harvest server: request budget spent"}})
            return
        route = self.path.split("?", 1)[0].rstrip("/")
        gemini_model, _, method = route.rpartition("/models/")[2].partition(":")
        if route.endswith("/responses"):
            api = "responses"
        elif route.endswith("/chat/completions"):
            api = "chat"
        elif "/models/" in route and method in ("streamGenerateContent", "generateContent"):
            api = "gemini"
        elif "/models/" in route and method == "countTokens":
            owner.record(self.command, self.path, gemini_model, "count-tokens", 0, 200, "")
            self._send_json(200, wire.gemini_count(script.SMALL_USAGE))
            return
        else:
            owner.record(self.command, self.path, "", "unknown", 0, 404, "")
            self._send_json(404, {"error": {"message": "not found"}})
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            owner.record(self.command, self.path, "", "bad-json", 0, 400, "")
            self._send_json(400, {"error": {"message": "body is not JSON"}})
            return
        request = script.parse(
            api, body if isinstance(body, dict) else {}, gemini_model if api == "gemini" else ""
        )
        owner.dump(self.path, dict(self.headers.items()), body)
        reply = owner.decide(request)
        classification = (
            reply.label
            or {
                "summary": "summary-cut" if reply.cut else "summary",
                "error": "summary-failed",
                "tool": "tool-call",
                "text": "turn",
            }[reply.kind]
        )
        digest = request.raw_digest[:12]
        owner.record(
            self.command,
            self.path,
            request.model,
            classification,
            reply.input_tokens if reply.kind != "error" else 0,
            reply.status,
            digest,
            self.headers.get("session_id") or self.headers.get("conversation_id") or "",
            script.whoami_output(request),
            script.carried(request),
        )
        if reply.kind == "error":
            kind = "server_error" if reply.status >= 500 else "invalid_request_error"
            error: dict[str, Any] = {"message": reply.text, "type": kind}
            if api == "gemini":  # google.rpc.Status
                error = {"code": reply.status, "message": reply.text, "status": "INTERNAL"}
            self._send_json(reply.status, {"error": error})
            return
        ident = f"{digest}{owner.count:04d}"
        stream = body.get("stream", False) if isinstance(body, dict) else False
        if api == "gemini":
            stream = method == "streamGenerateContent"
        if not stream:
            shape = {"responses": wire.responses_json, "chat": wire.chat_json}.get(
                api, wire.gemini_json
            )
            self._send_json(200, shape(reply, ident, request.model))
            return
        stream_shape = {"responses": wire.responses_events, "chat": wire.chat_events}.get(
            api, wire.gemini_events
        )
        events = stream_shape(reply, ident, request.model)
        if reply.cut:  # the connection drops after the first chunk: no finish, no usage
            events = events[:1]
        payload = b"".join(events)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class ScriptedServer:
    """A scripted model on 127.0.0.1 that ends itself after ``max_requests`` or ``max_seconds``."""

    def __init__(
        self,
        max_requests: int = 200,
        max_seconds: float = 300.0,
        log_path: Path | None = None,
        models: tuple[str, ...] = ("harvest-model",),
        dump_dir: Path | None = None,
        decide: Callable[[script.Request], script.Reply] = script.decide,
    ) -> None:
        self.max_requests = max_requests
        self.max_seconds = max_seconds
        self.log_path = log_path
        self.models = models
        self.dump_dir = dump_dir
        self.decide = decide  # the answers: script.decide, or a host's own (cline_script)
        self.entries: list[LogEntry] = []
        self.count = 0
        self._lock = threading.Lock()
        self._httpd = _Server(self)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._timer = threading.Timer(max_seconds, self.stop)
        self._timer.daemon = True
        self._stopped = threading.Event()
        self._stopping = False
        self.started = 0.0

    @property
    def address(self) -> tuple[str, int]:
        """The bound (host, port): always the loopback address."""
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, what a host's provider config points at."""
        host, port = self.address
        return f"http://{host}:{port}/v1"

    def start(self) -> ScriptedServer:
        """Serve in a background thread and arm the lifetime timer."""
        self.started = time.monotonic()
        self._thread.start()
        self._timer.start()
        return self

    def admit(self, method: str, path: str) -> bool:
        """Count a request against the budget; past it, refuse and shut down."""
        with self._lock:
            if self.count >= self.max_requests:
                over = True
            else:
                self.count += 1
                over = False
        if over:
            self.record(method, path, "", "refused", 0, 503, "")
            threading.Thread(target=self.stop, daemon=True).start()
        return not over

    def record(
        self,
        method: str,
        path: str,
        model: str,
        classification: str,
        input_tokens: int,
        status: int,
        digest: str,
        thread: str = "",
        whoami: str = "",
        carries: tuple[str, ...] = (),
    ) -> None:
        """Append one log entry (and one JSON line to the log file, if any)."""
        with self._lock:
            entry = LogEntry(
                len(self.entries) + 1,
                method,
                path,
                model,
                classification,
                input_tokens,
                status,
                digest,
                thread,
                round(time.monotonic() - self.started, 3),
                whoami,
                carries,
            )
            self.entries.append(entry)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as log:
                    row = asdict(entry)
                    if not row["whoami"]:  # the log of a run without whoami keeps its shape
                        del row["whoami"]
                    if row["carries"]:  # only where a request carries a scripted summary
                        row["carries"] = list(row["carries"])
                    else:
                        del row["carries"]
                    log.write(json.dumps(row) + "\n")

    def dump(self, path: str, headers: dict[str, str], body: Any) -> None:
        """Keep a request whole (debugging a new host version); only when a dump folder is set."""
        if self.dump_dir is None:
            return
        self.dump_dir.mkdir(parents=True, exist_ok=True)
        name = self.dump_dir / f"{self.count:04d}.json"
        record = {"path": path, "headers": headers, "body": body}
        name.write_text(json.dumps(record, indent=1), encoding="utf-8")

    def stop(self) -> None:
        """Stop serving (idempotent); safe from any thread, the timer's included."""
        with self._lock:
            if self._stopping:
                return
            self._stopping = True
        self._timer.cancel()
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()
        self._stopped.set()  # only once the socket is closed: wait() means "no longer listening"

    @property
    def stopped(self) -> bool:
        """True once the server has shut down (budget, time or stop())."""
        return self._stopped.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the server stops; True if it did."""
        return self._stopped.wait(timeout)

    def reached(self) -> int:
        """Summaries answered 200 whose text a later request carries (``reached_summaries``)."""
        return len(reached_summaries([asdict(entry) for entry in self.entries]))

    def summaries(self) -> int:
        """Summary requests answered (a host may send two for one compaction: pi's split turn)."""
        return sum(1 for entry in self.entries if entry.classification == "summary")


def reached_summaries(log: list[dict[str, Any]]) -> list[int]:
    """In a server log (entries as the log file has them): the positions of the summary
    requests answered 200 whose summary a later request carries. The count of a host that may
    answer a summary and then drop it (Qwen Code's "inflated" compressions): only a summary the
    model was later shown replaced the history."""
    found = []
    for index, entry in enumerate(log):
        if entry.get("classification") != "summary" or entry.get("status") != 200:
            continue
        digest = entry.get("digest")
        if any(digest in later.get("carries", ()) for later in log[index + 1 :]):
            found.append(index)
    return found


@contextmanager
def serving(
    max_requests: int = 200, max_seconds: float = 300.0, log_path: Path | None = None
) -> Iterator[ScriptedServer]:
    """A started server, stopped on exit whatever happens."""
    server = ScriptedServer(max_requests, max_seconds, log_path).start()
    try:
        yield server
    finally:
        server.stop()
