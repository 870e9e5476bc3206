"""What the game's data costs a match's launch: its size per mode, the time to build it once,
and the time to write a ``start`` line with it spliced in (as the runner does) against
encoding the whole message at every launch, and a Python bot's time to parse that line.

    python bench/game_data.py [--repeat 200]

Figures are medians on this machine; docs/bot-protocol.md ("The game's data") quotes them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competition.limits import Limits  # noqa: E402
from engine import new_game  # noqa: E402
from engine.game_data import GAME_DATA_MODES, _build  # noqa: E402
from workers.protocol.wire import dumps_line, start_line, start_message  # noqa: E402

SEATS = {"standard": 4, "family": 2, "solo": 1, "duel": 2}


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    limits = Limits()
    print("| mode | start line | build once | line, spliced | line, encoded | bot's json.loads |")
    print("|---|---|---|---|---|---|")
    for mode in GAME_DATA_MODES:
        game = new_game(mode, SEATS[mode], 1)
        line = start_line(game, 0, limits)  # builds and caches the data
        build = median_ms(lambda m=mode: _build(m), max(3, args.repeat // 20))
        spliced = median_ms(lambda g=game: start_line(g, 0, limits), args.repeat)
        encoded = median_ms(lambda g=game: dumps_line(start_message(g, 0, limits)),
                            max(3, args.repeat // 10))
        parse = median_ms(lambda text=line: json.loads(text), args.repeat)
        print(f"| {mode} | {len(line) / 1000:.0f} KB | {build:.1f} ms | {spliced:.3f} ms "
              f"| {encoded:.2f} ms | {parse:.2f} ms |")


if __name__ == "__main__":
    main()
