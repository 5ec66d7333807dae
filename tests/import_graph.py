"""The import graph of the project's own modules, read from the source with ``ast``.

Every ``canfield.*`` import counts, at module level or inside a function (a
deferred import still ties the two modules together), except those under
``if TYPE_CHECKING:``, which never run. The folders map to import names as
``pyproject.toml`` installs them: ``engine/core.py`` is ``canfield.engine.core``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"canfield": "canfield", "engine": "canfield.engine"}
PACKAGES.update({"solver": "canfield.solver", "experiments": "canfield.experiments"})


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project by import name."""
    out = {}
    for folder, package in PACKAGES.items():
        for path in sorted((root / folder).glob("*.py")):
            out[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, package: str) -> list[str]:
    """The module names one parsed module imports (``package`` resolves relative ones)."""
    names: list[str] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # ``from pkg import mod`` imports the submodule when there is one
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
        pending.extend(ast.iter_child_nodes(node))
    return names


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """``{module: modules of the project it imports}``."""
    modules = project_modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        found = _imports(ast.parse(path.read_text(), str(path)), package)
        targets = set()
        for target in found:
            if target in modules and target != name:
                targets.add(target)
        # ``from canfield.engine import core`` names both; keep only the submodule
        graph[name] = {t for t in targets if not any(o.startswith(t + ".") for o in targets)}
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules, as
    ``[a, b, ..., a]``; empty when the graph has none."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph has some 50 nodes
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle through the group's first module (breadth first)."""
    start = min(group)
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if w not in parent:
                    parent[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError("a strongly connected group always has a cycle")
