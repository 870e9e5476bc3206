"""The modules of tournament/ import each other without a cycle, counting the imports inside
functions (which importing a module does not run, so only a scan of the sources sees them), and
every import left inside a function says why on its line or the line above.

A lower module that must reach a higher one does it through a registered interface (the format
registry, `services/match_ended.py`), never by importing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tournament"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _targets(name: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set) -> set:
    """The modules of tournament/ that an import statement loads (the longest known prefix)."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = name.split(".") if is_package else name.split(".")[:-1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join(parts + ([node.module] if node.module else []))
        wanted = [base] + [f"{base}.{alias.name}" for alias in node.names]
    found = set()
    for dotted in wanted:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in known:
                found.add(".".join(parts[:end]))
                break
    return found


def _graph() -> tuple[dict[str, set[str]], list[tuple[Path, ast.stmt]]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    inner: list[tuple[Path, ast.stmt]] = []
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text())
        in_functions = {
            id(node)
            for function in ast.walk(tree)
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(function)
        }
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if id(node) in in_functions:
                inner.append((path, node))
            for target in _targets(name, is_package, node, set(modules)):
                if target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph, inner


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_tournament_modules_import_each_other_without_a_cycle() -> None:
    graph, _ = _graph()
    assert "tournament.services.leagues" in graph  # the walk found the package
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _says_why(lines: list[str], lineno: int) -> bool:
    """A comment on the import's line, or on the line above it or above the imports it
    follows."""
    if "#" in lines[lineno - 1]:
        return True
    above = lineno - 2
    while above >= 0 and lines[above].strip().startswith(("from ", "import ")):
        above -= 1
    return above >= 0 and lines[above].strip().startswith("#")


def test_every_import_inside_a_function_says_why() -> None:
    _, inner = _graph()
    silent = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
        for path, node in inner
        if not _says_why(path.read_text().splitlines(), node.lineno)
    ]
    assert silent == []
