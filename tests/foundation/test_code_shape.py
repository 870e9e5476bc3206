"""Two lines the product code keeps (docs/architecture.md, "How the line is held"):

- no function above cyclomatic complexity 25 (radon's measure), except the hot loops named,
  each with its measured reason, in docs/architecture.md's one list;
- at most 40 imports inside functions, each saying why it must wait (an import inside a
  function is how a cycle hides; ruff's PLC0415 flags any without ``noqa`` and a reason).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "competition", "replayfile", "workers", "tournament", "replays", "website",
            "arena")  # fmt: skip
MAX_COMPLEXITY = 25
MAX_LATE_IMPORTS = 40
NOQA = re.compile(r"noqa:[\w, ]*PLC0415(.*)")
HOT_LOOP = re.compile(r"^- `(?P<path>[^`]+\.py)` `(?P<name>[^`]+)`")


def product_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                  if "migrations" not in p.parts)  # fmt: skip


def hot_loops() -> set[tuple[str, str]]:
    """The (path, qualified name) pairs listed under the architecture doc's hot loops."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("### Hot loops above the line", 1)[1].split("\n#", 1)[0]
    return {(m["path"], m["name"]) for m in map(HOT_LOOP.match, section.splitlines()) if m}


def complex_functions() -> dict[tuple[str, str], int]:
    found = {}
    for path in product_files():
        for block in cc_visit(path.read_text()):
            # a class's own figure adds up its methods: judge the methods one by one
            items = getattr(block, "methods", None)
            for item in [block] if items is None else items:
                if item.complexity > MAX_COMPLEXITY:
                    name = f"{item.classname}.{item.name}" if getattr(
                        item, "classname", None) else item.name
                    found[(str(path.relative_to(ROOT)), name)] = item.complexity
    return found


def late_imports() -> list[tuple[str, int, str]]:
    """Every import inside a function: (path, line, the reason given or '')."""
    found = []
    for path in product_files():
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    line = lines[inner.lineno - 1]
                    above = lines[inner.lineno - 2].strip()
                    exempt = NOQA.search(line)
                    reason = exempt.group(1).strip(" -:") if exempt else ""
                    if not reason and above.startswith("#"):
                        reason = above.lstrip("# ")
                    found.append((str(path.relative_to(ROOT)), inner.lineno, reason))
    return sorted(set(found))


def test_no_function_is_more_complex_than_the_line_outside_the_named_hot_loops() -> None:
    named = hot_loops()
    over = {key: c for key, c in complex_functions().items() if key not in named}
    assert over == {}, "split these, or name them with a measured reason in docs/architecture.md"


def test_every_named_hot_loop_still_needs_its_place() -> None:
    """A hot loop that was split or renamed leaves the list, so the list stays true."""
    assert hot_loops() <= set(complex_functions())


def test_few_imports_wait_inside_functions_and_each_says_why() -> None:
    imports = late_imports()
    assert [i for i in imports if not i[2]] == []
    assert len(imports) <= MAX_LATE_IMPORTS, imports
