"""Fixtures of the replay tests: the ``toy`` mode and recorded games of every mode."""

from __future__ import annotations

import pytest

from engine import available_modes, mode_class
from engine.modes import MODES

TOY = "tests.replays.toy_mode:ToyGame"


@pytest.fixture
def toy_mode(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only ``toy`` mode for one test."""
    monkeypatch.setitem(MODES, "toy", TOY)
    return "toy"


def real_modes() -> list[str]:
    """Every mode of the engine (a mode that fails to import fails the tests, loudly)."""
    return [m for m in available_modes() if m != "toy"]


def _class_of(mode: str) -> type:
    if mode == "toy":
        from tests.replays.toy_mode import ToyGame

        return ToyGame
    return mode_class(mode)


def max_seats(mode: str) -> int:
    return _class_of(mode).game_type.max_seats


def mode_views(seats: tuple[int | None, ...] = (None, 0, 1)) -> list[tuple[str, int | None]]:
    """(mode, seat) pairs of every mode with the seats it has (None: the spectator), for
    parametrizing with ``indirect=["any_mode"]``."""
    return [(mode, seat) for mode in ["toy", *real_modes()] for seat in seats
            if seat is None or seat < max_seats(mode)]  # fmt: skip


def scoring_modes() -> list[str]:
    """The modes whose frames carry running scores (their game keeps ``scores``)."""
    return [m for m in ["toy", *real_modes()] if callable(getattr(_class_of(m), "scores", None))]


@pytest.fixture(params=["toy", *real_modes()])
def any_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every mode in ``engine.available_modes()`` plus the toy mode."""
    monkeypatch.setitem(MODES, "toy", TOY)
    return request.param


@pytest.fixture
def record():
    """``record(mode, seed, seats=None)`` -> (game, steps, replay bytes) of a random game."""
    from replayfile.format import document_from_game, encode
    from replayfile.recording import header_for_bots, play_recorded

    def _record(mode: str, seed: int = 7, seats: int | None = None):
        n = seats or max_seats(mode)
        game, steps = play_recorded(mode, n, seed)
        data = encode(document_from_game(game, steps, header_for_bots(n)))
        return game, steps, data

    return _record


@pytest.fixture
def replay_storage(settings, tmp_path):
    """The ``replays`` storage under tmp_path, and an empty cache (frames are cached)."""
    from django.core.cache import cache

    settings.STORAGES = {
        **settings.STORAGES,
        "replays": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "replays")},
        },
    }
    cache.clear()
    return tmp_path / "replays"


@pytest.fixture
def stored_match(db, replay_storage, record):
    """``stored_match(mode, seed=7, seats=None)`` -> a finished Match row with its replay saved
    through ``replays.storage.save_replay``, as the match-recording service does."""
    from django.contrib.auth import get_user_model

    from replays.storage import save_replay
    from tournament.models import Bot, BotVersion, Match, MatchSeat

    owner = get_user_model().objects.create_user("replay-owner")
    version = BotVersion.objects.create(
        bot=Bot.objects.create(name="random", owner=owner, is_system=True), number=1,
        builtin="random", status=BotVersion.Status.READY,
    )

    def _make(mode: str, seed: int = 7, seats: int | None = None) -> Match:
        game, _steps, data = record(mode, seed, seats)
        result = game.result()
        match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode=mode, seed=seed,
                                     status=Match.Status.FINISHED, result=result)
        name, sha, size = save_replay(match_id=match.pk, data=data)
        Match.objects.filter(pk=match.pk).update(replay_name=name, replay_sha256=sha,
                                                 replay_size=size)
        for s in range(game.seats):
            MatchSeat.objects.create(match=match, seat=s, bot_version=version,
                                     score=result["scores"][s], rank=result["ranks"][s])
        match.refresh_from_db()
        return match

    return _make
