"""A shrunk divergence as a new fixture folder, plus the one-screen explanation beside it.

`<OUT>/<ID>/` holds `session.<ext>` and `case.toml` (valid against spec/case.schema.json,
provenance `fuzz:<seed>`, expectation from the plan), ready to be copied into fixtures/.
`<OUT>/<ID>.EXPLAIN.txt` says what the candidate answered against what the plan expects and
shows the reference's `explain` timeline; it stays outside the folder, which must hold exactly
the two files the corpus lint allows.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...generators.corpus import ids
from ..runner.outcome import RunResult, Verdict
from .describe import case_rules, case_tags, describe_plan, title
from .plans import FuzzCase, Played

STDERR_LINES = 8
STDERR_WIDTH = 160


@dataclass(frozen=True)
class Written:
    """Where the fixture went."""

    case_id: str
    folder: Path
    explain: Path
    title: str


def toml_string(text: str) -> str:
    """A TOML basic string (escapes quotes, backslashes and control characters)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def case_metadata(case: FuzzCase, played: Played, case_id: str, seed: int) -> dict[str, Any]:
    """case.toml as a dict (the fields and order of spec/FIXTURES.md)."""
    tags = case_tags(case, played)
    return {
        "id": case_id,
        # spec/FIXTURES.md "Names": the seed and the ID keep two finds of one run apart
        "name": f"vscode/fuzz/seed-{seed}-{case_id.lower()}",
        "title": title(case, tags),
        "rules": case_rules(case, tags),
        "tags": tags,
        "era": case.era.id,
        "container": case.container,
        "provenance": f"fuzz:{seed}",
        "comment": "Found by differential fuzzing (rebootspec fuzz) and shrunk; "
        "the expected count is the plan's: "
        + "; ".join(line.strip() for line in describe_plan(case)[1:]),
        "expect": case.expected(),
    }


def render_toml(meta: dict[str, Any]) -> str:
    """The metadata as TOML, written by hand so its bytes are stable."""
    lines = []
    for name, value in meta.items():
        if name == "expect":
            continue
        if isinstance(value, list):
            lines.append(f"{name} = [{', '.join(toml_string(str(v)) for v in value)}]")
        else:
            lines.append(f"{name} = {toml_string(str(value))}")
    lines += ["", "[expect]"]
    for name, value in meta["expect"].items():
        lines.append(f"{name} = {toml_string(value) if isinstance(value, str) else value}")
    return "\n".join(lines) + "\n"


def fresh_id(out: Path) -> str:
    """A random ID used by no case of fixtures/, the registry, retired.txt, or `out`."""
    used = ids.taken() | set(ids.folder_ids(out))
    return ids.new_id(used)


def stderr_excerpt(text: str) -> list[str]:
    """The last lines of a candidate's stderr, each cut to a readable width."""
    lines = [line[:STDERR_WIDTH] for line in text.strip().splitlines()]
    return lines[-STDERR_LINES:]


def reference_timeline(path: Path) -> str:
    """`rebootspec explain PATH`, run in process."""
    from ...reference.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", str(path)], out, err)
    return out.getvalue() if code == 0 else f"(the reference exits {code}: {err.getvalue()})"


def show(answer: dict[str, Any]) -> str:
    if answer.get("outcome") == "count" and "reboots" in answer:
        count = answer["reboots"]
        return f"{count} reboot" + ("" if count == 1 else "s")
    return ", ".join(f"{k}={v}" for k, v in answer.items()) or "nothing"


def explanation(
    meta: dict[str, Any],
    case: FuzzCase,
    verdict: Verdict,
    run: RunResult,
    *,
    candidate: str,
    timeline: str,
    reproduce: str,
) -> str:
    """The one-screen explanation: expected vs got, the plan, the reference's timeline."""
    lines = [
        f"fuzz divergence {meta['id']}: {meta['title']}",
        f"candidate: {candidate}",
        f"expected:  {show(meta['expect'])} (from the plan)",
        f"got:       {show(verdict.actual)} -> {verdict.outcome}"
        + (f": {verdict.detail}" if verdict.detail else ""),
        f"exit code: {run.exit_code}, {run.duration:.2f} s",
    ]
    excerpt = stderr_excerpt(run.stderr)
    if excerpt:
        lines.append("stderr:    " + "\n           ".join(excerpt))
    lines += ["", "plan:", *("  " + line for line in describe_plan(case))]
    lines += ["", "reference timeline (rebootspec explain):"]
    lines += ["  " + line for line in timeline.rstrip("\n").splitlines()]
    lines += ["", f"tags:  {', '.join(meta['tags'])}", f"rules: {', '.join(meta['rules'])}"]
    lines += ["", f"reproduce: {reproduce}"]
    return "\n".join(lines) + "\n"


def write_fixture(
    out: Path,
    case: FuzzCase,
    played: Played,
    verdict: Verdict,
    run: RunResult,
    *,
    seed: int,
    candidate: str,
    reproduce: str,
) -> Written:
    """Write `<out>/<ID>/{case.toml,session.<ext>}` and `<out>/<ID>.EXPLAIN.txt`."""
    out.mkdir(parents=True, exist_ok=True)
    case_id = fresh_id(out)
    meta = case_metadata(case, played, case_id, seed)
    folder = out / case_id
    folder.mkdir()
    session = folder / f"session.{case.container}"
    session.write_bytes(played.data)
    (folder / "case.toml").write_text(render_toml(meta), encoding="utf-8")
    text = explanation(
        meta,
        case,
        verdict,
        run,
        candidate=candidate,
        timeline=reference_timeline(session),
        reproduce=reproduce,
    )
    explain = out / f"{case_id}.EXPLAIN.txt"
    explain.write_text(text, encoding="utf-8")
    return Written(case_id, folder, explain, str(meta["title"]))
