"""The harvest's check of `rebootspec whoami` run by a real host's shell tool (issue #34).

Why in the harvest: only the host itself shows what its shell tool's environment names. The
scripted model asks the shell tool to run `rebootspec whoami --json` after each compaction; the
server logs the output the host sends back (`LogEntry.whoami`), and this compares each output
with what the script had caused before that request (the server log: never a counter) and with
the file the host is writing. A host that names no session must have drawn the refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from ..server import ScriptedServer

REFUSAL = "no session id in the environment"


def check_whoami(
    server: ScriptedServer,
    own: Path,
    named: bool,
    compactions: Callable[[list[str]], int],
    shell: str,
) -> list[str]:
    """Notes for the run's row: one line when every answer is right, else a `WHOAMI WRONG`
    line per wrong answer (the harvest fails on those). `compactions` counts the compactions
    in the classifications of the requests before an answer, the host's own way."""
    answers = [(i, e.whoami) for i, e in enumerate(server.entries) if e.whoami]
    if not answers:
        return ["WHOAMI WRONG: no whoami output reached the model"]
    wrong: list[str] = []
    for index, output in answers:
        caused = compactions([e.classification for e in server.entries[:index]])
        if not named:
            if REFUSAL not in output:
                wrong.append(f"request {index + 1}: expected the refusal, got {output[:80]!r}")
            continue
        line = answer_line(output)
        try:
            answer = json.loads(line)
        except ValueError:
            wrong.append(f"request {index + 1}: not an answer: {output[:120]!r}")
            continue
        said = (answer.get("reboots"), Path(str(answer.get("file"))).name)
        if said != (caused, own.name):
            wrong.append(f"request {index + 1}: said {said}, the script caused {caused}")
    if wrong:
        return [f"WHOAMI WRONG {line}" for line in wrong]
    what = "the right count and file" if named else "the refusal (no session variable)"
    return [f"whoami: {len(answers)} answer(s) from {shell}, each {what}"]


def answer_line(output: str) -> str:
    """The JSON line of a whoami output: a host may frame a tool's output with lines of its
    own, or a label on the same line (Qwen Code's ``Output: {...}``)."""
    for text in output.splitlines():
        if text.startswith("{"):
            return text
    for text in output.splitlines():
        if text.startswith("Output: {"):
            return text.removeprefix("Output: ")
    return output


def hook_file_value(path: Path) -> object:
    """The `reboots` a hook or extension last wrote to `path`, "absent", or the file's text
    when it is no answer."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return "absent"
    try:
        return json.loads(text).get("reboots")
    except (ValueError, AttributeError):
        return text[:80]


def check_hook_file(written: list[tuple[int, object]], what: str) -> str:
    """After every turn, the file an after-compaction hook writes holds the compactions the
    server log shows so far (absent before the first); a `WRONG` note otherwise."""
    wrong = [
        f"after {caused} compaction(s) the file said {said!r}"
        for caused, said in written
        if said != (caused if caused else "absent")
    ]
    if wrong:
        return f"{what.upper()} WRONG: " + "; ".join(wrong)
    return f"{what}: after each of {len(written)} turns its file held the count so far"
