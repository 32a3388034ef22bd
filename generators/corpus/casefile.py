"""The one owner of a case's metadata: `case.toml`, the tag table and the spec's rule IDs.

Everything that reads or writes `fixtures/<ID>/case.toml` (the runner, the lint, the build,
`add-fixture`), lists the closed tags of spec/tags.toml, maps a tag to the rules it exercises,
or asks which rule IDs and error codes the spec defines, goes through this module, so the
format lives in one place (spec/FIXTURES.md, spec/case.schema.json).

Two levels of checking, on purpose:
- `load_case` checks what every reader needs to run a case (the ID matches the folder, the
  container, the expectation, the input is there) with the standard library only, because an
  installed `rebootspec run` must not need jsonschema;
- `schema_problems` checks the whole file against spec/case.schema.json (lint, add-fixture).
Bad input is a `CaseFileError` whose message is one line naming the file.
"""

from __future__ import annotations

import functools
import io
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...spec import SPEC_DIR
from ..usage import os_reason

SPEC = SPEC_DIR
CASE_FILE = "case.toml"
TAGS_FILE = "tags.toml"
SCHEMA_FILE = "case.schema.json"
CONTAINERS = ("jsonl", "json", "sqlite", "storage", "markdown", "folder")
# The containers whose input is a folder of files (`input/`, copied whole) and the `input` key
# naming the path under it that the candidate is given (spec/FIXTURES.md, "Inputs of several
# files"): an opencode database or storage folder, basic-agent-chat-loop session files.
FOLDER_CONTAINERS = ("sqlite", "storage", "markdown", "folder")
INPUT_FOLDER = "input"
# A four-character ID, or a real log's `realworld-<slug>` (spec/FIXTURES.md, "Real logs").
ID_PATTERN = re.compile(r"^(?:[A-HJ-NP-Z2-9]{4}|realworld-[a-z0-9-]+)$")
# A case's readable name (spec/FIXTURES.md, "Names"): lower-case words joined by `-`, in two
# to five `/`-separated parts, the first the host's short name (`codex/fork/inherited-compacted`).
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.-]*(?:/[a-z0-9][a-z0-9.-]*){1,4}$")
# A rule is defined by a heading that starts with its ID (`### RPL-7 Push`, `## PRO-2 ...`).
RULE_HEADING = re.compile(r"^#{2,4}\s+([A-Z]{3}-[0-9]+)\b", re.MULTILINE)
RULE_FILES = ("SPEC.md", "PROTOCOL.md")
HOSTS_FILE = "hosts.toml"
# HST-1: a case without `host` is a VS Code case (every case before spec 3.0 is one).
DEFAULT_HOST = "vscode"


class CaseFileError(Exception):
    """Metadata that cannot be used; the message is one line naming the file."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class CaseMeta:
    """One case as a reader needs it (the runner's `Case`): its metadata and its input's path.

    `input` is what the candidate is given as `{path}` (PRO-1): `session.<container>`, or for a
    folder container the file or folder that `input` names under `input/`; `input_root` is then
    that `input/` folder, which is copied whole. `session` is the session the question is about
    (`{session}`), when the case names one.
    """

    id: str
    title: str
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    era: str
    container: str
    expect: dict[str, Any]
    input: Path
    provenance: str = ""
    host: str = DEFAULT_HOST
    input_root: Path | None = None
    session: str | None = None
    name: str = ""

    @property
    def copied(self) -> Path:
        """What a candidate gets a copy of: the one input file, or the whole `input/` folder."""
        return self.input if self.input_root is None else self.input_root

    def expected_answer(self) -> dict[str, Any]:
        """The normative answer as a snapshot pins it: the count, or only "reject" (PRO-2)."""
        if self.expect["outcome"] == "count":
            return {"outcome": "count", "reboots": self.expect["reboots"]}
        return {"outcome": "reject"}


@dataclass(frozen=True)
class Tag:
    """A row of spec/tags.toml: what the tag means and the spec rules a case with it shows."""

    name: str
    description: str
    rules: tuple[str, ...]


# -- case.toml -------------------------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file of the corpus or the spec, parsed; CaseFileError naming it when it cannot be."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise CaseFileError(path, f"cannot read: {os_reason(error)}") from None
    except tomllib.TOMLDecodeError as error:
        raise CaseFileError(path, f"not TOML: {error}") from None


def read_meta(folder: Path) -> dict[str, Any]:
    """The parsed `folder/case.toml`, unchecked; CaseFileError when it cannot be read."""
    return read_toml(folder / CASE_FILE)


def provenance(folder: Path) -> str | None:
    """The provenance of a case folder, or None when it has no readable case.toml."""
    try:
        value = read_meta(folder).get("provenance")
    except CaseFileError:
        return None
    return value if isinstance(value, str) else None


def load_case(folder: Path) -> CaseMeta:
    """Read and check `folder/case.toml`; CaseFileError with a one-line reason."""
    meta = read_meta(folder)
    try:
        return _checked(meta, folder)
    except (KeyError, TypeError, ValueError) as error:
        raise CaseFileError(folder / CASE_FILE, f"bad metadata: {error}") from None


def _checked(meta: dict[str, Any], folder: Path) -> CaseMeta:
    case_id = meta["id"]
    if case_id != folder.name or not ID_PATTERN.match(str(case_id)):
        raise ValueError(f"id {case_id!r} does not match the folder name {folder.name!r}")
    container = meta["container"]
    if container not in CONTAINERS:
        raise ValueError(f"container {container!r} is not jsonl or json")
    expect = dict(meta["expect"])
    if expect.get("outcome") == "count":
        reboots = expect.get("reboots")
        if not isinstance(reboots, int) or isinstance(reboots, bool) or reboots < 0:
            raise ValueError("expect.reboots must be a non-negative integer")
    elif expect.get("outcome") != "reject":
        raise ValueError(f"expect.outcome {expect.get('outcome')!r} is not count or reject")
    host = meta.get("host", DEFAULT_HOST)
    if not isinstance(host, str) or not host:
        raise ValueError(f"host {host!r} is not a host name")
    source, root = _input_paths(meta, folder, container)
    session = meta.get("session")
    if session is not None and (not isinstance(session, str) or not session):
        raise ValueError(f"session {session!r} is not a session id")
    name = meta.get("name", "")
    if not isinstance(name, str) or (name and not NAME_PATTERN.match(name)):
        raise ValueError(f"name {name!r} is not a path-like case name such as codex/fork/base")
    return CaseMeta(
        id=case_id,
        name=name or case_id,
        title=str(meta["title"]),
        rules=tuple(str(rule) for rule in meta["rules"]),
        tags=tuple(str(tag) for tag in meta["tags"]),
        era=str(meta["era"]),
        container=container,
        provenance=str(meta.get("provenance", "")),
        host=host,
        expect=expect,
        input=source,
        input_root=root,
        session=session,
    )


def _input_paths(meta: dict[str, Any], folder: Path, container: str) -> tuple[Path, Path | None]:
    """(what `{path}` names, the folder copied whole or None) for a case's container."""
    if container not in FOLDER_CONTAINERS:
        if "input" in meta:
            raise ValueError(f"input is only for the containers {', '.join(FOLDER_CONTAINERS)}")
        source = folder / f"session.{container}"
        if not source.is_file():
            raise ValueError(f"the input {source.name} is missing")
        return source, None
    rel = meta.get("input")
    if not isinstance(rel, str) or not rel:
        raise ValueError(f'a {container} case names its input: input = "PATH under input/"')
    parts = Path(rel).parts
    if Path(rel).is_absolute() or ".." in parts or "\\" in rel:
        raise ValueError(f"input {rel!r} is not a relative path under {INPUT_FOLDER}/")
    root = folder / INPUT_FOLDER
    if not root.is_dir():
        raise ValueError(f"the input folder {INPUT_FOLDER}/ is missing")
    source = root / rel if rel != "." else root
    if not (source.is_file() or source.is_dir()):
        raise ValueError(f"the input {INPUT_FOLDER}/{rel} is missing")
    return source, root


def schema_problems(meta: dict[str, Any], spec: Path = SPEC, root: str = "<root>") -> list[str]:
    """Every way `meta` breaks spec/case.schema.json, as `where: message` (empty: valid).

    `where` is the path inside the table (`expect/reboots`), `root` for the table itself.

    jsonschema is a runtime dependency (add-fixture needs it), imported only here, so that
    `rebootspec run` never pays for it; a copy installed without it says so.
    """
    try:
        import jsonschema
    except ImportError:
        return ["jsonschema is not installed: pip install jsonschema"]
    schema = json.loads((spec / SCHEMA_FILE).read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    found = sorted(validator.iter_errors(meta), key=str)
    return [
        f"{'/'.join(str(p) for p in error.absolute_path) or root}: {error.message}"
        for error in found
    ]


def validate(folder: Path, spec: Path = SPEC) -> dict[str, Any]:
    """`folder/case.toml` read and valid against the schema; CaseFileError naming the file."""
    meta = read_meta(folder)
    problems = schema_problems(meta, spec)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CaseFileError(folder / CASE_FILE, f"{problems[0]}{more}")
    return meta


def render(table: dict[str, Any]) -> str:
    """case.toml text in the corpus's layout (spec/FIXTURES.md): top-level keys, then [expect].

    Strings are JSON string literals, which are valid TOML basic strings (ASCII quotes and
    backslashes escaped, control characters as escapes), so every writer's bytes agree.
    A table without `name` gets the one `case_name` derives, right after `id`, so every
    writer (the builders, harvest, add-fixture) names its cases the same way.
    """
    if "name" not in table and "id" in table:
        named = {"id": table["id"], "name": case_name(table)}
        table = named | {key: value for key, value in table.items() if key != "id"}
    out = io.StringIO()
    for key, value in table.items():
        if key != "expect":
            out.write(f"{key} = {_toml_value(value)}\n")
    out.write("\n[expect]\n")
    for key, value in table["expect"].items():
        out.write(f"{key} = {_toml_value(value)}\n")
    return out.getvalue()


def _toml_value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


# -- names -----------------------------------------------------------------------------------

# Words a name leaves out of a title: they carry no meaning in a path.
_STOP_WORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "of",
        "on",
        "in",
        "at",
        "to",
        "and",
        "or",
        "its",
        "it",
        "as",
        "by",
        "with",
        "that",
        "which",
        "whose",
        "then",
        "there",
        "this",
        "one",
        "two",
        "three",
        "four",
        "five",
        "zero",
        "no",
        "not",
        "be",
        "only",
    }
)
_NAME_WORDS = 5
_ROLE = re.compile(r"run, the ([a-z-]+) file;")


def short_host(host: str) -> str:
    """The host's short name for case names: its package under reference/hosts/ with `-`
    (`chat-loop` for basic-agent-chat-loop), from spec/hosts.toml; the host itself if absent."""
    return _short_hosts().get(host, host)


@functools.cache
def _short_hosts() -> dict[str, str]:
    try:
        table = host_table()
    except CaseFileError:
        return {}
    return {name: str(row.get("module", name)).replace("_", "-") for name, row in table.items()}


def slug(text: str, words: int = _NAME_WORDS, *, stop: bool = True) -> str:
    """The first `words` meaningful words of `text` (all words with `stop=False`), lower case,
    joined by `-`."""
    found = re.findall(r"[a-z0-9]+(?:\.[0-9]+)*", text.lower())
    kept = [w for w in found if not (stop and w in _STOP_WORDS)]
    return "-".join(kept[:words]) or "case"


def _without_host(word: str, host: str, short: str) -> str:
    """`claude-two-compactions` -> `two-compactions` for claude-code: the host is the name's
    first part already."""
    for prefix in {host, short, host.split("-")[0], short.replace("-", "")}:
        if word.startswith(prefix + "-"):
            return word[len(prefix) + 1 :]
    return word


def case_name(table: dict[str, Any], words: int = _NAME_WORDS) -> str:
    """A readable, path-like name derived from a case's metadata alone (deterministic):

    - a generated case: `HOST/SCENARIO/ERA` (`vscode/phantom/compacted`; the host prefix of
      the scenario and the era `none` left out);
    - a harvested one: `HOST/harvested/SCENARIO/VERSION`, plus the file's role (`/fork`);
    - a real log: `HOST/realworld/SLUG` from its ID;
    - any other: `HOST/TOPIC/TITLE-WORDS`, the topic its first tag, the title's first words.

    The ID stays the key; the name is for people (`-k`, reports). Uniqueness over the corpus
    is the lint's check; a hand-made case whose name would collide takes more of its title's
    words (`words`), and its name is written in its case.toml once, by hand or by add-fixture.
    """
    full = str(table.get("host", DEFAULT_HOST))
    host = short_host(full)
    provenance = str(table.get("provenance", ""))
    kind, _, rest = provenance.partition(":")
    if kind == "generator":
        scenario, *params = rest.split("/")
        era = dict(p.partition("=")[::2] for p in params).get("era", "none")
        scenario = _without_host(scenario, full, host)
        parts = [host, slug(scenario, 8, stop=False)]
        return "/".join(parts + ([slug(era, 3, stop=False)] if era != "none" else []))
    if kind == "harvest":
        version, _, scenario = rest.partition("@")[2].partition("/")
        role = _ROLE.search(str(table.get("title", "")))
        parts = [host, "harvested", slug(scenario, 4, stop=False), slug(version, 1)]
        return "/".join(parts + ([slug(role.group(1), 2, stop=False)] if role else []))
    case_id = str(table.get("id", ""))
    if case_id.startswith("realworld-"):
        return f"{host}/realworld/{slug(case_id.removeprefix('realworld-'), 8)}"
    tags = [str(t) for t in table.get("tags", [])]
    title = str(table.get("title", "")).partition(";")[0]
    topic = _without_host(tags[0], full, host) if tags else "case"
    return f"{host}/{topic}/{slug(title, words)}"


def corpus_names(fixtures: Path) -> set[str]:
    """The names the cases under `fixtures` have (a case.toml that cannot be read has none)."""
    names = set()
    for folder in fixtures.iterdir() if fixtures.is_dir() else ():
        try:
            name = read_meta(folder).get("name") if (folder / CASE_FILE).is_file() else None
        except CaseFileError:
            continue
        if isinstance(name, str):
            names.add(name)
    return names


def free_name(table: dict[str, Any], fixtures: Path) -> str:
    """`case_name` for a new hand-made case, with more title words until no case has it."""
    taken = corpus_names(fixtures)
    name = case_name(table)
    for words in range(_NAME_WORDS + 1, _NAME_WORDS + 12):
        if name not in taken:
            break
        name = case_name(table, words)
    return name if name not in taken else f"{name}-{str(table['id']).lower()}"


# -- tags ------------------------------------------------------------------------------------


def tag_table(spec: Path = SPEC) -> dict[str, Tag]:
    """spec/tags.toml in file order (the rows of the report's matrix); CaseFileError if bad."""
    path = spec / TAGS_FILE
    data = read_toml(path)
    table: dict[str, Tag] = {}
    for name, row in data.items():
        description = row.get("description") if isinstance(row, dict) else None
        rules = row.get("rules") if isinstance(row, dict) else None
        if not isinstance(description, str) or not isinstance(rules, list):
            raise CaseFileError(path, f"[{name}] needs a description and a list of rules")
        if not all(isinstance(rule, str) for rule in rules):
            raise CaseFileError(path, f"[{name}] rules must be rule IDs such as RPL-7")
        table[name] = Tag(name, description, tuple(rules))
    return table


def known_tags(spec: Path = SPEC) -> list[str]:
    """The closed tag list, in the order of spec/tags.toml."""
    return list(tag_table(spec))


def tag_rules(spec: Path = SPEC) -> dict[str, tuple[str, ...]]:
    """Tag -> the spec rule IDs a case with that tag exercises (may be empty)."""
    return {name: tag.rules for name, tag in tag_table(spec).items()}


# -- rules and error codes -------------------------------------------------------------------


def rules_of(path: Path) -> list[str]:
    """The rule IDs defined by headings of one spec document, in order, each once."""
    return list(dict.fromkeys(RULE_HEADING.findall(path.read_text("utf-8"))))


def chapter_files(spec: Path = SPEC) -> list[Path]:
    """The spec's rule documents: the core (SPEC.md), then each host's chapter (hosts/*.md)."""
    core = spec / "SPEC.md"
    if not core.exists():
        return []
    return [core, *sorted((spec / "hosts").glob("*.md"))]


def spec_rules(spec: Path = SPEC) -> list[str]:
    """The rule IDs of the core and the host chapters (empty when there is no SPEC.md)."""
    return list(dict.fromkeys(r for path in chapter_files(spec) for r in rules_of(path)))


def host_table(spec: Path = SPEC) -> dict[str, dict[str, Any]]:
    """spec/hosts.toml (HST-1): host name -> its row; CaseFileError when it cannot be read."""
    data = read_toml(spec / HOSTS_FILE)
    return {name: row for name, row in data.items() if isinstance(row, dict)}


def known_hosts(spec: Path = SPEC) -> list[str]:
    """The host names of spec/hosts.toml, in table order (vscode first)."""
    return list(host_table(spec))


def protocol_rules(spec: Path = SPEC) -> list[str]:
    """The PRO-n rules of spec/PROTOCOL.md, which cases may cite too."""
    path = spec / "PROTOCOL.md"
    return rules_of(path) if path.exists() else []


def citable_rules(spec: Path = SPEC) -> set[str]:
    """Every rule ID a case may cite: the core's, the host chapters' and PROTOCOL.md's."""
    return set(spec_rules(spec)) | set(protocol_rules(spec))


def error_codes(spec: Path = SPEC) -> tuple[str, ...]:
    """The closed list of rejection codes (ERR-*), from spec/case.schema.json's `expect.error`."""
    schema = json.loads((spec / SCHEMA_FILE).read_text("utf-8"))
    return tuple(schema["properties"]["expect"]["properties"]["error"]["enum"])
