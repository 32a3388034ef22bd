"""The import graph of rebootspec's own modules shows the architecture the READMEs promise.

Read from the source with `ast` (nothing is imported, so a module with side effects or a
missing optional dependency cannot hide an edge), counting every import statement, also those
inside functions and under `if TYPE_CHECKING:`. Relative imports are resolved to the installed
`rebootspec.*` names. The rules:

- no cycles among our modules (a cycle makes import order matter and hides the layering);
- `rebootspec.reference` (the definition) imports nothing of ours outside itself;
- `rebootspec.generators` imports only itself and the data packages (spec, fixtures), never
  the reference: the corpus's expectations come from the plans, not from a counter;
- `rebootspec.conformance` imports the reference, the generators and the data packages;
- a host package of the generators (`generators/hosts/<host>/`: plan, writer, scenarios, the
  adapter `case.py`) imports no other host's package: what hosts share is in `hosts/common.py`
  and `hosts/scenario.py`, and only `hosts/registry.py` (and `hosts/big.py`) name several hosts;
- nothing imports a bare `reference`, `generators`, `conformance`, `benchmarks`, `spec` or
  `fixtures` (those names are not installed, or would be someone else's package);
- every `rebootspec.*` import names a module or package that exists.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = "rebootspec"
# The checkout folders that are installed as `rebootspec.<folder>`.
PACKAGES = ("reference", "generators", "conformance")
DATA_PACKAGES = ("spec", "fixtures")
BARE = frozenset({*PACKAGES, *DATA_PACKAGES, "benchmarks"})
# What each installed package may import of ours (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "reference": frozenset({"reference"}),
    "generators": frozenset({"generators", *DATA_PACKAGES}),
    "conformance": frozenset({"conformance", "reference", "generators", *DATA_PACKAGES}),
    "spec": frozenset({"spec"}),
    "fixtures": frozenset({"fixtures"}),
}


@dataclass(frozen=True)
class Import:
    """One import statement: the importing module and file, the line, the absolute target."""

    source: str
    path: Path
    line: int
    target: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def module_name(path: Path) -> str:
    """The installed name of a checkout file: `conformance/runner/corpus.py` -> `rebootspec...`."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([NAMESPACE, *parts])


def our_modules() -> dict[str, Path]:
    """Every module of the installed packages, by installed name (the suite's test files too)."""
    files = [p for folder in PACKAGES for p in (ROOT / folder).rglob("*.py")]
    files += [ROOT / folder / "__init__.py" for folder in DATA_PACKAGES]
    return {module_name(p): p for p in files if "__pycache__" not in p.parts}


def resolve_from(module: str, path: Path, level: int, name: str | None) -> str:
    """The absolute package a `from .{level}{name} import ...` in `module` reads from."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join([*base, name] if name else base)


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[Import]:
    """Every import in a file, as absolute names (submodules named in `from X import y` too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, path, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = resolve_from(module, path, node.level, node.module)
            else:
                base = node.module or ""
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield Import(module, path, node.lineno, submodule if submodule in modules else base)


def folder_of(name: str) -> str:
    """`rebootspec.conformance.runner.corpus` -> `conformance`."""
    return name.split(".")[1] if name.count(".") >= 1 else ""


@pytest.fixture(scope="module")
def modules() -> dict[str, Path]:
    found = our_modules()
    assert len(found) > 20, f"found only {len(found)} modules under {ROOT}: is the layout moved?"
    return found


@pytest.fixture(scope="module")
def edges(modules: dict[str, Path]) -> list[Import]:
    return [edge for name, path in modules.items() for edge in imports_of(name, path, modules)]


def ours(edges: list[Import]) -> list[Import]:
    return [edge for edge in edges if edge.target.split(".")[0] == NAMESPACE]


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a chain `a, b, ..., a`, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for start in sorted(graph):
        if state.get(start):
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def test_the_cycle_finder_reports_a_chain() -> None:
    """The search itself: a three-module loop is found as its chain, a tree has none."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_relative_imports_resolve_to_installed_names() -> None:
    """`from ..runner.corpus import Case` in a submodule and `from . import x` in a package."""
    corpus = ROOT / "conformance" / "commands" / "run.py"
    assert resolve_from("rebootspec.conformance.commands.run", corpus, 2, "runner.corpus") == (
        "rebootspec.conformance.runner.corpus"
    )
    package = ROOT / "conformance" / "runner" / "__init__.py"
    assert resolve_from("rebootspec.conformance.runner", package, 1, None) == (
        "rebootspec.conformance.runner"
    )


def test_no_import_cycles(modules: dict[str, Path], edges: list[Import]) -> None:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for edge in ours(edges):
        if edge.target in modules and edge.target != edge.source:
            graph[edge.source].add(edge.target)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_every_package_imports_only_what_its_layer_allows(
    modules: dict[str, Path], edges: list[Import]
) -> None:
    wrong = [
        f"{edge.where}: {edge.source} imports {edge.target}"
        for edge in ours(edges)
        if folder_of(edge.target) not in ALLOWED[folder_of(edge.source)]
    ]
    assert not wrong, "imports across the layering:\n" + "\n".join(wrong)


def test_generators_never_import_the_reference(
    modules: dict[str, Path], edges: list[Import]
) -> None:
    """Named on its own: the corpus's expected counts must not come from the reference."""
    wrong = [
        f"{edge.where}: {edge.target}"
        for edge in ours(edges)
        if folder_of(edge.source) == "generators" and folder_of(edge.target) == "reference"
    ]
    assert not wrong, "the generators import the reference:\n" + "\n".join(wrong)


HOST_PACKAGES = frozenset(
    path.parent.name for path in (ROOT / "generators" / "hosts").glob("*/__init__.py")
)


def host_package_of(name: str) -> str | None:
    """`rebootspec.generators.hosts.codex.writer` -> `codex`; None outside a host package."""
    parts = name.split(".")
    if parts[:3] == [NAMESPACE, "generators", "hosts"] and len(parts) > 3:
        return parts[3] if parts[3] in HOST_PACKAGES else None
    return None


def test_a_generator_host_package_imports_no_other_host(
    modules: dict[str, Path], edges: list[Import]
) -> None:
    """Adding or changing one host's model touches one package: no host leans on another's."""
    assert {"vscode", "codex", "pi", "opencode"} <= HOST_PACKAGES
    wrong = [
        f"{edge.where}: {edge.source} imports {edge.target}"
        for edge in ours(edges)
        if (source := host_package_of(edge.source)) is not None
        and host_package_of(edge.target) not in (None, source)
    ]
    assert not wrong, "a host package imports another host's:\n" + "\n".join(wrong)


def test_rebootspec_imports_name_existing_modules(
    modules: dict[str, Path], edges: list[Import]
) -> None:
    """A relative import that climbs too far or names a moved module is caught here, not at use."""
    missing = [f"{edge.where}: {edge.target}" for edge in ours(edges) if edge.target not in modules]
    assert not missing, "imports of rebootspec modules that do not exist:\n" + "\n".join(missing)


def test_no_bare_top_level_names(modules: dict[str, Path], edges: list[Import]) -> None:
    """Installed code, tests and benchmarks use `rebootspec.*` (benchmarks may import itself)."""
    found = list(edges)
    for folder in ("tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found += imports_of(f"{folder}.{path.stem}", path, modules)
    wrong = [
        f"{edge.where}: import {edge.target}"
        for edge in found
        if edge.target.split(".")[0] in BARE
        and not (edge.source.startswith("benchmarks.") and edge.target.startswith("benchmarks"))
    ]
    assert not wrong, "bare top-level imports (use rebootspec.* or a relative import):\n" + (
        "\n".join(wrong)
    )
