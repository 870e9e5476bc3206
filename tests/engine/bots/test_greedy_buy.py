"""The greedy bot's shopping plan: baskets are bought only with the fish to use them."""

from __future__ import annotations

from engine.bots.greedy_buy import Baskets, best_plan, cats_affordable, plan_worth
from engine.cards import base_cards


def _first(family: str, basket: str | None, cost: int) -> int:
    return min(i for i, c in base_cards().items()
               if c.family == family and c.basket == basket and c.cost == cost)


def test_cats_affordable_stops_at_baskets_or_fish() -> None:
    assert cats_affordable(baskets=1, fish=20)[0] == 1
    assert cats_affordable(baskets=5, fish=6)[0] == 2  # 3 + 3, the third costs 4
    n, _, left = cats_affordable(baskets=3, fish=11)
    assert (n, left) == (3, 1)


def test_a_full_basket_is_bought_when_fish_can_use_it() -> None:
    full = _first("rescue", "full", 2)
    plan = best_plan([full], 12, Baskets(permanent=1), lambda c: 0.0, last_day=False)
    assert plan == (full,)


def test_no_basket_without_fish_for_its_cat() -> None:
    full = _first("rescue", "full", 2)
    # 5 fish: the basket leaves 3, which the permanent basket's cat already needs
    plan = best_plan([full], 5, Baskets(permanent=1), lambda c: 0.0, last_day=False)
    assert plan == ()


def test_plan_worth_refuses_plans_beyond_the_fish() -> None:
    full = _first("rescue", "full", 3)
    assert plan_worth([full], 2, Baskets(), lambda c: 0.0, last_day=True) == float("-inf")


def test_half_baskets_count_in_pairs() -> None:
    half = _first("rescue", "half", 0)
    worth_one = plan_worth([half], 20, Baskets(permanent=1), lambda c: 0.0, last_day=True)
    worth_none = plan_worth([], 20, Baskets(permanent=1), lambda c: 0.0, last_day=True)
    assert worth_one == worth_none
    worth_pair = plan_worth([half], 20, Baskets(permanent=1, half=1), lambda c: 0.0,
                            last_day=True)
    assert worth_pair > worth_none


def _plan_by_plan_worth(offer, fish, baskets, value, *, last_day):
    """``best_plan`` as first written: ``plan_worth`` of every subset, in the same order."""
    from engine.bots.greedy_buy import MAX_OFFER

    offer = sorted(offer, key=lambda c: (-value(c), c))[:MAX_OFFER]
    best = (plan_worth((), fish, baskets, value, last_day=last_day), ())
    for bits in range(1, 1 << len(offer)):
        chosen = tuple(sorted(c for i, c in enumerate(offer) if bits >> i & 1))
        worth = plan_worth(chosen, fish, baskets, value, last_day=last_day)
        if worth > best[0] + 1e-9 or (abs(worth - best[0]) <= 1e-9
                                      and (len(chosen), chosen) < (len(best[1]), best[1])):
            best = (worth, chosen)
    return best[1]


def test_best_plan_is_the_best_by_plan_worth() -> None:
    """The inlined subset loop chooses what ``plan_worth`` of every subset chooses, ties and
    near ties included (values on a coarse grid make many)."""
    import random

    from engine.cards import base_cards

    rng = random.Random("best-plan")
    ids = sorted(base_cards())
    for _ in range(1500):
        offer = rng.sample(ids, rng.randrange(0, 13))
        values = {c: rng.choice([0.0, 0.5, 1.0, 2.5, 0.1 * rng.randrange(90), rng.random()])
                  for c in offer}
        fish = rng.randrange(0, 25)
        baskets = Baskets(rng.randrange(0, 3), rng.randrange(0, 2), rng.randrange(0, 3))
        last = rng.random() < 0.3
        assert best_plan(offer, fish, baskets, values.__getitem__, last_day=last) == \
            _plan_by_plan_worth(offer, fish, baskets, values.__getitem__, last_day=last)
