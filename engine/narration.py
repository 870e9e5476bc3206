"""What happened, in words: one short sentence per step and per engine event, every mode.

Shared by the replay viewer (``replayfile/frames.py`` stores the sentences with the frames) and
the command line (``python -m engine play --narrate``). Pure: built from the action's JSON
form, the engine's events (``game.events``) and the game's static catalogues (tiles, cards),
so it can narrate a game as it is played or re-simulated.

Hidden information stays hidden: a sentence names a hidden card (a draft pick, a purchase,
a chosen rescue card, a private lesson) only when ``can_see(seat)`` says that seat's secrets
may be shown; otherwise it says "a card".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import base_cards
from .game import Game
from .shapes import base_shapes

Event = Mapping[str, Any]
# Events whose facts are already told by the sentence of the step that caused them.
MERGED = frozenset({
    "rescued", "placed", "map_reward", "treasure_taken", "taken", "bought", "buy_done",
    "lesson_colour", "card_played", "treasure_card", "oshax_taken", "passed", "cat_returned",
    "draft_kept", "lessons_kept", "cat_to_field", "cat_moved", "treasure_declined",
})
SQUARES = {"monomino": 1, "domino": 2, "tromino": 3, "tetromino": 4, "pentomino": 5}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _article(words: str) -> str:
    """"a" or "an" before ``words`` (by sound of the first letter: "an I-shaped", "a domino")."""
    return "an" if words[:1].upper() in "AEFHILMNORSX" and (
        words[:1] in "aeiou" or words[1:2] in ("-", "")) else "a"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def shape_words(shape: str | None) -> str:
    """``"L_tromino_3"`` -> ``"L-shaped"``; ``"domino_2"`` -> ``"domino"``."""
    if not shape:
        return ""
    head = shape.split("_")[0]
    if head in SQUARES:
        return head
    if len(head) == 1:
        return f"{head}-shaped"
    return head.replace("_", " ")


class Narrator:
    """Sentences for one game. ``names[s]`` is how seat ``s`` is called ("greedy (seat 1)")."""

    def __init__(
        self,
        game: Game,
        names: Sequence[str] | None = None,
        can_see: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.game = game
        self.mode = game.mode
        self.names = list(names) if names else [f"seat {s}" for s in range(game.seats)]
        self.can_see = can_see or (lambda seat: True)
        self._tiles = self._tile_catalogue(game)
        self._cards = self._card_catalogue(game)

    # --- catalogues ------------------------------------------------------------------------
    @staticmethod
    def _tile_catalogue(game: Game) -> Callable[[int], dict[str, Any] | None]:
        state = getattr(game, "state", None)
        tiles = getattr(state, "tiles", None)
        if tiles is not None:
            return lambda t: tiles[t].to_json() if 0 <= t < len(tiles) else None
        if game.mode == "duel":
            cats = game.cat_tiles()  # type: ignore[attr-defined]  (DuelGame's catalogue)

            def duel_tile(t: int) -> dict[str, Any] | None:
                if not 0 <= t < len(cats):
                    return None
                return {**cats[t].to_json(), "size": cats[t].shape.size}

            return duel_tile
        return lambda t: None

    @staticmethod
    def _card_catalogue(game: Game) -> Callable[[int], Any]:
        if game.mode == "duel":
            card_of = game.card  # type: ignore[attr-defined]  (DuelGame's catalogue)

            def duel_card(card_id: Any) -> Any:
                try:
                    return card_of(card_id)
                except KeyError:
                    return None

            return duel_card
        cards = base_cards()
        return lambda c: cards.get(c)

    # --- words for things --------------------------------------------------------------------
    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "someone"
        return self.names[seat]

    def card(self, card_id: Any, seat: int | None = None, hidden: bool = False) -> str:
        """A card's name (``"Rescue: speed 3, full basket"``), or "a card" when secret."""
        if hidden and not self.can_see(seat):
            return "a card"
        card = self._cards(card_id) if isinstance(card_id, int) else None
        if card is None:
            return f"card {card_id}"
        label = getattr(card, "label", None) or getattr(card, "name", None) or f"card {card_id}"
        family = getattr(card, "family", "") or ""
        if family == "rescue":
            basket = getattr(card, "basket", None)
            extra = f", {basket} basket" if basket else ""
            return f"a rescue card (speed {card.speed}{extra})"
        return f"“{label}”"

    def cards(self, ids: Sequence[Any], seat: int | None = None, hidden: bool = False) -> str:
        if hidden and not self.can_see(seat):
            return _plural(len(ids), "card")
        return _join([self.card(c) for c in ids]) or "no cards"

    def tile(self, tile_id: Any, colour: str | None = None) -> str:
        """``"the red 6-square cat"``, ``"an L-shaped rare treasure"``, ``"a blue Oshax"``."""
        info = self._tiles(tile_id) if isinstance(tile_id, int) else None
        if info is None:
            return f"tile {tile_id}"
        kind = info.get("kind")
        colour = colour or info.get("colour")
        if kind == "cat":
            squares = info.get("size") or _shape_size(info.get("shape"))
            size_txt = f"{squares}-square " if squares else ""
            return f"the {colour + ' ' if colour else ''}{size_txt}cat"
        if kind == "oshax":
            return f"an Oshax{' (' + colour + ')' if colour else ''}"
        words = shape_words(info.get("shape"))
        what = "rare treasure" if kind == "rare_treasure" else "common treasure"
        text = f"{words} {what}".strip()
        return f"{_article(text)} {text}"

    # --- sentences -----------------------------------------------------------------------------
    def step(
        self,
        seat: int,
        action: Mapping[str, Any],
        events: Sequence[Event] = (),
        before: Mapping[str, Any] | None = None,
    ) -> str:
        """The sentence of one step: what ``seat`` did (``action`` in its JSON form), told with
        the facts of the events it caused (``events``: the events logged by this step) and,
        for the Duel's island, the view before the step."""
        kind = str(action.get("kind", ""))
        by_type: dict[str, Event] = {}
        for event in events:
            if event.get("seat", seat) == seat:
                by_type.setdefault(str(event.get("type")), event)
        who = self.who(seat)
        method = STEP_SENTENCES.get(kind)  # an unknown kind (an older replay): the plain words
        if method is not None:
            text = method(self, who, seat, action, by_type, before or {})
            if text:
                return text
        fields = ", ".join(f"{k} {v}" for k, v in action.items() if k != "kind")
        return f"{who} {kind.replace('_', ' ')}{' (' + fields + ')' if fields else ''}"

    def event(self, event: Event, step_kind: str | None = None) -> str | None:
        """The sentence of an event, or None when the sentence of the step that caused it
        (an action of kind ``step_kind``) already tells it."""
        kind = str(event.get("type", ""))
        if kind in MERGED or (kind == "fish_gained" and step_kind in ("play", "fish_action")):
            return None
        method = EVENT_SENTENCES.get(kind)
        if method is not None:
            return method(self, event)
        seat = event.get("seat")
        return (f"{self.who(seat)}: " if isinstance(seat, int) else "") + kind.replace("_", " ")

    # --- standard, family and solo steps ----------------------------------------------------
    def _do_keep(self, who, seat, action, ev, before):
        cards = action.get("cards") or []
        if self.mode == "family" or any(_is_lesson_family(self._cards(c)) for c in cards[:1]):
            return f"{who} keeps {self.cards(cards, seat, hidden=True)} as lessons"
        return f"{who} keeps {self.cards(cards, seat, hidden=True)} from the draft"

    def _do_buy(self, who, seat, action, ev, before):
        card = self._cards(action.get("card"))
        cost = getattr(card, "cost", None) if self.can_see(seat) else None
        paid = f", paying {cost} fish" if cost else ""
        return f"{who} buys {self.card(action.get('card'), seat, hidden=True)}{paid}"

    def _do_done(self, who, seat, action, ev, before):
        done = ev.get("buy_done")
        if done is not None:
            n = len(done.get("bought") or [])
            return f"{who} is done buying ({_plural(n, 'card')} in all)"
        return f"{who} is done"

    def _do_play(self, who, seat, action, ev, before):
        text = f"{who} plays {self.card(action.get('card'))}"
        gained = ev.get("fish_gained")
        if gained is not None:
            text += f" and gains {gained.get('fish')} fish"
        return text

    def _do_lesson_colour(self, who, seat, action, ev, before):
        return f"{who} names {action.get('colour')} for {self.card(action.get('card'))}"

    def _do_choose_rescue(self, who, seat, action, ev, before):
        return f"{who} chooses {self.card(action.get('card'), seat, hidden=True)} to rescue with"

    def _do_rescue(self, who, seat, action, ev, before):
        done = ev.get("rescued")
        if done is None:
            return f"{who} rescues a cat from the {action.get('field')} field"
        basket = {"permanent": "their basket", "half": "half baskets",
                  "card": "a rescue card's basket"}.get(str(done.get("basket")),
                                                        f"a {done.get('basket')} basket")
        cards = done.get("cards") or []
        with_cards = f" and {self.cards(cards)}" if cards else ""
        fish = done.get("fish") or 0
        paying = f", paying {fish} fish" if fish else " for free"
        return (f"{who} rescues {self.tile(done.get('tile'))} from the {done.get('field')} "
                f"field with {basket}{with_cards}{paying}")

    def _do_take(self, who, seat, action, ev, before):
        done = ev.get("taken")
        tile = self.tile(done.get("tile")) if done else "a cat"
        return f"{who} takes {tile} from the {action.get('field')} field"

    def _do_pass(self, who, seat, action, ev, before):
        passed = ev.get("passed")
        phase = str(passed.get("phase")).replace("_", " ") if passed else ""
        return f"{who} passes{' in the ' + phase + ' phase' if phase else ''}"

    def _do_place(self, who, seat, action, ev, before):
        cells = action.get("cells") or []
        placed = ev.get("placed")
        if placed is not None:
            what = self.tile(placed.get("tile"), placed.get("colour"))
        elif self.mode == "duel":
            turn = before.get("turn") or {}
            placing = turn.get("placing")
            if placing:
                what = f"the {placing.get('colour', '')} cat".replace("  ", " ")
            else:
                what = "a treasure" if turn.get("treasures_due") else "a tile"
        else:
            what = "a tile"
        text = f"{who} puts {what} on their boat"
        if cells:
            xs = [c[0] for c in cells]
            ys = [c[1] for c in cells]
            text += f" (columns {min(xs)}–{max(xs)}, rows {min(ys)}–{max(ys)})"
        reward = ev.get("map_reward")
        if reward is not None:
            text += f", covering the {reward.get('colour')} treasure map"
        return text

    def _do_take_treasure(self, who, seat, action, ev, before):
        words = f"{shape_words(str(action.get('shape') or ''))} common treasure".strip()
        return f"{who} takes {_article(words)} {words}"

    def _do_decline(self, who, seat, action, ev, before):
        return f"{who} declines"

    def _do_oshax(self, who, seat, action, ev, before):
        return (f"{who} plays {self.card(action.get('card'))} to take an Oshax, "
                f"counting it as {action.get('colour')}")

    def _do_treasure(self, who, seat, action, ev, before):
        return f"{who} plays {self.card(action.get('card'))} to take a rare treasure"

    def _do_move_cat(self, who, seat, action, ev, before):
        return f"{who} moves a cat out of the {action.get('field')} field to the other one"

    def _do_to_field(self, who, seat, action, ev, before):
        return f"{who} puts the cat into the {action.get('field')} field"

    def _do_discard_lessons(self, who, seat, action, ev, before):
        return f"{who} discards {self.cards(action.get('cards') or [], seat, hidden=True)}"

    def _do_remove_treasures(self, who, seat, action, ev, before):
        n = len(action.get("tiles") or [])
        return f"{who} removes {_plural(n, 'treasure')} from their boat"

    # --- Duel steps ---------------------------------------------------------------------------
    def _do_choose_boat(self, who, seat, action, ev, before):
        return f"{who} chooses boat {action.get('boat')}"

    def _do_move(self, who, seat, action, ev, before):
        return f"{who} moves the Oshax to space {action.get('to')}"

    def _do_select(self, who, seat, action, ev, before):
        space = action.get("space")
        item = None
        for cell in before.get("island") or ():
            if cell.get("space") == space:
                item = cell.get("item")
        if item and item.get("kind") == "cat":
            fish = " (with a fish)" if item.get("fish") else ""
            return f"{who} takes the {item.get('colour')} cat{fish} from space {space}"
        if item:
            name = item.get("label") or item.get("name") or item.get("kind")
            return f"{who} takes the card “{name}” from space {space}"
        return f"{who} selects space {space}"

    def _do_fish_action(self, who, seat, action, ev, before):
        name = str(action.get("action", ""))
        what = FISH_ACTION_WORDS.get(name, f"on {name.replace('_', ' ')}")
        text = f"{who} spends fish {what}"
        gained = ev.get("fish_gained")
        if gained is not None:
            text += f" (gains {gained.get('fish')} fish)"
        return text

    def _do_end_turn(self, who, seat, action, ev, before):
        return f"{who} ends the turn"

    def _do_return_cat(self, who, seat, action, ev, before):
        return f"{who} returns {self.tile(action.get('tile'))} to the bag"

    # --- events -------------------------------------------------------------------------------
    def _ev_setup(self, e):
        order = [self.who(s) for s in e.get("turn_order") or []]
        return f"The boats are handed out; turn order: {', '.join(order)}"

    def _ev_fill_fields(self, e):
        left, right = len(e.get("left") or []), len(e.get("right") or [])
        return f"Cats arrive: {left} in the left field, {right} in the right"

    def _ev_fishing(self, e):
        return f"Everyone goes fishing: +{e.get('fish')} fish each"

    def _ev_dealt(self, e):
        return "Cards are dealt for the draft"

    def _ev_draft_passed(self, e):
        side = "left" if e.get("direction", 1) == 1 else "right"
        return f"The draft piles pass to the {side}"

    def _ev_lesson_read(self, e):
        seat = e.get("seat")
        if e.get("public"):
            return f"{self.who(seat)} reads the public lesson {self.card(e.get('card'))}"
        card = self.card(e.get("card"), seat, hidden=True)
        return f"{self.who(seat)} keeps {card} as a private lesson"

    def _ev_rescue_revealed(self, e):
        speeds = e.get("speeds") or []
        order = [f"{self.who(s)} ({speeds[s] if s < len(speeds) else '?'})"
                 for s in e.get("turn_order") or []]
        return f"Rescue cards are revealed; turn order by speed: {', '.join(order)}"

    def _ev_auto(self, e):
        return f"{self.who(e.get('seat'))} has nothing to do and passes"

    def _ev_rescue_over(self, e):
        return "The rescue phase ends"

    def _ev_rare_finds_over(self, e):
        return "Rare finds end"

    def _ev_end_of_day(self, e):
        fled = len(e.get("fled") or [])
        return f"Day {e.get('day')} ends: {_plural(fled, 'cat')} flee the island"

    def _ev_fish_gained(self, e):
        return f"{self.who(e.get('seat'))} gains {e.get('fish')} fish"

    def _ev_cards_drawn(self, e):
        seat = e.get("seat")
        return f"{self.who(seat)} draws {self.cards(e.get('cards') or [], seat, hidden=True)}"

    def _ev_tile_drawn(self, e):
        tile = e.get("tile")
        if tile is None:
            return f"{self.who(e.get('seat'))} draws nothing: the bag is empty"
        return f"{self.who(e.get('seat'))} draws {self.tile(tile)} from the bag"

    def _ev_tile_discarded(self, e):
        return f"{self.who(e.get('seat'))} discards {self.tile(e.get('tile'))}: it does not fit"

    def _ev_game_over(self, e):
        return "The game is over"

    def _ev_turn_order(self, e):
        order = [self.who(s) for s in e.get("turn_order") or []]
        return f"Day {e.get('day')}: turn order {', '.join(order)}"

    def _ev_lessons_dealt(self, e):
        return "Lessons are dealt"

    def _ev_sister_setup(self, e):
        return (f"The sister plays at {e.get('difficulty')} with "
                f"{self.cards(e.get('lessons') or [])}")

    def _ev_draft_drawn(self, e):
        return f"{self.who(0)} draws {self.cards(e.get('cards') or [], 0, hidden=True)} to draft"

    def _ev_draft_blind(self, e):
        return f"{self.who(0)} gets {self.cards(e.get('cards') or [], 0, hidden=True)} unseen"

    def _ev_sister_cards(self, e):
        return (f"The sister draws {_plural(int(e.get('count') or 0), 'basket card')} "
                f"(speed {e.get('speed')} against {e.get('player_speed')}"
                f"{'; she goes first' if e.get('sister_first') else ''})")

    def _ev_sister(self, e):
        act = e.get("action")
        number = e.get("number")
        which = f"the {_ordinal(int(number))} " if isinstance(number, int) else "the "
        if act == "take_cat":
            if e.get("tile") is None:
                return "The sister finds no cat to take"
            return (f"The sister takes {which}cat of the {e.get('side')} field: "
                    f"{self.tile(e.get('tile'))}")
        if act == "take_oshax":
            return "The sister takes an Oshax" if e.get("tile") is not None else \
                "The sister finds no Oshax to take"
        if act == "take_rare_treasure":
            return ("The sister takes a rare treasure" if e.get("tile") is not None
                    else "The sister finds no rare treasure")
        if act == "take_common_treasure":
            words = f"{shape_words(e.get('shape'))} common treasure".strip()
            return f"The sister takes {_article(words)} {words}"
        if act == "switch_cats":
            return f"The sister switches cats {e.get('a')} and {e.get('b')} between the fields"
        return f"The sister: {str(act).replace('_', ' ')}"

    def _ev_sister_colour(self, e):
        return f"The sister's colour card: {', then '.join(e.get('order') or [])}"

    def _ev_first_player(self, e):
        return f"{self.who(e.get('seat'))} goes first"

    def _ev_day_start(self, e):
        cats, cards = len(e.get("cats") or []), len(e.get("cards") or [])
        return (f"Day {e.get('day')} begins: {_plural(cats, 'cat')} and {_plural(cards, 'card')} "
                f"on the island; {self.who(e.get('first_player'))} goes first")

    def _ev_day_end(self, e):
        return f"Day {e.get('day')} ends: {e.get('reason')}"

    def _ev_game_end(self, e):
        return f"The game ends after {_plural(int(e.get('days') or 0), 'day')}"

    def _ev_lessons_discarded(self, e):
        seat = e.get("seat")
        return f"{self.who(seat)} discards {self.cards(e.get('cards') or [])}"

    def _ev_treasures_lost(self, e):
        return f"{self.who(e.get('seat'))} loses {_plural(int(e.get('count') or 0), 'treasure')}"

    def _ev_treasures_removed(self, e):
        n = len(e.get("tiles") or [])
        return f"{self.who(e.get('seat'))} removes {_plural(n, 'treasure')} from their boat"

    def _ev_bag_empty(self, e):
        return "The bag is empty"


# What a Duel fish purchase buys, as the end of "X spends fish ...": a sentence rather than
# the action's bare name ("spends fish: move" reads as a command, worse still after "The
# default policy, playing for X,"). tests/engine/test_narration.py checks every fish action.
FISH_ACTION_WORDS = {
    "move": "on an extra step of the Oshax",
    "jump": "to make the Oshax jump",
    "treasure": "on a treasure",
    "discovery": "on an extra discovery",
}

# The sentence of each action kind and of each event type, by kind: every kind the engine
# can ask for or log has its entry (tests/engine/test_narration.py reads them off the
# codecs and the engine's ``log`` calls), so a kind renamed fails a test instead of being
# told in the plain words meant for kinds this engine no longer has.
STEP_SENTENCES: dict[str, Callable[..., str | None]] = {
    "keep": Narrator._do_keep,
    "buy": Narrator._do_buy,
    "done": Narrator._do_done,
    "play": Narrator._do_play,
    "lesson_colour": Narrator._do_lesson_colour,
    "choose_rescue": Narrator._do_choose_rescue,
    "rescue": Narrator._do_rescue,
    "take": Narrator._do_take,
    "pass": Narrator._do_pass,
    "place": Narrator._do_place,
    "take_treasure": Narrator._do_take_treasure,
    "decline": Narrator._do_decline,
    "oshax": Narrator._do_oshax,
    "treasure": Narrator._do_treasure,
    "move_cat": Narrator._do_move_cat,
    "to_field": Narrator._do_to_field,
    "discard_lessons": Narrator._do_discard_lessons,
    "remove_treasures": Narrator._do_remove_treasures,
    "choose_boat": Narrator._do_choose_boat,
    "move": Narrator._do_move,
    "select": Narrator._do_select,
    "fish_action": Narrator._do_fish_action,
    "end_turn": Narrator._do_end_turn,
    "return_cat": Narrator._do_return_cat,
}
EVENT_SENTENCES: dict[str, Callable[[Narrator, Event], str | None]] = {
    "setup": Narrator._ev_setup,
    "fill_fields": Narrator._ev_fill_fields,
    "fishing": Narrator._ev_fishing,
    "dealt": Narrator._ev_dealt,
    "draft_passed": Narrator._ev_draft_passed,
    "lesson_read": Narrator._ev_lesson_read,
    "rescue_revealed": Narrator._ev_rescue_revealed,
    "auto": Narrator._ev_auto,
    "rescue_over": Narrator._ev_rescue_over,
    "rare_finds_over": Narrator._ev_rare_finds_over,
    "end_of_day": Narrator._ev_end_of_day,
    "fish_gained": Narrator._ev_fish_gained,
    "cards_drawn": Narrator._ev_cards_drawn,
    "tile_drawn": Narrator._ev_tile_drawn,
    "tile_discarded": Narrator._ev_tile_discarded,
    "game_over": Narrator._ev_game_over,
    "turn_order": Narrator._ev_turn_order,
    "lessons_dealt": Narrator._ev_lessons_dealt,
    "sister_setup": Narrator._ev_sister_setup,
    "draft_drawn": Narrator._ev_draft_drawn,
    "draft_blind": Narrator._ev_draft_blind,
    "sister_cards": Narrator._ev_sister_cards,
    "sister": Narrator._ev_sister,
    "sister_colour": Narrator._ev_sister_colour,
    "first_player": Narrator._ev_first_player,
    "day_start": Narrator._ev_day_start,
    "day_end": Narrator._ev_day_end,
    "game_end": Narrator._ev_game_end,
    "lessons_discarded": Narrator._ev_lessons_discarded,
    "treasures_lost": Narrator._ev_treasures_lost,
    "treasures_removed": Narrator._ev_treasures_removed,
    "bag_empty": Narrator._ev_bag_empty,
}


def _is_lesson_family(card: Any) -> bool:
    return str(getattr(card, "family", "")).endswith("lesson")


_SHAPE_SIZES: dict[str, int] = {}


def _shape_size(shape: str | None) -> int | None:
    """Squares of a base-game shape, from the engine's shape table."""
    if not shape:
        return None
    if not _SHAPE_SIZES:
        shapes = base_shapes()
        for group in (shapes.cats, shapes.oshax, shapes.rare_treasures, shapes.common_treasures):
            for item in group:
                _SHAPE_SIZES[item.key] = item.size
    return _SHAPE_SIZES.get(shape)


def seat_names(players: Sequence[Mapping[str, Any]] | None, seats: int) -> list[str]:
    """``"greedy (seat 1)"`` per seat from a replay header's ``players`` list."""
    by_seat = {p.get("seat"): p for p in players or ()}
    out = []
    for s in range(seats):
        bot = (by_seat.get(s) or {}).get("bot")
        out.append(f"{bot} (seat {s})" if bot else f"seat {s}")
    return out
