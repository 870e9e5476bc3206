"""Brackets in Chromium: an organiser creates a double elimination and a 4-seat knockout on
the site's create form (the bracket fields shown only for those formats, a bad best-of
refused with the service's plain message); a spectator follows a running bracket whose page
updates by itself as series are decided, until the champion shows. axe-core finds no serious
or critical violation; the pages fit a phone."""

from __future__ import annotations

import sys
import types
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.tournament.conftest import ScriptedRunner
from tournament.models import League
from tournament.services import brackets as bs
from tournament.services import leagues as ls
from tournament.services import matches as ms

from .browser import Audit, audited_page
from .conftest import builtin_copy
from .test_journeys_browser import _login

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_organiser_creates_an_elimination_bracket_and_a_knockout(
    live_server, chromium_executable, axe, make_user
) -> None:

    make_user("ola", organiser=True)
    base = live_server.url
    audit = Audit(axe)
    with audited_page(chromium_executable, audit) as page:
        _login(page, base, "ola", "/leagues/new/")
        assert page.locator("#field-best_of").is_hidden()  # round robin: no bracket fields
        page.fill("#id_name", "Winter cup")
        page.select_option("#id_mode", "duel")
        # the Duel fixes its seats: the field is set to 2 and hidden (the script follows the mode)
        assert page.locator("#field-seats").is_hidden() and page.input_value("#id_seats") == "2"
        page.select_option("#id_format", "double_elim")
        assert page.locator("#field-best_of").is_visible()
        assert page.locator("#field-seeding").is_visible()
        assert page.locator("#field-advance").is_hidden()  # knockout only
        page.fill("#id_best_of", "2")
        page.click("main form button[type=submit]")
        error = page.locator("#field-best_of .errorlist")
        assert error.inner_text() == "Best of must be an odd number from 1 to 9."
        audit.check(page, "bracket-create-error")
        page.fill("#id_best_of", "3")
        page.select_option("#id_seeding", "random")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/leagues/*/")
        assert "Double Elimination" in page.locator("h1").inner_text()
        page.get_by_role("link", name="See the bracket").click()
        assert "The bracket is drawn when the league starts" in page.inner_text("main")
        audit.check(page, "bracket-draft")

        page.goto(f"{base}/leagues/new/")
        page.fill("#id_name", "Table knockout")
        page.select_option("#id_mode", "standard")
        page.fill("#id_seats", "4")
        page.select_option("#id_format", "knockout")
        assert page.locator("#field-advance").is_visible()
        page.fill("#id_best_of", "4")
        page.fill("#id_advance", "2")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{base}/leagues/*/")
        assert "Knockout" in page.locator("h1").inner_text()
    cup = League.objects.get(name="Winter cup")
    assert (cup.format, cup.bracket.best_of, cup.bracket.seeding) == ("double_elim", 3, "random")
    knockout = League.objects.get(name="Table knockout")
    assert (knockout.seats, knockout.bracket.advance, knockout.bracket.best_of) == (4, 2, 4)
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)


@pytest.mark.django_db(transaction=True)
def test_spectator_follows_a_running_bracket(
    live_server, chromium_executable, axe, make_user, monkeypatch
) -> None:
    """The games are played one at a time from the test (the scripted runner: the stronger
    bot by name wins), so the page is seen between results and must update by itself."""

    from tournament.tasks import match_play_task

    scripted = ScriptedRunner()
    scripted.scores = lambda spec: [float(s["name"].split("-")[1]) for s in spec["seats"]]
    runner = types.ModuleType("workers.runner")
    runner.run_match = scripted.run_match  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "workers.runner", runner)
    monkeypatch.setattr(match_play_task, "apply_async", lambda *a, **k: None)  # held back

    organiser = make_user("ola", organiser=True)
    league = bs.bracket_league_create(
        organiser=organiser, name="Live cup", mode="duel", seats=2, format="single_elim",
        best_of=1, seeding="ratings",  # none rated yet: seeded in entry order, 1 v 4, 2 v 3
    )  # fmt: skip
    for strength in (10, 20, 30, 40):
        version = builtin_copy(organiser, f"cat-{strength}", "random")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    ls.league_start(league=league, user=organiser)
    base = live_server.url
    audit = Audit(axe)

    def play_one() -> None:
        """Play the next queued game, in a thread of its own (Playwright's loop owns this one,
        and Django's ORM refuses to run inside an event loop)."""

        def play() -> None:
            from django.db import connection

            try:
                queued = league.matches.filter(status="queued").order_by("pk").first()
                ms.match_play(match_id=queued.pk)
            finally:
                connection.close()

        with ThreadPoolExecutor(1) as pool:
            pool.submit(play).result()

    with audited_page(chromium_executable, audit) as page:
        page.goto(f"{base}/leagues/{league.pk}/bracket/")
        assert page.locator(".series.playing").count() == 2
        assert page.locator(".series.waiting").count() == 1  # the final
        audit.check(page, "bracket-live")
        play_one()  # a semi-final decided: the page shows it without a reload
        page.wait_for_selector(".series.done", timeout=60_000)
        assert page.locator(".series.done li.won").count() == 1
        play_one()  # both semi-finals: the final is drawn
        # The page redraws the final by itself, drawn with both finalists and waiting to
        # be played (the test holds its game back).
        page.wait_for_selector("#series-W2-1.playing", timeout=60_000)
        final = page.locator("#series-W2-1").inner_text()
        assert "cat-40" in final and "cat-30" in final
        play_one()  # the final: the page reloads with the champion
        page.wait_for_selector("#podium-title:has-text('Champion and podium')", timeout=60_000)
        assert "cat-40" in page.locator("ol.podium li.place-1").inner_text()
        game = page.locator("#series-W2-1 a.game").first
        assert game.get_attribute("aria-label") == "game 1 of W2-1, finished"
        audit.check(page, "bracket-finished")
        page.goto(f"{base}/leagues/{league.pk}/")
        assert "Champion" in page.locator("ol.podium").inner_text()
        page.locator("ol.podium li.place-1 a.bot").click()
        assert "Champion of Live cup" in page.locator("#titles-title + ul").inner_text()
        audit.check(page, "bot-titles")
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)


@pytest.mark.django_db(transaction=True)
def test_finished_brackets_in_the_browser(
    live_server, chromium_executable, axe, make_user, monkeypatch
) -> None:
    """A 4-seat knockout of nine and a double elimination of six (two byes) played to the
    end: their rounds of tables, byes, losers' bracket and grand final pass axe-core and fit
    a phone."""

    scripted = ScriptedRunner()
    scripted.scores = lambda spec: [float(s["name"].split("-")[1]) for s in spec["seats"]]
    runner = types.ModuleType("workers.runner")
    runner.run_match = scripted.run_match  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "workers.runner", runner)
    organiser = make_user("ola", organiser=True)
    league = bs.bracket_league_create(
        organiser=organiser, name="Table cup", mode="standard", seats=4, format="knockout",
        advance=2, best_of=4, seeding="ratings",
    )  # fmt: skip
    for strength in range(10, 100, 10):
        version = builtin_copy(organiser, f"cat-{strength}", "random")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    ls.league_start(league=league, user=organiser)  # eager: played to the end at once
    assert League.objects.get(pk=league.pk).status == "closed"
    double = bs.bracket_league_create(
        organiser=organiser, name="Six cup", mode="duel", seats=2, format="double_elim",
        best_of=3, seeding="ratings",
    )  # fmt: skip
    for strength in range(15, 75, 10):
        version = builtin_copy(organiser, f"cat-{strength}", "random")
        ls.league_entry_add(league=double, user=organiser, bot_version_id=version.pk)
    ls.league_start(league=double, user=organiser)
    assert League.objects.get(pk=double.pk).status == "closed"
    audit = Audit(axe)
    with audited_page(chromium_executable, audit) as page:
        page.goto(f"{live_server.url}/leagues/{league.pk}/bracket/")
        assert "cat-90" in page.locator("ol.podium li.place-1").inner_text()
        assert page.locator(".bracket-round h3", has_text="Final table").count() == 1
        audit.check(page, "knockout-finished")
        page.goto(f"{live_server.url}/leagues/{double.pk}/bracket/")
        assert "cat-65" in page.locator("ol.podium li.place-1").inner_text()
        headings = page.locator("section h2").all_inner_texts()
        assert headings[1:4] == ["Winners' bracket", "Losers' bracket", "Grand final"]
        assert page.locator(".series .badge", has_text="walkover").count() >= 2  # byes
        audit.check(page, "double-elimination-finished")
    assert audit.violations == {}, audit.violations
    assert audit.blocked == [] and audit.errors == [], (audit.blocked, audit.errors)
