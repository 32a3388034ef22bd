"""``python -m rebootspec.generators harvest-cases``: the curated harvest becomes corpus cases.

Every file of ``harvested/manifest.toml`` — written by a released Codex, pi, Gemini CLI or
opencode against the scripted model — is one case (provenance ``harvest:HOST@VERSION/scenario``).
opencode keeps all sessions in one store (``opencode.db``, or the ``storage/`` folder before 1.2):
its entry names a curated folder whose whole content becomes the case's ``input/``
(spec/FIXTURES.md, "Inputs of several files"), the path the candidate reads (``input``) and the
session the question is about (``session``); one store can be several cases (a fork's source
and the fork). Its expectation
comes from the run's own record: ``expected``, the compactions the script caused in this thread per
the server log. When the host caused compactions and the file records none (``records`` 0), the
version is of an era that recorded no compaction, and the spec's answer is ``E-UNMEASURABLE``
(RBT-5); the reference is never run to decide.

A manifest entry may also say what the generic tables cannot: ``container`` (a multi-file
container such as ``markdown``: the case's input is the folder ``input/`` holding the entry's
``inputs``, and ``input`` names the ``file`` asked about, spec/FIXTURES.md), ``era``, ``rules``
and ``tags``, and ``reject`` (with ``line``): the error code the spec gives when the run's record
leaves the count unknown (a basic-agent-chat-loop file that overwrote its parent names itself,
BCL-6).

The data lives in the checkout's top-level ``harvested/`` folder (its README says why), outside
the Python package: the manifest, and each run's log. A file that is a case is kept once, in the
corpus: its entry names the case (``case``) and its bytes are read from ``fixtures/<case>/``. A
new entry (``file`` only, the file still in ``harvested/``) gets an ID chosen once and kept in
``harvested/case_ids.toml``; once written into the corpus, its entry is given ``case`` and the
copy in ``harvested/`` goes. ``--check`` compares the corpus with a fresh conversion (``tox -e
corpus``), as ``build --check`` does for generated cases; where ``harvested/`` is absent (an
installed wheel) there is nothing to convert and it says so.
"""

from __future__ import annotations

import random
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import orjson

from ..corpus import casefile, ids

# The checkout's data folder: generators/harvest/corpus.py -> the checkout's root.
HARVESTED = Path(__file__).resolve().parents[2] / "harvested"
MANIFEST = HARVESTED / "manifest.toml"
REGISTRY = HARVESTED / "case_ids.toml"

# What each scenario exercises: (rules, tags) by host, scenario and the file's role.
CODEX_SCENARIOS: dict[str, tuple[list[str], list[str]]] = {
    "manual": (["RBT-1", "CDX-3", "CDX-9"], ["codex-manual"]),
    "auto-pre-turn": (["RBT-1", "CDX-3", "CDX-9"], ["codex-pre-turn"]),
    "auto-mid-turn": (["RBT-1", "CDX-3", "CDX-9"], ["codex-mid-turn"]),
    "failure": (["RBT-1", "CDX-3"], ["codex-failed-compaction"]),
    "rollback": (["RBT-4", "CDX-6"], ["codex-rollback"]),
}
GEMINI_SCENARIOS: dict[str, tuple[list[str], list[str]]] = {
    # headless -p, then --resume latest -p: every resume writes the last snapshot again
    "auto-pre-turn": (["RBT-1", "GEM-3", "GEM-4", "GEM-8"], ["gemini-snapshot", "gemini-resume"]),
}
# opencode (spec/hosts/opencode.md): a store (OPC-1), the session's records (OPC-3), compaction
# pairs (OPC-4) or 1.0.0's summary messages (OPC-5), failed summaries (OPC-6), a summary cut
# short (OPC-7), a fork's copies (OPC-9), a subagent's child session (OPC-10), the session named
# in a store of several (OPC-11).
OPENCODE_SCENARIOS: dict[str, list[str]] = {
    "auto": ["RBT-1", "OPC-1", "OPC-3", "OPC-4"],
    "manual": ["RBT-1", "OPC-1", "OPC-3", "OPC-4"],
    "subagent": ["RBT-1", "OPC-4", "OPC-10", "OPC-11"],
    "failure": ["RBT-1", "OPC-4", "OPC-6"],
    "cut-short": ["RBT-1", "OPC-4", "OPC-7"],
    "fork": ["RBT-1", "OPC-4", "OPC-9", "OPC-11"],
}
OPENCODE_CONTAINERS = {"opencode.db": "sqlite", "storage": "storage", "kilo.db": "sqlite"}
# Kilo (spec/hosts/kilo.md), a member of opencode's family: its database told by its rows
# (KLO-1), its eras and answer (KLO-2, KLO-3), opencode's pair (OPC-4) and failures (OPC-6).
KILO_SCENARIOS: dict[str, list[str]] = {
    "plain": ["KLO-1", "KLO-2", "KLO-3", "OPC-3"],
    "manual": ["RBT-1", "KLO-1", "KLO-2", "KLO-3", "OPC-4"],
    "auto": ["RBT-1", "KLO-1", "KLO-2", "KLO-3", "OPC-4"],
    "two": ["RBT-1", "KLO-1", "KLO-2", "KLO-3", "OPC-4"],
    "failure": ["RBT-1", "KLO-1", "KLO-2", "KLO-3", "OPC-4", "OPC-6"],
}
# Qwen Code (spec/hosts/qwen-code.md): one `system`/`chat_compression` record per completed
# compression (QWN-3), whose new history starts with a new summary (QWN-4); a failed one writes
# nothing and a resumed run appends to the same file (QWN-10); a fork's copies are its source's
# (QWN-6, RBT-3); 0.1.x kept a whole-file chat with no record of a compression (QWN-9, RBT-5).
# Every Q1 run resumes its session (`--resume <id> -p` after turn 1). Tags as spec/tags.toml.
QWEN_SCENARIOS: dict[str, tuple[list[str], list[str]]] = {
    "plain": (["RBT-1", "QWN-3"], ["qwen-resume"]),
    "manual": (["RBT-1", "QWN-3", "QWN-4"], ["qwen-manual", "qwen-resume"]),
    "auto": (["RBT-1", "QWN-3", "QWN-4"], ["qwen-auto", "qwen-resume"]),
    "twice": (["RBT-1", "QWN-3", "QWN-4"], ["qwen-auto", "qwen-resume"]),
    "resume": (["RBT-1", "QWN-3", "QWN-4"], ["qwen-auto", "qwen-manual", "qwen-resume"]),
    "failure": (["RBT-1", "QWN-3"], ["qwen-failed-compression", "qwen-resume"]),
    "fork": (["RBT-1", "QWN-3", "QWN-4"], ["qwen-auto", "qwen-resume"]),
    # 0.8-0.15 drop a compression whose summary made the history "larger" (status 2, QWN-10)
    "inflated": (["RBT-1", "QWN-3"], ["qwen-resume"]),
}
# The rules each of those tags names (spec/tags.toml): a case with a tag cites them.
QWEN_TAG_RULES = {
    "qwen-resume": ["QWN-10"],
    "qwen-manual": ["QWN-3"],
    "qwen-auto": ["QWN-3"],
    "qwen-failed-compression": ["QWN-10", "RBT-1"],
    "qwen-fork": ["QWN-6", "RBT-3"],
    "qwen-q0": ["QWN-9"],
}
PI_SCENARIOS: dict[str, tuple[list[str], list[str]]] = {
    "manual": (["RBT-1", "PIA-3"], []),
    "auto-pre-turn": (["RBT-1", "PIA-3"], []),
    "failure": (["RBT-1", "PIA-3"], ["pi-failed-compaction"]),
}


@dataclass(frozen=True)
class Harvested:
    """One file of the manifest, as a case; ``files`` are a multi-file case's input (its path
    under ``input/`` -> bytes): an opencode store's folder, or a chat loop's ``inputs``."""

    key: str  # host@version/scenario/role, the registry key
    entry: dict[str, Any]
    data: bytes
    files: dict[str, bytes] | None = None  # path under input/ -> bytes (multi-file inputs)

    @property
    def host(self) -> str:
        return str(self.entry["host"])


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative POSIX path, in name order."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def available() -> bool:
    """Whether the harvested data is here (a checkout; an installed wheel carries none)."""
    return MANIFEST.is_file()


def entries() -> list[dict[str, Any]]:
    """The manifest's entries, in manifest order."""
    with MANIFEST.open("rb") as handle:
        return list(tomllib.load(handle)["file"])


def source(entry: dict[str, Any], fixtures: Path = ids.FIXTURES) -> Path:
    """Where an entry's bytes are: in its corpus case (``case``: ``session.<container>``, the
    asked file of a chain under ``input/``, or ``input/`` itself for a store), else the file
    (or store folder) in ``harvested/``."""
    if "case" not in entry:
        return HARVESTED / str(entry["file"])
    folder = fixtures / str(entry["case"])
    inputs = folder / casefile.INPUT_FOLDER
    if inputs.is_dir():
        return inputs / Path(str(entry["file"])).name if "inputs" in entry else inputs
    sessions = sorted(folder.glob("session.*"))
    if len(sessions) != 1:
        raise ValueError(
            f"fixtures/{entry['case']}: expected one session file, found {len(sessions)}"
        )
    return sessions[0]


def load(fixtures: Path = ids.FIXTURES) -> list[Harvested]:
    """The manifest's files with their bytes, in manifest order."""
    out = []
    for entry in entries():
        key = f"{entry['host']}@{entry['version']}/{entry['scenario']}/{entry['role']}"
        path = source(entry, fixtures)
        if path.is_dir():  # a store: the whole folder is the case's input/
            out.append(Harvested(key, entry, b"", folder_files(path)))
        elif "inputs" in entry:  # a chain of session files: those the entry lists
            names = [Path(str(name)).name for name in entry["inputs"]]
            if "case" in entry:
                files = folder_files(path.parent)
                if sorted(files) != sorted(names):
                    raise ValueError(f"fixtures/{entry['case']}/input holds {sorted(files)}")
            else:
                files = {Path(n).name: (HARVESTED / str(n)).read_bytes() for n in entry["inputs"]}
            out.append(Harvested(key, entry, path.read_bytes(), files))
        else:
            out.append(Harvested(key, entry, path.read_bytes()))
    return out


def expectation(item: Harvested) -> dict[str, Any]:
    """The run's record: the compactions caused, or E-UNMEASURABLE when none was recorded."""
    caused, recorded = int(item.entry["expected"]), int(item.entry["records"])
    if "reject" in item.entry:
        line = int(item.entry.get("line", 0))
        return {"outcome": "reject", "error": str(item.entry["reject"]), "line": line}
    if caused > 0 and recorded == 0:
        return {"outcome": "reject", "error": "E-UNMEASURABLE", "line": 0}
    return {"outcome": "count", "reboots": caused}


def era(item: Harvested) -> str:
    """The era from the file's shapes (informative metadata, read without any counter)."""
    if "era" in item.entry:  # named by the manifest (a person's reading of the file, OPC-2)
        return str(item.entry["era"])
    records = [_value(line) for line in item.data.splitlines() if line.strip()]
    if item.host == "gemini-cli":  # GEM-2
        if container(item) == "json":
            return "J0"
        synced = any(isinstance(r.get("$set"), dict) and "messages" in r["$set"] for r in records)
        return "G1" if synced else "G0"
    if item.host == "qwen-code":  # QWN-2: the 0.1.x whole-file chat, or the 0.5+ transcript
        return "Q0" if container(item) == "json" else "Q1"
    if item.host == "pi":
        version = records[0].get("version") if records else None
        return f"v{version}" if isinstance(version, int) and version >= 2 else "v1"
    if not records or "type" not in records[0]:
        return "C0"
    kinds = {r.get("type") for r in records}
    payloads: list[dict[str, Any]] = [p for r in records if isinstance(p := r.get("payload"), dict)]
    if any("ordinal" in r for r in records):
        return "C5"
    if any("forked_from_id" in p or "replacement_history" in p for p in payloads):
        return "C4"
    if any(p.get("type") == "context_compacted" for p in payloads):
        return "C3"
    return "C1" if "compacted" in kinds else "C0"


def _value(line: bytes) -> dict[str, Any]:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def rules_and_tags(item: Harvested, expect: dict[str, Any]) -> tuple[list[str], list[str]]:
    """What the case exercises, from its scenario and role (and C0 when nothing was recorded)."""
    scenario, role, version = item.entry["scenario"], item.entry["role"], item.entry["version"]
    if item.host == "opencode":
        return opencode_rules_and_tags(item)
    if item.host == "kilo":
        return kilo_rules_and_tags(item)
    if "rules" in item.entry:  # named by the manifest, tags with them
        return list(item.entry["rules"]), list(item.entry.get("tags", ["harvested"]))
    if item.host == "qwen-code":
        return qwen_rules_and_tags(item, expect)
    if expect["outcome"] == "reject" and item.host == "gemini-cli":
        rules, tags = ["RBT-5", "GEM-7", "ERR-14"], ["gemini-unmeasurable", "rejection"]
        if container(item) == "json":  # told from VS Code's .json by its members
            rules, tags = ["HST-2", "GEM-1", *rules], ["gemini-json", *tags]
        return rules, ["harvested", *tags]
    if item.host == "gemini-cli":
        rules, tags = GEMINI_SCENARIOS.get(scenario, (["RBT-1", "GEM-3"], []))
        return rules, ["harvested", *tags]
    if expect["outcome"] == "reject":
        tags = ["codex-unmeasurable", "rejection"]
        if not item.data.startswith(b'{"timestamp"'):
            tags.insert(0, "codex-legacy")
        return ["RBT-5", "CDX-8", "ERR-14"], ["harvested", *tags]
    if item.host == "pi":
        rules, tags = PI_SCENARIOS.get(scenario, (["RBT-1", "PIA-3"], []))
        if role == "fork":
            rules, tags = ["RBT-3", "PIA-5"], ["pi-fork-copy"]
        if era(item) == "v1":
            tags = [*tags, "pi-v1"]
        return rules, ["harvested", *tags]
    rules, tags = CODEX_SCENARIOS.get(scenario, (["RBT-1", "CDX-3"], []))
    if role in ("fork", "subagent", "revert"):
        c5 = version_key(version) >= (0, 166)
        kind = "codex-subagent-copy" if role == "subagent" else "codex-fork-copy"
        rules = ["RBT-3", "CDX-5"] if role != "revert" else ["RBT-4", "CDX-5", "CDX-6"]
        if role == "revert":
            tags = ["codex-rollback", "codex-fork-base"]
        elif c5 and role == "fork":
            tags = ["codex-fork-base", "codex-ordinal"]
        else:
            tags = [kind, "codex-ordinal"] if c5 else [kind]
    return rules, ["harvested", *tags]


def qwen_rules_and_tags(item: Harvested, expect: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A Qwen Code case: the scenario's rules and tags (and each tag's rules); a fork's file
    holds its source's copies (QWN-6); a 0.1.x chat, told from Gemini CLI's by Qwen's marks
    (QWN-1), is unmeasurable (QWN-9)."""
    if expect["outcome"] == "reject":
        rules, tags = ["HST-2", "QWN-1", "RBT-5", "QWN-9", "ERR-14"], ["qwen-q0", "rejection"]
    else:
        scenario = str(item.entry["scenario"])
        rules, tags = QWEN_SCENARIOS.get(scenario, (["RBT-1", "QWN-3"], []))
        if item.entry["role"] == "fork":
            rules, tags = ["RBT-3", "QWN-6", *rules[1:]], ["qwen-fork", "qwen-auto"]
    rules = [*rules, *(rule for tag in tags for rule in QWEN_TAG_RULES.get(tag, []))]
    return list(dict.fromkeys(rules)), ["harvested", *tags]


def opencode_rules_and_tags(item: Harvested) -> tuple[list[str], list[str]]:
    """An opencode store's case: the scenario's rules, and tags for the store's kind, its
    records and its sessions (spec/tags.toml); each tag's own rules are cited too."""
    scenario, role = item.entry["scenario"], item.entry["role"]
    rules = list(OPENCODE_SCENARIOS.get(scenario, ["RBT-1", "OPC-4"]))
    tags = ["opencode-storage" if container(item) == "storage" else "opencode-database"]
    if "opencode.db-wal" in (item.files or {}):  # the pair as opencode left it (OPC-12)
        tags.append("opencode-wal")
        rules.append("OPC-12")
    if era(item) == "O0":  # 1.0.0: summary messages, no compaction pair
        rules = [r if r != "OPC-4" else "OPC-5" for r in rules]
        tags.append("opencode-o0-summary")
    elif int(item.entry["expected"]) > 0 or role == "fork":
        tags.append("opencode-pair")
    tags += {
        "failure": ["opencode-failed-compaction", "opencode-rerun-summary"],
        "cut-short": ["opencode-cut-short"],
        "subagent": ["opencode-subagent", "opencode-several-sessions"],
        "fork": ["opencode-several-sessions"],
    }.get(scenario, [])
    if role == "fork":
        rules = ["RBT-3", "OPC-9", "OPC-11", *(r for r in rules if r in ("OPC-4", "OPC-5"))]
        tags.append("opencode-fork-copy")
    return list(dict.fromkeys(rules)), ["harvested", *tags]


def kilo_rules_and_tags(item: Harvested) -> tuple[list[str], list[str]]:
    """A Kilo store's case: the scenario's rules; its tags are opencode's for the records."""
    scenario = str(item.entry["scenario"])
    tags = ["kilo-database"]
    if int(item.entry["expected"]) > 0:
        tags.append("opencode-pair")
    if scenario == "failure":
        tags.append("opencode-failed-compaction")
    return list(KILO_SCENARIOS.get(scenario, ["KLO-1", "OPC-4"])), ["harvested", *tags]


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("-")[0].split(".") if part.isdigit())


def title(item: Harvested, expect: dict[str, Any]) -> str:
    entry = item.entry
    names = {"codex": "Codex", "gemini-cli": "Gemini CLI", "pi": "pi", "opencode": "opencode"}
    names["kilo"] = "Kilo Code CLI"
    names["copilot-cli"] = "GitHub Copilot CLI"
    names["qwen-code"] = "Qwen Code"
    names["cline"] = "Cline CLI"
    name = names.get(item.host, item.host)
    role = "" if entry["role"] == "own" else f", the {entry['role']} file"
    if expect["outcome"] == "reject" and expect["error"] != "E-UNMEASURABLE":
        answer = f"rejected: {expect['error']}"
    elif expect["outcome"] == "reject" and int(entry["records"]) > 0:  # the latest kept (CLN-12)
        done = int(entry["expected"])
        answer = f"{done} summar{'y' if done == 1 else 'ies'} carried on, "
        answer += "the latest compaction kept: unmeasurable"
    elif expect["outcome"] == "reject":
        answer = "no compaction recorded: unmeasurable"
    else:
        answer = f"{expect['reboots']} reboot{'' if expect['reboots'] == 1 else 's'}"
    return f"real {name} {entry['version']} {entry['scenario']} run{role}; {answer}"


def case_table(item: Harvested, case_id: str) -> dict[str, Any]:
    """case.toml for one harvested file (spec/FIXTURES.md)."""
    expect = expectation(item)
    rules, tags = rules_and_tags(item, expect)
    table: dict[str, Any] = {
        "id": case_id,
        "title": title(item, expect),
        "host": item.host,
        "rules": rules,
        "tags": tags,
        "era": era(item),
        "container": container(item),
    }
    if item.files is not None:  # spec/FIXTURES.md: what {path} names, and {session}
        table["input"] = str(item.entry.get("input", Path(item.entry["file"]).name))
        if "session" in item.entry:
            table["session"] = str(item.entry["session"])
    table.update(
        provenance=item.entry["provenance"],
        comment=f"{item.entry['what']} Written by {item.entry['licence']}.",
        expect=expect,
    )
    return table


def container(item: Harvested) -> str:
    """The manifest's ``container``; ``sqlite`` or ``storage`` for an opencode store (by what
    ``input`` names); else ``json`` for a whole-file chat (Gemini CLI up to 0.38, GEM-1) and
    ``jsonl`` for the rest (Qwen Code 0.1.x's whole-file chat is ``json`` too, QWN-2)."""
    if "container" in item.entry:
        return str(item.entry["container"])
    if item.files is not None:
        return OPENCODE_CONTAINERS[str(item.entry["input"]).split("/")[0]]
    return "json" if str(item.entry["file"]).endswith(".json") else "jsonl"


def input_files(item: Harvested) -> dict[str, bytes]:
    """What the case folder holds besides case.toml: ``session.<container>``, or ``input/*``."""
    if item.files is not None:
        return {f"input/{name}": data for name, data in item.files.items()}
    return {f"session.{container(item)}": item.data}


def _on_disk(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != "case.toml"
    }


def registry() -> dict[str, str]:
    if not REGISTRY.exists():
        return {}
    with REGISTRY.open("rb") as handle:
        return {str(k): str(v) for k, v in tomllib.load(handle).items()}


def assign_ids(items: list[Harvested], fixtures: Path) -> dict[str, str]:
    """The case ID of every file: its entry's ``case``; else one chosen once for a file that has
    none, and recorded (never changed later)."""
    known = {**registry(), **{i.key: str(i.entry["case"]) for i in items if "case" in i.entry}}
    used = ids.taken(fixtures) | set(ids.registry().values()) | set(known.values())
    used |= set(ids.retired())
    fresh = {}
    for item in items:
        if item.key not in known:
            fresh[item.key] = ids.new_id(used, random.Random())
            used.add(fresh[item.key])
    if fresh:
        with REGISTRY.open("a", encoding="utf-8") as handle:
            if not known:
                handle.write("# Case IDs of the harvested files (harvest-cases); chosen once.\n")
            for key, value in fresh.items():
                handle.write(f'"{key}" = "{value}"\n')
    return {**known, **fresh}


def differences(fixtures: Path) -> list[str]:
    """How the corpus differs from a fresh conversion (empty: it matches)."""
    problems = []
    items = load(fixtures)
    table = {**registry(), **{i.key: str(i.entry["case"]) for i in items if "case" in i.entry}}
    for item in items:
        case_id = table.get(item.key)
        if case_id is None:
            problems.append(f"{item.key}: no case ID (run harvest-cases once)")
            continue
        folder = fixtures / case_id
        want = casefile.render(case_table(item, case_id))
        if not (folder / "case.toml").exists() or (folder / "case.toml").read_text("utf-8") != want:
            problems.append(f"{case_id} ({item.key}): case.toml differs")
        files = input_files(item)
        if "case" in item.entry:  # its bytes were read from the case: their names must agree
            if not folder.is_dir() or sorted(_on_disk(folder)) != sorted(files):
                problems.append(f"{case_id} ({item.key}): {', '.join(sorted(files))} differ")
        elif not folder.is_dir() or _on_disk(folder) != files:
            problems.append(f"{case_id} ({item.key}): {', '.join(sorted(files))} differ")
    return problems


def write(fixtures: Path) -> int:
    """Write every harvested case (a case named by its entry keeps its input, which is the
    file's one copy: only its case.toml is written); returns how many."""
    items = load(fixtures)
    table = assign_ids(items, fixtures)
    for item in items:
        folder = fixtures / table[item.key]
        folder.mkdir(exist_ok=True)
        if "case" in item.entry:
            pass
        elif item.files is not None:
            write_input(folder / "input", item.files)
        else:
            (folder / f"session.{container(item)}").write_bytes(item.data)
        (folder / "case.toml").write_text(casefile.render(case_table(item, table[item.key])))
    return len(items)


def write_input(inputs: Path, files: dict[str, bytes]) -> None:
    """``input/`` holding exactly ``files`` (a stale file from an earlier store is removed)."""
    if inputs.exists():
        shutil.rmtree(inputs)
    for name, data in files.items():
        target = inputs / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    fixtures = ids.FIXTURES
    if argv in ([], ["--check"]) and not available():
        out.write(
            f"no harvested data at {HARVESTED} (a checkout's; not installed): nothing to do\n"
        )
        return 0 if argv else 2
    if argv == ["--check"]:
        problems = differences(fixtures)
        for problem in problems:
            out.write(f"{problem}\n")
        out.write(f"{len(problems)} differences\n" if problems else "harvested cases match\n")
        return 1 if problems else 0
    if argv:
        sys.stderr.write("usage: python -m rebootspec.generators harvest-cases [--check]\n")
        return 2
    out.write(f"wrote {write(fixtures)} harvested cases into {fixtures}\n")
    return 0
