"""Helpers of the site's browser tests: axe-core, pinned in tests/browser-deps/package-lock.json
(installed there by .ci/run, or by the first test that needs it; never fetched by a page), a
network guard that refuses every host but 127.0.0.1, and screenshots of every page at desktop
and phone width."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tests.screenshots import shoot

REPO = Path(__file__).resolve().parents[2]
# axe-core is an npm package pinned in a lock file of the tests (tests/browser-deps)
BROWSER_DEPS = REPO / "tests" / "browser-deps"
AXE_SCRIPT = BROWSER_DEPS / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = Path(os.environ.get("SITE_SCREENSHOTS") or REPO / "var" / "screenshots" / "site")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
BLOCKING = ("serious", "critical")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def axe_script() -> Path | None:
    """axe.min.js of the version pinned in tests/browser-deps/package-lock.json, installed
    there with ``npm ci`` (as .ci/run does) when it is missing or another version. None when
    npm is not installed."""
    if _installed_axe_version() == _pinned_axe_version():
        return AXE_SCRIPT
    npm = shutil.which("npm")
    if npm is None:
        return None
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=BROWSER_DEPS, check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    return AXE_SCRIPT


def _pinned_axe_version() -> str:
    lock = json.loads((BROWSER_DEPS / "package-lock.json").read_text())
    return lock["packages"]["node_modules/axe-core"]["version"]


def _installed_axe_version() -> str | None:
    try:
        return json.loads((AXE_SCRIPT.parents[0] / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def slug(url: str) -> str:
    path = urlparse(url).path.strip("/") or "home"
    return re.sub(r"[^A-Za-z0-9]+", "_", path)


@dataclass
class Audit:
    """Everything the tests check on each page they open."""

    axe: Path
    violations: dict[str, list[str]] = field(default_factory=dict)
    blocked: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def guard(self, context: Any) -> None:
        """Refuse (and remember) every request to a host other than this machine."""

        def handle(route: Any) -> None:
            host = urlparse(route.request.url).hostname or ""
            if route.request.url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
                route.continue_()
            else:
                self.blocked.append(route.request.url)
                route.abort()

        context.route("**/*", handle)

    def watch(self, page: Any) -> None:
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))

    def check(self, page: Any, name: str | None = None) -> None:
        """axe-core on the page as it is now, then a screenshot at desktop and phone width."""
        page.wait_for_load_state("load")
        name = name or slug(page.url)
        # Colours are judged at rest: a pulsing badge is measured as drawn, not mid-fade.
        page.emulate_media(reduced_motion="reduce")
        page.add_script_tag(path=str(self.axe))
        result = page.evaluate(
            """async () => {
                const r = await axe.run(document, {resultTypes: ['violations']});
                return r.violations.map(v => ({id: v.id, impact: v.impact,
                    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
            }"""
        )
        bad = [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in result
               if v["impact"] in BLOCKING]  # fmt: skip
        if bad:
            self.violations[f"{name} {page.url}"] = bad
        self.pages.append(page.url)
        # At desktop width every table shows whole: none needs its box scrolled sideways.
        cut = page.evaluate("""() => [...document.querySelectorAll('.scroll')]
            .filter(el => el.querySelector('table') && el.scrollWidth - el.clientWidth > 1)
            .map(el => (el.closest('section') || el).getAttribute('aria-labelledby')
                       || el.className)""")
        if cut and (page.viewport_size or {}).get("width", 0) >= 1200:
            self.violations.setdefault(f"{name} {page.url}", []).append(
                f"tables cut off at desktop width: {cut}"
            )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        shoot(page, SCREENSHOTS / f"{name}-desktop.png", full_page=True)
        page.set_viewport_size(PHONE)
        # Two frames: the resize has been handled (site.js marks the boxes that scroll) and
        # drawn before the page is measured.
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        # The replay viewer's own phone layout is the viewer's (replays/): the site's
        # part of the page is measured with it hidden.
        overflow = page.evaluate("""() => {
            const viewer = document.querySelector('#viewer');
            if (viewer) viewer.style.display = 'none';
            const over = document.documentElement.scrollWidth - window.innerWidth;
            if (viewer) viewer.style.display = '';
            return over;
        }""")
        if overflow > 1:
            self.violations.setdefault(f"{name} {page.url}", []).append(
                f"wider than a 390 px phone by {overflow} px"
            )
        # On a phone the viewer's transport bar sits at the bottom of the screen, on every page
        # that shows it (a page's own box around it must not capture the fixed bar); a match
        # still waiting for a worker draws no bar at all.
        gap = page.evaluate("""() => {
            const bar = document.querySelector('#viewer .controls');
            if (!bar || bar.getClientRects().length === 0) return 0;
            return Math.abs(bar.getBoundingClientRect().bottom - window.innerHeight);
        }""")
        if gap > 1:
            self.violations.setdefault(f"{name} {page.url}", []).append(
                f"the replay controls are {gap:.0f} px away from the bottom of a phone's screen"
            )
        shoot(page, SCREENSHOTS / f"{name}-phone.png", full_page=True)
        page.set_viewport_size(size)
        page.emulate_media(reduced_motion="no-preference")


@contextmanager
def audited_page(chromium_executable: str, audit: Audit, **context_options: Any) -> Iterator[Any]:
    """A page in a fresh Chromium (at desktop size unless ``context_options`` say otherwise),
    its requests guarded and its script errors watched by ``audit``; the browser is closed
    however the block ends."""
    from playwright.sync_api import sync_playwright

    context_options.setdefault("viewport", DESKTOP)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        try:
            context = browser.new_context(**context_options)
            audit.guard(context)
            page = context.new_page()
            audit.watch(page)
            yield page
        finally:
            browser.close()
