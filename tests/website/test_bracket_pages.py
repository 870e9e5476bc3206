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


# What _bracket.html wrote for one series before website/bracket_cells.py wrote it in Python.
TEMPLATE_SERIES = """{% load arena %}{% with s=v.series %}
        <li class="series {{ s.status }}" id="series-{{ s.key }}">
          <div class="series-head"><span>{{ v.title }} <span class="muted">{{ s.key }}</span></span>{% if s.status == "playing" %}<span class="badge running live">playing</span>{% elif s.status == "waiting" %}<span class="badge queued">waiting</span>{% elif s.stage == "bye" %}<span class="badge">straight through</span>{% elif not v.matches %}<span class="badge">walkover</span>{% endif %}</div>
          <ul class="slots">{% for slot in v.slots %}
            <li class="{% if slot.won %}won{% endif %}{% if slot.goes_on %} goes-on{% endif %}">{% if slot.entry %}{% version_link slot.entry.bot_version %}{% else %}<span class="muted">{{ slot.label }}</span>{% endif %}{% if slot.points is not None %} <span class="points" title="{% if s.stage == 'table' %}table points (3-2-1-0 per game at four seats){% else %}games won (a draw a half){% endif %}">{{ slot.points|floatformat:"-1" }}</span>{% endif %}{% if slot.won %} <span class="won-mark">won<span class="visually-hidden"> {% if s.stage == "table" %}the final table{% else %}the series{% endif %}</span></span>{% elif slot.goes_on and s.stage == "table" %} <span class="won-mark">goes on</span>{% endif %}</li>
          {% endfor %}</ul>
          {% if s.stage == "table" and s.status == "done" %}<p class="muted order">Places: {% for e in s.order %}{% for slot in v.slots %}{% if slot.entry.pk == e %}{{ forloop.parentloop.counter }}. {{ slot.entry.bot_version.bot.name }}{% endif %}{% endfor %}{% if not forloop.last %}, {% endif %}{% endfor %}</p>{% endif %}
          {% if v.matches %}<p class="games">Games: {% for m in v.matches %}<a href="{% url 'website:match' m.pk %}" aria-label="game {{ forloop.counter }} of {{ s.key }}, {{ m.status }}" class="game {{ m.status }}">{{ forloop.counter }}</a>{% if not forloop.last %} {% endif %}{% endfor %}</p>{% endif %}
        </li>{% endwith %}"""  # noqa: E501


def _same_as_the_template(league):
    from django.template import Context, Template

    from tournament.selectors.brackets import bracket_view
    from website.bracket_cells import series_item

    template = Template(TEMPLATE_SERIES)
    seen = set()
    for _, columns in bracket_view(league=league).sections:
        for column in columns:
            for v in column.series:
                assert series_item(v) == template.render(Context({"v": v})), v.series.key
                seen.add(v.series.status)
    return seen


def test_bracket_series_are_written_as_the_template_wrote_them(
    client, organiser, scripted, django_capture_on_commit_callbacks
):
    from tournament.models import Match
    from tournament.services import matches as ms

    knockout = bs.bracket_league_create(
        organiser=organiser, name="Cells cup", mode="standard", seats=4, format="knockout",
        advance=2, best_of=4, seeding="ratings",
    )  # fmt: skip
    double = bs.bracket_league_create(
        organiser=organiser, name="Cells <double>", mode="duel", seats=2,
        format="double_elim", best_of=3, seeding="random",
    )  # fmt: skip
    for strength in range(10, 100, 10):
        version = builtin_copy(organiser, f"cell-{strength}", "random")
        ls.league_entry_add(league=knockout, user=organiser, bot_version_id=version.pk)
        if strength <= 60:
            ls.league_entry_add(league=double, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=knockout, user=organiser)  # played to its end
    assert {"done"} <= _same_as_the_template(knockout)
    ls.league_start(league=double, user=organiser)  # its first games queued, not played
    queued = list(double.matches.filter(status=Match.Status.QUEUED).order_by("pk"))
    ms.match_play(match_id=queued[0].pk)  # one game of a series: points, still playing
    ms.match_start(match_id=queued[1].pk)  # a game running
    assert {"done", "playing", "waiting"} <= _same_as_the_template(double)
    page = client.get(f"/leagues/{double.pk}/bracket/").content.decode()
    assert "Cells &lt;double&gt;" in page and "walkover" in page
