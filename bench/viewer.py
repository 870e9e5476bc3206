"""Replay viewer render time in headless Chromium: how long drawing one step takes.

    python bench/viewer.py [--mode standard] [--json]

Plays the demo league of the mode on a fresh embedded arena (`manage.py demo`, its embedded
worker), serves it with `runserver`, opens the first replay in Debian's Chromium and times
`viewer.show(i)` for every step (performance.now() around the render, style and layout
included), plus a seek from the first to the last step. Prints the median, p95, p99 and max.
The viewer's budget is 100 ms per step. A browser test cannot assert it (it fails on a loaded
machine), so the figure lives here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.embedded_ladder import embedded_env  # noqa: E402

BUDGET_MS = 100.0
TIMINGS_JS = """() => {
    const v = window.viewer, out = [];
    for (let i = 0; i < v.views.length; i += 1) {
        const t0 = performance.now();
        v.show(i);
        void document.body.offsetHeight;
        out.push(performance.now() - t0);
    }
    const t0 = performance.now();
    v.show(0); void document.body.offsetHeight;
    v.show(v.views.length - 1); void document.body.offsetHeight;
    return {renders: out, seek: (performance.now() - t0) / 2};
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", default="standard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = embedded_env(Path(tmp) / "data")
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True)  # fmt: skip
        demo = subprocess.run(
            [*manage, "demo", "--mode", args.mode, "--port", str(port)], cwd=ROOT, env=env,
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        replay = re.search(r"replay: (http://\S+)", demo.stdout)
        if replay is None:
            print(f"no replay in the demo's output:\n{demo.stdout}", file=sys.stderr)
            return 1
        server = subprocess.Popen(
            [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.3)
            figures = measure(chromium, replay.group(1))
        finally:
            server.terminate()
            server.wait(timeout=60)
    ordered = sorted(figures["renders"])
    report = {
        "mode": args.mode, "steps": len(ordered) - 1, "seek_ms": round(figures["seek"], 2),
        "render_ms_median": round(ordered[len(ordered) // 2], 2),
        "render_ms_p95": round(ordered[int(len(ordered) * 0.95)], 2),
        "render_ms_p99": round(ordered[int(len(ordered) * 0.99)], 2),
        "render_ms_max": round(ordered[-1], 2), "budget_ms": BUDGET_MS,
    }  # fmt: skip
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>18}: {value}")
        within = report["render_ms_p99"] < BUDGET_MS and report["seek_ms"] < BUDGET_MS
        print(f"{'p99 and seek':>18}: {'within' if within else 'OVER'} the budget")
    return 0


def measure(chromium: str, url: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.goto(url)
            page.wait_for_function("window.viewer && window.viewer.views.length > 0")
            return page.evaluate(TIMINGS_JS)
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
