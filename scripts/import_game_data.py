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
    text = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]", lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    base = args.shared / "game-data" / "base"
    _dump(ROOT / "engine/data/base/boats.json", import_base_boats(base))
    _dump(ROOT / "engine/data/base/shapes.json", import_base_shapes(base))
    _dump(ROOT / "engine/data/base/cards.json", import_base_cards(base))


if __name__ == "__main__":
    main()
