"""The greedy bot's shopping plan: which kept cards to pay for, given the day's fish.

Fish buy two things: cards now and cats later the same day. A plan is a subset of the
cards on offer; its worth is the cards' own values plus the cats it lets the seat rescue
(as many as it has baskets for and fish left to pay, the first cats cheap and the best,
later ones dearer and worse) plus a little for fish carried over to the next day. The
offer is small (at most about ten cards), so every subset is tried.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import base_cards

# What the k-th cat rescued in a day is worth (points, after placing it) and costs (fish):
# the cheap field empties first and the best cats go first.
CAT_VALUES = (9.0, 8.0, 7.0, 6.0, 5.0, 4.0)
CAT_PRICES = (3, 3, 4, 5, 5, 5)
CARRY_VALUE = 0.3  # per fish kept for the next day (none on the last day)
MAX_OFFER = 12  # beyond this many cards, only the best MAX_OFFER by value are considered


@dataclass(frozen=True)
class Baskets:
    """Rescue capacity the seat already holds: permanent baskets and basket cards in hand."""

    permanent: int = 1
    full: int = 0
    half: int = 0

    def count(self) -> int:
        return self.permanent + self.full + self.half // 2


def cats_affordable(baskets: int, fish: int) -> tuple[int, float, int]:
    """How many cats ``baskets`` and ``fish`` rescue, what they are worth, fish left."""
    n, worth = 0, 0.0
    while n < min(baskets, len(CAT_VALUES)) and fish >= CAT_PRICES[n]:
        fish -= CAT_PRICES[n]
        worth += CAT_VALUES[n]
        n += 1
    return n, worth, fish


def plan_worth(cards: Sequence[int], fish: int, baskets: Baskets,
               value: Callable[[int], float], *, last_day: bool) -> float:
    """Worth of buying exactly ``cards``: their values, the cats left affordable, carry."""
    info = base_cards()
    full, half, extra = baskets.full, baskets.half, 0.0
    for c in cards:
        card = info[c]
        fish -= card.cost or 0
        if card.family == "rescue" and card.basket == "full":
            full += 1
        elif card.family == "rescue" and card.basket == "half":
            half += 1
        elif card.anytime_type == "gain_basket":
            full += 1
        extra += value(c)
    if fish < 0:
        return float("-inf")
    _, worth, left = cats_affordable(baskets.permanent + full + half // 2, fish)
    return extra + worth + (0.0 if last_day else CARRY_VALUE * left)


def best_plan(offer: Sequence[int], fish: int, baskets: Baskets,
              value: Callable[[int], float], *, last_day: bool) -> tuple[int, ...]:
    """The subset of ``offer`` worth most (ties: fewer cards, then lower ids). Each card's
    value is asked once (a lesson's is a scoring of the boat) and reused by every subset.

    Each subset's worth is ``plan_worth`` of it, worked out inline from each card's facts
    looked up once (the same sums in the same order, so the same floats); a subset beyond
    the fish is worth minus infinity, which never wins, so it is skipped before its cards
    are added up; the subsets are tried in the same order (the best is kept by the same
    comparisons, whose tolerance makes the order matter)."""
    values = {c: value(c) for c in offer}
    value = values.__getitem__
    offer = sorted(offer, key=lambda c: (-value(c), c))[:MAX_OFFER]
    best: tuple[float, tuple[int, ...]] = (plan_worth((), fish, baskets, value,
                                                      last_day=last_day), ())
    info = base_cards()
    # per card, by id: (its bit in the subsets' numbering, cost, full baskets, half baskets, value)
    facts = []
    for i, c in enumerate(offer):
        card = info[c]
        full = card.family == "rescue" and card.basket == "full"
        half = not full and card.family == "rescue" and card.basket == "half"
        full = full or (not half and card.anytime_type == "gain_basket")
        facts.append((c, 1 << i, card.cost or 0, int(full), int(half), values[c]))
    facts.sort()
    costs = [0] * (1 << len(offer))  # every subset's cost, by its numbering
    for _, bit, cost, _, _, _ in sorted(facts, key=lambda f: f[1]):  # lower bits first
        for bits in range(bit):
            costs[bits | bit] = costs[bits] + cost
    carry = 0.0 if last_day else CARRY_VALUE
    affordable: dict[tuple[int, int], tuple[int, float, int]] = {}
    for bits in range(1, 1 << len(offer)):
        if costs[bits] > fish:
            continue  # plan_worth: minus infinity
        left, full, half, extra = fish, baskets.full, baskets.half, 0.0
        chosen = []
        for c, bit, cost, f, h, v in facts:  # by id, as plan_worth adds them
            if bits & bit:
                left -= cost
                full += f
                half += h
                extra += v
                chosen.append(c)
        cats = (baskets.permanent + full + half // 2, left)
        found = affordable.get(cats)
        if found is None:
            found = affordable[cats] = cats_affordable(*cats)
        _, worth, left = found
        worth = extra + worth + (0.0 if last_day else carry * left)
        if worth > best[0] + 1e-9 or (abs(worth - best[0]) <= 1e-9
                                      and (len(chosen), tuple(chosen)) < (len(best[1]), best[1])):
            best = (worth, tuple(chosen))
    return best[1]
