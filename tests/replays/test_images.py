"""The match pictures drawn on the server: /matches/N/step/K.png and /matches/N/summary.gif
(replayfile/images.py, replays/stored_images.py, replays/image_views.py)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from replayfile.format import decode
from replayfile.images import HEIGHT, WIDTH, simulate, summary_frames
from replays.storage import open_replay

pytestmark = pytest.mark.django_db


def _image(response) -> Image.Image:
    return Image.open(io.BytesIO(response.content))


def test_a_step_png_is_a_1200x630_picture_drawn_once(stored_match, client, replay_storage):
    from django.core.cache import cache

    match = stored_match("standard", seed=3, seats=4)
    first = client.get(f"/matches/{match.pk}/step/40.png")
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert first["X-Image-Cache"] == "miss"
    picture = _image(first)
    assert picture.format == "PNG" and picture.size == (WIDTH, HEIGHT)
    assert len(picture.getcolors(1 << 16) or ()) > 10  # boats and tiles, not a blank card
    again = client.get(f"/matches/{match.pk}/step/40.png")
    assert again["X-Image-Cache"] == "hit" and again.content == first.content
    stored = list(replay_storage.rglob("*.image-*step40.png"))
    assert len(stored) == 1  # beside the replay, so delete_replay takes it along
    cache.clear()  # another web process, or an evicted cache: read from storage, not drawn
    third = client.get(f"/matches/{match.pk}/step/40.png")
    assert third["X-Image-Cache"] == "hit" and third.content == first.content
    other = client.get(f"/matches/{match.pk}/step/41.png")
    assert other["X-Image-Cache"] == "miss" and other.content != first.content


def test_the_picture_key_holds_the_engine_version(monkeypatch):
    from replays import stored_images

    key = stored_images.image_key("ab" * 32, "step3")
    monkeypatch.setattr(stored_images, "ENGINE_VERSION", "9.9.9")
    assert stored_images.image_key("ab" * 32, "step3") != key
    assert "e9.9.9" in stored_images.image_key("ab" * 32, "step3")


def test_a_step_beyond_the_end_is_clamped_by_a_redirect(stored_match, client):
    match = stored_match("duel", seed=2)
    last = len(decode(open_replay(match.replay_name))["steps"])
    beyond = client.get(f"/matches/{match.pk}/step/{last + 500}.png")
    assert beyond.status_code == 302
    assert beyond["Location"] == f"/matches/{match.pk}/step/{last}.png"
    end = client.get(beyond["Location"])
    assert end.status_code == 200 and _image(end).size == (WIDTH, HEIGHT)
    assert client.get(f"/matches/{match.pk}/step/0.png").status_code == 200


def test_the_summary_gif_is_animated_and_cached(stored_match, client):
    match = stored_match("standard", seed=5, seats=4)
    first = client.get(f"/matches/{match.pk}/summary.gif")
    assert first.status_code == 200 and first["Content-Type"] == "image/gif"
    gif = _image(first)
    doc = decode(open_replay(match.replay_name))
    assert gif.format == "GIF" and gif.is_animated
    assert gif.n_frames == len(summary_frames(doc)) > 10
    assert gif.size == (800, 420)
    assert gif.info.get("loop") == 0
    again = client.get(f"/matches/{match.pk}/summary.gif")
    assert again["X-Image-Cache"] == "hit" and again.content == first.content


def test_the_pictures_show_public_facts_only(stored_match):
    """A snapshot holds boats, public scores, day, phase and whose turn: no hand, no private
    lesson, no bag. Mid-game scores leave the private lessons out (as the table sees them);
    the last step shows the recorded result."""
    match = stored_match("standard", seed=3, seats=4)
    doc = decode(open_replay(match.replay_name))
    last = len(doc["steps"])
    snaps, _layouts = simulate(doc, [last // 2, last])
    mid, end = snaps[last // 2], snaps[last]
    assert end.over and list(end.scores) == doc["result"]["scores"]
    assert not mid.over and mid.to_act
    for snap in (mid, end):
        for _layout, tiles in snap.boats:
            for tile in tiles:
                assert set(tile) <= {"id", "kind", "colour", "shape", "cells", "fish"}
    from engine import new_game
    from replayfile.format import expand_action

    game = new_game("standard", 4, doc["header"]["seed"], doc["header"].get("options") or {})
    for row in doc["steps"][: last // 2]:
        game.apply(row[0], expand_action(row[1], doc["header"]["actions"]))
    sheets = game.scores()
    assert list(mid.scores) == [s["total"] - s["private_lessons"] for s in sheets]


@pytest.mark.parametrize("mode", ["duel", "solo", "family"])
def test_every_mode_draws(stored_match, client, mode):
    match = stored_match(mode, seed=1)
    response = client.get(f"/matches/{match.pk}/step/10.png")
    assert response.status_code == 200 and _image(response).size == (WIDTH, HEIGHT)


def test_a_private_match_picture_is_a_404_to_others(stored_match, client, django_user_model):
    from tournament.models import League, Match
    from tournament.services.accounts import organiser_grant
    from tournament.services.leagues import league_create

    organiser = django_user_model.objects.create_user("org-images")
    organiser_grant(user=organiser)
    stranger = django_user_model.objects.create_user("stranger-images")
    league = league_create(organiser=organiser, name="Hidden pictures", mode="duel", seats=2,
                           format="ladder", public=False)  # fmt: skip
    match = stored_match("duel", seed=6)
    Match.objects.filter(pk=match.pk).update(league=league, kind=Match.Kind.LEAGUE)
    urls = [f"/matches/{match.pk}/step/5.png", f"/matches/{match.pk}/summary.gif",
            f"/matches/{match.pk}/step/99999.png"]
    for url in urls:
        assert client.get(url).status_code == 404, url  # anonymous
    client.force_login(stranger)
    for url in urls:
        assert client.get(url).status_code == 404, url  # signed in, not invited
    client.force_login(organiser)
    seen = client.get(urls[0])
    assert seen.status_code == 200 and seen["Cache-Control"].startswith("private")
    assert League.objects.get(pk=league.pk).public is False


def test_the_match_page_names_its_picture_as_og_image(stored_match, client):
    match = stored_match("standard", seed=3, seats=4)
    last = len(decode(open_replay(match.replay_name))["steps"])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    og = re.search(r'<meta property="og:image" content="([^"]+)">', page)
    assert og and og.group(1) == f"http://testserver/matches/{match.pk}/step/{last}.png"
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert f'content="http://testserver/matches/{match.pk}/step/{last}.png"' in page
    at_step = client.get(f"/matches/{match.pk}/?step=12").content.decode()
    assert f"/matches/{match.pk}/step/12.png" in at_step
    picture = client.get(og.group(1).removeprefix("http://testserver"))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"


def test_the_picture_and_the_viewer_say_what_their_scores_count(stored_match):
    """The step's picture counts the public scores (private lessons face down) and says so in
    words; the viewer's frames say what theirs count (the recorded game's spectator: private
    lessons counted; the live public view: not counted; a seat: its own). Where the picture and
    the spectator's viewer differ at a step, it is by the private lessons alone."""
    from replayfile.frames import FrameBuilder, build_frames, replay_start
    from replayfile.images import PUBLIC_SCORES_NOTE

    match = stored_match("standard", seed=3, seats=4)
    doc = decode(open_replay(match.replay_name))
    last = len(doc["steps"])
    snaps, _layouts = simulate(doc, [last // 2, last])
    assert snaps[last // 2].scores_note == PUBLIC_SCORES_NOTE
    assert snaps[last].scores_note == ""  # the recorded result: everything counted
    frames = build_frames(doc)
    assert frames["scores_count"] == "all"
    assert build_frames(doc, seat=1)["scores_count"] == "own"
    public = FrameBuilder(replay_start(doc), doc["header"], None, public=True)
    assert public.setup()["scores_count"] == "public"

    from engine import new_game
    from replayfile.format import expand_action

    game = new_game("standard", 4, doc["header"]["seed"], doc["header"].get("options") or {})
    for row in doc["steps"][: last // 2]:
        game.apply(row[0], expand_action(row[1], doc["header"]["actions"]))
    private = [s["private_lessons"] for s in game.scores()]
    viewer = frames["scores"][last // 2]
    picture = snaps[last // 2].scores
    assert [v - p for v, p in zip(viewer, picture, strict=True)] == private
