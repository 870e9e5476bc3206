"""A season on the site: the ladder links its playoff before and after its close, the playoff's
page says whose playoff it is and offers neither Start nor Enter (its ladder fills it), the
default seeding of a playoff is the ladder's final order, and each format's page shows its
own controls only (no ladder order, Elo table or chart on a bracket; no entry form nor Remove
on a league that runs, a ladder's entry form kept)."""

from __future__ import annotations

import pytest
from django.test import Client

from tournament.errors import Conflict
from tournament.models import Bracket, League
from tournament.services import brackets as bs
from tournament.services import events as es
from tournament.services import leagues as ls

from .conftest import builtin_copy

pytestmark = pytest.mark.django_db


def _season(organiser) -> tuple[League, League]:
    ladder = ls.league_create(organiser=organiser, name="Spring ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    playoff = bs.bracket_league_create(
        organiser=organiser, name="Spring playoff", mode="duel", seats=2, format="single_elim",
        playoff_of=ladder.pk, playoff_top=4,
    )  # fmt: skip
    return ladder, playoff


def test_a_playoff_is_seeded_by_its_ladder_by_default(organiser) -> None:
    _, playoff = _season(organiser)
    assert playoff.bracket.seeding == Bracket.Seeding.STANDINGS
    plain = bs.bracket_league_create(organiser=organiser, name="Open cup", mode="duel",
                                     seats=2, format="single_elim")  # fmt: skip
    assert plain.bracket.seeding == Bracket.Seeding.RATINGS


def test_the_season_is_linked_both_ways(client: Client, organiser, author) -> None:
    ladder, playoff = _season(organiser)
    client.force_login(organiser)
    page = client.get(f"/leagues/{ladder.pk}/").content.decode()
    assert f'href="/leagues/{playoff.pk}/">Spring playoff</a>' in page
    own = client.get(f"/leagues/{playoff.pk}/").content.decode()
    assert f'The playoff of <a href="/leagues/{ladder.pk}/">Spring ladder</a>' in own
    assert "seeded by its final order" in own
    # a draft playoff is filled by its ladder: no Start, no entry forms, nothing to remove
    assert f"/leagues/{playoff.pk}/start/" not in own
    assert "Start the league" not in own and "Add the entry" not in own
    assert 'id="enter-bot"' not in own
    version = builtin_copy(author, "hopeful")
    with pytest.raises(Conflict, match="filled by Spring ladder"):
        ls.league_entry_add(league=playoff, user=author, bot_id=version.bot_id)
    with pytest.raises(Conflict, match="filled by Spring ladder"):
        ls.league_start(league=playoff, user=organiser)
    # the author's enter form lists the ladder but not the playoff
    client.force_login(author)
    assert 'id="enter-bot"' not in client.get(f"/leagues/{playoff.pk}/").content.decode()
    assert 'id="enter-bot"' in client.get(f"/leagues/{ladder.pk}/").content.decode()
    # closed (with too few to start the playoff), the ladder still links it
    ls.league_close(league=ladder, user=organiser)
    client.force_login(organiser)
    closed = client.get(f"/leagues/{ladder.pk}/").content.decode()
    assert f'href="/leagues/{playoff.pk}/">Spring playoff</a>' in closed
    after = client.get(f"/leagues/{playoff.pk}/").content.decode()
    assert "its top 4 entered" in after
    assert "Start the league" in after  # left a draft: now the organiser's to fill by hand


def test_a_bracket_shows_its_own_controls_only(client: Client, organiser, author) -> None:
    league = bs.bracket_league_create(organiser=organiser, name="Duel cup", mode="duel",
                                      seats=2, format="single_elim", seeding="random")  # fmt: skip
    for i in range(4):
        version = builtin_copy(author, f"cup-{i}")
        ls.league_entry_add(league=league, user=author, bot_id=version.bot_id)
    client.force_login(organiser)
    draft = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Order the ladder by" not in draft and 'id="ladder-title"' not in draft
    assert "Rating history" not in draft and ">Entrants</h2>" in draft
    assert "Invite a user" not in draft  # public: anyone may enter already
    assert "Add the entry" in draft and ">Remove</button>" in draft  # a draft takes entries
    ls.league_start(league=league, user=organiser)
    running = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Add the entry" not in running and ">Remove</button>" not in running
    entry = league.entries.first()
    with pytest.raises(Conflict, match="knocked out"):
        es.league_entry_remove(league=league, user=organiser, entry_id=entry.pk)


def test_a_running_ladder_keeps_its_entries_and_a_private_league_its_invite(
    client: Client, organiser, author
) -> None:
    ladder = ls.league_create(organiser=organiser, name="Open ladder", mode="duel", seats=2,
                              format="ladder", public=False)  # fmt: skip
    rr = ls.league_create(organiser=organiser, name="Robin", mode="duel", seats=2,
                          format="round_robin")  # fmt: skip
    for league in (ladder, rr):
        for i in range(2):
            version = builtin_copy(author, f"{league.name}-{i}")
            ls.league_entry_add(league=league, user=organiser, bot_id=version.bot_id)
        ls.league_start(league=league, user=organiser)
    client.force_login(organiser)
    page = client.get(f"/leagues/{ladder.pk}/").content.decode()
    assert "Add the entry" in page and "Invite a user" in page and "Order the ladder by" in page
    robin = client.get(f"/leagues/{rr.pk}/").content.decode()
    rr.refresh_from_db()
    assert rr.status == League.Status.RUNNING
    assert "Add the entry" not in robin and "Order the ladder by" in robin
    assert ">Remove</button>" in robin  # a round robin's entrant may still be withdrawn
