"""Screenshots of the browser tests, for a person to look at: taken only when
``TEST_SCREENSHOTS=1`` (a full-page screenshot at two widths costs more than the checks of the
page it shows, and no test reads them back).

    TEST_SCREENSHOTS=1 scripts/test.sh tests/website tests/replays -m browser

then open the PNGs under var/screenshots/ (or the folder a test's own variable names).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

WANTED = os.environ.get("TEST_SCREENSHOTS", "") not in ("", "0")


def shoot(target: Any, path: str | Path, **options: Any) -> None:
    """``target.screenshot(path=path, **options)`` (a Playwright page or locator) when
    screenshots are wanted, into a folder made as needed."""
    if not WANTED:
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)
