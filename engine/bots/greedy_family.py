"""The greedy bot of the family variant: one-ply heuristic over every cat and placement.

For each cat it may take, it scores every legal placement by cheap bitboard facts
(same-colour contact, rats and map covered, cells filling rooms, contact with other
tiles) and takes the best; it keeps the two lessons whose requirements look easiest,
takes the largest fitting treasure as a map reward, and passes only when nothing fits.
"""

from __future__ import annotations

from ..actions import Action
from ..boat import Boat, neighbours
from ..game import Game
from ..modes.standard.placement import placements_for
from ..rng import Rng
from ..shapes import base_shapes

# Lessons this bot finds easiest to score with its way of playing, best first.
LESSON_PREFERENCE = (164, 167, 153, 151, 165, 168, 158, 166, 152, 154, 155, 156, 157,
                     159, 160, 161, 162, 163)


def placement_value(boat: Boat, colour: str | None, mask: int) -> float:
    """How much one placement helps: families, rats, maps, rooms and compactness."""
    layout = boat.layout
    around = neighbours(mask)
    value = 0.0
    if colour is not None:
        value += 3.0 * (around & boat.colour_masks[colour]).bit_count()
        others = boat.occupied & ~boat.colour_masks[colour]
        value -= 0.5 * (around & others & ~_treasure_mask(boat)).bit_count()
        if layout.maps[colour] & mask:
            value += 4.0
    value += 1.0 * (mask & layout.rats_mask).bit_count()
    value += 0.3 * (around & boat.occupied).bit_count()
    after = boat.occupied | mask
    for room in layout.rooms:
        if room.mask & mask and not room.mask & ~after:
            value += 5.0
    value -= 0.2 * (around & layout.cells_mask & ~after).bit_count()
    return value


def _treasure_mask(boat: Boat) -> int:
    m = 0
    for t in boat.tiles:
        if t.colour is None:
            m |= t.mask
    return m


class GreedyFamilyBot:
    name = "greedy"
    trusted = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed, f"bot:greedy_family:{seat}")
        self.last_note: str | None = None
        self._plan: int | None = None  # the mask chosen when taking the cat

    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        first = legal[0]
        if first.kind == "keep":
            rank = {c: i for i, c in enumerate(LESSON_PREFERENCE)}
            best = min(legal, key=lambda a: sum(rank.get(c, 99) for c in a[1]))
            self.last_note = f"keep {list(best[1])}"
            return best
        if first.kind == "place":
            return self._place(game, seat, legal)
        if first.kind in ("take_treasure", "decline"):
            return self._treasure(game, seat, legal)
        return self._take(game, seat, legal)

    def _take(self, game: Game, seat: int, legal) -> Action:
        state = game.state  # type: ignore[attr-defined]
        me = state.players[seat]
        best: tuple[float, Action | None, int | None] = (float("-inf"), None, None)
        for action in legal:
            if action.kind != "take":
                continue
            info = state.tiles[state.fields.side(action[1])[action[2]]]
            for mask in placements_for(me, info.shape):
                value = placement_value(me.boat, info.colour, mask) + 0.5 * mask.bit_count()
                if value > best[0]:
                    best = (value, action, mask)
        if best[1] is None:
            self.last_note = "nothing fits: pass"
            return Action("pass")
        self._plan = best[2]
        self.last_note = f"take {best[1][1]} {best[1][2]} worth {best[0]:.1f}"
        return best[1]

    def _place(self, game: Game, seat: int, legal) -> Action:
        plan, self._plan = self._plan, None
        if plan is not None and Action("place", plan) in legal:
            return Action("place", plan)
        frame = game.frames[-1]  # type: ignore[attr-defined]
        boat = game.state.players[seat].boat  # type: ignore[attr-defined]
        return max(legal, key=lambda a: placement_value(boat, frame.colour, a[1]))

    def _treasure(self, game: Game, seat: int, legal) -> Action:
        options = [a for a in legal if a.kind == "take_treasure"]
        if not options:
            return Action("decline")
        return max(options, key=lambda a: (base_shapes().by_key(a[1]).size, a[1]))

    def close(self) -> None:
        pass
