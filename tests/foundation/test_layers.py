"""The layers of docs/architecture.md hold: every import points down, and no modules import
each other in a circle.

The contracts are written once, in pyproject.toml's ``[tool.importlinter]`` (``lint-imports``
reads them too). Imports inside functions count like any other, so hiding an import in a
function does not hide a cycle; imports under ``if TYPE_CHECKING`` do not run and do not count.
The checks are themselves tested: an upward import and a cycle added to the graph are caught.
"""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PRODUCT = tuple(CONFIG["root_packages"])


def _build_graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        *PRODUCT, include_external_packages=True, exclude_type_checking_imports=True,
        cache_dir=None,
    )


@cache
def _graph() -> grimp.ImportGraph:
    return _build_graph()


def _layers(spec: list[str]) -> list[grimp.Layer]:
    """``"a | b"`` is a layer of independent siblings, ``"a : b"`` of siblings that may import
    each other (import-linter's notation)."""
    out = []
    for layer in spec:
        independent = ":" not in layer
        names = [n.strip() for n in layer.replace(":", "|").split("|")]
        out.append(grimp.Layer(*names, independent=independent))
    return out


def _contracts(kind: str) -> list[dict]:
    return [c for c in CONFIG["contracts"] if c["type"] == kind]


def layer_violations(graph: grimp.ImportGraph) -> list[str]:
    """Each import that points up a layer (or across independent siblings), in words."""
    found = []
    for contract in _contracts("layers"):
        containers = set(contract.get("containers", ()))
        for dep in graph.find_illegal_dependencies_for_layers(
            layers=_layers(contract["layers"]), containers=containers or None
        ):
            for route in dep.routes:
                for head in sorted(route.heads):
                    for tail in sorted(route.tails):
                        chain = " -> ".join([head, *route.middle, tail])
                        found.append(f"{contract['name']}: {chain}")
    return found


def forbidden_violations(graph: grimp.ImportGraph) -> list[str]:
    found = []
    for contract in _contracts("forbidden"):
        ignored = {tuple(s.split(" -> ")) for s in contract.get("ignore_imports", ())}
        for source in contract["source_modules"]:
            for module in [source, *graph.find_descendants(source)]:
                for imported in graph.find_modules_directly_imported_by(module):
                    top = imported.split(".")[0]
                    if top in contract["forbidden_modules"] and (module, top) not in ignored:
                        found.append(f"{contract['name']}: {module} imports {imported}")
    return found


def module_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), product modules only."""
    modules = sorted(m for m in graph.modules if m.split(".")[0] in PRODUCT)
    edges = {m: sorted(i for i in graph.find_modules_directly_imported_by(m)
                       if i.split(".")[0] in PRODUCT) for m in modules}  # fmt: skip
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(root: str) -> None:
        # iterative, so a deep chain of imports cannot overflow Python's stack
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))

    for module in modules:
        if module not in index:
            visit(module)
    return cycles


def test_every_import_points_down_a_layer() -> None:
    assert layer_violations(_graph()) == []


def test_the_pure_layers_import_neither_django_nor_celery_nor_the_apps() -> None:
    assert forbidden_violations(_graph()) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert module_cycles(_graph()) == []


def test_import_linter_itself_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    # lint_imports configures logging with dictConfig, which disables every logger that exists
    # already: those of the product would then stay silent for the tests after this one.
    enabled = [logger for logger in logging.Logger.manager.loggerDict.values()
               if isinstance(logger, logging.Logger) and not logger.disabled]  # fmt: skip
    try:
        status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                              no_logo=True)  # fmt: skip
    finally:
        for logger in enabled:
            logger.disabled = False
    assert status == 0, capsys.readouterr().out


def test_an_upward_import_is_caught() -> None:
    graph = _build_graph()
    graph.add_import(importer="competition.elo", imported="tournament.models")
    graph.add_import(importer="engine.rng", imported="workers.runner")
    graph.add_import(importer="workers.sandbox.isolation", imported="workers.runner")
    found = "\n".join(layer_violations(graph))
    assert "competition.elo -> tournament.models" in found
    assert "engine.rng -> workers.runner" in found
    assert "workers.sandbox.isolation -> workers.runner" in found
    graph.add_import(importer="competition.skill", imported="django.db")
    assert any("competition.skill imports django" in v for v in forbidden_violations(graph))


def test_a_cycle_is_caught_even_through_an_import_inside_a_function() -> None:
    graph = _build_graph()
    # tournament.tasks imports tournament.services.matches; the way back closes a circle
    graph.add_import(importer="tournament.services.matches", imported="tournament.tasks")
    assert any({"tournament.tasks", "tournament.services.matches"} <= set(cycle)
               for cycle in module_cycles(graph))  # fmt: skip
