"""engine/ stands alone, and the Django-free parts of workers/ import without the web stack.

The engine is shared by the web app, the workers, bots and offline tools; it sits at the bottom
of the layers (engine <- workers <- tournament / replays / arena), so it imports none of the
packages above it, not even lazily inside a function. A meta-path finder that refuses those
packages and the web stack proves it in a fresh interpreter, for every engine module, not only
the ones `engine/__init__` imports; a scan of the sources catches the lazy imports that only run
when a function is called.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine"

WEB_STACK = ("django", "rest_framework", "celery", "tournament", "replays")
ABOVE_ENGINE = (*WEB_STACK, "workers", "arena", "website")

BLOCKER = """
import importlib, importlib.abc, pkgutil, sys
BLOCKED = __BLOCKED__
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



def run_blocked(
    code: str, blocked: tuple[str, ...] = WEB_STACK
) -> subprocess.CompletedProcess[str]:
    blocker = BLOCKER.replace("__BLOCKED__", repr(blocked))
    return subprocess.run(
        [sys.executable, "-c", blocker + code],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_engine_imports_with_every_package_above_it_blocked() -> None:
    done = run_blocked(WALK.format(name="engine"), blocked=ABOVE_ENGINE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


def test_the_blocker_blocks() -> None:
    """The walk above proves something only if a blocked import really fails."""
    done = run_blocked("import workers.runner", blocked=ABOVE_ENGINE)
    assert done.returncode != 0 and "workers imported while blocked" in done.stderr


def test_engine_sources_never_import_the_layers_above() -> None:
    """Also the imports inside functions, which importing the modules does not run."""
    names = "|".join(ABOVE_ENGINE)
    pattern = re.compile(rf"^\s*(import|from)\s+({names})\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(REPO))
        for path in sorted(ENGINE.rglob("*.py"))
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("module", ["workers", "workers.sandbox.bot_process", "workers.runner"])
def test_worker_runtime_imports_without_django(module: str) -> None:
    """The runner and sandbox run bots next to the engine; they must not need Django either."""
    done = run_blocked(f"import {module}\nprint('ok')")
    assert done.returncode == 0, done.stderr


def test_authors_cli_imports_without_the_web_stack() -> None:
    """`python -m arena` is what bot authors run from a checkout: no Django, no Celery."""
    done = run_blocked(
        WALK.format(name="arena"), blocked=("django", "rest_framework", "celery", "tournament")
    )
    assert done.returncode == 0, done.stderr
