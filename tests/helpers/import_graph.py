"""The package's import graph, read with ``ast``: what the layout test checks.

An edge ``a -> b`` means that running ``a`` imports ``b``: at module level or inside
a function (a lazy import is still a dependency), plus the packages Python imports
on the way to ``b``. Imports under ``if TYPE_CHECKING:`` are left out: they exist
for annotations only and never run.
"""
# ladder: role=app  (graph code the tests call, not a test: judged by the application limits)

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Optional, Sequence

__all__ = ["Graph", "Layer", "build_graph", "find_cycles", "layer_of", "upward_imports", "private_imports"]


@dataclass(frozen=True)
class Graph:
    """Modules by dotted name (a package by its own name) and their import edges."""

    package: str
    files: Mapping[str, Path]
    edges: Mapping[str, frozenset[str]]
    private: Mapping[str, frozenset[tuple[str, str]]]  # module -> (imported module, private name)


@dataclass(frozen=True)
class Layer:
    """One rung of the layer order: module names at the package root and subpackages (``name/``)."""

    number: int
    title: str
    members: tuple[str, ...]

    def holds(self, relative: str) -> bool:
        """Whether the module ``relative`` (dotted, below the package; ``""`` for the root) is here."""
        top, _, below = relative.partition(".")
        if below or f"{top}/" in self.members:
            return f"{top}/" in self.members
        return (top or "__init__") in self.members


def _module_files(root: Path, exclude: Sequence[str]) -> dict[str, Path]:
    files = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent)
        if any(part in exclude for part in rel.parts):
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.stmt]:
    """Every import statement that can run (not those under ``if TYPE_CHECKING:``)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def _with_parents(name: str) -> set[str]:
    """``a.b.c`` and the packages Python imports on the way: ``a``, ``a.b``."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def _imported(node: ast.stmt, module: str, is_package: bool, files: Mapping[str, Path]) -> list[str]:
    """The modules one import statement names (``from p import m`` names ``p.m`` when it is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _base(module, is_package, node)
    subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in files]
    return subs if len(subs) == len(node.names) else [base, *subs]


def _private_names(node: ast.stmt, module: str, is_package: bool, files: Mapping[str, Path]) -> set[tuple[str, str]]:
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = _base(module, is_package, node)
    return {(base, a.name) for a in node.names
            if a.name.startswith("_") and not a.name.startswith("__") and base in files}


def _import_nodes(path: Path) -> list[ast.stmt]:
    return list(_imports(ast.parse(path.read_text(encoding="utf-8"), str(path))))


def _module_edges(module: str, path: Path, files: Mapping[str, Path]) -> tuple[frozenset[str], frozenset]:
    """What one module imports, and the private names it takes from where."""
    is_package = path.name == "__init__.py"
    nodes = _import_nodes(path)
    named = {parent for node in nodes for name in _imported(node, module, is_package, files)
             for parent in _with_parents(name)}
    hidden = set().union(*(_private_names(node, module, is_package, files) for node in nodes))
    return frozenset(named & set(files) - {module}), frozenset(hidden)


def build_graph(root: Path, exclude: Sequence[str] = ()) -> Graph:
    """The import graph of the package whose directory is ``root``."""
    files = _module_files(root, exclude)
    found = {module: _module_edges(module, path, files) for module, path in files.items()}
    return Graph(root.name, files, {m: e for m, (e, _) in found.items()}, {m: h for m, (_, h) in found.items()})


def _reachable(graph: Graph, start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.edges.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.edges.get(module, ()))
    return seen


def find_cycles(graph: Graph) -> list[list[str]]:
    """Each import circle once: the modules that reach each other (a strongly connected component)."""
    reach = {module: _reachable(graph, module) for module in graph.files}
    circles = {frozenset(m for m in reach[module] if module in reach[m]) for module in graph.files}
    return sorted(sorted(circle) for circle in circles if len(circle) > 1)


def _relative(graph: Graph, module: str) -> str:
    return module[len(graph.package) + 1:] if module != graph.package else ""


def layer_of(graph: Graph, module: str, layers: Sequence[Layer]) -> Optional[Layer]:
    """The layer that holds ``module``, or ``None`` when the layer list does not name it."""
    found = [layer for layer in layers if layer.holds(_relative(graph, module))]
    return found[0] if len(found) == 1 else None


def upward_imports(graph: Graph, layers: Sequence[Layer]) -> list[str]:
    """``a -> b`` wherever ``b`` sits in a higher layer than ``a``."""
    placed = {module: layer_of(graph, module, layers) for module in graph.files}
    return [f"{module} ({placed[module].title}) imports {target} ({placed[target].title})"
            for module, targets in sorted(graph.edges.items()) for target in sorted(targets)
            if placed[module] and placed[target] and placed[target].number > placed[module].number]


def _part(graph: Graph, module: str) -> str:
    relative = _relative(graph, module)
    return relative.split(".")[0] if "." in relative or graph.files[module].name == "__init__.py" else relative


def private_imports(graph: Graph) -> list[str]:
    """Private names (``_x``) imported from another part of the package."""
    return [f"{module} imports {name} from {source}"
            for module, hidden in sorted(graph.private.items())
            for source, name in sorted(hidden)
            if _part(graph, source) != _part(graph, module)]
