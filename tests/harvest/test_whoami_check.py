"""The harvest's whoami check and the script's whoami call, without a real host (issue #34).

The check compares what a host's shell tool printed with the compactions the server log shows
before it; these tests feed it logs written by hand, so each can fail.
"""

from __future__ import annotations

import json
from pathlib import Path

from rebootspec.generators.harvest import script
from rebootspec.generators.harvest.hosts.whoami import check_whoami
from rebootspec.generators.harvest.server import LogEntry

OWN = Path("/home/dev/.pi/agent/sessions/--p--/2026-11-27T03-45-53-179Z_abc.jsonl")


class FakeServer:
    def __init__(self, entries: list[LogEntry]) -> None:
        self.entries = entries


def entry(kind: str, whoami: str = "") -> LogEntry:
    return LogEntry(0, "POST", "/v1", "m", kind, 0, 200, "d", whoami=whoami)


def answer(reboots: int, name: str = OWN.name) -> str:
    return json.dumps({"reboots": reboots, "file": f"/home/dev/x/{name}", "source": "env:X"})


def count(kinds: list[str]) -> int:
    return sum(1 for kind in kinds if kind == "summary")


def test_right_answers_after_each_compaction() -> None:
    log = [entry("turn"), entry("summary"), entry("turn", answer(1)), entry("summary")]
    log.append(entry("turn", "Output:\n" + answer(2)))  # a host's own framing around the output
    notes = check_whoami(FakeServer(log), OWN, True, count, "the shell")  # type: ignore[arg-type]
    assert notes == ["whoami: 2 answer(s) from the shell, each the right count and file"]


def test_a_stale_count_is_wrong() -> None:
    log = [entry("summary"), entry("turn", answer(1)), entry("summary"), entry("turn", answer(1))]
    notes = check_whoami(FakeServer(log), OWN, True, count, "sh")  # type: ignore[arg-type]
    assert notes == ["WHOAMI WRONG request 4: said (1, '" + OWN.name + "'), the script caused 2"]


def test_another_file_is_wrong() -> None:
    log = [entry("summary"), entry("turn", answer(1, "other.jsonl"))]
    notes = check_whoami(FakeServer(log), OWN, True, count, "sh")  # type: ignore[arg-type]
    assert notes[0].startswith("WHOAMI WRONG")


def test_a_host_without_a_variable_must_draw_the_refusal() -> None:
    refusal = "error: whoami: no session id in the environment (looked for X)"
    good = check_whoami(FakeServer([entry("turn", refusal)]), OWN, False, count, "sh")  # type: ignore[arg-type]
    assert good[0].endswith("the refusal (no session variable)")
    bad = check_whoami(FakeServer([entry("turn", answer(0))]), OWN, False, count, "sh")  # type: ignore[arg-type]
    assert bad[0].startswith("WHOAMI WRONG")


def test_no_output_at_all_is_wrong() -> None:
    notes = check_whoami(FakeServer([entry("turn")]), OWN, True, count, "sh")  # type: ignore[arg-type]
    assert notes[0].startswith("WHOAMI WRONG")


def request(directive: str, *after: script.Message) -> script.Request:
    messages = (script.Message("user", directive), *after)
    return script.Request("chat", "m", messages, ("bash",), "0" * 64)


def test_the_script_asks_the_shell_to_run_whoami() -> None:
    reply = script.decide(request("Turn 2. answer with 1 whoami shell tool calls"))
    assert reply.kind == "tool" and reply.tool == "bash"
    assert "whoami --json" in reply.arguments["command"]


def test_the_output_is_logged_only_on_the_request_that_answers_it() -> None:
    out = script.Message("tool", answer(1))
    assert script.whoami_output(request("x", script.Message("call", "bash"), out)) == answer(1)
    later = request("x", script.Message("call", "bash"), out, script.Message("user", "next"))
    assert script.whoami_output(later) == ""
    echo = script.Message("tool", "harvest-step-1")
    assert script.whoami_output(request("x", script.Message("call", "bash"), echo)) == ""


def test_a_wrapped_output_is_unwrapped() -> None:
    """Codex 0.95 sends a tool's output as a JSON object with the text in `output`."""
    wrapped = script.Message("tool", json.dumps({"output": answer(1), "metadata": {"x": 0}}))
    assert script.whoami_output(request("x", script.Message("call", "shell"), wrapped)) == answer(1)


def test_an_answer_labelled_on_its_own_line_is_read() -> None:
    """Qwen Code's shell tool reports `Command: ...`, then `Output: {...}` on one line."""
    framed = f"Command: whoami\nDirectory: (root)\nOutput: {answer(1)}\nError: (none)"
    log = [entry("turn"), entry("summary"), entry("turn", framed)]
    notes = check_whoami(FakeServer(log), OWN, True, count, "the shell")  # type: ignore[arg-type]
    assert notes == ["whoami: 1 answer(s) from the shell, each the right count and file"]
    wrong = [entry("turn"), entry("turn", framed)]
    notes = check_whoami(FakeServer(wrong), OWN, True, count, "the shell")  # type: ignore[arg-type]
    assert notes and notes[0].startswith("WHOAMI WRONG")
