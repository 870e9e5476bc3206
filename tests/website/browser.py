"""Helpers of the site's browser tests: axe-core from the npm registry (installed once into
var/cache by the test setup, never fetched by a page), a network guard that refuses every host
but 127.0.0.1, and screenshots of every page at desktop and phone width."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

AXE_VERSION = "4.10.3"
REPO = Path(__file__).resolve().parents[2]
AXE_DIR = REPO / "var" / "cache" / f"axe-core-{AXE_VERSION}"
SCREENSHOTS = Path(os.environ.get("SITE_SCREENSHOTS") or REPO / "var" / "screenshots" / "site")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
BLOCKING = ("serious", "critical")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def axe_script() -> Path | None:
    """axe.min.js, installed with `npm install axe-core@AXE_VERSION` into var/cache if missing.
    None when npm is not installed."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        return None
    AXE_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [npm, "install", "--prefix", str(AXE_DIR), f"axe-core@{AXE_VERSION}", "--no-audit",
         "--no-fund", "--no-save"],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return script


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
        page.screenshot(path=str(SCREENSHOTS / f"{name}-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(150)
        # The replay viewer's own phone layout is the viewer's (replays/, issue 13): the site's
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
        # that holds the viewer (a page's own box around it must not capture the fixed bar).
        gap = page.evaluate("""() => {
            const bar = document.querySelector('#viewer .controls');
            return bar ? Math.abs(bar.getBoundingClientRect().bottom - window.innerHeight) : 0;
        }""")
        if gap > 1:
            self.violations.setdefault(f"{name} {page.url}", []).append(
                f"the replay controls are {gap:.0f} px away from the bottom of a phone's screen"
            )
        page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), full_page=True)
        page.set_viewport_size(size)
        page.emulate_media(reduced_motion="no-preference")
