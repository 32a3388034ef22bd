"""A spec 1.0 reboot counter: the first entry of the gallery of counters that are wrong for 2.0.

    python tests/gallery/spec_v1_counter.py SESSION.jsonl|SESSION.json

It answers as spec 1.0 did (spec/PROTOCOL.md: `{"reboots": N}` and exit 0, or exit 1 with
`error: PATH:LINE: CODE: reason`), so the conformance suite can show what 2.0 changed: it
passes every case with `--profile spec-v1` and fails, under the default profile, exactly the
cases tagged `count-changed-v2`.

Spec 1.0 counted markers, not evidence:
- only requests with a completed ENGLISH marker (`Summarized conversation history`,
  `Compacted conversation`) on a `progressTaskSerialized`/`progressTask` part, or a finished
  `/compact` (its bare markdown part `Compacted conversation.`), are compactions;
- their summaries are the non-empty `result.metadata.summaries[].text` when that array exists,
  else `result.metadata.summary.text`; `toolCallRounds` is never read;
- a summary is a reboot when its text differs from the previous summary's (phantoms do not
  reset); removal flags (`shouldBeRemovedOnSend`, `isHidden`) are ignored;
- a `.json` is any JSON object (no session/export check).
The `.jsonl` replay is the reference's (RPL-* and ERR-* did not change in 2.0).
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

import orjson

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.replay import load_path

# The spec 1.0 era table: English only (translations came with 2.0, ERA-3).
MARKER_PART_KINDS = frozenset({"progressTaskSerialized", "progressTask"})
COMPLETED = frozenset({"Summarized conversation history", "Compacted conversation"})
MANUAL_SLASH_COMMAND = "compact"
MANUAL_MESSAGE = re.compile(re.escape("/compact") + r"(\s|$)")
MANUAL_COMPLETED = frozenset({"Compacted conversation."})
BOM = b"\xef\xbb\xbf"


def load_v1(path: str) -> dict[str, Any]:
    """A `.jsonl` through the reference's replay; a `.json` as spec 1.0 read it (any object)."""
    if os.path.splitext(path)[1] != ".json":
        return load_path(path).state
    with open(path, "rb") as handle:
        data = handle.read()
    body = data[len(BOM) :] if data.startswith(BOM) else data
    if not body.strip(b" \t\r\n"):
        raise Rejection(0, "E-EMPTY", "the file is empty")
    try:
        state = orjson.loads(body)
    except orjson.JSONDecodeError as first:
        if "depth limit" in str(first):
            raise Rejection(first.lineno, "E-LIMIT", "JSON nested too deep") from None
        try:  # what orjson refuses and JSON.parse accepts (invalid UTF-8, lone surrogates)
            state = json.loads(body.decode("utf-8", "replace"), parse_constant=_no_constant)
        except RecursionError:
            raise Rejection(0, "E-LIMIT", "JSON nested too deep") from None
        except json.JSONDecodeError as error:
            raise Rejection(error.lineno, "E-JSON", f"not valid JSON ({error.msg})") from None
        except ValueError:
            raise Rejection(first.lineno, "E-JSON", "not valid JSON") from None
    if not isinstance(state, dict):
        raise Rejection(1, "E-STATE", "the session is not a JSON object")
    return state


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def count_v1(state: dict[str, Any]) -> int:
    requests = state.get("requests")
    if requests is None:
        return 0
    if not isinstance(requests, list):
        raise Rejection(0, "E-STATE", "the final state's requests is not an array")
    reboots = 0
    previous: str | None = None
    for request in requests:
        if not isinstance(request, dict) or not is_compaction(request):
            continue
        for text in summaries(request):  # a phantom has none and resets nothing
            if text != previous:
                reboots += 1
            previous = text
    return reboots


def _parts(request: dict[str, Any]) -> list[dict[str, Any]]:
    response = request.get("response")
    return [p for p in response if isinstance(p, dict)] if isinstance(response, list) else []


def is_compaction(request: dict[str, Any]) -> bool:
    for part in _parts(request):
        kind, content = part.get("kind"), part.get("content")
        value = content.get("value") if isinstance(content, dict) else None
        if isinstance(kind, str) and kind in MARKER_PART_KINDS and value in COMPLETED:
            return True
    if not is_compact_command(request):
        return False
    return any(
        "kind" not in part
        and isinstance(part.get("value"), str)
        and part["value"] in MANUAL_COMPLETED
        for part in _parts(request)
    )


def is_compact_command(request: dict[str, Any]) -> bool:
    slash = request.get("slashCommand")
    if isinstance(slash, dict) and slash.get("name") == MANUAL_SLASH_COMMAND:
        return True
    message = request.get("message")
    text = message.get("text") if isinstance(message, dict) else message
    return isinstance(text, str) and MANUAL_MESSAGE.match(text) is not None


def summaries(request: dict[str, Any]) -> list[str]:
    result = request.get("result")
    metadata = result.get("metadata") if isinstance(result, dict) else None
    if not isinstance(metadata, dict):
        return []
    entries = metadata.get("summaries")
    if isinstance(entries, list):  # the array wins, even when empty
        return [t for t in (_text(e) for e in entries) if t is not None]
    text = _text(metadata.get("summary"))
    return [text] if text is not None else []


def _text(entry: Any) -> str | None:
    text = entry.get("text") if isinstance(entry, dict) else None
    return text if isinstance(text, str) and text else None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage error: spec_v1_counter.py SESSION.jsonl|SESSION.json\n")
        return 2
    path = argv[0]
    if os.path.splitext(path)[1] not in (".json", ".jsonl"):
        sys.stderr.write(f"error: {path}: not a .json or .jsonl file\n")
        return 2
    try:
        reboots = count_v1(load_v1(path))
    except Rejection as rejection:
        sys.stderr.write(f"error: {path}:{rejection.line}: {rejection.code}: {rejection.reason}\n")
        return 1
    except OSError as error:
        sys.stderr.write(f"error: {path}: cannot read: {error.strerror or error}\n")
        return 2
    except Exception as error:  # a bug here, never the input's fault
        sys.stderr.write(f"error: {path}:0: internal error: {type(error).__name__}: {error}\n")
        return 70
    sys.stdout.write(json.dumps({"reboots": reboots}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
