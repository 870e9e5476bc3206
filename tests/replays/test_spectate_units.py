"""What a spectator sees, unit by unit: every narrated step and event is a sentence (no
`key=value` left), chart colours stay distinct for 8 bots, a queued match's place, the featured
match."""

from __future__ import annotations

import itertools

import pytest

from engine import available_modes, mode_class
from replayfile.format import document_from_game
from replayfile.frames import build_frames
from replayfile.recording import header_for_bots, play_recorded
from website.colours import PALETTE, PageColours


@pytest.mark.parametrize("mode", [m for m in available_modes() if m != "toy"])
def test_no_narration_line_reads_like_a_debugger(mode):
    seats = mode_class(mode).game_type.max_seats
    for seed in range(3):
        game, steps = play_recorded(mode, seats, seed)
        doc = document_from_game(game, steps, header_for_bots(seats))
        for seat in (None, *range(seats)):
            frames = build_frames(doc, seat)
            lines = [s["say"] for s in frames["steps"]]
            lines += [e["say"] for events in frames["events"] for e in events if e.get("say")]
            assert lines and all(line and "=" not in line for line in lines), mode


def _lab(colour: str) -> tuple[float, float, float]:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _contrast_on_white(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_eight_bots_of_one_chart_get_eight_distinct_readable_colours():
    # ids that the id-derived hue puts on neighbouring hues (two of them nearly the same green)
    ids = [3, 24, 45, 11, 32, 7, 19, 40]
    page = PageColours()
    colours = {key: page(key) for key in ids}
    assert len(set(colours.values())) == 8
    for a, b in itertools.combinations(colours.values(), 2):
        distance = sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5
        assert distance >= 25, (a, b, distance)  # CIE76 ΔE: told apart at a glance
    assert all(_contrast_on_white(c) >= 4.5 for c in PALETTE)
    again = PageColours()
    assert {key: again(key) for key in ids} == colours  # the same order gives the same colours


@pytest.mark.django_db
def test_a_queued_matchs_place_and_the_featured_match():
    from django.contrib.auth import get_user_model

    from tournament.models import Bot, BotVersion, League, LeagueEntry, Match, MatchSeat
    from tournament.selectors.spectators import featured_match, queue_place

    owner = get_user_model().objects.create_user("o")
    versions = [BotVersion.objects.create(bot=Bot.objects.create(name=f"b{i}", owner=owner),
                                          number=1, status=BotVersion.Status.READY)
                for i in range(4)]
    league = League.objects.create(name="L", organiser=owner, mode="standard", seats=2,
                                   format="ladder", status="running")
    for v, rating in zip(versions, (1500, 1510, 1300, 1800), strict=True):
        LeagueEntry.objects.create(league=league, bot_version=v, rating=rating)

    def match(status, pair, **kw):
        m = Match.objects.create(kind=Match.Kind.LEAGUE, league=league, mode="standard",
                                 seed=1, status=status, **kw)
        for s, v in enumerate(pair):
            MatchSeat.objects.create(match=m, seat=s, bot_version=versions[v])
        return m

    first = match("queued", (0, 1), queued_at="2026-01-01T10:00:00Z")
    second = match("queued", (2, 3), queued_at="2026-01-01T10:00:09Z")
    assert (queue_place(first), queue_place(second)) == (1, 2)
    assert featured_match(user=None) is None
    wide = match("running", (2, 3))  # 500 apart
    close = match("running", (0, 1))  # 10 apart
    assert featured_match(user=None) == close
    assert queue_place(close) is None and wide.pk


def test_solo_frames_carry_the_sisters_score_for_her_chart_line():
    game, steps = play_recorded("solo", 1, 9)
    frames = build_frames(document_from_game(game, steps, header_for_bots(1)))
    sister = frames["sister_scores"]
    assert len(sister) == len(frames["scores"])
    assert sister[-1] == frames["result"]["sister"]["total"]  # her line ends at her result
    standard_game, standard_steps = play_recorded("standard", 2, 9)
    assert build_frames(document_from_game(standard_game, standard_steps,
                                           header_for_bots(2)))["sister_scores"] is None


@pytest.mark.django_db
def test_the_marks_endpoint_shows_a_seats_marks_to_its_owner_only(client):
    from django.contrib.auth import get_user_model

    from tournament.models import Bot, BotVersion, League, Match, MatchSeat
    from tournament.services.marks import marks_store

    users = get_user_model().objects
    owner, other = users.create_user("owner"), users.create_user("other")
    versions = [BotVersion.objects.create(bot=Bot.objects.create(name=n, owner=u), number=1,
                                          status=BotVersion.Status.READY)
                for n, u in (("mine", owner), ("theirs", other))]
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="standard", seed=1,
                                 status="finished")
    for s, v in enumerate(versions):
        MatchSeat.objects.create(match=match, seat=s, bot_version=v)
    mark = {"cells": [[1, 1]], "label": "x", "colour": "red"}
    assert marks_store(match_id=match.pk, actions=[
        {"step": 0, "seat": 0, "marks": [mark]}, {"step": 1, "seat": 1, "marks": [mark]},
        {"step": 2, "seat": 0}]) == 2
    url = f"/api/v1/matches/{match.pk}/marks"
    assert client.get(url).json() == {"seats": {}}
    client.force_login(owner)
    assert client.get(url).json() == {"seats": {"0": [[0, [mark]]]}}
    client.force_login(other)
    assert client.get(url).json() == {"seats": {"1": [[1, [mark]]]}}
    client.logout()
    league = League.objects.create(name="Open", organiser=other, mode="standard", seats=2,
                                   format="ladder", marks_public=True)
    Match.objects.filter(pk=match.pk).update(league=league)
    assert set(client.get(url).json()["seats"]) == {"0", "1"}
