"""A linear policy for the Duel over the flat observation and the fixed action ids.

Shared by the trainer (``train_duel.py``) and the exported bot (``bot_main.py`` in the
bundle), so both compute exactly the same thing. A legal action's score is
``weights . features(action)``; the policy plays the legal action of the highest score (the
lowest id on a tie). The features of an action are read from the flat observation
(engine/env/encoding.py) and the action's id (engine/env/action_ids.py) alone:

* the kind of the action (one-hot over the Duel's kinds);
* ``move`` and ``select``: what lies on the target space (the island segment's 11 values)
  and whether it was touched this turn;
* ``fish_action``: which one, and your fish (for ``fish_action`` and ``end_turn`` only);
* ``place``: the share of the tile's neighbouring squares already taken on your boat, the
  share of its squares on rats and on maps, its mean column and row, and its size.

Placements are scored for every anchor of an oriented shape at once with array slices, so a
decision with a thousand placements costs a few dozen NumPy operations.
"""

from __future__ import annotations

import numpy as np

from engine.boat import HEIGHT, STRIDE, WIDTH
from engine.env.action_ids import ANCHORS, action_ids
from engine.env.encoding import BOAT_CHANNELS, layout_rows
from engine.modes.duel.actions import FISH_ACTIONS
from engine.modes.duel.data import ISLAND_SPACES

MODE = "duel"
IDS = action_ids(MODE)
KINDS = tuple(b.kind for b in IDS.blocks)
SEGMENTS = {name: (first, length) for first, length, name, _ in layout_rows(MODE)}
SPACE_WIDTH = SEGMENTS["island"][1] // ISLAND_SPACES
PLACE = IDS.blocks[KINDS.index("place")]
ORIENTATIONS = PLACE.domains[0].orientations

# feature columns
K = len(KINDS)
SPACE = K  # SPACE_WIDTH values of the target space, then "touched"
FISH = SPACE + SPACE_WIDTH + 1  # one-hot fish action
FISH_HELD = FISH + len(FISH_ACTIONS)
PLACE_F = FISH_HELD + 1  # touching, rats, maps, mean x, mean y, size
FEATURES = PLACE_F + 6
FEATURE_NAMES = (*KINDS, *(f"space_{k}" for k in range(SPACE_WIDTH)), "space_touched",
                 *(f"fish_{a}" for a in FISH_ACTIONS), "fish_held", "place_touching",
                 "place_rats", "place_maps", "place_x", "place_y", "place_size")


def _plane(vec: np.ndarray, channel: str) -> np.ndarray:
    """One plane of your boat as a (HEIGHT + 2) x (STRIDE + 8) array, padded by one square
    above and left (neighbours) and with room below and right for every anchor's box."""
    first, _ = SEGMENTS["my_boat"]
    width, height = WIDTH, HEIGHT
    at = first + BOAT_CHANNELS.index(channel) * width * height
    plane = vec[at:at + width * height].reshape(height, width)
    out = np.zeros((height + 8, STRIDE + 8), np.float32)
    out[1:height + 1, 1:width + 1] = plane
    return out


def _orientation_features(o, occupied, rats, maps) -> np.ndarray:
    """The 6 placement features of oriented shape ``o`` at each of its 207 anchors."""
    cells = o.cells
    n = len(cells)
    cellset = set(cells)
    near = {(x + dx, y + dy) for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    near -= cellset

    def total(plane, squares):
        acc = np.zeros((HEIGHT, STRIDE), np.float32)
        for x, y in squares:  # the +1 is the padding above and left
            acc += plane[y + 1:y + 1 + HEIGHT, x + 1:x + 1 + STRIDE]
        return acc

    xs = np.arange(STRIDE, dtype=np.float32)[None, :].repeat(HEIGHT, 0)
    ys = np.arange(HEIGHT, dtype=np.float32)[:, None].repeat(STRIDE, 1)
    mean_x = sum(x for x, _ in cells) / n
    mean_y = sum(y for _, y in cells) / n
    feats = np.stack([
        total(occupied, near) / len(near),
        total(rats, cells) / n,
        total(maps, cells) / n,
        (xs + mean_x) / WIDTH,
        (ys + mean_y) / HEIGHT,
        np.full((HEIGHT, STRIDE), n / 6, np.float32),
    ], axis=-1)
    return feats.reshape(ANCHORS, 6)


def features(vec: np.ndarray, legal_ids: np.ndarray) -> np.ndarray:
    """``len(legal_ids)`` x ``FEATURES``: the features of each legal action id."""
    out = np.zeros((len(legal_ids), FEATURES), np.float32)
    island_first = SEGMENTS["island"][0]
    touched_first = SEGMENTS["touched"][0]
    fish = float(vec[SEGMENTS["players"][0]])  # your fish / 10
    place_first, place_last = PLACE.first, PLACE.first + PLACE.size
    is_place = (legal_ids >= place_first) & (legal_ids < place_last)
    for row in np.flatnonzero(~is_place):
        action = IDS.decode(int(legal_ids[row]))
        kind = action.kind
        out[row, KINDS.index(kind)] = 1.0
        if kind in ("move", "select"):
            space = action[1]
            at = island_first + (space - 1) * SPACE_WIDTH
            out[row, SPACE:SPACE + SPACE_WIDTH] = vec[at:at + SPACE_WIDTH]
            out[row, SPACE + SPACE_WIDTH] = vec[touched_first + space - 1]
        elif kind == "fish_action":
            out[row, FISH + FISH_ACTIONS.index(action[1])] = 1.0
            out[row, FISH_HELD] = fish
        elif kind == "end_turn":
            out[row, FISH_HELD] = fish
    rows = np.flatnonzero(is_place)
    if len(rows):
        out[rows, KINDS.index("place")] = 1.0
        occupied, rats, maps = (_plane(vec, c) for c in ("occupied", "rat", "map"))
        local = legal_ids[rows] - place_first
        orientation, anchor = np.divmod(local, ANCHORS)
        for o in np.unique(orientation):
            pick = orientation == o
            table = _orientation_features(ORIENTATIONS[o], occupied, rats, maps)
            out[rows[pick], PLACE_F:PLACE_F + 6] = table[anchor[pick]]
    return out


def choose(weights: np.ndarray, vec: np.ndarray, mask: np.ndarray) -> int:
    """The action id the policy plays: the best-scoring legal id (the lowest on a tie)."""
    mask = IDS.check_mask(mask)
    legal_ids = np.flatnonzero(mask)
    scores = features(vec, legal_ids) @ weights
    return int(legal_ids[int(np.argmax(scores))])
