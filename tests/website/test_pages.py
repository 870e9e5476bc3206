"""The site's pages through Django's test client: what each page shows, who may see what, and
that lists filter and page. Leagues are played for real by the engine (built-in bots)."""

from __future__ import annotations

import re

import pytest

from tests.accounts import PASSWORD
from tournament.models import League, Match, MatchSeat
from tournament.selectors import site as site_selectors
from tournament.services import leagues as league_services
from tournament.services.bots import bot_seat_counts_rebuild
from website.colours import PALETTE

from .conftest import builtin_copy

pytestmark = pytest.mark.django_db


def _title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def test_public_pages_render_with_titles(played_league, client) -> None:
    league = played_league(seats=3, entrants=3)
    match = league.matches.first()
    bot = match.seats.first().bot_version.bot
    pages = {
        "/": "Isle Arena", "/leagues/": "Leagues", f"/leagues/{league.pk}/": league.name,
        "/matches/": "Matches", f"/matches/{match.pk}/": f"Match #{match.pk}",
        "/bots/": "Bots", f"/bots/{bot.pk}/": bot.name, "/accounts/login/": "Log in",
        "/accounts/signup/": "Sign up", "/accounts/password/reset/": "Reset",
        "/docs/protocol/": "Bot protocol",
    }  # fmt: skip
    for url, title in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert title in _title(response.content.decode()), url
    home = client.get("/").content.decode()
    assert league.name in home and "three steps" in home
    assert f"/matches/{match.pk}/" in home  # just finished
    bots = client.get("/bots/").content.decode()  # a visitor is shown how to take part
    assert "Sign up to enter yours" in bots and "bot protocol</a> on their standard input" in bots


def test_leagues_list_and_home_show_who_leads_by_the_leagues_own_order(
    played_league, client, organiser
) -> None:
    from tournament import selectors

    league = played_league(seats=3, entrants=3)
    draft = league_services.league_create(organiser=organiser, name="Later cup", mode="duel",
                                          seats=2, format=League.Format.ROUND_ROBIN)  # fmt: skip

    def row(name: str) -> str:
        html = client.get("/leagues/").content.decode()
        return next(r for r in html.split("<tr>") if f">{name}</a>" in r)

    # the two orders disagree: the best Elo is the least certain skill
    first, second, third = league.entries.order_by("pk")
    values = ((first, 1600, 30, 8), (second, 1550, 28, 1), (third, 1400, 20, 2))
    for entry, rating, mu, sigma in values:
        entry.rating, entry.openskill_mu, entry.openskill_sigma = rating, mu, sigma
        entry.save()
    leaders = {}
    for order in ("elo", "conservative"):
        League.objects.filter(pk=league.pk).update(ladder_order=order)
        top = selectors.league_ladder(league=league, order=order)[0]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row(league.name))
        leaders[order] = cells[5]
        assert cells[4:6] == ["3", f"{top.bot_version.bot.name} v{top.bot_version.number}"], order
        home = client.get("/").content.decode()  # the home page's card: the same order
        card = next(a for a in home.split("<article") if f">{league.name}</a>" in a)
        assert f">{top.bot_version.bot.name} v1</a>" in card.split("<li>")[1], order
    assert leaders["elo"] != leaders["conservative"]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row(draft.name))
    assert cells[4] == "0" and "—" in cells[5]  # nobody leads before a game


def test_three_seat_ladder_counts_placements_not_wins(played_league, client) -> None:
    league = played_league(seats=3, entrants=3)
    assert league.matches.filter(status=Match.Status.FINISHED).count() == 3
    rows = site_selectors.league_ladder_rows(league=league)
    for row in rows:
        assert sum(row.placements) == row.entry.games == 3
        expected = sum((i + 1) * n for i, n in enumerate(row.placements)) / 3
        assert row.mean_rank == pytest.approx(expected)
        assert row.provisional  # 3 games: OpenSkill sigma is still high
        assert row.interval[0] < row.entry.openskill_mu < row.interval[1]
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert ">1st</abbr>" in html and ">3rd</abbr>" in html and "Mean rank" in html
    assert 'title="wins">W<' not in html
    assert "provisional" in html and "Conservative" in html and "Skill interval" in html


def test_two_seat_ladder_shows_wins_draws_losses(played_league, client) -> None:
    league = played_league(seats=2, entrants=2, name="Duel cup")
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'title="wins">W<' in html and "Mean rank" not in html


def test_solo_ladder_shows_the_margin_over_the_sister(played_league, client) -> None:
    league = played_league(seats=1, entrants=2, name="Sister cup")
    rows = site_selectors.league_ladder_rows(league=league)
    assert all(row.entry.games > 0 for row in rows)
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Mean margin" in html and "Mean score" in html and "beat the sister player" in html
    for row in rows:
        entry = row.entry
        assert entry.mean_margin == pytest.approx(entry.margin_sum / entry.games)
        ladder = html.split('id="ladder-title"')[1]  # (the podium above names them too)
        after_name = ladder.split(f">{entry.bot_version.bot.name} v1<")[1]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", after_name)
        sign = "+" if entry.mean_margin > 0 else ""
        assert cells[5:7] == [f"{entry.mean_score:.1f}", f"{sign}{entry.mean_margin:.1f}"]
    # nobody meets anybody in solo: no head-to-head table; match rows say who won, not "2nd"
    assert "Head to head" not in html and "(2nd)" not in html and "(1st)" not in html
    matches = list(league.matches.all())
    outcomes = {"(won)" if m.result["won"] else "(sister won)" for m in matches}
    assert all(o in html for o in outcomes)
    match = matches[0]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    sister, margin = match.result["sister"]["total"], match.result["margin"]
    assert f"The sister (medium) scored {sister:g}: margin {'+' if margin > 0 else ''}{margin:g}" \
        in page
    assert ">won<" in page if match.result["won"] else ">sister won<" in page


def test_head_to_head_table_on_the_league_page(played_league, client) -> None:
    league = played_league(seats=3, entrants=3)
    rows = client.get(f"/leagues/{league.pk}/").context["h2h_rows"]
    assert len(rows) == 3
    for i, (_entry, cells) in enumerate(rows):
        assert cells[i] is None
        for j, rec in enumerate(cells):
            if rec is not None:
                back = rows[j][1][i]
                assert (rec.wins, rec.draws, rec.losses) == (back.losses, back.draws, back.wins)
                assert rec.games == 3  # three entrants, three seats: they meet in every match
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Head to head" in html and html.count('scope="row"') >= 3


def test_rating_chart_has_axes_legend_and_distinct_colours(played_league, client) -> None:
    league = played_league(seats=3, entrants=3)
    html = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Rated matches played in the league" in html and "Elo rating" in html
    assert html.count("<polyline") == 3 and 'class="legend"' in html
    bot = league.entries.first().bot_version.bot
    # a league's chart: one distinct colour per entrant, from the palette (website/colours.py),
    # each line in the colour of its bot's dot in the ladder
    assert len({c for c in PALETTE if f"stroke: {c}" in html}) == 3
    for entry in league.entries.all():
        bot_id = entry.bot_version.bot_id
        dot = re.search(rf'href="/bots/{bot_id}/"><span class="dot" style="--c: ([^"]+)"', html)
        assert dot and f'stroke: {dot.group(1)}" data-bot="{bot_id}"' in html
    bot_page = client.get(f"/bots/{bot.pk}/").content.decode()
    own = re.search(r'<h1><span class="dot" style="--c: ([^"]+)"', bot_page).group(1)
    assert f"stroke: {own}" in bot_page and "Games played in the league" in bot_page


def test_league_matches_filter_by_bot_status_round_and_page(
    played_league, client, monkeypatch
) -> None:
    league = played_league(seats=2, entrants=4, name="Busy duel")  # 6 tables x 2 rotations
    assert league.matches.count() == 12
    url = f"/leagues/{league.pk}/"
    some_bot = league.entries.first().bot_version.bot
    by_bot = client.get(url, {"bot": some_bot.pk}).context["page"]
    assert len(by_bot.rows) == 6
    assert client.get(url, {"status": "failed"}).context["page"].rows == []
    assert len(client.get(url, {"round": 1}).context["page"].rows) == 12
    assert client.get(url, {"round": 2}).context["page"].rows == []
    assert client.get(url, {"round": "x"}).status_code == 404
    from website.views import common

    monkeypatch.setattr(common, "PER_PAGE", 5)
    newest = list(league.matches.order_by("-created_at", "-id").values_list("pk", flat=True))
    page = client.get(url, {"status": "finished", "page": 2})
    html = page.content.decode()
    assert page.context["page"].number == 2 and "page 2" in html
    assert [r.id for r in page.context["page"].rows] == newest[5:10]
    # older and newer by keyset, keeping the filters; no page counts the whole list
    assert f"?status=finished&amp;before={newest[9]}" in html
    assert f"?status=finished&amp;after={newest[5]}" in html
    seen, query = [], {"status": "finished"}
    while query is not None:
        shown = client.get(url, query).context["page"]
        seen += [r.id for r in shown.rows]
        query = None if shown.older_query is None else dict(
            p.split("=") for p in shown.older_query[1:].split("&")
        )
    assert seen == newest
    back = client.get(url, {"status": "finished", "after": newest[10]}).context["page"]
    assert [r.id for r in back.rows] == newest[5:10] and back.older_query and back.newer_query
    top = client.get(url, {"after": newest[2]}).context["page"]  # fewer than a page newer
    assert [r.id for r in top.rows] == newest[:5] and top.newer_query is None
    assert client.get(url, {"before": 999999}).status_code == 404


def test_bot_page_fault_rate_and_results_by_opponent(played_league, client) -> None:
    league = played_league(seats=2, entrants=3, name="Faults")
    entry = league.entries.first()
    seat = MatchSeat.objects.filter(bot_version=entry.bot_version).first()
    seat.fault, seat.fault_detail = "timeout", "decision took 9 s"
    seat.save()  # by hand, past the result service that counts faults: count them again
    bot_seat_counts_rebuild()
    page = client.get(f"/bots/{entry.bot_version.bot_id}/")
    rate = page.context["fault_rate"]
    assert rate.seats == 4 and rate.faults == 1 and rate.percent == 25.0
    opponents = page.context["opponents"]
    assert len(opponents) == 2 and all(o.games == 2 for o in opponents)
    assert "25.0%" in page.content.decode()
    listing = client.get("/matches/", {"bot": entry.bot_version.bot_id})
    assert len(listing.context["page"].rows) == 4  # 2 opponents x 2 seat orders
    assert entry.bot_version.bot.name in _title(listing.content.decode())


def test_fault_details_and_stderr_only_for_owner_and_staff(
    played_league, client, make_user, author
) -> None:
    league = played_league(seats=2, entrants=2, name="Secrets")
    match = league.matches.first()
    seat = match.seats.get(seat=0)
    seat.fault, seat.fault_detail, seat.log = "crash", "SECRET-DETAIL", "SECRET-STDERR"
    seat.save()
    url = f"/matches/{match.pk}/"
    public = client.get(url).content.decode()
    assert "crash" in public and "SECRET" not in public
    client.force_login(make_user("mallory"))
    assert "SECRET" not in client.get(url).content.decode()
    for viewer in (author, make_user("staffer", is_staff=True)):
        client.force_login(viewer)
        html = client.get(url).content.decode()
        assert "SECRET-DETAIL" in html and "SECRET-STDERR" in html


def test_match_page_embeds_the_viewer_and_download(played_league, client) -> None:
    league = played_league(seats=3, entrants=3)
    match = league.matches.first()
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-frames-url="/api/v1/matches/{match.pk}/frames' in html
    assert f"/api/v1/matches/{match.pk}/replay" in html and "Time used" in html
    assert 'id="viewer"' in html and "replays/viewer.css" in html and "1st" in html
    assert "data-match-poll" not in html  # finished: nothing to follow


def test_queued_match_page_follows_until_it_ends(author, client) -> None:
    a, b = builtin_copy(author, "q1"), builtin_copy(author, "q2")
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=1)
    MatchSeat.objects.create(match=match, seat=0, bot_version=a)
    MatchSeat.objects.create(match=match, seat=1, bot_version=b)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-match-poll="/api/v1/matches/{match.pk}/"' in html and "queued" in html
    assert 'id="viewer"' in html and "is-live" in html  # the viewer follows it live


def test_old_addresses_still_work(played_league, client) -> None:
    from django.urls import reverse

    league = played_league(seats=2, entrants=2, name="Old")
    assert reverse("replays:league", args=[league.pk]) == f"/leagues/{league.pk}/"
    assert client.get(f"/replays/{league.matches.first().pk}/").status_code == 200


def test_styled_errors_for_pages_json_for_the_api(client, author) -> None:
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and b"404" in page.content and b"Leagues" in page.content
    assert page["Content-Type"].startswith("text/html")
    api = client.get("/api/v1/no-such-endpoint/")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"
    client.force_login(author)
    denied = client.get("/leagues/new/")
    assert denied.status_code == 403 and b"Only organisers" in denied.content
    from django.test import RequestFactory

    from tournament.api.exceptions import server_error

    crashed = server_error(RequestFactory().get("/leagues/"))
    assert crashed.status_code == 500 and b"something broke" in crashed.content
    assert server_error(RequestFactory().get("/api/v1/x")).status_code == 500


def test_a_page_asked_with_the_wrong_method_gets_the_styled_405(client, organiser) -> None:
    """A form's target opened as a page: the site's 405 page, with the Allow header and a way
    back, never an empty body. The API keeps its JSON error body."""
    client.force_login(organiser)
    for path, back in (("/leagues/1/invite/", "/leagues/1/"), ("/bots/1/retire/", "/bots/1/")):
        page = client.get(path)
        assert page.status_code == 405 and page["Allow"] == "POST", path
        assert page["Content-Type"].startswith("text/html")
        text = page.content.decode()
        assert "405" in text and "it does nothing when opened as a page" in text
        assert f'href="{back}"' in text and "Log out" in text  # the site's menu, with the user
    put = client.put("/accounts/logout/")
    assert put.status_code == 405 and b"does not take a PUT request; it takes GET, POST" in (
        put.content
    )
    api = client.delete("/api/v1/leagues/")
    assert api.status_code == 405 and api.json()["error"]["code"] == "method_not_allowed"
    script = client.get("/leagues/1/invite/", HTTP_ACCEPT="application/json")
    assert script.status_code == 405 and script.content == b""  # a script gets no page


def test_logout_by_get_shows_a_button_and_logs_out_only_by_post(client, author) -> None:
    client.force_login(author)
    page = client.get("/accounts/logout/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "You are logged in as <strong>alice</strong>" in text
    assert 'action="/accounts/logout/"' in text and ">Log out</button>" in text
    assert client.get("/dashboard/").status_code == 200  # the GET logged nobody out
    done = client.post("/accounts/logout/")
    assert done.status_code == 302
    assert client.get("/dashboard/").status_code == 302
    anonymous = client.get("/accounts/logout/").content.decode()
    assert "You are not logged in" in anonymous


def test_signup_logs_in_and_goes_where_the_user_came_from(client, db) -> None:
    form = {"username": "newbie", "email": "n@example.com", "password1": PASSWORD,
            "password2": PASSWORD}  # fmt: skip
    response = client.post("/accounts/signup/", form)
    assert response.status_code == 302 and response["Location"] == "/dashboard/"
    assert client.get("/dashboard/").status_code == 200
    client.post("/accounts/logout/")
    again = client.post("/accounts/signup/", {**form, "email": "x@example.com"})
    assert again.status_code == 200 and b"This username is taken." in again.content
    form["username"] = "second"
    nxt = client.post("/accounts/signup/?next=/challenge/", {**form, "next": "/challenge/"})
    assert nxt["Location"] == "/challenge/"
    client.post("/accounts/logout/")
    evil = client.post("/accounts/signup/", {**form, "username": "third",
                                             "next": "https://evil.example/"})  # fmt: skip
    assert evil["Location"] == "/dashboard/"


def test_login_goes_back_or_to_the_dashboard(client, author) -> None:
    assert client.get("/dashboard/")["Location"].startswith("/accounts/login/?next=/dashboard/")
    done = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert done["Location"] == "/dashboard/"
    client.post("/accounts/logout/")
    back = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD,
                                            "next": "/leagues/"})  # fmt: skip
    assert back["Location"] == "/leagues/"


def test_password_change_and_reset(client, author, mailoutbox) -> None:
    client.force_login(author)
    changed = client.post("/accounts/password/change/", {
        "old_password": PASSWORD, "new_password1": "an0ther-Secret", "new_password2":
        "an0ther-Secret"})  # fmt: skip
    assert changed["Location"] == "/accounts/password/change/done/"
    client.post("/accounts/logout/")
    sent = client.post("/accounts/password/reset/", {"email": author.email})
    assert sent["Location"] == "/accounts/password/reset/sent/"
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(\S+)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"Choose a new password" in form.content
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "th1rd-Secret!",
                                                    "new_password2": "th1rd-Secret!"})
    assert done["Location"] == "/accounts/password/reset/complete/"
    assert client.login(username="alice", password="th1rd-Secret!")


def test_account_page_shows_and_regenerates_the_token(client, author) -> None:
    client.force_login(author)
    first = client.get("/accounts/").context["token"]
    html = client.get("/accounts/").content.decode()
    assert first in html and "/api/docs/" in html and "/docs/protocol/" in html
    client.post("/accounts/token/")
    second = client.get("/accounts/").context["token"]
    assert second != first
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert api.get("/api/v1/accounts/me/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert api.get("/api/v1/accounts/me/").json()["username"] == "alice"


def test_dashboard_lists_bots_versions_ratings_and_faults(played_league, client, author) -> None:
    league = played_league(seats=2, entrants=2, name="Dash")
    seat = MatchSeat.objects.filter(match__league=league).first()
    seat.fault, seat.fault_detail = "illegal", "played a bad move"
    seat.save()
    client.force_login(author)
    html = client.get("/dashboard/").content.decode()
    assert "Dash-bot0" in html and "Dash-bot1" in html and "Dash</a> v1" in html
    assert "illegal" in html and "played a bad move" in html


def _entry_count(league: League) -> int:
    return league.entries.count()


def test_organiser_creates_invites_starts_pauses_closes(client, organiser, author) -> None:
    client.force_login(organiser)
    form = client.get("/leagues/new/").content.decode()
    for word in ("Rules every match", "Bots per match", "Swiss only", "Round robin only",
                 "time bank", "Private: only the users"):  # fmt: skip
        assert word.lower() in form.lower(), word
    bad = client.post("/leagues/new/", {"name": "Bad", "mode": "standard", "seats": 4,
                                        "format": "single_elim", "rounds": 3, "seeds": 1,
                                        "decision_time_limit": 1, "time_bank": 30,
                                        "ladder_order": "elo"})  # fmt: skip
    assert bad.status_code == 200 and b"2-seat modes" in bad.content
    # the Duel fixes its seats: a stale 3 is taken as 2, never refused
    duel = client.post("/leagues/new/", {"name": "Fixed", "mode": "duel", "seats": 3,
                                         "format": "ladder", "rounds": 3, "seeds": 1,
                                         "decision_time_limit": 1, "time_bank": 30,
                                         "ladder_order": "elo"})  # fmt: skip
    assert duel.status_code == 302 and League.objects.get(name="Fixed").seats == 2
    made = client.post("/leagues/new/", {
        "name": "Autumn", "mode": "duel", "seats": 2, "format": "ladder", "rounds": 3,
        "seeds": 1, "decision_time_limit": 1, "time_bank": 30,
        "ladder_order": "conservative"})  # fmt: skip
    league = League.objects.get(name="Autumn")
    assert league.ladder_order == "conservative"
    assert made["Location"] == f"/leagues/{league.pk}/" and not league.public
    client.post(f"/leagues/{league.pk}/invite/", {"username": "alice"})
    assert league.invitations.filter(user=author).exists()
    draft = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Start the league" in draft and "it needs 2 entrants" in draft
    start = client.post(f"/leagues/{league.pk}/start/", follow=True)
    assert b"needs more entrants" in start.content  # a clear message, no 500
    for i in range(2):
        version = builtin_copy(author, f"autumn{i}")
        client.force_login(author)
        client.post("/entries/", {"league": league.pk, "bot": version.bot_id})
    assert _entry_count(league) == 2
    client.force_login(organiser)
    client.post(f"/leagues/{league.pk}/start/")
    league.refresh_from_db()
    assert league.status == "running"
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Pause" in page and "queued" in page
    client.post(f"/leagues/{league.pk}/order/", {"ladder_order": "elo"})
    league.refresh_from_db()
    assert league.ladder_order == "elo"
    client.post(f"/leagues/{league.pk}/pause/")
    league.refresh_from_db()
    assert league.status == "paused"
    paused = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Resume" in paused and "Close for good" in paused and ">Pause<" not in paused
    # Closing for good has a page of its own, and acts only with its box ticked.
    confirm = client.get(f"/leagues/{league.pk}/close/")
    assert confirm.status_code == 200
    assert b'name="confirm"' in confirm.content and b"required" in confirm.content
    unticked = client.post(f"/leagues/{league.pk}/close/")
    assert unticked.status_code == 400 and b"Tick the box" in unticked.content
    league.refresh_from_db()
    assert league.status == "paused"
    client.post(f"/leagues/{league.pk}/close/", {"confirm": "closed-for-good"})
    league.refresh_from_db()
    assert league.status == "closed"
    # A closed league's organiser panel explains it, and offers no button that would do nothing.
    closed = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "closed for good: it schedules no more matches" in closed
    for gone in ("Close for good", "Resume", "Start the league", "Invite a user"):
        assert gone not in closed, gone
    client.force_login(author)
    client.post(f"/leagues/{league.pk}/start/")  # not theirs: refused with a message
    league.refresh_from_db()
    assert league.status == "closed"


def test_private_league_entry_needs_an_invitation(client, organiser, author) -> None:
    from tournament.services.leagues import league_create

    league = league_create(organiser=organiser, name="Hidden", mode="duel", seats=2,
                           format="ladder", public=False)  # fmt: skip
    version = builtin_copy(author, "hopeful")
    client.force_login(author)
    assert client.get(f"/leagues/{league.pk}/").status_code == 404
    assert client.post("/entries/", {"league": league.pk, "bot": version.bot_id}).status_code == 404
    league.invitations.create(user=author, invited_by=organiser)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Enter one of your bots" in page
    client.post("/entries/", {"league": league.pk, "bot": version.bot_id})
    assert league.entries.count() == 1


def test_author_creates_uploads_sees_status_and_retires(client, author, settings) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(author)
    created = client.post("/bots/new/", {"name": "whiskers", "description": "mine"})
    bot_url = created["Location"]
    assert re.fullmatch(r"/bots/\d+/", bot_url)
    assert b"Drop your bot here" in client.get(bot_url).content
    upload = bot_url + "upload/"
    bad = client.post(upload, {"file": SimpleUploadedFile("bot.txt", b"x")},
                      HTTP_ACCEPT="application/json")  # fmt: skip
    assert bad.status_code == 400 and "bundle" in bad.json()["error"].lower()
    ok = client.post(upload, {"file": SimpleUploadedFile("bot.py", b"print('hi')\n")},
                     HTTP_ACCEPT="application/json")  # fmt: skip
    assert ok.status_code == 201, ok.content
    version_url = ok.json()["url"]
    status = client.get(version_url.rstrip("/") + "/status/")
    assert status.status_code == 200 and status["Cache-Control"] == "no-store"
    assert b'data-status="pending"' in status.content or b"data-status=" in status.content
    second = client.post(upload, {"file": SimpleUploadedFile("bot.py", b"print(2)\n")})
    assert second.status_code == 302 and second["Location"].startswith("/versions/")
    client.post(bot_url + "retire/")
    assert b"retired" in client.get(bot_url).content
    refused = client.post(upload, {"file": SimpleUploadedFile("bot.py", b"print(3)\n")},
                          HTTP_ACCEPT="application/json")  # fmt: skip
    assert refused.status_code == 409


def test_version_log_only_for_its_owner(client, author, make_user) -> None:
    version = builtin_copy(author, "logger")
    version.status, version.failure_reason, version.log = "failed", "crash: boom", "TRACE-XYZ"
    version.save()
    url = f"/versions/{version.pk}/"
    assert b"TRACE-XYZ" not in client.get(url).content
    client.force_login(make_user("eve"))
    assert b"TRACE-XYZ" not in client.get(url).content
    client.force_login(author)
    html = client.get(url).content.decode()
    assert "TRACE-XYZ" in html and "crash: boom" in html


def test_version_page_shows_its_owner_what_to_do_next(client, author, make_user) -> None:
    """Ready: enter a league or challenge with it (the challenge form seated with it); failed:
    upload a fixed version. Only for the owner, on the page and in the polled status panel."""
    version = builtin_copy(author, "nextsteps")
    url = f"/versions/{version.pk}/"
    challenge = f'/challenge/?bot_version={version.pk}'
    client.force_login(author)
    for html in (client.get(url).content.decode(), client.get(url + "status/").content.decode()):
        assert "data-next-steps" in html and challenge in html
        assert f'href="/bots/{version.bot_id}/#manage-title"' in html  # its league entry form
    seated = client.get(challenge).content.decode()
    assert re.search(rf'<option value="{version.pk}" selected', seated), "seat 0 is the version"
    client.force_login(make_user("eve"))
    assert "data-next-steps" not in client.get(url).content.decode()
    version.status, version.failure_reason = "failed", "crash: boom"
    version.save()
    client.force_login(author)
    html = client.get(url).content.decode()
    assert "Upload a fixed version" in html and f'/bots/{version.bot_id}/#upload-title' in html
    assert challenge not in html


def test_compile_log_only_for_its_owner(client, author, make_user) -> None:
    version = builtin_copy(author, "compiled")
    version.status, version.failure_reason = "failed", "build failed: main.cpp:2:29: error: x"
    version.build_log = "$ g++ main.cpp\nmain.cpp:2:29: error: x\n  2 | SECRET-SOURCE-LINE"
    version.save()
    url = f"/versions/{version.pk}/"
    assert b"SECRET-SOURCE-LINE" not in client.get(url).content
    client.force_login(make_user("eve"))
    assert b"SECRET-SOURCE-LINE" not in client.get(url).content
    client.force_login(author)
    html = client.get(url).content.decode()
    assert "The compile log" in html and "SECRET-SOURCE-LINE" in html
    assert "build failed: main.cpp:2:29" in html


def test_challenge_form_plays_an_unrated_match(
    client, author, django_capture_on_commit_callbacks
) -> None:
    from tournament.services.bots import builtin_bots_register

    versions = builtin_bots_register()
    client.force_login(author)
    form = client.get(f"/challenge/?bot_version={versions['greedy'].pk}")
    assert form.status_code == 200 and b"Seat 0" in form.content
    gap = client.post("/challenge/", {"mode": "standard", "seat_0": versions["greedy"].pk,
                                      "seat_2": versions["random"].pk})  # fmt: skip
    assert gap.status_code == 200 and b"without gaps" in gap.content
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post("/challenge/", {"mode": "duel", "seat_0": versions["greedy"].pk,
                                           "seat_1": versions["random"].pk})  # fmt: skip
    match = Match.objects.get(kind=Match.Kind.CHALLENGE)
    assert made["Location"] == f"/matches/{match.pk}/"
    assert match.status == Match.Status.FINISHED and not match.rating_changes.exists()
    html = client.get(made["Location"]).content.decode()
    assert "unrated" in html and "data-frames-url" in html
