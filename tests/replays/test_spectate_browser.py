"""What a spectator does beyond watching, in real headless Chromium: following a
live match and stepping back out of it, the move list, the step kept in the address (and
corrected when it is beyond the end), "Copy link", the embed page (framed by another page),
a queued match's place in the queue, spoiler-free lists, axe-core at desktop and phone width
with the move list open. Screenshots go to /tmp/shots-spectate/ (SPECTATE_SHOTS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import new_game
from engine.bots import make_bot
from tests.screenshots import shoot

from .live_matches import file_live_logs, greedy_match
from .test_spectator_browser import _chromium, _open, _serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("SPECTATE_SHOTS") or "/tmp/shots-spectate")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _shot(page, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, SHOTS / f"{name}.png", full_page=full)


def _inside(box: dict, outer: dict) -> bool:
    """The box is within the outer box's height (a list item in view in its list)."""
    return outer["y"] <= box["y"] and box["y"] + box["height"] <= outer["y"] + outer["height"] + 1


def _publish(publisher, game, bots, steps: int) -> None:
    for _ in range(steps):
        seat = game.pending()[0]
        action = bots[seat].act(game, seat)
        game.apply_unchecked(seat, action)
        publisher(game, seat, action, 0.001)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode,seats", [("standard", 4), ("duel", 2)])
def test_a_live_match_is_followed_until_the_spectator_steps_back(
    live_server, chromium_executable, settings, tmp_path, mode, seats
):
    from replays.live import LivePublisher

    file_live_logs(settings, tmp_path)
    match = greedy_match(mode, seats, seed=5)
    spec = {"mode": mode, "seed": 5, "seats": [{"seat": s, "name": "greedy"} for s in range(seats)]}
    game = new_game(mode, seats, 5)
    bots = [make_bot("greedy", mode, s, 5) for s in range(seats)]
    publisher = LivePublisher(match_id=match.pk, spec=spec)
    _publish(publisher, game, bots, 12)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        # opened without ?step=: it follows, at the newest step, without a click
        page.wait_for_function("window.viewer.live && window.viewer.views.length === 13")
        page.wait_for_function("window.viewer.step === 12")
        assert page.locator("#btn-live").get_attribute("aria-pressed") == "true"
        assert page.locator("#live-badge").inner_text().lower() == "● live"
        _publish(publisher, game, bots, 5)
        page.wait_for_function("window.viewer.step === 17", timeout=20000)  # followed
        assert "step=17" in page.url
        _shot(page, f"live-{mode}-desktop")
        # stepping back stops following: new steps arrive, the step stays
        page.click("#btn-back")
        assert page.evaluate("window.viewer.step") == 16
        assert page.locator("#btn-live").get_attribute("aria-pressed") == "false"
        _publish(publisher, game, bots, 4)
        page.wait_for_function("window.viewer.views.length === 22", timeout=20000)
        page.wait_for_timeout(800)
        assert page.evaluate("window.viewer.step") == 16
        # the move list grew with the steps
        assert page.locator("#moves a[data-step]").count() == 22
        # "Follow" jumps to the newest step and follows again
        page.click("#btn-live")
        assert page.evaluate("window.viewer.step") == 21
        _publish(publisher, game, bots, 2)
        page.wait_for_function("window.viewer.step === 23", timeout=20000)
        phone = new_page(viewport=PHONE, has_touch=True)
        phone.goto(f"{live_server.url}/matches/{match.pk}/")
        phone.wait_for_function("window.viewer.live && window.viewer.step === 23")
        _shot(phone, f"live-{mode}-phone")
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_a_live_match_that_ends_changes_title_heading_and_status(
    live_server, chromium_executable, settings, tmp_path, replay_storage, monkeypatch
):
    import threading

    from replays import live
    from tournament.models import Match
    from tournament.services import matches

    file_live_logs(settings, tmp_path)
    match = greedy_match("duel", 2, status=Match.Status.RUNNING, seed=5)
    real = live.LivePublisher.__call__
    go = threading.Event()

    def paced(self, game, seat, action, seconds):
        real(self, game, seat, action, seconds)
        go.wait(30)

    monkeypatch.setattr(live.LivePublisher, "__call__", paced)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED)
    worker = threading.Thread(target=matches.match_play, kwargs={"match_id": match.pk})
    with _chromium(chromium_executable) as (new_page, errors):
        try:
            page = new_page(viewport=DESKTOP)
            page.goto(f"{live_server.url}/matches/{match.pk}/")
            assert "(waiting for a worker)" in page.title()
            worker.start()
            page.wait_for_function("window.viewer.live && window.viewer.views.length > 1",
                                   timeout=30000)
            page.wait_for_function("document.title.includes('(live)')", timeout=10000)
            assert page.locator("[data-match-heading]").inner_text() == "Live"
            go.set()
            page.wait_for_function("window.viewer.payload.live === false", timeout=120000)
            page.wait_for_function("document.title.includes('replay')", timeout=20000)
            assert "(live)" not in page.title() and "queued" not in page.title()
            assert page.locator("[data-match-heading]").inner_text() == "Replay"
            page.wait_for_function(
                "document.querySelector('[data-match-status]').textContent.trim() === 'finished'",
                timeout=20000)
            assert page.locator("#live-badge").is_hidden()
            assert page.locator("#btn-live").is_hidden()
        finally:
            go.set()
            worker.join(60)
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_a_queued_match_says_it_waits_and_its_place(live_server, chromium_executable):
    from tournament.models import Match

    ahead = greedy_match("standard", 3, status=Match.Status.QUEUED, seed=1)
    Match.objects.filter(pk=ahead.pk).update(queued_at="2026-01-01T10:00:00Z")
    from tournament.models import MatchSeat

    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="standard", seed=2,
                                 status=Match.Status.QUEUED, queued_at="2026-01-01T10:00:05Z")
    for seat in ahead.seats.all():
        MatchSeat.objects.create(match=match, seat=seat.seat, bot_version=seat.bot_version)
    with _chromium(chromium_executable) as (new_page, errors):
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page = new_page(viewport=size)
            page.goto(f"{live_server.url}/matches/{match.pk}/")
            page.wait_for_function(
                "document.querySelector('#status').textContent.includes('queue')")
            status = page.locator("#status").inner_text()
            assert "waiting for a worker" in status and "number 2 in the queue" in status
            assert page.locator("#live-badge").is_hidden()  # no "● LIVE" for a queued match
            assert page.locator("#boats").is_hidden() and page.locator("#table").is_hidden()
            assert page.locator("[data-match-heading]").inner_text() == "Waiting for a worker"
            _shot(page, f"queued-{name}")
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_move_list_address_copy_link_and_bad_input(live_server, chromium_executable,
                                                    stored_match, axe):
    match = stored_match("standard", seed=9, seats=4)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        _open(page, f"{live_server.url}/matches/{match.pk}/")
        n = page.evaluate("window.viewer.views.length") - 1
        moves = page.locator("#moves a[data-step]")
        assert moves.count() == n + 1
        groups = page.locator("#moves .move-group h3").all_text_contents()
        assert groups[0] == "Start" and any(g.startswith("Day 1") for g in groups)
        assert all("=" not in t for t in page.locator("#moves .move-say").all_inner_texts())
        # clicking a step goes there, marks it current, keeps it in view, puts it in the address
        page.locator('#moves a[data-step="40"]').click()
        assert page.evaluate("window.viewer.step") == 40
        assert page.locator('#moves a[aria-current="step"]').get_attribute("data-step") == "40"
        assert "step=40" in page.url
        page.keyboard.press("ArrowRight")
        assert "step=41" in page.url
        current = page.locator('#moves a[aria-current="step"]')
        assert current.get_attribute("data-step") == "41"
        box, list_box = current.bounding_box(), page.locator("#moves").bounding_box()
        assert _inside(box, list_box)
        # far down the list: the list scrolls to keep it in view
        page.evaluate(f"window.viewer.show({n - 5})")
        box, list_box = current.bounding_box(), page.locator("#moves").bounding_box()
        current = page.locator('#moves a[aria-current="step"]')
        box = current.bounding_box()
        assert _inside(box, list_box)
        # by keyboard: Tab to a step's link, Enter goes there
        page.locator('#moves a[data-step="12"]').focus()
        page.keyboard.press("Enter")
        assert page.evaluate("window.viewer.step") == 12
        # the seat view goes in the address too
        page.select_option("#seat-select", "2")
        page.wait_for_function("window.viewer.seat === '2' && location.search.includes('seat=2')")
        assert "step=12" in page.url
        # in a seat's view the others' cards are backs whose word is whole ("hidden", not
        # "IIDDEN")
        page.evaluate("window.viewer.show(150)")
        page.locator('figure.boat[data-seat="3"]').scroll_into_view_if_needed()
        back = page.locator('figure.boat[data-seat="3"] .card.back .card-type').first
        back.wait_for()
        assert back.text_content().lower() == "hidden"
        assert back.evaluate("e => e.scrollWidth <= e.clientWidth && "
                             "e.getBoundingClientRect().right <= "
                             "e.closest('.card').getBoundingClientRect().right")
        shoot(back.locator("xpath=ancestor::div[contains(@class,'hand-group')]"),
              SHOTS / "card-backs-seat-view.png")
        page.evaluate("window.viewer.show(12)")
        # "Copy link" copies this address
        page.click("#btn-copy")
        page.wait_for_function("document.querySelector('#copy-status').textContent.includes('copied')")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.endswith(f"/matches/{match.pk}/?step=12&seat=2"), copied
        _shot(page, "finished-4p-desktop")
        page.evaluate(f"window.viewer.show({n})")
        page.wait_for_selector("#final:not([hidden])")
        # the result sits at the top of the side column, its numbers under their headers
        final = page.locator("#final").bounding_box()
        assert final["y"] + 80 < DESKTOP["height"]
        heads = page.locator(".final-table thead th").all()
        totals = page.locator(".final-table .final-score").all()
        for head, total in zip(heads[1:], totals, strict=True):
            h, t = head.bounding_box(), total.bounding_box()
            assert abs((h["x"] + h["width"]) - (t["x"] + t["width"])) < 2  # right edges align
        _shot(page, "finished-4p-result-desktop")
        assert _serious_violations(page, axe) == []

        # a step beyond the end is clamped and the address corrected; an unknown seat falls
        # back to the spectator view with a note
        _open(page, f"{live_server.url}/matches/{match.pk}/?step=99999&seat=9")
        page.wait_for_function(f"location.search.includes('step={n}')")
        assert page.evaluate("window.viewer.step") == n
        assert page.evaluate("window.viewer.seat") == "spectator"
        assert "seat=" not in page.url
        assert "showing the spectator's view" in page.locator("#status").inner_text()

        phone = new_page(viewport=PHONE, has_touch=True)
        _open(phone, f"{live_server.url}/matches/{match.pk}/?step=30")
        assert phone.locator("#moves-panel").get_attribute("open") is not None
        target = phone.locator('#moves a[data-step="31"]')
        target.scroll_into_view_if_needed()  # settle the page's own layout before the tap
        phone.wait_for_timeout(300)
        target.tap()
        phone.wait_for_function("window.viewer.step === 31", timeout=10_000)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert _serious_violations(phone, axe) == []
        _shot(phone, "finished-4p-phone")
        _shot(phone, "finished-4p-phone-full", full=True)
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_duel_match_page_screens(live_server, chromium_executable, stored_match, axe):
    match = stored_match("duel", seed=9, seats=2)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        _open(page, f"{live_server.url}/matches/{match.pk}/?step=25")
        assert page.locator('#moves a[aria-current="step"]').get_attribute("data-step") == "25"
        _shot(page, "finished-duel-desktop")
        assert _serious_violations(page, axe) == []
        phone = new_page(viewport=PHONE, has_touch=True)
        _open(phone, f"{live_server.url}/matches/{match.pk}/?step=25")
        assert _serious_violations(phone, axe) == []
        _shot(phone, "finished-duel-phone")
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_the_embed_page_is_framed_by_another_site(live_server, chromium_executable,
                                                  stored_match, client):
    from django.contrib.auth import get_user_model

    from tournament.models import League

    match = stored_match("standard", seed=9, seats=4)
    response = client.get(f"/embed/matches/{match.pk}/?step=5")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert response["Content-Security-Policy"] == "frame-ancestors *"
    assert client.get(f"/matches/{match.pk}/")["X-Frame-Options"] == "DENY"  # the rest refuses
    # a private league's match: a 404 to those who may not see it
    organiser = get_user_model().objects.create_user("organiser")
    private = League.objects.create(name="Hidden cup", organiser=organiser, mode="standard",
                                    seats=4, format="ladder", public=False)
    match.league = private
    match.save(update_fields=["league"])
    assert client.get(f"/embed/matches/{match.pk}/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/embed/matches/{match.pk}/").status_code == 200
    client.logout()
    match.league = None
    match.save(update_fields=["league"])

    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        # a page frames the embed (X-Frame-Options: DENY, which the rest of the site sends,
        # would refuse it even from the same origin); the page is served by the browser
        html = (f'<h1>My blog</h1><iframe src="{live_server.url}/embed/matches/{match.pk}/'
                f'?step=5" width="900" height="700" title="A match"></iframe>')
        blog = f"{live_server.url}/blog-page-of-another-site/"
        page.route(blog, lambda route: route.fulfill(status=200, content_type="text/html",
                                                     body=html))
        page.goto(blog)
        frame = page.frame_locator("iframe")
        frame.locator("#step-label").wait_for()
        inner = page.frames[1]
        inner.wait_for_function("window.viewer && window.viewer.renders > 0")
        assert inner.evaluate("window.viewer.step") == 5
        assert inner.locator("header.site").count() == 0  # chrome-less
        inner.click("#btn-forward")
        assert inner.evaluate("location.search") == "?step=5"  # the embed's address stays
        assert f"/matches/{match.pk}/" in inner.locator(".embed-title a").get_attribute("href")
        _shot(page, "embed-framed-desktop")
        phone = new_page(viewport=PHONE)
        _open(phone, f"{live_server.url}/embed/matches/{match.pk}/?step=60&seat=1")
        assert phone.evaluate("window.viewer.seat") == "1"
        _shot(phone, "embed-phone")
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_spoiler_free_lists_and_the_featured_live_match(live_server, chromium_executable,
                                                        stored_match, settings, tmp_path, axe):
    from replays.live import LivePublisher

    finished = stored_match("standard", seed=9, seats=4)
    seat = finished.seats.get(seat=0)
    file_live_logs(settings, tmp_path)
    running = greedy_match("standard", 3, seed=5)
    spec = {"mode": "standard", "seed": 5,
            "seats": [{"seat": s, "name": "greedy"} for s in range(3)]}
    _publish(LivePublisher(match_id=running.pk, spec=spec), new_game("standard", 3, 5),
             [make_bot("greedy", "standard", s, 5) for s in range(3)], 20)
    score = f"· {int(seat.score)}"
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        page.goto(f"{live_server.url}/matches/")
        assert score in page.locator("table.matches").text_content()  # in the page…
        assert score not in page.locator("table.matches").inner_text()  # …but not shown
        page.goto(f"{live_server.url}/")
        done = page.locator('section[aria-labelledby="done-title"]')
        assert "(winner)" not in done.inner_text()
        # the featured match: the running one, followed in a small viewer
        assert page.locator("#featured-title").inner_text() == f"Watch now: match #{running.pk}"
        inner = page.frame_locator("iframe.featured-viewer")
        inner.locator("#step-label").wait_for()
        frame = page.frames[1]
        frame.wait_for_function("window.viewer && window.viewer.step === 20", timeout=20000)
        assert _serious_violations(page, axe) == []
        _shot(page, "home-desktop", full=True)
        done.locator("[data-spoiler-toggle]").click()  # asked for: shown, and remembered
        assert "(winner)" in done.inner_text()
        page.goto(f"{live_server.url}/matches/")
        assert score in page.locator("table.matches").inner_text()
        phone = new_page(viewport=PHONE)
        phone.goto(f"{live_server.url}/")
        _shot(phone, "home-phone", full=True)
        # without JavaScript: hidden, and the link shows them (a cookie set by the server)
        nojs = new_page(viewport=DESKTOP, java_script_enabled=False)
        nojs.goto(f"{live_server.url}/matches/")
        assert score not in nojs.locator("table.matches").inner_text()
        nojs.locator("table.matches [data-spoiler-toggle]").click()
        nojs.wait_for_load_state()
        assert score in nojs.locator("table.matches").inner_text()
        # the ladder itself is not a spoiler: it stays as it was
    assert not errors, errors


def _session(user) -> str:
    """A session of ``user`` made by Django's test client (before the browser starts: the
    ORM refuses to run beside Playwright's event loop)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _login(page, live_server, session: str) -> None:
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])


def _in_thread(fn) -> None:
    """Run ``fn`` (ORM writes) in a thread of its own, away from Playwright's event loop."""
    import threading

    thread = threading.Thread(target=fn)
    thread.start()
    thread.join(30)


@pytest.mark.django_db(transaction=True)
def test_annotations_are_visible_to_the_owner_and_hidden_from_others(
    live_server, chromium_executable, stored_match
):
    from django.contrib.auth import get_user_model

    from replayfile.format import decode, steps_of
    from replays.storage import open_replay
    from tournament.models import Bot, BotVersion, League, MatchSeat
    from tournament.services.marks import marks_store

    match = stored_match("standard", seed=9, seats=4)
    owner = get_user_model().objects.create_user("mark-owner")
    other = get_user_model().objects.create_user("someone-else")
    mine = BotVersion.objects.create(bot=Bot.objects.create(name="planner", owner=owner),
                                     number=1, status=BotVersion.Status.READY)
    MatchSeat.objects.filter(match=match, seat=0).update(bot_version=mine)
    steps = steps_of(decode(open_replay(match.replay_name)))
    k = next(i for i, s in enumerate(steps) if s["seat"] == 0 and i > 20)
    label = "plan: blue here"
    marks_store(match_id=match.pk, actions=[
        {"step": k, "seat": 0, "marks": [{"cells": [[2, 3], [3, 3]], "label": label,
                                          "colour": "blue"}]}])

    sessions = {"owner": _session(owner), "other": _session(other)}

    def marks_seen(page) -> int:
        _open(page, f"{live_server.url}/matches/{match.pk}/?step={k + 1}")
        page.wait_for_timeout(600)  # the marks come in their own request
        return page.locator('figure.boat[data-seat="0"] g.bot-mark').count()

    with _chromium(chromium_executable) as (new_page, errors):
        anonymous = new_page(viewport=DESKTOP)
        assert marks_seen(anonymous) == 0
        someone = new_page(viewport=DESKTOP)
        _login(someone, live_server, sessions["other"])
        assert marks_seen(someone) == 0
        author = new_page(viewport=DESKTOP)
        _login(author, live_server, sessions["owner"])
        assert marks_seen(author) == 1
        mark = author.locator('figure.boat[data-seat="0"] g.bot-mark')
        assert mark.locator("text").text_content() == label
        assert mark.get_attribute("data-colour") == "blue"
        # the marks of a step stay until the seat's next move, then go
        later = next(i for i, s in enumerate(steps) if s["seat"] == 0 and i > k)
        author.evaluate(f"window.viewer.show({later + 1})")
        assert author.locator("g.bot-mark").count() == 0
        author.evaluate(f"window.viewer.show({k + 1})")
        author.locator('figure.boat[data-seat="0"]').scroll_into_view_if_needed()
        shoot(author.locator('figure.boat[data-seat="0"]'), SHOTS / "marks-owner-boat.png")
        # a league that makes marks public shows them to everyone
        def open_league() -> None:
            league = League.objects.create(name="Open minds", organiser=other, mode="standard",
                                           seats=4, format="ladder", marks_public=True)
            type(match).objects.filter(pk=match.pk).update(league=league)

        _in_thread(open_league)
        assert marks_seen(anonymous) == 1
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_a_solo_chart_has_the_sisters_line(live_server, chromium_executable, stored_match):
    match = stored_match("solo", seed=9, seats=1)
    with _chromium(chromium_executable) as (new_page, errors):
        page = new_page(viewport=DESKTOP)
        _open(page, f"{live_server.url}/matches/{match.pk}/?step=40")
        assert page.locator('#chart polyline[data-line="sister"]').count() == 1
        assert page.locator("#chart polyline[data-seat]").count() == 1
        assert "The sister" in page.locator("#scores table.now").inner_text()
        shoot(page.locator("#scores"), SHOTS / "solo-chart-with-sister.png")
    assert not errors, errors
