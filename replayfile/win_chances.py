"""Who was winning: a finished match analysed by playouts at each day's end.

Pure (no Django). The replay is re-simulated with the engine. At frame 0 and at every frame
where a new day begins (the end of the day before; the Duel's ``day`` is its round), the
game is played on to its end ``playouts`` times from the full state by the **uniform random
playout** (``Game.playout``: every seat takes a uniformly random legal action; the Duel's
own fast loop makes the same moves). It is the cheapest policy there is, about a hundred
times cheaper than the house bots' greedy, so a chance rests on hundreds of playouts instead
of a handful; it measures how much of the game a seat has already secured, not how well the
bots that played would play on. Everything already decided (boats, hands, lessons, fish) is
kept; only what nobody knows yet, the order of the bag and of the deck (and of the solo
sister's decks), is shuffled again for each playout, so the playouts differ where the game
was still open.

Each playout's winners share its win (a tie of k seats gives each 1/k); a seat's **chance**
is its mean win share over the playouts and its **expected score** the mean of its final
score. The chances of one point sum to 1 (in solo: the bot's chance of beating the sister
plus hers). Each chance carries a 95% **interval**, the Wilson score interval of a
proportion with the mean share as the proportion and the number of playouts as n (a tie
counts as a shared win, which is what the share is; ``METHOD`` names it in the output). The
last point is the game's recorded result, exact (its interval is the value itself).

A **blunder** is a fall of a seat's chance from one point to the next (one day's play)
larger than the two estimates' uncertainty: the interval after lies wholly below the
interval before, and the fall is at least ``BLUNDER_FLOOR``. The ``BLUNDERS`` largest such
falls are kept, each with the frame where it shows (the viewer's frame number: ``?step=``
links to it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from engine.game import Game
from engine.narration import seat_names
from engine.rng import Rng
from engine.version import ENGINE_VERSION

from .frames import FramesError, replay_apply, replay_start

ANALYSIS_VERSION = 2  # 2: random playouts, hundreds per point, intervals, separated falls
BLUNDERS = 3
BLUNDER_FLOOR = 0.05  # a fall smaller than this is not worth reading, however sure
MAX_PLAYOUTS = 2000
POLICY = "uniform random (Game.playout)"
METHOD = "Wilson score interval, 95%, ties counted as a shared win"
Z95 = 1.959964


def interval(share: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a mean win share over ``n`` playouts.

    >>> interval(0.5, 100)
    (0.4038, 0.5962)
    >>> interval(1.0, 400)[1]
    1.0
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, share))
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def reshuffle_unknown(game: Game, rng: Rng) -> None:
    """Shuffle again what no seat knows: the bag's and the deck's order (and the solo
    sister's decks, and the Duel's bag generator)."""
    holders = (game, getattr(game, "state", None), getattr(game, "sister", None))
    for holder in holders:
        if holder is None:
            continue
        for name in ("bag", "deck", "colour_deck"):
            value = getattr(holder, name, None)
            if isinstance(value, list) and len(value) > 1:
                fresh = list(value)
                rng.shuffle(fresh)
                setattr(holder, name, fresh)
    if isinstance(getattr(game, "rng", None), Rng):
        game.rng = Rng(rng.next_u64(), "bag")  # type: ignore[attr-defined]


def outcome(game: Game) -> tuple[list[float], list[float], float | None]:
    """(win share per seat, final score per seat, the sister's win share in solo) of a
    finished game: the winners share the win."""
    if game.mode == "solo":
        result = game.result()
        won = 1.0 if result.get("won") else 0.0
        return [won], [float(result["scores"][0])], 1.0 - won
    totals = [float(sheet["total"]) for sheet in game.scores()]  # type: ignore[attr-defined]
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(game.seats)], totals, None


def position_chances(game: Game, playouts: int, seed: int) -> dict[str, Any]:
    """Chances (with their intervals) and expected scores of a position, by ``playouts``
    random playouts from it."""
    seats = game.seats
    wins = [0.0] * seats
    scores = [0.0] * seats
    sister = 0.0
    rng = Rng(seed, "analysis")
    for _ in range(playouts):
        world = game.clone()
        reshuffle_unknown(world, rng)
        world.playout(Rng(rng.next_u64(), "playout"))
        share, totals, sister_share = outcome(world)
        for s in range(seats):
            wins[s] += share[s]
            scores[s] += totals[s]
        sister += sister_share or 0.0
    chances = [round(w / playouts, 4) for w in wins]
    bounds = [interval(w / playouts, playouts) for w in wins]
    point: dict[str, Any] = {
        "chances": chances,
        "low": [b[0] for b in bounds],
        "high": [b[1] for b in bounds],
        "expected": [round(v / playouts, 2) for v in scores],
    }
    if game.mode == "solo":
        point["sister"] = round(sister / playouts, 4)
    return point


def _final_point(doc: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The recorded result as a point: the winners share 1, the scores are final, and the
    interval of each chance is the chance itself."""
    result = doc.get("result") if isinstance(doc.get("result"), Mapping) else None
    if not result:
        result = game.result()
    seats = game.seats
    scores = [float(v) for v in result.get("scores") or [0] * seats]
    if game.mode == "solo":
        won = 1.0 if result.get("won") else 0.0
        return {"chances": [won], "low": [won], "high": [won], "expected": scores,
                "sister": 1.0 - won}
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
    chances = [round(1.0 / len(winners), 4) if s in winners else 0.0 for s in range(seats)]
    return {"chances": chances, "low": list(chances), "high": list(chances), "expected": scores}


def _bounds(point: Mapping[str, Any], seat: int) -> tuple[float, float]:
    """A point's interval for ``seat`` (a point without one, from an old document: none)."""
    chance = point["chances"][seat]
    low, high = point.get("low"), point.get("high")
    if low is None or high is None:
        return chance, chance
    return low[seat], high[seat]


def blunders_of(points: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """The largest falls of a seat's chance from one point to the next whose intervals do
    not overlap (the interval after lies wholly below the one before)."""
    falls = []
    for before, after in zip(points, points[1:], strict=False):
        for seat, (was, now) in enumerate(zip(before["chances"], after["chances"],
                                              strict=True)):
            was_low = _bounds(before, seat)[0]
            now_high = _bounds(after, seat)[1]
            if now_high < was_low and was - now >= BLUNDER_FLOOR:
                falls.append({"seat": seat, "name": names[seat], "frame": after["frame"],
                              "from_frame": before["frame"], "day": before.get("day"),
                              "before": was, "after": now, "drop": round(was - now, 4),
                              "margin": round(was_low - now_high, 4)})
    falls.sort(key=lambda f: (-f["drop"], f["frame"], f["seat"]))
    return falls[:BLUNDERS]


def analyse(doc: Mapping[str, Any], playouts: int, seed: int = 0) -> dict[str, Any]:
    """The analysis of a finished game's replay: a point at frame 0, at each day's end and at
    the end, and the blunders. Raises ``FramesError`` for a replay that does not replay."""
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(f"playouts must be 1..{MAX_PLAYOUTS}, not {playouts}")
    started = time.process_time()
    header = doc["header"]
    steps = doc["steps"]
    game = replay_start(doc)
    names = seat_names(header.get("players"), game.seats)
    catalogue = header.get("actions") or {}
    points: list[dict[str, Any]] = []

    def measure(frame: int, day: Any) -> None:
        point = {"frame": frame, "day": day, **position_chances(game, playouts, seed + frame)}
        points.append(point)

    day = game.spectator_view().get("day")
    measure(0, day)
    for i, row in enumerate(steps):
        replay_apply(game, i, row, catalogue)
        if game.is_over():
            continue
        now = game.spectator_view().get("day")
        if now != day:
            day = now
            measure(i + 1, day)
    if not game.is_over():
        raise FramesError("the replay ends before the game does: only a finished match is "
                          "analysed")
    points.append({"frame": len(steps), "day": day, "final": True, **_final_point(doc, game)})
    return {
        "version": ANALYSIS_VERSION,
        "engine_version": ENGINE_VERSION,
        "mode": game.mode,
        "seats": game.seats,
        "names": names,
        "playouts": playouts,
        "policy": POLICY,
        "method": METHOD,
        "frames": len(steps),
        "points": points,
        "blunders": blunders_of(points, names),
        "cpu_seconds": round(time.process_time() - started, 2),
    }
