"""Write the engine's data files from the reference facts in ../shared/game-data.

Run once by a developer when the reference facts change; the engine itself
never reads ../shared. The output is plain JSON under engine/data/, reviewed
and committed like code.

    python scripts/import_game_data.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _dump(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1)
    # Keep coordinate pairs and grid rows on one line: readable diffs, short files.
    text = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
                  lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
    path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def import_base_boats(src: Path) -> dict:
    raw = json.loads((src / "boats.json").read_text())
    outline = {
        "columns": [[c["y_min"], c["y_max"]] for c in raw["grid"]["columns"]],
        "holes": [],
        "rooms": [
            {"key": r["key"], "name": r["name"], "icon": r["icon"], "cells": r["cells"]}
            for r in raw["rooms"]
        ],
        "edge": raw["edge"]["cells"],
    }
    boats = {}
    for colour, b in raw["boats"].items():
        boats[colour] = {
            "rats": b["rats"],
            "maps": {m["colour"]: m["cell"] for m in b["treasure_maps"]},
        }
    return {"outline": outline, "boats": boats}


def import_base_shapes(src: Path) -> dict:
    raw = json.loads((src / "shapes.json").read_text())
    return {
        "colours": raw["cats"]["colours"],
        "cats": [{"key": s["key"], "grid": s["grid"]} for s in raw["cats"]["shapes"]],
        "oshax": [{"key": s["key"], "grid": s["grid"]} for s in raw["oshax"]["shapes"]],
        "rare_treasures": [
            {"key": s["key"], "grid": s["grid"], "count": s["count"]}
            for s in raw["rare_treasures"]["shapes"]
        ],
        "common_treasures": [
            {"key": s["key"], "grid": s["grid"], "small": s["small"]}
            for s in raw["common_treasures"]["shapes"]
        ],
        "common_count_per_shape": raw["common_treasures"]["count_per_shape_by_player_count"],
    }


def import_base_cards(src: Path) -> dict:
    raw = json.loads((src / "cards.json").read_text())
    meta = raw["_meta"]
    return {
        "_meta": {k: meta[k] for k in ("counts_by_family", "families", "count_of_vocabulary",
                                        "scoring_kinds", "solo_basket_rules") if k in meta},
        "cards": raw["cards"],
    }


# --- The Isle of Cats Duel ---------------------------------------------------------------------
# Where the reference facts mark a doubt, the engine data records the decision taken in
# docs/rules-notes.md ("## Duel"); the comments below name the entry.

DUEL_LAYOUT_NAMES = {"OBoat": "O", "IBoat": "I"}  # the implementation's ids -> our short names
# Lesson names printed in the Duel rulebook's scoring example (the only printed names known).
DUEL_PRINTED_NAMES = {19: "Vandermil Cattery", 23: "Prudent", 24: "Sun-powered"}


def import_duel_boats(src: Path) -> dict:
    raw = json.loads((src / "boats.json").read_text())
    boats = {}
    for impl_id, b in raw["boats"].items():
        boats[DUEL_LAYOUT_NAMES[impl_id]] = {
            "source_id": impl_id,
            "columns": [[c["y_min"], c["y_max"]] for c in b["grid"]["columns"]],
            "holes": b["grid"]["holes"],
            "rooms": [
                {"key": r["key"], "name": r["name"], "icon": r["icon"], "cells": r["cells"]}
                for r in b["rooms"]
            ],
            "rats": b["rats"]["cells"],
            "maps": {m["colour"]: m["cell"] for m in b["treasure_maps"]},
            "edge": b["edge"]["cells"],  # checked against the derived edge by the tests
        }
    return {"boats": boats}


def import_duel_shapes(src: Path) -> dict:
    raw = json.loads((src / "shapes.json").read_text())
    defs = {s["impl_shape_def_id"]: s for s in raw["shape_defs"]}
    cat_defs = [s for s in raw["shape_defs"] if s["kind"] == "cat"]
    cats = [
        {"id": t["impl_shape_id"], "colour": t["colour"],
         "shape": defs[t["impl_shape_def_id"]]["key"], "fish": t["fish_icon"]}
        for t in raw["cat_tiles"]["tiles"]
    ]
    treasures = raw["treasure_tiles"]
    return {
        "colours": [c["name"] for c in raw["colours"]],
        "cat_shapes": [{"key": s["key"], "grid": s["grid"], "fish": s["fish_icon"]}
                       for s in cat_defs],
        "cats": cats,
        "treasure_shapes": [{"key": s["key"], "grid": s["grid"], "count": s["count"]}
                            for s in treasures["shapes"]],
        "first_treasure_id": treasures["tiles"][0]["impl_shape_id"],
    }


def import_duel_island(src: Path) -> dict:
    raw = json.loads((src / "island.json").read_text())
    # rules-notes "Duel / footprints": every footprint is walked both ways (symmetric closure).
    links = sorted({tuple(sorted((int(a), b))) for a, ns in raw["symmetric_closure"].items()
                    for b in ns})
    return {
        "spaces": [{"space": s["slot"], "kind": s["type"], "row": s["ui_grid_row"],
                    "col": s["ui_grid_col"]} for s in raw["slots"]],
        "footprints": [list(link) for link in links],
        "oshax_start": raw["oshax"]["start_slot"],
    }


def _duel_card(card: dict) -> dict:
    out = {"id": card["id"], "kind": card["kind"],
           "name": DUEL_PRINTED_NAMES.get(card["id"]), "label": card["label"],
           "effect": card["effect"]}
    if "params" in card:
        out["params"] = card["params"]
    if "scoring" in card:
        scoring = {k: v for k, v in card["scoring"].items()
                   if k not in ("note", "text_variants", "impl_condition", "impl_points")}
        out["scoring"] = scoring
    return out


def import_duel_cards(src: Path) -> dict:
    raw = json.loads((src / "cards.json").read_text())
    cards = [_duel_card(c) for c in raw["cards"]]
    by_id = {c["id"]: c for c in cards}
    # rules-notes "Duel / card 10": the colour is the player's best one (a choice that only
    # ever costs fish), so it is applied automatically.
    by_id[10]["params"]["colour_choice"] = "best"
    # rules-notes "Duel / card 15": you need a family (3+ cats); ties score.
    by_id[15]["scoring"] = {"kind": "largest_family", "points": 7, "tie": "scores",
                            "min_size": 3}
    # rules-notes "Duel / card 26": you need a treasure to have the most; ties score.
    by_id[26]["scoring"] = {"kind": "most_treasure_tiles", "points": 7, "tie": "scores", "min": 1}
    # rules-notes "Duel / card 24": 1 point per 2 cats touching the edge (printed "Sun-powered").
    by_id[24]["effect"] = "1 point per 2 cats touching the edge of your boat (rounded down)."
    # rules-notes "Duel / card 29": the card text (exactly 2 families of one size), 8 points.
    by_id[29]["effect"] = ("8 points if exactly 2 of your cat families (3+ cats) have the "
                           "same size.")
    by_id[29]["scoring"] = {"kind": "two_families_same_size", "points": 8, "min_size": 3}
    return {"cards": cards}


def import_duel_rules() -> dict:
    """The Duel's numbers from the printed rulebook (004), kept with the other data."""
    return {
        "start_fish": 3,
        "round_counter_cats": 3,
        "cats_per_day": 10,
        "cards_per_day": 5,
        "mandatory_steps": 2,
        "fish_actions": {"move": 1, "jump": 2, "treasure": 2, "discovery": 3},
        "treasure_card_treasures": 2,
        "rat_points": -1,
        "unfilled_room_points": -5,
        "family_points": {"3": 8, "4": 11, "5": 15, "each_beyond_5": 5},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    base = args.shared / "game-data" / "base"
    _dump(ROOT / "engine/data/base/boats.json", import_base_boats(base))
    _dump(ROOT / "engine/data/base/shapes.json", import_base_shapes(base))
    _dump(ROOT / "engine/data/base/cards.json", import_base_cards(base))
    duel = args.shared / "game-data" / "duel"
    _dump(ROOT / "engine/data/duel/boats.json", import_duel_boats(duel))
    _dump(ROOT / "engine/data/duel/shapes.json", import_duel_shapes(duel))
    _dump(ROOT / "engine/data/duel/island.json", import_duel_island(duel))
    _dump(ROOT / "engine/data/duel/cards.json", import_duel_cards(duel))
    _dump(ROOT / "engine/data/duel/rules.json", import_duel_rules())


if __name__ == "__main__":
    main()
