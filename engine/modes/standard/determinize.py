"""Determinizing the standard game from one seat's observation (``engine.forward``'s
``determinize`` for mode "standard"); family and solo subclass ``StandardDeterminizer``.

The public table (day, phase, turn order, fields, supply, boats, fish, baskets, played cards,
public lessons) and the seat's own cards are copied from the observation. The hidden parts
are sampled from what the seat cannot see:

* tiles: every cat and rare treasure not in view is shuffled; the bag takes ``bag_count`` of
  them and the rest are out of the game (the observation counts, but does not list, tiles
  that left the game);
* cards: every card of the mode not in view (own cards, played, public lessons, revealed
  rescue cards) is shuffled and dealt to the other seats' private lessons and hands (their
  counts are public), to the discard pile and the deck (counts public), and what is left to
  the other seats' draft piles and kept cards.

The game is built by ``StandardGame.resumed`` from a ``State`` made by its own constructors,
and its decision stack by ``restack.StandardStack``. The draws come in a fixed order (the
game's seed, the tiles, the cards, then what a mode adds), so one rng seed gives one game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from ...boat import Boat, base_layouts
from ...cards import base_cards
from ...errors import DeterminizeError
from ...rng import Rng
from .. import new_game
from .fields import FieldCat, Fields
from .game import StandardGame, Step
from .restack import StandardStack, ints
from .state import CAT, COMMON, OSHAX, RARE, PlayerState, State, Supply, TileInfo

Observation = Mapping[str, Any]

LESSONS = ("private_lesson", "public_lesson")
# After the lessons are read a hand holds no lesson until the next purchase.
AFTER_READ = frozenset({Step.BEFORE_CHOOSE, Step.CHOOSE, Step.AFTER_REVEAL, Step.RESCUE,
                        Step.RARE_FINDS, Step.END_OF_DAY, Step.FINAL_ANYTIME, Step.OVER})
HIDDEN_ZONES = ("hand", "draft_pile", "kept", "drawn", "bought_now", "private_lessons",
                "chosen_rescue")
_FAMILIES = {c.id: c.family for c in base_cards().values()}

# (mode, seats, options) -> the tile catalogue and every card of such a game
_TABLES: dict[tuple[str, int, str], tuple[tuple[TileInfo, ...], frozenset[int]]] = {}


def new_table(mode: str, seats: int,
              options: dict[str, Any]) -> tuple[tuple[TileInfo, ...], frozenset[int]]:
    """The tile catalogue and every card of a new game of ``mode``: the same for every seed,
    so worked out once (bad seats or options raise ``ConfigError``, as ``new_game`` does)."""
    key = (mode, seats, repr(sorted(options.items())))
    table = _TABLES.get(key)
    if table is None:
        state = new_game(mode, seats, 0, options).state  # type: ignore[attr-defined]
        table = _TABLES[key] = (tuple(state.tiles), frozenset(state.card_locations()))
    return table


def determinize_standard(start: Observation, obs: Observation, rng: Rng) -> StandardGame:
    return StandardDeterminizer(start, obs, rng).game()


def in_transit(decision: Observation | None) -> list[int]:
    """The tile the seat holds, by the decision: the one it places, or the cat card 83 drew."""
    if decision and decision["decision"] in ("place", "draw_to_fields") and decision.get(
            "tile"):
        return [int(decision["tile"]["id"])]
    return []


class StandardDeterminizer:
    """One determinization: ``game()`` samples a game from ``obs``, the observation of the
    seat that ``start`` (its start message) names. Subclasses name their mode's game and
    stack, which lessons lie face down, and what else a mode samples (``extras``)."""

    game_class: ClassVar[type[StandardGame]] = StandardGame
    stack_class: ClassVar[type[StandardStack]] = StandardStack
    table_lessons: ClassVar[tuple[str, ...]] = ("private_lesson",)  # families face down

    def __init__(self, start: Observation, obs: Observation, rng: Rng) -> None:
        self.obs = obs
        self.rng = rng
        self.seats = int(start["seats"])
        self.seat = int(start["seat"])
        self.options = dict(start.get("options") or {})

    def game(self) -> StandardGame:
        step, decision = self.asked()
        seed = self.rng.next_u64()
        tiles, cards = new_table(self.game_class.game_type.name, self.seats, self.options)
        state = self.table(list(tiles), in_transit(decision))
        self.deal(state, cards, step)
        game = self.game_class.resumed(self.seats, seed, self.options, state, step,
                                       **self.extras())
        if step is not Step.OVER:
            self.stack_class(game, self.seat, decision).rebuild()
        game.state_changed()  # forget legal actions cached while the stack was built
        return game

    def extras(self) -> dict[str, Any]:
        """What the mode keeps beside the state, sampled after the cards (solo: the sister)."""
        return {}

    def asked(self) -> tuple[Step, Observation | None]:
        """The step and the decision asked, once the observation is checked to be the seat's
        and to ask it something."""
        obs, seat, seats = self.obs, self.seat, self.seats
        if obs["seat"] != seat:
            raise DeterminizeError(f"the observation is seat {obs['seat']}'s, not seat {seat}'s")
        if obs["seats"] != seats:
            raise DeterminizeError(f"the observation has {obs['seats']} seats, the start "
                                   f"message {seats}")
        try:
            step = Step(obs["phase"])
        except ValueError:
            raise DeterminizeError(f"unknown phase {obs['phase']!r}") from None
        decision = obs["decision"]
        if decision is None and step is not Step.OVER:
            raise DeterminizeError("the observation asks the seat nothing (decision is "
                                   "null): determinize from a decide message")
        return step, decision

    # --- the table ----------------------------------------------------------------------------
    def table(self, tiles: list[TileInfo], held: list[int]) -> State:
        """The public table and the seat's own cards, the hidden tiles sampled; the other
        seats' cards, the discard pile and the deck are left to ``deal``."""
        obs = self.obs
        players = self.players()
        on_boats = {t.tile_id for p in players for t in p.boat.tiles}
        oshax = {t.shape: t.id for t in tiles if t.kind == OSHAX}  # by shape
        supply, removed_known = self.supply(tiles, oshax, on_boats, held)
        fields = Fields([FieldCat(int(t["id"]), side) for side in ("left", "right")
                         for t in obs["fields"][side]])
        in_view = on_boats | {c.tile for c in fields.cats} | set(supply.oshax) | set(
            supply.rare) | set(held)
        bag, removed = self.hidden_tiles(tiles, in_view)
        oshax_out = [t for t in oshax.values()
                     if t not in on_boats and t not in supply.oshax and t not in held]
        state = State(
            tiles=tiles, players=players, bag=bag, deck=[], fields=fields, supply=supply,
            played=ints(obs["played"]),
            public_lessons=[(int(x["card"]), x["colour"]) for x in obs["public_lessons"]],
            public_lessons_pending=ints(obs["public_lessons_awaiting_colour"]),
            removed=removed + removed_known + oshax_out, in_transit=held,
            turn_order=ints(obs["turn_order"]), day=int(obs["day"]))
        if len(state.removed) != int(obs["removed_count"]):
            raise DeterminizeError(f"removed_count {obs['removed_count']} disagrees with the "
                                   f"{len(state.removed)} tiles not in view nor in the bag")
        return state

    def players(self) -> list[PlayerState]:
        """Each seat's public face, and the seat's own cards (``you``)."""
        views = sorted(self.obs["players"], key=lambda p: p["seat"])
        if [p["seat"] for p in views] != list(range(self.seats)):
            raise DeterminizeError(f"the observation lists players {[p['seat'] for p in views]}")
        return [self.player(view["seat"], self.obs["you"] if view["seat"] == self.seat
                            else view) for view in views]

    def player(self, seat: int, src: Observation) -> PlayerState:
        layouts = base_layouts()
        if src["boat"] not in layouts:
            raise DeterminizeError(f"unknown boat {src['boat']!r}")
        own = seat == self.seat
        zones: dict[str, list[int]] = {}
        if own:  # the hand is added card by card below, to count its anytime cards
            zones = {zone: ints(src[zone]) for zone in HIDDEN_ZONES if zone != "hand"}
        player = PlayerState(
            seat, Boat.from_json(layouts[src["boat"]], src["tiles"]), fish=int(src["fish"]),
            baskets=int(src["baskets"]), baskets_used=int(src["baskets_used"]),
            revealed_rescue=ints(src["revealed_rescue"]), speed=int(src["speed"]),
            anywhere=bool(src["anywhere"]), extra_cats=int(src["extra_cats"]), **zones)
        if own:
            for c in ints(src["hand"]):
                player.add_card(c)
        return player

    def supply(self, tiles: list[TileInfo], oshax: dict[str, int], on_boats: set[int],
               held: list[int]) -> tuple[Supply, list[int]]:
        """The supply, and the common treasures that left the game (those neither in the
        supply, on a boat nor held)."""
        view = self.obs["supply"]
        every: dict[str, list[int]] = {}
        for t in tiles:
            if t.kind == COMMON:
                every.setdefault(t.shape, []).append(t.id)
        common: dict[str, list[int]] = {}
        removed: list[int] = []
        for shape, ids in every.items():
            left = [i for i in ids if i not in on_boats and i not in held]
            count = int(view["common"].get(shape, 0))
            common[shape] = left[:count]
            removed.extend(left[count:])
        supply = Supply(oshax=[oshax[s] for s in view["oshax"]],
                        rare=[int(t["id"]) for t in view["rare"]], common=common)
        return supply, removed

    def hidden_tiles(self, tiles: list[TileInfo], in_view: set[int]) -> tuple[list[int],
                                                                              list[int]]:
        """The bag (``bag_count`` of the cats and rare treasures not in view, shuffled) and
        the rest of them, out of the game."""
        unseen = [t.id for t in tiles if t.kind in (CAT, RARE) and t.id not in in_view]
        bag_count = int(self.obs["bag_count"])
        if bag_count > len(unseen):
            raise DeterminizeError(f"bag_count {bag_count} is more than the {len(unseen)} "
                                   "tiles not in view")
        self.rng.shuffle(unseen)
        return unseen[:bag_count], unseen[bag_count:]

    # --- the hidden cards ---------------------------------------------------------------------
    def deal(self, state: State, cards: frozenset[int], step: Step) -> None:
        """Every card the seat cannot see, shuffled and dealt to the other seats' private
        lessons and hands, the discard pile and the deck (their counts are public), then to
        the other seats' draft piles and kept cards."""
        unseen = _Unseen(sorted(cards - self.known(state)), self.rng)
        views = {v["seat"]: v for v in self.obs["players"]}
        others = [p for p in state.players if p.seat != self.seat]
        table_lessons = self.table_lessons
        hand_cards = (lambda f: f not in LESSONS) if step in AFTER_READ else None
        for p in others:
            view = views[p.seat]
            p.private_lessons = unseen.take(int(view["private_lesson_count"]),
                                            lambda f: f in table_lessons)
            for c in unseen.take(int(view["hand_count"]), hand_cards):
                p.add_card(c)
        state.discard = unseen.take(int(self.obs["discard_count"]))
        state.deck = unseen.take(int(self.obs["deck_count"]))
        if others and step is Step.DRAFT:
            pile = len(state.players[self.seat].draft_pile)
            for p in others:
                p.draft_pile = unseen.take(min(pile, unseen.left()))
        unseen.share_out([p.kept for p in others])

    def known(self, state: State) -> set[int]:
        """The cards in view: played, public lessons, revealed rescue cards, own cards."""
        known = set(state.played) | {c for c, _ in state.public_lessons} | set(
            state.public_lessons_pending)
        for p in state.players:
            known.update(p.revealed_rescue)
            for zone in HIDDEN_ZONES:
                known.update(getattr(p, zone))
        return known


class _Unseen:
    """The cards not in view, shuffled, dealt from the end."""

    def __init__(self, cards: list[int], rng: Rng) -> None:
        rng.shuffle(cards)
        self.cards = cards

    def left(self) -> int:
        return len(self.cards)

    def take(self, n: int, family: Callable[[Any], bool] | None = None) -> list[int]:
        """``n`` cards, of a family ``family`` accepts if given, the last ones first."""
        cards, out = self.cards, []
        for i in range(len(cards) - 1, -1, -1):
            if len(out) == n:
                break
            if family is None or family(_FAMILIES.get(cards[i])):
                out.append(cards.pop(i))
        if len(out) < n:
            raise DeterminizeError("the observation's card counts add up to more cards than "
                                   "the seat cannot see")
        return out

    def share_out(self, piles: list[list[int]]) -> None:
        """What is left, round the piles; every card must find one."""
        cards = self.cards
        i = 0
        while cards and piles:
            piles[i % len(piles)].append(cards.pop())
            i += 1
        if cards:
            raise DeterminizeError(f"{len(cards)} cards are unaccounted for by the "
                                   "observation's counts")
