"""Every command reads, writes and prints through the one layer (issue 43, ERR-10, ERR-12).

`reference/core/userio.py` is how a command opens what it is given (a regular file, a bound
per kind), writes (atomically, never over a special file) and shows text from a file or the
environment (`shown`, ERR-10's escaping). A command that opens a file itself, or prints a
name raw, is how one of them forgets; this test reads the source of every command module
(`conformance/cli.py`, `conformance/commands/`) and of the contribution tools the CLI runs
(`generators/anonymize/`, `generators/corpus/add_fixture.py` and `add_inputs.py`, which never
import the reference and use the generators' tested copy of `shown`, generators/usage.py) and
fails on:

- a call that opens, writes, copies or renames a file (`open`, `Path.open`, `read_bytes`,
  `write_text`, `tempfile.mkstemp`, `shutil.copyfile`, `os.replace`, ...) that is not one of
  the layer's own functions imported by name;
- a value put into printed text (`print`, `sys.stdout.write`, `sys.stderr.write`) that is not
  passed through `shown` (or `printable`).

The exceptions are listed below, each with why, keyed by module and function (for files) or
module and expression (for printed values), so a new one shows in review as a line added here;
an entry nothing matches any more fails too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = sorted(
    [
        ROOT / "conformance" / "cli.py",
        *(ROOT / "conformance" / "commands").glob("*.py"),
        *(ROOT / "generators" / "anonymize").glob("*.py"),
        ROOT / "generators" / "corpus" / "add_fixture.py",
        ROOT / "generators" / "corpus" / "add_inputs.py",
        ROOT / "generators" / "usage.py",  # every subcommand's usage errors
    ]
)
LAYER_MODULES = ("userio", "usage", "printable")  # where `shown`, `read_text`... come from
ESCAPES = frozenset({"shown", "printable"})
FILE_METHODS = frozenset(
    {"open", "read_bytes", "read_text", "write_bytes", "write_text", "fdopen"}
    | {"mkstemp", "mkdtemp", "copyfile", "copy", "copy2", "copytree", "move"}
)
OS_CALLS = frozenset({"open", "replace", "rename", "link", "fdopen"})

PRIVATE_STAGING = "writes into a private staging folder (mkdtemp) or temporary file beside OUT"
FILES_ALLOWED: dict[tuple[str, str], str] = {
    # The anonymizer streams a session a line at a time from IN into its own staging place and
    # moves the result in with one rename; userio writes a whole buffer, which would hold a
    # session of 256 MiB twice. IN was checked first (input_problem: a regular file or a
    # folder, never opened when it is a FIFO or a device; MAX_INPUT_BYTES).
    ("generators/anonymize/command.py", "no_record"): "IN's first 64 KiB, after input_problem",
    ("generators/anonymize/command.py", "too_big"): "IN's first 16 bytes, after input_problem",
    ("generators/anonymize/command.py", "anonymize_path"): PRIVATE_STAGING,
    ("generators/anonymize/hosts.py", "_run"): PRIVATE_STAGING,
    ("generators/anonymize/hosts.py", "_write"): PRIVATE_STAGING,
    ("generators/anonymize/hosts.py", "_write_folder"): PRIVATE_STAGING,
    ("generators/anonymize/hosts.py", "_write_chain"): PRIVATE_STAGING,
    ("generators/anonymize/hosts.py", "_blobs"): "reads back what it staged itself",
    ("generators/anonymize/hosts.py", "_link"): "64 KiB of a chain's file (a regular file)",
    ("generators/anonymize/hosts.py", "_move"): "the staged result renamed into place",
    ("generators/anonymize/opencode.py", "copy_database"): PRIVATE_STAGING,
    ("generators/anonymize/opencode.py", "anonymize_storage"): PRIVATE_STAGING,
    # add-fixture copies the input byte for byte into a private staging folder in the corpus
    # and renames the folder into place; its inputs are regular files (inputs_of) whose sizes
    # were checked against MAX_INPUT_BYTES before a byte is read.
    ("generators/corpus/add_fixture.py", "in_checkout"): "the checkout's own pyproject.toml",
    ("generators/corpus/add_fixture.py", "_write_case"): PRIVATE_STAGING,
    ("generators/corpus/add_inputs.py", "sha"): "hashed a chunk at a time, after the bound",
    ("generators/corpus/add_inputs.py", "_inputs_of"): "16 bytes of a regular file",
    ("generators/corpus/add_inputs.py", "_link"): "64 KiB of a chain's regular file",
    ("generators/corpus/add_inputs.py", "case_digest"): "a corpus case's own case.toml",
    ("generators/corpus/add_inputs.py", "Inputs.data"): "regular files, after the bound",
}
OWN_TEXT = "rebootspec's own text (its version, its data, numbers)"
SYSTEM = "the system's words for an error (strerror), no name in them"
BUILT_ESCAPED = "built from escaped parts (each name through shown where it is made)"
VALUES_ALLOWED: dict[tuple[str, str], str] = {
    ("conformance/cli.py", "unknown_subcommand(args[0])"): "escapes the word itself (printable)",
    ("conformance/commands/baseline.py", "text"): "the baseline TOML, names escaped in it",
    ("conformance/commands/baseline.py", "where"): "shown(...) one line above",
    ("conformance/commands/cases.py", "listing(chosen)"): BUILT_ESCAPED,
    ("conformance/commands/cases.py", "len(chosen)"): OWN_TEXT,
    ("conformance/commands/peers.py", "line + '\\n'"): "progress lines of its own measuring",
    (
        "conformance/commands/cases.py",
        "''.join((orjson.dumps(row).decode() + '\\n' for row in rows))",
    ): "JSON: escapes every control character",
    (
        "conformance/commands/compare.py",
        "format_comparison(result, str(options.old), str(options.new))",
    ): BUILT_ESCAPED,
    ("conformance/commands/completion.py", "script(shell)"): OWN_TEXT,
    ("conformance/commands/peers.py", "peer_type.name"): OWN_TEXT,
    ("conformance/commands/peers.py", "peer_type.package.version"): OWN_TEXT,
    ("conformance/commands/peers.py", "ran.skipped or f'{len(ran.records)} cases'"): OWN_TEXT,
    ("conformance/commands/peers.py", "read_text(args.out / 'peers.md', 'text')"): BUILT_ESCAPED,
    ("conformance/commands/peers.py", "PROG"): OWN_TEXT,
    ("conformance/commands/peers.py", "os_reason(error)"): SYSTEM,
    ("conformance/commands/report.py", "os_reason(error)"): SYSTEM,
    ("conformance/commands/run.py", "HELP.format(options=describe_options())"): OWN_TEXT,
    ("conformance/commands/smoke.py", "text"): BUILT_ESCAPED,
    ("conformance/commands/usage.py", "prog"): OWN_TEXT,
    ("conformance/commands/version.py", "suite_version()"): OWN_TEXT,
    ("conformance/commands/version.py", "spec_version()"): OWN_TEXT,
    ("conformance/commands/version.py", "cases"): OWN_TEXT,
    ("conformance/commands/version.py", "combined(digest_tree(DEFAULT_CORPUS))"): OWN_TEXT,
    ("generators/anonymize/command.py", "describe(before)"): "codes and numbers (describe)",
    ("generators/anonymize/command.py", "describe(after)"): "codes and numbers (describe)",
    ("generators/anonymize/command.py", "report.lines"): OWN_TEXT,
    ("generators/anonymize/command.py", "report.replaced"): OWN_TEXT,
    ("generators/anonymize/command.py", "report.kept"): OWN_TEXT,
    ("generators/anonymize/command.py", "report.masked"): OWN_TEXT,
    ("generators/anonymize/hosts.py", "what"): OWN_TEXT,
    ("generators/anonymize/hosts.py", "run_.replacer.names.replaced"): OWN_TEXT,
    ("generators/anonymize/hosts.py", "run_.replacer.kept"): OWN_TEXT,
    ("generators/anonymize/hosts.py", "checked"): OWN_TEXT,
    ("generators/corpus/add_fixture.py", "timeline"): "the reference's timeline (escapes names)",
    ("generators/corpus/add_fixture.py", "what"): OWN_TEXT,
    ("generators/corpus/add_fixture.py", "mine.describe()"): "a count or a code (Expectation)",
    ("generators/corpus/add_fixture.py", "theirs.describe()"): "a count or a code (Expectation)",
    ("generators/corpus/add_fixture.py", "NEXT_STEPS.format(id=case_id)"): OWN_TEXT,
    ("generators/corpus/add_fixture.py", "same"): "a case ID of the corpus (ids.py's alphabet)",
    ("generators/corpus/add_fixture.py", "os_reason(failure)"): SYSTEM,
}


def layer_names(tree: ast.Module) -> set[str]:
    """The names a module imports from the layer (`from ...userio import read_text`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith(LAYER_MODULES):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every node with the qualified name of the function (or method) it is in."""

    def walk(node: ast.AST, where: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = f"{where}.{child.name}" if where else child.name
                yield from walk(child, inner)
            else:
                yield where, child
                yield from walk(child, where)

    yield from walk(tree, "")


def _opens(call: ast.Call, own: set[str]) -> bool:
    """Whether a call opens, writes, copies or renames a file outside the layer."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "open" or (func.id in FILE_METHODS and func.id not in own)
    if not isinstance(func, ast.Attribute):
        return False
    if isinstance(func.value, ast.Name) and func.value.id == "os":
        return func.attr in OS_CALLS
    return func.attr in FILE_METHODS


def _printing(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "print"
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "write"
        and isinstance(func.value, ast.Attribute)
        and func.value.attr in ("stdout", "stderr")
    )


def _escaped(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name | ast.Attribute)
        and (value.func.id if isinstance(value.func, ast.Name) else value.func.attr) in ESCAPES
    )


def _printed_values(call: ast.Call) -> Iterator[ast.expr]:
    """What a printing call puts into text: each f-string's values, each other argument."""
    for arg in call.args:
        if isinstance(arg, ast.Constant):
            continue
        if isinstance(arg, ast.JoinedStr):
            yield from (p.value for p in arg.values if isinstance(p, ast.FormattedValue))
        else:
            yield arg


def findings(source: str, module: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(files opened outside the layer, by module and function; printed values not escaped,
    by module and expression)."""
    tree = ast.parse(source)
    own = layer_names(tree)
    files: set[tuple[str, str]] = set()
    values: set[tuple[str, str]] = set()
    for where, node in _functions(tree):
        if not isinstance(node, ast.Call):
            continue
        if _opens(node, own):
            files.add((module, where or "<module>"))
        if _printing(node):
            for value in _printed_values(node):
                if not _escaped(value):
                    values.add((module, ast.unparse(value)))
    return files, values


def _scan() -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    files: set[tuple[str, str]] = set()
    values: set[tuple[str, str]] = set()
    for path in SCANNED:
        found = findings(path.read_text("utf-8"), path.relative_to(ROOT).as_posix())
        files |= found[0]
        values |= found[1]
    return files, values


def test_no_command_opens_a_file_outside_the_layer() -> None:
    files, _ = _scan()
    new = sorted(files - set(FILES_ALLOWED))
    assert not new, "opened outside reference/core/userio.py (use it, or say why here):\n" + (
        "\n".join(f"  {module}: {where}" for module, where in new)
    )


def test_no_command_prints_a_value_it_did_not_escape() -> None:
    _, values = _scan()
    new = sorted(values - set(VALUES_ALLOWED))
    assert not new, "printed without shown() (escape it, or say why here):\n" + "\n".join(
        f"  {module}: {expression}" for module, expression in new
    )


def test_every_exception_still_names_something() -> None:
    """An exception nothing matches any more is removed, so the lists stay what is true."""
    files, values = _scan()
    stale = sorted(set(FILES_ALLOWED) - files) + sorted(set(VALUES_ALLOWED) - values)
    assert not stale, f"exceptions that match nothing: {stale}"


def test_the_check_sees_a_raw_open_and_a_raw_name() -> None:
    """The control: a module that opens a file and prints a path raw is caught, and the same
    module written through the layer is not."""
    raw = (
        "import sys\n"
        "def cli(path):\n"
        "    with open(path) as f:\n"
        "        data = f.read()\n"
        "    path.write_text(data)\n"
        '    sys.stderr.write(f"error: {path}: bad\\n")\n'
        '    print(f"wrote {path}")\n'
    )
    files, values = findings(raw, "m.py")
    assert files == {("m.py", "cli")}
    assert values == {("m.py", "path")}
    layered = (
        "import sys\n"
        "from rebootspec.reference.core.userio import read_text, shown, write_text\n"
        "def cli(path):\n"
        '    write_text(path, read_text(path, "text"))\n'
        '    sys.stderr.write(f"error: {shown(path)}: bad\\n")\n'
    )
    assert findings(layered, "m.py") == (set(), set())
