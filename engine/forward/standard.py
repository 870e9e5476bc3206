"""Determinizing the standard game, family and solo from one seat's observation.

The public table (day, phase, turn order, fields, supply, boats, fish, baskets, played cards,
public lessons, the solo sister's open cards) and the seat's own cards are copied from the
observation. The hidden parts are sampled from what the seat cannot see:

* cards: every card of the mode not in view (own cards, played, public lessons, revealed
  rescue cards) is shuffled and dealt to the other seats' hands and private lessons (their
  counts are public), to the discard pile and the deck (counts public), and what is left to
  the other seats' draft piles and kept cards;
* tiles: every cat and rare treasure not in view is shuffled; the bag takes ``bag_count`` of
  them and the rest are out of the game (the observation counts, but does not list, tiles
  that left the game);
* the solo sister's face-down basket and colour cards, from those she has not shown.

In a simultaneous step (draft, buying, choosing rescue cards, keeping family lessons) the
other seats are put back to where the step began (the snapshot their observation shows) and
decide again. The decision stack is rebuilt from the phase and the decision asked; what the
observation does not tell (who has passed in a rescue or rare-finds phase, whose turn an
anytime window comes before) takes the likeliest value: nobody has passed, the next seat.
"""

from __future__ import annotations

from typing import Any

from ..boat import Boat, Tile, base_layouts, mask_of
from ..cards import base_cards
from ..errors import DeterminizeError
from ..game import Game
from ..modes import new_game
from ..modes.standard.fields import FieldCat
from ..modes.standard.game import Step
from ..modes.standard.phases.anytime import (
    AnytimeRoundFrame,
    DiscardLessonsFrame,
    DrawnCardsFrame,
    DrawToFieldsFrame,
    MoveCatsFrame,
    RemoveTreasuresFrame,
)
from ..modes.standard.phases.buy import BuyFrame
from ..modes.standard.phases.draft import DraftFrame
from ..modes.standard.phases.lessons import LessonColourFrame
from ..modes.standard.phases.rare_finds import RareFindsPhaseFrame, RareFindsTurnFrame
from ..modes.standard.phases.rescue import ChooseRescueFrame, RescuePhaseFrame, RescueTurnFrame
from ..modes.standard.placement import PlaceFrame, TreasureFrame
from ..modes.standard.state import CAT, OSHAX, RARE
from ..rng import Rng

LESSONS = ("private_lesson", "public_lesson")
AFTER_READ = frozenset({Step.BEFORE_CHOOSE, Step.CHOOSE, Step.AFTER_REVEAL, Step.RESCUE,
                        Step.RARE_FINDS, Step.END_OF_DAY, Step.FINAL_ANYTIME, Step.OVER})
HIDDEN_ZONES = ("hand", "draft_pile", "kept", "drawn", "bought_now", "private_lessons",
                "chosen_rescue")
CARD_EFFECT_FRAMES = {
    "buy_drawn": DrawnCardsFrame, "move_cats": MoveCatsFrame,
    "draw_to_fields": DrawToFieldsFrame, "discard_lessons": DiscardLessonsFrame,
    "remove_treasures": RemoveTreasuresFrame,
}


def _ints(values: Any) -> list[int]:
    return [int(v) for v in values]


def _boat(entry: dict[str, Any]) -> Boat:
    layouts = base_layouts()
    name = entry["boat"]
    if name not in layouts:
        raise DeterminizeError(f"unknown boat {name!r}")
    boat = Boat(layouts[name])
    for t in entry["tiles"]:
        boat.place(Tile(t["kind"], t["colour"], t["shape"], mask_of(t["cells"]), int(t["id"])))
    return boat


def determinize_standard(start: dict[str, Any], obs: dict[str, Any], rng: Rng) -> Game:
    mode = start["mode"]
    seats = int(start["seats"])
    seat = int(start["seat"])
    if obs["seat"] != seat:
        raise DeterminizeError(f"the observation is seat {obs['seat']}'s, not seat {seat}'s")
    if obs["seats"] != seats:
        raise DeterminizeError(f"the observation has {obs['seats']} seats, the start message "
                               f"{seats}")
    try:
        step = Step(obs["phase"])
    except ValueError:
        raise DeterminizeError(f"unknown phase {obs['phase']!r}") from None
    decision = obs["decision"]
    if decision is None and step is not Step.OVER:
        raise DeterminizeError("the observation asks the seat nothing (decision is null): "
                               "determinize from a decide message")
    g: Any = new_game(mode, seats, rng.next_u64(), dict(start.get("options") or {}))
    g.history, g.events = [], []
    g.seat_steps = [0] * seats
    g._legal.clear()
    g._result = None
    state = g.state
    state.day = int(obs["day"])
    state.turn_order = _ints(obs["turn_order"])
    g.step = step
    g._day_ended_with_more_to_come = step not in (Step.FINAL_ANYTIME, Step.OVER)

    # --- the public table ---------------------------------------------------------------
    tiles = state.tiles
    state.fields.cats = [FieldCat(int(t["id"]), side) for side in ("left", "right")
                         for t in obs["fields"][side]]
    supply = obs["supply"]
    oshax_by_shape = {tiles[t].shape: t for t in range(len(tiles)) if tiles[t].kind == OSHAX}
    on_boats: set[int] = set()
    players = sorted(obs["players"], key=lambda p: p["seat"])
    if [p["seat"] for p in players] != list(range(seats)):
        raise DeterminizeError(f"the observation lists players {[p['seat'] for p in players]}")
    for p, view in zip(state.players, players, strict=True):
        own = view["seat"] == seat
        src = obs["you"] if own else view
        p.boat = _boat(src)
        on_boats.update(t.tile_id for t in p.boat.tiles)
        p.fish = int(src["fish"])
        p.baskets = int(src["baskets"])
        p.baskets_used = int(src["baskets_used"])
        p.revealed_rescue = _ints(src["revealed_rescue"])
        p.speed = int(src["speed"])
        p.anywhere = bool(src["anywhere"])
        p.extra_cats = int(src["extra_cats"])
        for zone in HIDDEN_ZONES:
            setattr(p, zone, _ints(src[zone]) if own else [])
        p._texts = None
    state.supply.oshax = [oshax_by_shape[s] for s in supply["oshax"]]
    state.supply.rare = [int(t["id"]) for t in supply["rare"]]
    all_common: dict[str, list[int]] = {}
    for t in tiles:
        if t.kind == "common_treasure":
            all_common.setdefault(t.shape, []).append(t.id)
    state.supply.common = {}
    removed_known: list[int] = []
    in_transit = _in_transit(decision, tiles)
    for shape, ids in all_common.items():
        left = [i for i in ids if i not in on_boats and i not in in_transit]
        count = int(supply["common"].get(shape, 0))
        state.supply.common[shape] = left[:count]
        removed_known.extend(left[count:])
    state.supply._text = None
    state.public_lessons = [(int(x["card"]), x["colour"]) for x in obs["public_lessons"]]
    state.public_lessons_pending = _ints(obs["public_lessons_awaiting_colour"])
    state.played = _ints(obs["played"])
    state.in_transit = in_transit

    # --- hidden tiles: the bag and the tiles out of the game ------------------------------
    in_view = on_boats | {c.tile for c in state.fields.cats} | set(state.supply.oshax) | set(
        state.supply.rare) | set(in_transit)
    unseen = [t.id for t in tiles if t.kind in (CAT, RARE) and t.id not in in_view]
    bag_count = int(obs["bag_count"])
    if bag_count > len(unseen):
        raise DeterminizeError(f"bag_count {bag_count} is more than the {len(unseen)} tiles "
                               "not in view")
    rng.shuffle(unseen)
    state.bag = unseen[:bag_count]
    oshax_out = [t for t in oshax_by_shape.values()
                 if t not in on_boats and t not in state.supply.oshax and t not in in_transit]
    state.removed = unseen[bag_count:] + removed_known + oshax_out
    if len(state.removed) != int(obs["removed_count"]):
        raise DeterminizeError(f"removed_count {obs['removed_count']} disagrees with the "
                               f"{len(state.removed)} tiles not in view nor in the bag")

    # --- hidden cards ------------------------------------------------------------------------
    _deal_hidden_cards(g, obs, seat, rng)
    if mode == "solo":
        _sister(g, obs["sister"], rng)
    for p in state.players:
        p.anytime_count = 0
        hand = p.hand
        p.hand = []
        for c in hand:
            p.add_card(c)

    # --- the decision stack ------------------------------------------------------------------
    g.frames = []
    if step is not Step.OVER:
        _rebuild_frames(g, obs, seat, decision)
    g.state_changed()  # forget legal actions cached while the state was being written
    return g


def _in_transit(decision: dict[str, Any] | None, tiles: list[Any]) -> list[int]:
    if not decision:
        return []
    if decision["decision"] == "place":
        return [int(decision["tile"]["id"])]
    if decision["decision"] == "draw_to_fields" and decision.get("tile"):
        return [int(decision["tile"]["id"])]
    return []


def _deal_hidden_cards(g: Any, obs: dict[str, Any], seat: int, rng: Rng) -> None:
    state = g.state
    template = new_game(g.mode, g.seats, 0, dict(g.options))
    every = set(template.state.card_locations())
    known: set[int] = set(state.played) | {c for c, _ in state.public_lessons} | set(
        state.public_lessons_pending)
    for p in state.players:
        known.update(p.revealed_rescue)
        for zone in HIDDEN_ZONES:
            known.update(getattr(p, zone))
    unseen = sorted(every - known)
    rng.shuffle(unseen)
    others = [p for p in state.players if p.seat != seat]
    views = {v["seat"]: v for v in obs["players"]}
    families = {c.id: c.family for c in base_cards().values()}

    def take(n: int, family: Any = None) -> list[int]:
        """``n`` unseen cards, of ``family`` (a predicate on the card's family) if given."""
        out = []
        for i in range(len(unseen) - 1, -1, -1):
            if len(out) == n:
                break
            if family is None or family(families.get(unseen[i])):
                out.append(unseen.pop(i))
        if len(out) < n:
            raise DeterminizeError("the observation's card counts add up to more cards than "
                                   "the seat cannot see")
        return out

    # after the lessons are read a hand holds no lesson until the next purchase
    read = Step(obs["phase"]) in AFTER_READ
    for p in others:
        p.private_lessons = take(int(views[p.seat]["private_lesson_count"]),
                                 lambda f: f in ("private_lesson", "family_lesson"))
        p.hand = take(int(views[p.seat]["hand_count"]),
                      (lambda f: f not in LESSONS) if read else None)
    state.discard = take(int(obs["discard_count"]))
    state.deck = take(int(obs["deck_count"]))
    # what is left lies in the other seats' draft piles and kept cards
    me = state.players[seat]
    if others and obs["phase"] == Step.DRAFT.value:
        for p in others:
            p.draft_pile = take(min(len(me.draft_pile), len(unseen)))
    i = 0
    while unseen and others:
        others[i % len(others)].kept.append(unseen.pop())
        i += 1
    if unseen:
        raise DeterminizeError(f"{len(unseen)} cards are unaccounted for by the observation's "
                               "counts")


def _sister(g: Any, view: dict[str, Any], rng: Rng) -> None:
    from ..cards import SOLO_BASKET_IDS, SOLO_COLOUR_IDS, base_cards

    cards = base_cards()
    sister = g.sister
    sister.lessons = [int(c["id"]) for c in view["lessons"]]
    colour_of = {c: cards[c].colour for c in SOLO_COLOUR_IDS}
    revealed = []
    for colour in view["colours_revealed"]:
        revealed.append(next(c for c, col in colour_of.items() if col == colour))
    sister.colours_revealed = revealed
    hidden_colours = [c for c in SOLO_COLOUR_IDS if c not in revealed]
    rng.shuffle(hidden_colours)
    sister.colour_deck = hidden_colours
    sister.played_today = _ints(view["played_today"])
    sister.actions_today = [dict(a) for a in view["actions_today"]]
    sister.speed = int(view["speed"])
    sister.first = bool(view["first"])
    first = view["first_card"]
    baskets = [c for c in SOLO_BASKET_IDS if c not in sister.played_today and c != first]
    rng.shuffle(baskets)
    left = int(view["cards_left_today"])
    today = []
    if left:
        if first is not None and not sister.played_today:
            today.append(int(first))
            left -= 1
        today += [baskets.pop() for _ in range(left)]
    sister.today = today
    sister.discard = []
    sister.deck = baskets


def _rebuild_frames(g: Any, obs: dict[str, Any], seat: int, decision: dict[str, Any]) -> None:
    """The decision stack that asks ``decision`` of ``seat`` in the observed phase."""
    state = g.state
    step = g.step
    kind = decision["decision"]
    order = list(state.turn_order)
    frames = g.frames
    if kind == "draft":
        if g.mode == "solo":
            from ..modes.solo.draft import SoloDraftFrame

            f = SoloDraftFrame()
            f.round = int(decision["round"])
            f.keep = int(decision["keep"])
        else:
            f = DraftFrame(int(decision["direction"]), int(decision["keep"]))
            f.round = int(decision["round"])
        f.waiting = (seat,)
        frames.append(f)
        return
    if kind == "buy":
        f = BuyFrame(g)
        f.snapshot["played"] = list(state.played)
        frames.append(f)
        f.progress(g)
        return
    if kind == "choose_rescue":
        f = ChooseRescueFrame(g)
        frames.append(f)
        f.progress(g)
        return
    if kind == "keep_lessons":
        from ..modes.family.frames import KeepLessonsFrame

        f = KeepLessonsFrame(int(decision["keep"]))
        for s, chosen in enumerate(decision["chosen"]):
            if chosen and s != seat:  # a secret choice already made: one is sampled
                f.picks[s] = tuple(sorted(state.players[s].hand[:f.keep]))
        frames.append(f)
        f.progress(g)
        return
    if kind == "lesson_colour":
        card = int(decision["card"])
        owed = [(seat, card)]
        others = [s for s in order if s != seat]
        for i, c in enumerate(c for c in state.public_lessons_pending if c != card):
            owed.append((others[i % len(others)] if others else seat, c))
        f = LessonColourFrame(owed)
        f.waiting = (seat,)
        frames.append(f)
        return
    # turn-taking phases and anytime windows
    if step is Step.RESCUE:
        if g.mode == "family":
            from ..modes.family.frames import FamilyRescuePhaseFrame

            phase: Any = FamilyRescuePhaseFrame(order)
        elif g.mode == "solo":
            from ..modes.solo.game import SoloRescuePhaseFrame

            phase = SoloRescuePhaseFrame(order)
        else:
            phase = RescuePhaseFrame(order)
    elif step is Step.RARE_FINDS:
        phase = RareFindsPhaseFrame(order)
    else:
        phase = None
    if kind == "anytime" or phase is None:
        window = decision.get("window") if kind == "anytime" else None
        if phase is not None:
            others = [s for s in order if s != seat]
            current = order[(order.index(seat) + 1) % len(order)] if others else seat
            phase.current, phase.stage = current, "window"
            frames.append(phase)
            anytime = AnytimeRoundFrame([s for s in order if s != current], phase.window)
        else:
            anytime = AnytimeRoundFrame(order, window or _window_of(step))
        frames.append(anytime)
        anytime.index = anytime.order.index(seat) if seat in anytime.order else 0
        if kind == "anytime":
            anytime.waiting = (seat,)
            return
        anytime.index += 1
        anytime.played = True
        _card_stack(g, seat, kind, decision, obs)
        return
    if phase is None:
        raise DeterminizeError(f"decision {kind!r} cannot be asked in phase {step.value!r}")
    phase.current, phase.stage = seat, "turn"
    frames.append(phase)
    if g.mode == "family":
        from ..modes.family.frames import FamilyTurnFrame

        turn: Any = FamilyTurnFrame(phase, seat)
        turn.taken = kind != "family_turn"
    elif step is Step.RESCUE:
        turn = RescueTurnFrame(phase, seat)
        turn.rescued = int(decision.get("rescued", 1)) if kind == "rescue_turn" else 1
    else:
        turn = RareFindsTurnFrame(phase, seat)
        turn.done = kind != "rare_finds_turn"
    frames.append(turn)
    if kind in ("rescue_turn", "rare_finds_turn", "family_turn"):
        turn.waiting = (seat,)
        return
    if kind in CARD_EFFECT_FRAMES:
        if isinstance(turn, RescueTurnFrame):
            turn.rescued = 0
        frames.append(_card_effect(kind, seat, decision, obs))
        return
    tiles = state.tiles
    if kind == "take_treasure":
        if step is not Step.RARE_FINDS:
            placed = PlaceFrame(seat, -1, None, reward=True)
            placed.done = True
            frames.append(placed)
        frames.append(_treasure(seat, decision, taken=0))
        frames[-1].waiting = (seat,)
        return
    if kind == "place":
        tile = int(decision["tile"]["id"])
        info = tiles[tile]
        colour = decision["tile"]["colour"]
        if info.kind in (CAT, OSHAX):
            frames.append(PlaceFrame(seat, tile, colour, reward=True))
        else:
            if step is not Step.RARE_FINDS:
                placed = PlaceFrame(seat, -1, None, reward=True)
                placed.done = True
                frames.append(placed)
            taking = TreasureFrame(seat, "common_any" if info.kind != RARE else "rare",
                                   count=1, required=1)
            taking.taken = 1
            frames.append(taking)
            frames.append(PlaceFrame(seat, tile, None, reward=False))
        frames[-1].waiting = (seat,)
        return
    raise DeterminizeError(f"unknown decision {kind!r}")


def _card_stack(g: Any, seat: int, kind: str, decision: dict[str, Any],
                obs: dict[str, Any]) -> None:
    """What an anytime card played in a window asks next: its own frame, or the placement
    of the tile card 75 drew (and the map reward that placement may give)."""
    frames = g.frames
    if kind in CARD_EFFECT_FRAMES:
        frames.append(_card_effect(kind, seat, decision, obs))
        return
    if kind == "place":
        tile = int(decision["tile"]["id"])
        frames.append(PlaceFrame(seat, tile, decision["tile"]["colour"], reward=True,
                                 allow_anywhere_cards=True))
    elif kind == "take_treasure":
        placed = PlaceFrame(seat, -1, None, reward=True)
        placed.done = True
        frames.append(placed)
        frames.append(_treasure(seat, decision, taken=0))
    else:
        raise DeterminizeError(f"decision {kind!r} cannot be asked in phase {g.step.value!r}")
    frames[-1].waiting = (seat,)


def _treasure(seat: int, decision: dict[str, Any], taken: int) -> TreasureFrame:
    remaining = int(decision["remaining"])
    required = remaining if decision["must_take"] else 0
    f = TreasureFrame(seat, decision["pool"], count=remaining, required=required)
    f.taken = taken
    return f


def _card_effect(kind: str, seat: int, decision: dict[str, Any], obs: dict[str, Any]) -> Any:
    cls = CARD_EFFECT_FRAMES[kind]
    if kind == "move_cats":
        f = cls(seat, int(decision["limit"]))
        f.moved = _ints(decision["moved"])
    elif kind == "draw_to_fields":
        f = cls(seat, int(decision["remaining"]))
        f.current = int(decision["tile"]["id"]) if decision.get("tile") else None
    else:
        f = cls(seat)
    f.waiting = (seat,)
    return f


def _window_of(step: Step) -> str:
    return {
        Step.BEFORE_FILL: "before_fill_fields", Step.BEFORE_DEAL: "before_deal_cards",
        Step.BEFORE_BUY: "before_buy_cards", Step.BEFORE_READ: "before_read_lessons",
        Step.BEFORE_CHOOSE: "before_choose_rescue_cards",
        Step.AFTER_REVEAL: "after_choose_rescue_cards", Step.FINAL_ANYTIME: "end_of_game",
    }.get(step, step.value)
