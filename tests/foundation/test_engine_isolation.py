"""engine/ (and the Django-free parts of workers/) must import with Django and Celery absent.

The engine is shared by the web app, the workers, bots and offline tools; a Django import in it
would drag settings into all of them. A meta-path finder that refuses the web stack proves it
in a fresh interpreter, for every engine module, not only the ones `engine/__init__` imports.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine"

BLOCKER = """
import importlib, importlib.abc, pkgutil, sys
BLOCKED = ("django", "rest_framework", "celery", "tournament", "replays")
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} imported while blocked")
sys.meta_path.insert(0, Blocker())
"""

WALK = """
package = importlib.import_module({name!r})
for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
    if info.name.rsplit(".", 1)[-1] != "__main__":
        importlib.import_module(info.name)
print("ok")
"""

needs_engine = pytest.mark.skipif(not ENGINE.is_dir(), reason="engine/ does not exist yet")


def run_blocked(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + code],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@needs_engine
def test_engine_imports_without_django() -> None:
    done = run_blocked(WALK.format(name="engine"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


@needs_engine
def test_engine_sources_never_import_django() -> None:
    pattern = re.compile(r"^\s*(import|from)\s+(django|rest_framework|celery)\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(REPO))
        for path in sorted(ENGINE.rglob("*.py"))
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("module", ["workers", "workers.sandbox", "workers.runner"])
def test_worker_runtime_imports_without_django(module: str) -> None:
    """The runner and sandbox run bots next to the engine; they must not need Django either."""
    if module != "workers" and not (REPO / (module.replace(".", "/") + ".py")).exists():
        pytest.skip(f"{module} is not written yet")
    done = run_blocked(f"import {module}\nprint('ok')")
    assert done.returncode == 0, done.stderr
