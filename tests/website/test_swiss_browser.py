"""An organiser runs a Swiss with points in Debian's Chromium: the create form refuses a points
table of the wrong length with the API's sentence, then creates the Swiss with its own points
table, start time and cap; the organiser enters five authors' bots by name and removes one,
starts it, and the rounds are played for real (eager tasks in the live server). The league
page shows the standings under "Standings" with points, byes and Buchholz, and anyone sees
them. axe-core finds no serious or critical violation on each page (tests/website/browser.py).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from competition import swiss

from .browser import ARGS, DESKTOP, Audit
from .conftest import builtin_copy
from .test_journeys_browser import _login

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_organiser_runs_a_swiss_with_points(live_server, chromium_executable, axe, make_user):
    from playwright.sync_api import sync_playwright

    from tournament.models import League
    from tournament.services.bots import builtin_bots_register

    make_user("olga", organiser=True)
    authors = [make_user(name) for name in ("ann", "ben", "cat")]
    names = [f"swiss-bot-{i}" for i in range(6)]
    for i, name in enumerate(names):
        builtin_copy(authors[i % 3], name, "greedy" if i < 2 else "random")
    builtin_bots_register()
    base = live_server.url
    audit = Audit(axe)
    start = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=ARGS)
        context = browser.new_context(viewport=DESKTOP)
        audit.guard(context)
        try:
            page = context.new_page()
            audit.watch(page)
            _login(page, base, "olga", "/leagues/new/")
            page.fill("#id_name", "Autumn Swiss")
            page.select_option("#id_mode", "duel")  # its 2 seats are set by the page
            page.select_option("#id_format", "swiss")
            assert page.is_visible("#id_points_table") and not page.is_visible("#id_seeds")
            page.fill("#id_rounds", "3")
            page.fill("#id_points_table", "3, 1, 0")  # three places for two seats
            page.click("main form button[type=submit]")
            expected = swiss.points_table_problem([3, 1, 0], 2)
            error = page.locator("#field-points_table .errorlist")
            assert error.inner_text().strip() == expected
            audit.check(page, "swiss-new-error")

            page.fill("#id_points_table", "3, 1")
            page.fill("#id_bye_points", "2")
            page.fill("#id_starts_at", start)
            page.fill("#id_max_entrants", "8")
            page.click("main form button[type=submit]")
            page.wait_for_url(re.compile(r".*/leagues/\d+/$"))
            league_url = page.url
            assert "it starts by itself then" in page.locator("#plan-title + *").inner_text()

            for name in names:  # the organiser enters authors' bots by name
                page.fill("#id_entry_bot", name)
                page.click("form[action$='/entries/add/'] button[type=submit]")
                page.wait_for_selector(f"text={name} v1 is entered.")
            page.click("button[aria-label='Remove swiss-bot-5 v1']")
            page.wait_for_selector("text=The entry is removed.")
            assert page.locator("section[aria-labelledby=entries-title] tbody tr").count() == 5
            audit.check(page, "swiss-draft-organiser")

            page.click("text=Start the league")
            page.wait_for_selector("text=Autumn Swiss is", timeout=180_000)
            page.reload()
            standings = page.locator("section[aria-labelledby=standings-title]")
            assert standings.locator("h2").inner_text() == "Standings"
            rows = standings.locator("tbody tr")
            assert rows.count() == 5
            header = standings.locator("thead").inner_text().upper()  # drawn in capitals
            assert "POINTS" in header and "BUCHHOLZ" in header and "MEDIAN BUCHHOLZ" in header
            assert "ELO" not in header
            points = [float(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(5)]
            assert points == sorted(points, reverse=True)
            # 3 rounds of two matches (3 + 1 points each) and three byes of 2 points
            assert sum(points) == 3 * 2 * 4 + 3 * 2
            assert "1st 3, 2nd 1; a bye 2" in standings.inner_text()
            audit.check(page, "swiss-closed-organiser")

            spectator = browser.new_context(viewport=DESKTOP)
            audit.guard(spectator)
            visitor = spectator.new_page()
            audit.watch(visitor)
            visitor.goto(league_url)
            assert visitor.locator("#standings-title").inner_text() == "Standings"
            assert visitor.locator("section[aria-labelledby=entries-title]").count() == 0
            audit.check(visitor, "swiss-closed-visitor")
        finally:
            browser.close()

    league = League.objects.get(name="Autumn Swiss")
    assert league.status == League.Status.CLOSED and league.points_table == [3.0, 1.0]
    assert audit.violations == {} and audit.blocked == [] and audit.errors == []
