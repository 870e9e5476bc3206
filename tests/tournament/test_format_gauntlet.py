"""A new tournament format, defined here alone: registered, it is played to a podium through the
ordinary services and the REST API, like the built-in ones (tournament/formats/).

A gauntlet: one entrant, the champion (the first by entry order), meets every other entrant
once; the places go by wins, ties shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from competition.seeds import seed_from
from tests.tournament.conftest import client_for
from tournament import formats
from tournament.errors import Faults
from tournament.formats.base import Format, Place, create_league_match
from tournament.models import League, Match
from tournament.selectors.entries import scheduled_entries

pytestmark = pytest.mark.django_db


# --- the format -------------------------------------------------------------------------------


class Gauntlet(Format):
    """The champion plays each challenger once, all at the start; over when all are played."""

    key = "gauntlet"
    label = "Gauntlet"
    description = "Gauntlet — the first entrant meets every other entrant once"

    def settings_problems(
        self, *, organiser: Any, mode: str, seats: int, settings: dict[str, Any]
    ) -> Faults:
        faults = super().settings_problems(organiser=organiser, mode=mode, seats=seats,
                                           settings=settings)  # fmt: skip
        if seats != 2:
            faults.add("seats", "A gauntlet is for 2-seat modes.", "2 seats only")
        return faults

    def schedule(self, league: League) -> list[Match]:
        if league.current_round:
            return []
        league.current_round = 1
        league.save(update_fields=["current_round"])
        champion, *challengers = scheduled_entries(league).order_by("pk")
        return [
            create_league_match(league, (champion, challenger),
                                seed_from(league.base_seed, "gauntlet", challenger.pk), 1)
            for challenger in challengers
        ]  # fmt: skip

    def places(self, league: League) -> list[Place]:
        entries = list(league.entries.order_by("-wins", "pk"))
        out: list[Place] = []
        for i, entry in enumerate(entries, start=1):
            place = out[-1].place if out and entries[i - 2].wins == entry.wins else i
            out.append(Place(entry.pk, place, f"{entry.wins} of {entry.games} won",
                             {"wins": entry.wins, "games": entry.games}))  # fmt: skip
        return out


# --- playing it -------------------------------------------------------------------------------


@contextmanager
def registered(fmt: Format) -> Iterator[Format]:
    formats.register(fmt)
    try:
        yield fmt
    finally:
        formats.unregister(fmt.key)


def _create(client: Any, **fields: Any) -> Any:
    body = {"name": "Gauntlet cup", "mode": "duel", "seats": 2, "format": "gauntlet", **fields}
    return client.post("/api/v1/leagues/", body, format="json")


def test_a_registered_gauntlet_plays_to_a_podium_through_the_api(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    runner.scores = lambda spec: [float(s["name"][1:3]) for s in spec["seats"]]
    client = client_for(organiser)
    assert _create(client).status_code == 400  # not a format yet
    with registered(Gauntlet()):
        assert _create(client, seats=3, mode="standard").status_code == 400
        created = _create(client)
        assert created.status_code == 201, created.json()
        league = created.json()
        assert league["format"] == "gauntlet" and league["podium"] == []
        # the champion enters first; it beats two challengers and loses to the third
        for name in ["s30-champion", "s10", "s40", "s20"]:
            version = ready_version(organiser, name)
            entered = client.post(f"/api/v1/leagues/{league['id']}/entries/",
                                  {"bot_version": version.pk}, format="json")  # fmt: skip
            assert entered.status_code == 201, entered.json()
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(f"/api/v1/leagues/{league['id']}/start/").status_code == 200
        detail = client_for(None).get(f"/api/v1/leagues/{league['id']}/").json()
        matches = Match.objects.filter(league_id=league["id"])
        assert matches.count() == 3 and {m.status for m in matches} == {"finished"}
        assert detail["status"] == "closed"
        podium = [(p["place"], p["bot_name"], p["result"]) for p in detail["podium"]]
        assert podium == [(1, "s30-champion", "2 of 3 won"), (2, "s40", "1 of 1 won"),
                          (3, "s10", "0 of 1 won"), (3, "s20", "0 of 1 won")]  # fmt: skip
        assert League.objects.get(pk=league["id"]).get_format_display() == "Gauntlet"
    assert formats.find("gauntlet") is None
    assert _create(client, name="Later").status_code == 400  # unregistered again
