"""Who was winning: the analysis of a finished match (replayfile/win_chances.py), requested once,
run by a worker task, stored and never recomputed (tournament/services/analysis.py), served
by the API and drawn on the match page (website/_chances.html)."""

from __future__ import annotations

import re

import pytest

from replayfile.format import decode
from replayfile.win_chances import BLUNDER_FLOOR, analyse, blunders_of
from replays.storage import open_replay
from tournament.models import MatchAnalysis

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def few_playouts(settings):
    settings.ANALYSIS_PLAYOUTS = 3


def _doc(match):
    doc = decode(open_replay(match.replay_name))
    doc["result"] = match.result
    return doc


@pytest.mark.parametrize("mode", ["duel", "solo", "standard"])
def test_chances_sum_to_one_at_every_point(stored_match, mode):
    match = stored_match(mode, seed=4)
    doc = _doc(match)
    result = analyse(doc, playouts=2, seed=1)
    points = result["points"]
    assert points[0]["frame"] == 0 and points[-1]["final"]
    assert points[-1]["frame"] == len(doc["steps"])
    assert len(points) >= 4  # the start, the days' ends, the result
    frames = [p["frame"] for p in points]
    assert frames == sorted(frames) and len(set(frames)) == len(frames)
    for point in points:
        total = sum(point["chances"]) + point.get("sister", 0.0)
        assert total == pytest.approx(1.0, abs=1e-3), point
        for c, low, high in zip(point["chances"], point["low"], point["high"], strict=True):
            assert low <= c <= high
        assert all(0.0 <= c <= 1.0 for c in point["chances"])
        assert len(point["expected"]) == match.seats.count()
    assert points[-1]["expected"] == [float(s) for s in match.result["scores"]]
    if mode != "solo":
        winners = match.result["winners"]
        assert [s for s, c in enumerate(points[-1]["chances"]) if c > 0] == winners
    # the days' ends are where the day changes
    days = [p["day"] for p in points[:-1]]
    assert days == sorted(days) and len(set(days)) == len(days)


def test_blunders_are_the_largest_falls_beyond_their_intervals():
    points = [{"frame": 0, "day": 1, "chances": [0.5, 0.5], "low": [0.45, 0.45],
               "high": [0.55, 0.55]},
              {"frame": 10, "day": 2, "chances": [0.9, 0.1], "low": [0.86, 0.07],
               "high": [0.93, 0.14]},
              {"frame": 20, "day": 3, "chances": [0.8, 0.2], "low": [0.7, 0.1],
               "high": [0.9, 0.3]},  # a fall of 0.1 inside the intervals: noise
              {"frame": 30, "day": 3, "chances": [0.0, 1.0], "low": [0.0, 1.0],
               "high": [0.0, 1.0], "final": True}]
    found = blunders_of(points, ["a", "b"])
    assert [(b["seat"], b["frame"], b["drop"]) for b in found] == [(0, 30, 0.8), (1, 10, 0.4)]
    assert all(b["drop"] >= BLUNDER_FLOOR and b["margin"] > 0 for b in found)


def test_analysis_is_requested_stored_and_never_recomputed(stored_match, client, few_playouts,
                                                           django_user_model, monkeypatch):
    from replayfile import win_chances as pure
    from tournament.models import MatchAnalysis

    match = stored_match("duel", seed=3)
    url = f"/api/v1/matches/{match.pk}/analysis/"
    assert client.get(url).status_code == 404  # not analysed yet
    assert client.post(url).status_code in (401, 403)  # anonymous may not ask
    calls = []
    real = pure.analyse
    monkeypatch.setattr(pure, "analyse", lambda *a, **k: calls.append(1) or real(*a, **k))
    user = django_user_model.objects.create_user("analyst")
    client.force_login(user)
    first = client.post(url)
    assert first.status_code == 202, first.content
    body = first.json()
    assert body["status"] == "done" and body["playouts"] == 3 and calls == [1]
    assert body["points"] and body["engine_version"]
    again = client.post(url)  # a second request returns the stored one
    assert again.status_code == 200 and again.json() == body and calls == [1]
    other = django_user_model.objects.create_user("analyst-2")
    client.force_login(other)
    assert client.post(url).json() == body and calls == [1]
    assert client.get(url).json() == body
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    # a second delivery of the task recomputes nothing either
    from tournament.tasks import match_analyse_task

    row = MatchAnalysis.objects.get(match=match)
    assert match_analyse_task(row.pk) == "done" and calls == [1]


def test_analysis_requests_are_rate_limited(stored_match, client, settings, few_playouts,
                                            django_user_model):
    settings.ANALYSIS_PER_HOUR = 2
    matches = [stored_match("duel", seed=s) for s in (1, 2, 3)]
    client.force_login(django_user_model.objects.create_user("eager-analyst"))
    for m in matches[:2]:
        assert client.post(f"/api/v1/matches/{m.pk}/analysis/").status_code == 202
    refused = client.post(f"/api/v1/matches/{matches[2].pk}/analysis/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "You may request 2 match analyses per hour." in str(refused.json())
    # asking again for an analysed match is free
    assert client.post(f"/api/v1/matches/{matches[0].pk}/analysis/").status_code == 200


def test_an_unfinished_or_private_match_is_not_analysed(stored_match, client,
                                                        django_user_model):
    from tournament.models import Match
    from tournament.services.accounts import organiser_grant
    from tournament.services.leagues import league_create

    user = django_user_model.objects.create_user("curious")
    client.force_login(user)
    running = stored_match("duel", seed=5)
    Match.objects.filter(pk=running.pk).update(status=Match.Status.RUNNING)
    refused = client.post(f"/api/v1/matches/{running.pk}/analysis/")
    assert refused.status_code == 409 and "finished match" in str(refused.json())
    organiser = django_user_model.objects.create_user("org-analysis")
    organiser_grant(user=organiser)
    league = league_create(organiser=organiser, name="Hidden analysis", mode="duel", seats=2,
                           format="ladder", public=False)  # fmt: skip
    hidden = stored_match("duel", seed=6)
    Match.objects.filter(pk=hidden.pk).update(league=league, kind=Match.Kind.LEAGUE)
    assert client.post(f"/api/v1/matches/{hidden.pk}/analysis/").status_code == 404
    assert client.get(f"/api/v1/matches/{hidden.pk}/analysis/").status_code == 404
    assert client.post(f"/matches/{hidden.pk}/analysis/").status_code == 404


def test_the_match_page_requests_and_draws_the_chances(stored_match, client, few_playouts,
                                                       django_user_model):
    match = stored_match("standard", seed=2, seats=4)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Who was winning" in page and "Log in</a> to request a computer analysis" in page
    client.force_login(django_user_model.objects.create_user("page-analyst"))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'action="/matches/{match.pk}/analysis/"' in page and "Request analysis" in page
    posted = client.post(f"/matches/{match.pk}/analysis/")
    assert posted.status_code == 302 and posted["Location"].endswith("#chances")
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Request analysis" not in page
    chart = page[page.index('id="chances"'):]
    assert chart.count("<polyline") == 4  # one line per seat
    assert "Chance of winning at each day&#x27;s end" in chart or "each day's end" in chart
    rows = re.findall(r'<th scope="row">([^<]+)</th>', chart)
    assert rows[0] == "start" and rows[-1] == "result" and "end of day 1" in rows
    for frame in re.findall(r'class="blunder-mark"', chart):
        assert frame
    for link in re.findall(rf'href="/matches/{match.pk}/\?step=(\d+)"', chart):
        assert 0 <= int(link) <= len(decode(open_replay(match.replay_name))["steps"])


def test_the_analysis_texts_say_what_is_played_and_wait_in_place(stored_match, client,
                                                                  few_playouts):
    """The offer says the true number of playouts; a queued analysis says so and carries the
    API address the page's script polls (no "reload in a minute"); the Duel's points and
    blunders are told by day, the viewer's word."""
    match = stored_match("duel", seed=3, seats=2)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "from there 3 times with random moves" in page and "many times" not in page
    row = MatchAnalysis.objects.create(match=match, playouts=3)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-analysis-poll="/api/v1/matches/{match.pk}/analysis/"' in page
    assert "updates by itself" in page and "Reload this page in a minute" not in page
    assert client.get(f"/api/v1/matches/{match.pk}/analysis/").json()["status"] == row.status
    row.delete()
    client.force_login(match.seats.first().bot_version.bot.owner)
    client.post(f"/matches/{match.pk}/analysis/")
    chart = client.get(f"/matches/{match.pk}/").content.decode()
    chart = chart[chart.index('id="chances"'):]
    rows = re.findall(r'<th scope="row">([^<]+)</th>', chart)
    assert "end of day 1" in rows and not any("round" in r for r in rows)
