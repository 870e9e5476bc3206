"""The boss leagues' gates (competition/data/boss_leagues.json) and the promotion rule."""

from __future__ import annotations

import pytest

from competition import boss_leagues as bl
from competition import sprt
from engine.bots.names import BUILTIN_BOTS
from engine.modes import MODES


def test_the_tiers_are_in_order_of_rising_boss_strength_with_valid_tests():
    leagues = bl.leagues()
    assert leagues.tier_keys() == ["wood", "bronze", "silver", "gold", "legend"]
    assert [t.boss for t in leagues.tiers] == [
        "random", "greedy", "search-0.05s", "search-0.25s", "search-1s"
    ]  # fmt: skip
    assert all(t.boss in BUILTIN_BOTS for t in leagues.tiers)
    assert all(t.settings.alpha == 0.05 and t.seeds >= 1 for t in leagues.tiers)
    assert set(leagues.seats) <= set(MODES) and leagues.seats["duel"] == 2


def test_next_tier_walks_up_from_unranked_and_stops_at_the_top():
    leagues = bl.leagues()
    assert leagues.next_tier(bl.UNRANKED).key == "wood"
    assert leagues.next_tier("wood").key == "bronze"
    assert leagues.next_tier("gold").key == "legend"
    assert leagues.next_tier("legend") is None
    assert leagues.name(bl.UNRANKED) == "Unranked" and leagues.name("bronze") == "Bronze"
    with pytest.raises(KeyError, match="no boss league 'iron'"):
        leagues.tier("iron")


def test_h1_promotes_h0_and_the_cap_stay():
    assert bl.decide(sprt.H1) == bl.PROMOTED
    assert bl.decide(sprt.H0) == bl.STAYS
    assert bl.decide(sprt.CAP) == bl.STAYS
    with pytest.raises(ValueError, match="not an SPRT decision"):
        bl.decide("maybe")


def test_a_climb_stops_at_the_first_run_that_does_not_promote():
    assert bl.climb(bl.UNRANKED, [sprt.H1, sprt.H1, sprt.H0, sprt.H1]) == "bronze"
    assert bl.climb("bronze", [sprt.CAP, sprt.H1]) == "bronze"
    assert bl.climb("gold", [sprt.H1, sprt.H1]) == "legend"  # nothing above Legend


def test_a_malformed_file_is_refused_in_words():
    good = {"key": "a", "name": "A", "boss": "random", "elo0": 0, "elo1": 40, "alpha": 0.05,
            "beta": 0.05, "seeds": 10}  # fmt: skip
    with pytest.raises(ValueError, match="elo0"):
        bl.parse({"modes": {}, "tiers": [{**good, "elo1": -5}]})
    with pytest.raises(ValueError, match="seeds"):
        bl.parse({"modes": {}, "tiers": [{**good, "seeds": 0}]})
    with pytest.raises(ValueError, match="own non-empty key"):
        bl.parse({"modes": {}, "tiers": [good, good]})
