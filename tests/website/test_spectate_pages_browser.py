"""A league of 8 bots as a spectator sees it: the rating chart fits a phone (no
fixed 520 px in a 345 px box) with 8 distinct line colours, the league's match list hides
results until asked while the ladder stays visible. Screenshots under /tmp/shots-spectate/."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.replays.test_spectator_browser import _chromium, _serious_violations
from tests.screenshots import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("SPECTATE_SHOTS") or "/tmp/shots-spectate")


@pytest.mark.django_db(transaction=True)
def test_a_league_of_eight_on_a_phone(live_server, chromium_executable, played_league, axe):
    league = played_league(seats=2, entrants=8, name="Eight")
    entry = league.entries.order_by("-rating").first()
    bot_id = entry.bot_version.bot_id
    SHOTS.mkdir(parents=True, exist_ok=True)
    with _chromium(chromium_executable) as (new_page, errors):
        phone = new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{live_server.url}/leagues/{league.pk}/")
        figure = phone.locator("figure.chart").first
        svg = figure.locator("svg")
        box, outer = svg.bounding_box(), figure.bounding_box()
        assert box["width"] <= outer["width"] + 0.5  # the whole chart in its box
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        strokes = figure.locator("polyline").evaluate_all(
            "lines => lines.map(l => getComputedStyle(l).stroke)")
        assert len(strokes) == 8 and len(set(strokes)) == 8
        # the ladder is shown; the match list's scores wait for "Show results"
        assert re.search(r"\d{3,4}", phone.locator("table").first.inner_text())
        matches = phone.locator("table.matches")
        assert matches.locator(".spoiler").count() > 0
        assert all(not s.is_visible() for s in matches.locator(".spoiler").all()[:5])
        assert _serious_violations(phone, axe) == []
        shoot(phone, SHOTS / "league-8-phone.png", full_page=True)
        phone.goto(f"{live_server.url}/bots/{bot_id}/")
        figure = phone.locator("figure.chart").first
        assert figure.locator("svg").bounding_box()["width"] <= figure.bounding_box()["width"] + 0.5
        assert all(not s.is_visible() for s in phone.locator("table.matches .spoiler").all()[:5])
        shoot(phone, SHOTS / "bot-phone.png", full_page=True)
    assert not errors, errors
