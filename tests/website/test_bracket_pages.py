"""The bracket pages through Django's test client: a 4-seat knockout played to the end (its
rounds of tables, the byes, the final table, the podium on the league page), the fragment the
live page fetches, and a 404 for a league that is not a bracket."""

from __future__ import annotations

import pytest

from tests.tournament.conftest import ScriptedRunner
from tournament.services import brackets as bs
from tournament.services import leagues as ls

from .conftest import builtin_copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def scripted(monkeypatch):
    import sys
    import types

    runner = ScriptedRunner()
    runner.scores = lambda spec: [float(s["name"].split("-")[1]) for s in spec["seats"]]
    module = types.ModuleType("workers.runner")
    module.run_match = runner.run_match  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "workers.runner", module)
    return runner


def test_knockout_pages(client, organiser, scripted, django_capture_on_commit_callbacks):
    league = bs.bracket_league_create(
        organiser=organiser, name="Table cup", mode="standard", seats=4, format="knockout",
        advance=2, best_of=4, seeding="ratings",
    )  # fmt: skip
    for strength in range(10, 100, 10):
        version = builtin_copy(organiser, f"cat-{strength}", "random")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    page = client.get(f"/leagues/{league.pk}/bracket/").content.decode()
    for text in ("Round 1 (2 tables)", "Final table", "Byes", "straight through", "Places: 1."):
        assert text in page, text
    assert 'data-live="false"' in page
    fragment = client.get(f"/leagues/{league.pk}/bracket/?fragment=1").content.decode()
    assert fragment.lstrip().startswith('<div class="bracket-state"') and "<html" not in fragment
    league_page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Champion and podium" in league_page and "1st at the final table" in league_page
    assert "See the bracket" in league_page
    ladder = ls.league_create(organiser=organiser, name="Plain", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    assert client.get(f"/leagues/{ladder.pk}/bracket/").status_code == 404
