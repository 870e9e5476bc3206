"""The greedy bot of the standard game and solo: a one-ply heuristic for every decision.

Placements are valued by ``greedy_eval`` (a quick pass over every legal placement, then
the change of the real score sheet, lessons and the solo sister included, for the best
few). Rescues take the cat whose best placement is worth most for its price. Purchases
follow the shopping plan of ``greedy_buy`` (cards plus the cats their baskets and the
fish left can rescue); drafting ranks cards by a value table; rescue cards are laid down
as far as fish allow; useful anytime cards are played when they pay.

The bot reads only what its seat may know: its own player state, the public table (fields,
supply, public lessons, turn order), the decision asked and its legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..boat import COLOURS
from ..cards import base_cards
from ..game import Game
from ..modes.standard.phases.anytime import fish_gain
from ..modes.standard.placement import placements_for
from ..rng import Rng
from ..scoring import PlayerFacts, TableFacts, lesson_points
from .greedy_buy import Baskets, best_plan
from .greedy_eval import PlacementEval, SheetJudge, judge_for, sister_cost

__all__ = ["GreedyStandardBot", "PlacementEval", "sister_cost"]

# a decision's handler: (game, the frame asking, its legal actions) -> the action, or None
# for ``_fallback``'s choice
Handler = Callable[[Game, Any, Sequence[Action]], Action | None]

AVERAGE_PRICE = 4  # fish per rescued cat, between the 3 and 5 of the two fields
FISH_WEIGHT = 0.4  # how much one fish is worth against one point, when rescuing
SPEED_VALUE = 0.2  # per speed point of a basket card (rescuing earlier)
RESCUE_DEEP = 4  # cats (shape and colour) given the deep evaluation on a rescue turn
BASKET_FUTURE = 1.5  # per day still to come, for a permanent basket (card 84/85)

# Draft / buy value of a card, by family and kind (points-ish, before its fish cost).
RESCUE_VALUE = {"full": 6.0, "half": 2.5, None: 1.0}
ANYTIME_VALUE = {
    "gain_basket": 5.0,
    "draw_tile_to_boat": 4.5,
    "rescue_extra_cat": 2.5,
    "discard_basket_gain_fish": 3.0,
    "draw_2_cards": 1.5,
    "draw_3_cards": 1.5,
    "next_shape_anywhere": 1.0,
}


class GreedyStandardBot:
    name = "greedy"
    trusted = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed, f"bot:greedy_standard:{seat}")
        self.last_note: str | None = None
        self._planned: dict[int, int] = {}  # tile id -> mask chosen when it was taken
        self._best: dict[tuple[Any, ...], tuple[float, int]] = {}  # see ``_best_placement``
        self._acting: tuple[Game, SheetJudge | None] | None = None  # see ``_judge``
        # The handler of every decision the standard game and solo ask for, by the name of
        # the frame asking (None: ``_fallback``'s choice). A frame renamed or added fails
        # ``act`` with a KeyError (and tests/engine/bots/test_greedy_standard.py) rather
        # than quietly falling back.
        self._handlers: dict[str, Handler | None] = {
            "draft": self._on_draft,
            "buy": self._on_buy,
            "buy_drawn": self._on_buy_drawn,
            "lesson_colour": self._on_lesson_colour,
            "choose_rescue": self._on_choose_rescue,
            "anytime": self._on_anytime,
            "place": self._on_place,
            "take_treasure": self._on_take_treasure,
            "rescue_turn": self._on_rescue_turn,
            "rare_finds_turn": self._on_rare_finds_turn,
            "move_cats": self._on_move_cats,
            "draw_to_fields": self._on_draw_to_fields,
            "discard_lessons": None,
            "remove_treasures": None,
        }

    def close(self) -> None:
        pass

    # --- what the seat may see ----------------------------------------------------------------
    def _me(self, game: Game) -> Any:
        return game.state.players[self.seat]  # type: ignore[attr-defined]

    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        frame = game.frames[-1]  # type: ignore[attr-defined]
        handler = self._handlers[frame.name]
        self._acting = (game, None)
        try:
            action = handler(game, frame, legal) if handler else None
        finally:
            self._acting = None
        if action is None or action not in legal:
            action = self._fallback(legal)
        self.last_note = f"{frame.name}: {game.action_text(action)}"
        return action

    def _judge(self, game: Game) -> SheetJudge:
        """``judge_for`` this seat, made once per decision: the game does not change while
        the bot decides, and one judge remembers the boat it last scored (every tile the
        decision values starts from the same boat)."""
        acting = self._acting
        if acting is None or acting[0] is not game:
            return judge_for(game, self.seat)
        judge = acting[1]
        if judge is None:
            judge = judge_for(game, self.seat)
            self._acting = (game, judge)
        return judge

    @staticmethod
    def _fallback(legal: Sequence[Action]) -> Action:
        for kind in ("done", "decline", "pass"):
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0]

    # --- card values --------------------------------------------------------------------------
    def card_value(self, game: Game, card_id: int) -> float:
        c = base_cards()[card_id]
        me = self._me(game)
        day = game.state.day  # type: ignore[attr-defined]
        late = day >= 5
        if c.family == "rescue":
            return 0.5 if late and c.basket is None else RESCUE_VALUE[c.basket] + 0.3 * c.speed
        if c.family == "oshax":
            return 8.0
        if c.family == "treasure":
            return 4.5 if card_id <= 106 else 3.5
        if c.family == "anytime":
            kind = c.anytime_type or ""
            if kind.startswith("gain_fish"):
                return 0.5 * fish_gain(me, card_id) + 0.5
            if kind == "gain_basket":
                return max(0.5, ANYTIME_VALUE[kind] - 0.8 * (day - 1))
            return ANYTIME_VALUE.get(kind, 0.3)
        if c.family == "private_lesson":
            return 1.0 + self._lesson_now(game, card_id)
        if c.family == "public_lesson":
            return 0.5
        return 0.0

    def _lesson_now(self, game: Game, card_id: int) -> float:
        """Half the points the lesson would give on the boat as it is now (days 3-5)."""
        if game.state.day < 3:  # type: ignore[attr-defined]
            return 1.0
        me = self._me(game)
        facts = PlayerFacts(me.boat, me.fish, tuple(me.private_lessons), me.baskets, 0)
        try:
            return 0.5 * lesson_points(card_id, 0, TableFacts([facts]))
        except ValueError:
            return 0.0

    def _baskets_ready(self, game: Game, me: Any) -> int:
        cards = base_cards()
        full = sum(1 for c in me.hand if cards[c].family == "rescue" and cards[c].basket == "full")
        half = sum(1 for c in me.hand if cards[c].family == "rescue" and cards[c].basket == "half")
        return me.baskets + full + half // 2

    # --- draft, buy, lessons, rescue cards ----------------------------------------------------
    def _on_draft(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action:
        pile = self._me(game).draft_pile
        ranked = sorted(pile, key=lambda c: (-self.card_value(game, c), c))
        return Action("keep", tuple(sorted(ranked[:frame.keep])))

    def _on_buy(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        me = self._me(game)
        for a in legal:
            if a.kind == "play" and self.card_value(game, a[1]) > 0.6:
                return a
        return self._best_buy(game, me, [a for a in legal if a.kind == "buy"])

    def _plan_value(self, game: Game, card_id: int) -> float:
        """A card's own worth in a shopping plan; what baskets give (the cats they let the
        seat rescue) is counted by the plan itself."""
        c = base_cards()[card_id]
        day = game.state.day  # type: ignore[attr-defined]
        if c.family == "rescue":
            if c.basket is None:
                return 0.5 if day >= 5 else 1.0
            return SPEED_VALUE * c.speed
        if c.anytime_type == "gain_basket":
            return BASKET_FUTURE * (game.rules.days - day)  # type: ignore[attr-defined]
        return self.card_value(game, card_id)

    def _best_buy(self, game: Game, me: Any, buys: list[Action]) -> Action | None:
        """The first card of the best shopping plan over what is still on offer."""
        cards = base_cards()
        held = [cards[c] for c in me.hand if cards[c].family == "rescue"]
        baskets = Baskets(me.baskets, sum(1 for c in held if c.basket == "full"),
                          sum(1 for c in held if c.basket == "half"))
        offer = [a[1] for a in buys]
        last = game.state.day >= game.rules.days  # type: ignore[attr-defined]
        plan = best_plan(offer, me.fish, baskets, lambda c: self._plan_value(game, c),
                         last_day=last)
        return Action("buy", plan[0]) if plan else None

    def _on_buy_drawn(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        return self._best_buy(game, self._me(game), [a for a in legal if a.kind == "buy"])

    def _on_lesson_colour(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action:
        boat = self._me(game).boat
        counts = {c: boat.colour_masks[c].bit_count() for c in COLOURS}
        return max(legal, key=lambda a: (counts[a[2]], -COLOURS.index(a[2])))

    def _on_choose_rescue(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action:
        me = self._me(game)
        cards = base_cards()
        chosen = [cards[c] for c in me.chosen_rescue]
        usable = me.baskets + sum(1 for c in chosen if c.basket == "full") + sum(
            1 for c in chosen if c.basket == "half") // 2
        affordable = me.fish // 3
        options = [a for a in legal if a.kind == "choose_rescue"]
        for a in options:  # speed-only cards cost nothing to lay down
            if cards[a[1]].basket is None:
                return a
        if usable < affordable:
            fulls = [a for a in options if cards[a[1]].basket == "full"]
            if fulls:
                return max(fulls, key=lambda a: cards[a[1]].speed)
            halves = [a for a in options if cards[a[1]].basket == "half"]
            pending_half = sum(1 for c in chosen if c.basket == "half") % 2
            if halves and (pending_half or len(halves) >= 2):
                return max(halves, key=lambda a: cards[a[1]].speed)
        return Action("done")

    # --- anytime cards ------------------------------------------------------------------------
    def _anytime_choice(self, game: Game, legal: Sequence[Action], window: str) -> Action | None:
        for a in legal:
            if a.kind == "play" and self._wants(game, a[1], window):
                return a
        return None

    def _wants(self, game: Game, card_id: int, window: str) -> bool:
        """Whether playing this anytime card in this window pays now."""
        me = self._me(game)
        kind = base_cards()[card_id].anytime_type or ""
        final = window == "end_of_game" or (game.state.day >= 5  # type: ignore[attr-defined]
                                            and window in ("rare_finds", "before_rare_finds_turn"))
        if kind.startswith("gain_fish"):
            gain = fish_gain(me, card_id)
            return gain >= 3 or (final and gain > 0)
        wanted = {
            "discard_basket_gain_fish": final,
            "gain_basket": window in ("before_choose_rescue_cards", "rescue"),
            "draw_tile_to_boat": window in ("rescue", "rare_finds"),
            "draw_2_cards": window == "rare_finds" and me.fish >= 3,
            "draw_3_cards": window == "rare_finds" and me.fish >= 3,
            "rescue_extra_cat": window == "rescue" and me.fish >= 8
            and me.free_baskets + len(me.revealed_rescue) >= 2,
        }
        return wanted.get(kind, False)

    def _on_anytime(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        return self._anytime_choice(game, legal, frame.window)

    # --- placing ------------------------------------------------------------------------------
    def _placements(self, game: Game, shape: str, colour: str | None) -> Any:
        return placements_for(self._me(game), shape)

    def _eval(self, game: Game, colour: str | None, shape: str, kind: str) -> PlacementEval:
        """The two-stage placement evaluation of one tile on this seat's boat."""
        return PlacementEval(self._me(game).boat, colour, rare=kind == "rare_treasure",
                             judge=self._judge(game), sister=sister_cost(game, colour),
                             kind=kind, shape=shape)

    def _on_place(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        info = game.state.tiles[frame.tile]  # type: ignore[attr-defined]
        for a in legal:
            if a.kind == "play" and not any(True for b in legal if b.kind == "place"):
                return a
        planned = self._planned.pop(frame.tile, None)
        if planned is not None and Action("place", planned) in legal:
            return Action("place", planned)
        placements = getattr(legal, "placements", None)
        if placements is None:
            placements = [a[1] for a in legal if a.kind == "place"]
        _, mask = self._best_placement(game, frame.colour, info.shape, info.kind, placements)
        return Action("place", mask)

    def _best_placement(self, game: Game, colour: str | None, shape: str, kind: str,
                        placements: Any) -> tuple[float, int]:
        """``PlacementEval.best`` of one tile over ``placements`` (every legal placement of
        the tile), remembered by everything the answer depends on: a treasure or an Oshax
        is valued when it is chosen, then placed on the same boat right after, and the
        second evaluation would repeat the first."""
        key = self._best_key(game, colour, shape, kind)
        found = self._best.get(key)
        if found is None:
            if len(self._best) > 256:
                self._best.clear()
            ev = self._eval(game, colour, shape, kind)
            found = self._best[key] = ev.best(placements)
        return found

    def _best_key(self, game: Game, colour: str | None, shape: str, kind: str) -> tuple:
        """What ``_eval(...).best`` over the tile's legal placements depends on: the tile,
        the seat's boat (its tiles) and whether it may place anywhere, the judge's facts
        (``judge_for``) and, in solo, the sister's cost of the colour."""
        state = game.state  # type: ignore[attr-defined]
        me = state.players[self.seat]
        judge = self._judge(game)
        others = tuple(tuple((t.kind, t.colour, t.mask) for t in b.tiles) for b in judge.others)
        return (colour, shape, kind, me.anywhere, me.boat.layout.name,
                tuple((t.kind, t.colour, t.mask) for t in me.boat.tiles),
                judge.fish, judge.private_lessons, judge.public_lessons, judge.baskets,
                judge.mode, judge.sister_lessons, others, sister_cost(game, colour))

    def _on_take_treasure(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        best, best_v = None, 0.5
        for a in legal:
            if a.kind != "take_treasure":
                continue
            rare = any(game.state.tiles[t].shape == a[1]  # type: ignore[attr-defined]
                       for t in game.state.supply.rare)  # type: ignore[attr-defined]
            rare = rare and frame.pool == "rare"
            v, _ = self._best_placement(game, None, a[1],
                                        "rare_treasure" if rare else "common_treasure",
                                        self._placements(game, a[1], None))
            if v > best_v:
                best, best_v = a, v
        return best

    # --- rescue and rare finds turns ----------------------------------------------------------
    def _on_rescue_turn(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        played = self._anytime_choice(game, legal, "rescue")
        if played is not None:
            return played
        state = game.state  # type: ignore[attr-defined]
        prices = game.rules.field_prices  # type: ignore[attr-defined]
        order = {"permanent": 0, "full": 1, "half": 2}
        evals: dict[tuple[str, str], tuple[PlacementEval, list[tuple[float, int]]]] = {}
        options: list[tuple[float, float, Action, tuple[str, str]]] = []  # quick, cost, ...
        for a in legal:
            if a.kind != "rescue":
                continue
            tile = state.tiles[state.fields.side(a[1])[a[2]]]
            key = (tile.shape, tile.colour)
            if key not in evals:
                ev = self._eval(game, tile.colour, tile.shape, tile.kind)
                evals[key] = (ev, ev.shortlist(self._placements(game, tile.shape, tile.colour)))
            cost = FISH_WEIGHT * prices[a[1]] + 0.01 * order[a[3]]
            options.append((evals[key][1][0][0] - cost, cost, a, key))
        if not options:
            return None
        # the deep evaluation only for the cats that look best by the quick one
        options.sort(key=lambda o: -o[0])
        keys = list(dict.fromkeys(o[3] for o in options))[:RESCUE_DEEP]
        seen = {k: evals[k][0].refine(evals[k][1]) for k in keys}
        best: tuple[float, Action] | None = None
        for _, cost, a, key in options:
            if key in seen and (best is None or seen[key][0] - cost > best[0]):
                best = (seen[key][0] - cost, a)
        assert best is not None
        action = best[1]
        tile_id = state.fields.side(action[1])[action[2]]
        tile = state.tiles[tile_id]
        self._planned[tile_id] = seen[(tile.shape, tile.colour)][1]
        return action

    def _on_rare_finds_turn(self, game: Game, frame: Any,
                            legal: Sequence[Action]) -> Action | None:
        played = self._anytime_choice(game, legal, "rare_finds")
        if played is not None:
            return played
        best: tuple[float, Action] | None = None
        oshax_seen: dict[tuple[str, str], float] = {}
        for a in legal:
            if a.kind == "oshax":
                key = (a[2], a[3])
                if key not in oshax_seen:
                    oshax_seen[key] = self._best_placement(
                        game, a[3], a[2], "oshax", self._placements(game, a[2], a[3]))[0] + 4.0
                v = oshax_seen[key]
            elif a.kind == "treasure":
                c = base_cards()[a[1]]
                take = c.options[a[2]]["take"][0]["kind"]
                v = {"rare": 6.0, "common_any": 4.0, "common_small": 3.0}[take]
                v -= c.options[a[2]].get("extra_cost_fish", 0) * 0.5
            else:
                continue
            if best is None or v > best[0]:
                best = (v, a)
        return best[1] if best else None

    def _on_move_cats(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action:
        for a in legal:  # bring expensive cats to the cheap field
            if a.kind == "move_cat" and a[1] == "right":
                return a
        return Action("done")

    def _on_draw_to_fields(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action:
        return Action("to_field", "left")
