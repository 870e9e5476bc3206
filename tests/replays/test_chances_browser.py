"""The "Who was winning" chart on a finished match's page, in headless Chromium: it shows once
unfolded, its blunder marks link to their step, axe-core finds nothing serious, at desktop and
phone width. Screenshots (and the match's PNG) go to SHOTS (``IMAGES_SCREENSHOTS``, else
var/screenshots/images)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from replayfile.format import decode
from replays.storage import open_replay
from tests.screenshots import shoot

from .test_spectator_browser import _chromium, _serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("IMAGES_SCREENSHOTS") or REPO / "var" / "screenshots" / "images")


@pytest.mark.django_db(transaction=True)
def test_the_chances_chart_shows_links_blunders_and_passes_axe(
        live_server, chromium_executable, stored_match, axe, settings, client):
    from tournament.models import MatchAnalysis
    from tournament.services.analysis import match_analysis_request

    settings.ANALYSIS_PLAYOUTS = 1
    match = stored_match("standard", seed=11, seats=4)
    match_analysis_request(match=match, user=None)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done"
    # a blunder mark to follow, whatever the playouts said
    result = dict(analysis.result)
    points = result["points"]
    if not result["blunders"]:
        result["blunders"] = [{"seat": 0, "name": "seat 0", "frame": points[2]["frame"],
                               "from_frame": points[1]["frame"], "day": points[1]["day"],
                               "before": 0.6, "after": 0.2, "drop": 0.4}]
        MatchAnalysis.objects.filter(pk=analysis.pk).update(result=result)
    blunder = result["blunders"][0]
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = client.get(f"/matches/{match.pk}/step/{points[2]['frame']}.png")
    (SHOTS / "match-step.png").write_bytes(png.content)
    (SHOTS / "match-summary.gif").write_bytes(client.get(f"/matches/{match.pk}/summary.gif")
                                              .content)
    with _chromium(chromium_executable) as (new_page, errors):
        for name, viewport in (("desktop", {"width": 1280, "height": 900}),
                               ("phone", {"width": 390, "height": 844})):
            page = new_page(viewport=viewport)
            page.goto(f"{live_server.url}/matches/{match.pk}/")
            details = page.locator("#chances-details")
            assert details.count() == 1
            assert page.locator("#chances .chances-chart svg").is_hidden()  # folded: no spoiler
            page.locator("#chances-details > summary").click()
            chart = page.locator("#chances .chances-chart svg")
            assert chart.is_visible()
            box = chart.bounding_box()
            assert box["width"] > 300 and box["width"] <= viewport["width"]
            assert page.locator("#chances .chances-chart polyline").count() == 4
            assert page.locator("#chances .chances-chart .blunder-mark").count() == len(
                result["blunders"])
            assert page.locator("#chances table.chances-table tbody tr").count() == len(points)
            overflow = page.evaluate(
                "document.querySelector('#chances').scrollWidth - "
                "document.querySelector('#chances').clientWidth")
            assert overflow <= 1, overflow
            assert _serious_violations(page, axe) == []
            page.locator("#chances").scroll_into_view_if_needed()
            shoot(page, SHOTS / f"match-chances-{name}.png", full_page=True)
            shoot(page.locator("#chances"), SHOTS / f"chances-{name}.png")
            # a blunder links to its step: the viewer of the page goes there in place, the
            # chart's cursor follows it, and the address names the step
            page.wait_for_function("window.viewer && window.viewer.views.length > 1")
            page.locator("ol.blunders a").first.click()
            page.wait_for_function(f"window.viewer.step === {blunder['frame']}")
            assert page.url.endswith(f"/matches/{match.pk}/?step={blunder['frame']}")
            mark_x = float(page.locator("#chances .blunder-mark path").first.get_attribute(
                "d")[1:].split()[0])
            page.wait_for_function(  # the cursor moves to the blunder's step (polled: 250 ms)
                "(x) => { const c = document.querySelector('#chances line.cursor');"
                " return c.style.display !== 'none' && Math.abs(c.getAttribute('x1') - x) < 1; }",
                arg=mark_x)
            page.close()
        assert errors == []


@pytest.mark.django_db(transaction=True)
def test_a_queued_analysis_appears_without_a_reload(live_server, chromium_executable,
                                                    stored_match, settings):
    """The page of a match whose analysis is queued polls the API and swaps in the chart once
    a worker has run it: the page is never reloaded (a marker set on window survives)."""
    from tournament.models import MatchAnalysis
    from tournament.services.analysis import match_analysis_run

    settings.ANALYSIS_PLAYOUTS = 1
    match = stored_match("duel", seed=5, seats=2)
    row = MatchAnalysis.objects.create(match=match, playouts=1)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        assert page.locator("[data-analysis-poll]").count() == 1
        page.evaluate("window.stillThisPage = true")
        worker = threading.Thread(target=match_analysis_run, kwargs={"analysis_id": row.pk})
        worker.start()  # a worker's thread: Playwright's own thread runs an event loop
        worker.join()
        page.wait_for_selector("#chances-details", state="attached", timeout=30_000)
        assert page.evaluate("window.stillThisPage === true")
        assert page.locator("[data-analysis-poll]").count() == 0
        page.close()
        assert errors == []


@pytest.mark.django_db(transaction=True)
def test_the_move_list_marks_a_reviewed_seats_costly_decisions(live_server, chromium_executable,
                                                               stored_match, axe):
    """A done review of seat 0 (a public match: anyone may read it) puts "??" and "?" on the
    moves it judged costly, with the loss and the better action in words; "Where it lost"
    lists them, each linking to its step."""
    from replayfile.decision_review import REVIEW_VERSION
    from tournament.models import SeatReview

    match = stored_match("duel", seed=5, seats=2)
    judged = {"text": "end_turn", "chance": 0.2, "low": 0.1, "high": 0.3, "playouts": 96}
    better = {"text": "select space=13", "chance": 0.8, "low": 0.7, "high": 0.9, "playouts": 96}
    steps = decode(open_replay(match.replay_name))["steps"]
    seat0 = [i for i, row in enumerate(steps) if row[0] == 0]
    decisions = [{"step": seat0[3], "taken": judged, "best": better, "loss": 0.6, "mark": "??"},
                 {"step": seat0[5], "taken": judged, "best": better, "loss": 0.12, "mark": "?"}]
    SeatReview.objects.create(match=match, seat=0, version=REVIEW_VERSION, status="done",
                              result={"decisions": decisions, "costliest": decisions,
                                      "method": "Wilson", "playouts": 96, "worlds": 8,
                                      "candidates": 6, "cpu_seconds": 1.0})
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#moves .move-judge", state="attached", timeout=30_000)
        marks = page.locator("#moves .move-judge")
        assert marks.count() == 2
        first = page.locator(f'#moves a[data-step="{seat0[3] + 1}"] .move-judge')
        assert first.text_content().startswith("??")
        assert "better: select space=13" in first.get_attribute("title")
        assert page.locator(f'#moves a[data-step="{seat0[5] + 1}"] .move-judge') \
            .text_content().startswith("?")
        links = page.locator("#where-lost ol.costliest a")
        assert links.count() == 2
        assert links.first.get_attribute("href").endswith(f"?step={seat0[3] + 1}")
        assert _serious_violations(page, axe) == []
        page.close()
        assert errors == []
