"""The workshop's committed CodeMirror bundle is what its lock file builds: its record names
exactly the lock file's packages and versions and the bundle's sha256, every package is pinned
to one version, and, when the packages are installed (`npm ci` in website/editor-deps), a
build in a scratch folder gives the committed file byte for byte."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .browser import REPO

DEPS = REPO / "website" / "editor-deps"
STATIC = REPO / "website" / "static" / "website" / "editor"
BUNDLE = STATIC / "codemirror.bundle.js"
RECORD = json.loads((STATIC / "codemirror.bundle.json").read_text())
LOCK = json.loads((DEPS / "package-lock.json").read_text())
PACKAGE = json.loads((DEPS / "package.json").read_text())


def _locked() -> dict[str, str]:
    return {
        path.removeprefix("node_modules/"): info["version"]
        for path, info in LOCK["packages"].items()
        if path.startswith("node_modules/") and "@esbuild/" not in path
    }


def test_the_record_is_the_lock_files_packages_and_the_bundles_hash() -> None:
    assert RECORD["packages"] == _locked()
    assert RECORD["sha256"] == hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    assert RECORD["command"] == "npm ci && npm run bundle"
    assert PACKAGE["scripts"]["bundle"] == "node build.mjs"


def test_direct_dependencies_are_pinned_exactly() -> None:
    locked = _locked()
    for name, version in PACKAGE["devDependencies"].items():
        assert version == locked[name], name  # no ranges: the version the lock holds
    for name in ("codemirror", "@codemirror/lang-python", "@codemirror/lang-javascript", "esbuild"):
        assert name in PACKAGE["devDependencies"]


def test_the_bundle_is_one_script_and_its_packages_stay_out_of_git() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    assert text.startswith("var ArenaEditor=")  # a classic script: no module loader, no CDN
    ignored = (REPO / ".gitignore").read_text()
    assert "website/editor-deps/node_modules" in ignored


def test_a_fresh_build_is_the_committed_bundle(tmp_path: Path) -> None:
    node = shutil.which("node")
    installed = DEPS / "node_modules" / "esbuild" / "package.json"
    if node is None or not installed.is_file():
        pytest.skip("the editor's packages are not installed (npm ci in website/editor-deps)")
    if json.loads(installed.read_text())["version"] != _locked()["esbuild"]:
        pytest.skip("website/editor-deps/node_modules is not the lock file's: run npm ci")
    done = subprocess.run([node, "build.mjs", str(tmp_path)], cwd=DEPS, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "codemirror.bundle.js").read_bytes() == BUNDLE.read_bytes()
    assert json.loads((tmp_path / "codemirror.bundle.json").read_text()) == RECORD
