"""Bot-protocol speed: the round trip of one decision, and a game of subprocess bots.

    python bench/bots.py [--games 5] [--rounds 2000] [--json]

1. The median round trip of one decision with a bot that answers at once, measured the
   way the runner measures it (monotonic clock around the write and the read), in two
   forms: a tiny message (the pipes and the sandbox alone) and a real ``decide`` of a
   standard game (observation, legal placements, reply parsing, legality check included),
   with whole observations and with observation patches (a bot asking for "json-patch").
2. The wall time of a 4-player standard game with four sandboxed subprocess random bots
   (examples/bots/random_bot.py) against four in-process random bots, both through the
   same runner (``workers.runner.run_match``), and the ratio. The subprocess time is split
   into the runner's phases (``MatchOutcome.phases``: starting the bots, their ready
   answers, the decisions, the end and closing). The same game is also played by the C
   random starter (examples/binary/random_bot.c, built here with gcc -static): what the
   sandbox and the protocol cost when the bot itself costs almost nothing; and by the Python
   random starters that ask for observation deltas and for observation patches.
3. The CPU time of the thread that plays the subprocess game (``runner_cpu_to_inprocess_ratio``:
   that over the in-process game): the wall time of the game cannot be less, so it is the
   ratio's floor in this design for bots that cost nothing, whatever the pipes or the sandbox
   cost. With the bots' own CPU on the decisions asked alone added (``serial_floor_*``: such
   a decision is a strict sequence of our work and the bot's), the floor for the bots played.
4. With ``--breakdown``: where that CPU time goes, per decision, step by step of the runner
   (``runner_cpu_us_per_decision``), timed inside real games.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from competition.limits import Limits  # noqa: E402
from engine import new_game  # noqa: E402
from engine.bots.random_bot import RandomBot  # noqa: E402
from workers import runner as runner_module  # noqa: E402
from workers.agents import ProgramAgent  # noqa: E402
from workers.runner import MatchSpec, SeatSpec, run_match  # noqa: E402
from workers.sandbox.bot_process import BotSandbox, detect_isolation  # noqa: E402
from workers.sandbox.isolation import Isolation  # noqa: E402

TARGET_ROUND_TRIP_US = 200
TARGET_RATIO = 5.0
STRETCH_RATIO = 2.0
IN_PROCESS_REPEATS = 3
RANDOM_BOT = str(ROOT / "examples" / "bots" / "random_bot.py")
DELTA_RANDOM_BOT = str(ROOT / "examples" / "bots" / "delta_random_bot.py")
PATCH_RANDOM_BOT = str(ROOT / "examples" / "bots" / "patch_random_bot.py")
INSTANT = b"""
import sys
out = sys.stdout
sys.stdin.readline()
out.write('{"ready": true}\\n')
out.flush()
for line in sys.stdin:
    out.write('{"index": 0}\\n')
    out.flush()
"""


def round_trip_tiny(rounds: int) -> float:
    """Median seconds of one exchange of a tiny message with an instant bot."""
    with BotSandbox(INSTANT, "instant.py") as box:
        process = box.start()
        process.exchange(b'{"type": "start"}\n', 10.0)
        times = [
            process.exchange(b'{"type":"decide","legal":[{"kind":"pass"}]}\n', 1.0)[1]
            for _ in range(rounds)
        ]
    return statistics.median(times)


# the instant bot asking for observation patches: our side diffs, the bot reads nothing
INSTANT_PATCH = INSTANT.replace(b'{"ready": true}', b'{"ready": true, "deltas": "json-patch"}')


def round_trip_real(rounds: int, bot: bytes = INSTANT) -> dict[str, float]:
    """Median seconds of ``ProgramAgent.act`` on real standard decisions with an instant bot:
    the exchange alone, and act() as a whole (observation, encoding, parsing, legality)."""
    exchange: list[float] = []
    whole: list[float] = []
    seed = 0
    while len(whole) < rounds:
        game = new_game("standard", 4, seed)
        bots = [RandomBot(s, seed) for s in range(4)]
        agent = ProgramAgent(0, bot, "instant.py", limits=Limits(end_grace_seconds=0))
        agent.launch(game)
        agent.await_ready(game)
        try:
            while not game.is_over() and len(whole) < rounds:
                seat = game.pending()[0]
                if seat == 0:
                    started = time.monotonic()
                    action = agent.act(game, 0)
                    whole.append(time.monotonic() - started)
                    exchange.append(agent.last_seconds)
                    game.apply_unchecked(0, action)
                else:
                    game.apply_unchecked(seat, bots[seat].act(game, seat))
        finally:
            agent.close()
        assert agent.fault is None, agent.fault
        seed += 1
    return {"exchange": statistics.median(exchange), "act": statistics.median(whole)}


def compiled_random_bot(folder: Path) -> str | None:
    """The C random starter as a binary bundle (a zip with bot.json), or None without gcc and
    a static C library."""
    source = ROOT / "examples" / "binary" / "random_bot.c"
    binary = folder / "random_bot"
    build = ["gcc", "-std=c99", "-O2", "-static", "-o", str(binary), str(source)]
    try:
        subprocess.run(build, check=True, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"bench/bots.py: no compiled bot ({exc})", file=sys.stderr)
        return None
    bundle = folder / "random_bot.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        manifest = {"entrypoint": "random_bot", "language": "binary", "name": "random (C)"}
        archive.writestr("bot.json", json.dumps(manifest))
        archive.write(binary, "random_bot")
    return str(bundle)


SERIAL_FLOOR_ROWS = ("subprocess", "subprocess_patch")


def bots_cpu_asked_alone(outcome: Any) -> float:
    """The CPU time the bots were charged (read from their cgroups) for the decisions they
    were asked alone, found by replaying the match's action log.

    A decision asked alone is a strict sequence: the runner's thread writes the question and
    blocks until the answer, and the bot computes only after the question and before its
    answer. The runner's CPU and that bot's CPU therefore never overlap, so the runner
    thread's CPU time plus this sum is a lower bound on the game's wall time that no
    faster pipe, sandbox, start or wake-up can go below (up to the few microseconds a bot
    spends between writing its answer and blocking on its next read). Decisions asked
    together (a simultaneous step: ``workers.runner._ask_together``) are left out, the last
    seat of such a step included: their bots think while the runner works on the others."""
    game = new_game(outcome.mode, len(outcome.players), outcome.seed, outcome.options)
    early: set[int] = set()  # seats whose question went out before their turn
    alone = 0.0
    for record in outcome.actions:
        seat = record["seat"]
        asked_now: set[int] = set()
        if len(game.pending()) > 1:  # the runner's rule: every seat it may ask at once
            asked_now = set(game.asked_together()) - early
            early |= asked_now
        if asked_now == {seat} or (not asked_now and seat not in early):
            alone += record["cpu"]
        early.discard(seat)
        game.apply(seat, record["action"])
    return alone


def _one_after_another(calls: Any, threads: Any = None) -> None:
    """The runner with its bots started, and closed, one after another (no `_in_parallel`)."""
    for call in calls:
        call()


def game_times(games: int, compiled: str | None = None) -> dict[str, Any]:
    """Median wall seconds of a 4-player standard game, the same seeds side by side:
    in-process random bots; subprocess random bots in the full sandbox started and closed
    one after another (`subprocess_before`), side by side as the runner starts them, with the
    seats of a simultaneous step asked one after another (`subprocess_one_by_one`) and
    together, as now (`subprocess`), and side by side with the random bot that asks for
    observation deltas (`subprocess_deltas`) and the one that asks for observation patches
    (`subprocess_patch`); subprocess random bots with no isolation layer; and, given
    `compiled`, the C random starter in the full sandbox (`subprocess_compiled`)."""
    plays = [
        ("in_process", ["random"] * 4, None),
        ("subprocess_before", [RANDOM_BOT] * 4, None),
        ("subprocess_one_by_one", [RANDOM_BOT] * 4, None),
        ("subprocess", [RANDOM_BOT] * 4, None),
        ("subprocess_deltas", [DELTA_RANDOM_BOT] * 4, None),
        ("subprocess_patch", [PATCH_RANDOM_BOT] * 4, None),
        ("no_isolation", [RANDOM_BOT] * 4, Isolation()),
    ]
    if compiled is not None:
        plays.append(("subprocess_compiled", [compiled] * 4, None))
    runs: dict[str, list[float]] = {label: [] for label, _, _ in plays}
    phases: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in plays}
    startup, decisions, runner_cpu = [], [], []
    # per game of the rows in SERIAL_FLOOR_ROWS: the runner thread's CPU plus the bots' CPU on
    # the decisions asked alone, over that seed's in-process game
    serial_floor: dict[str, list[float]] = {label: [] for label in SERIAL_FLOOR_ROWS}
    for seed in range(games):
        for label, bots, isolation in plays:
            # the seats of a simultaneous step asked together, except in the two rows that
            # ask them one after another
            together = label not in ("subprocess_before", "subprocess_one_by_one")
            spec = MatchSpec(
                mode="standard",
                seats=tuple(SeatSpec.parse(b) for b in bots),
                seed=seed,
                replay=False,
            )
            parallel = runner_module._in_parallel
            if label == "subprocess_before":
                runner_module._in_parallel = _one_after_another
            # an in-process game lasts ~12 ms: one stall of the machine moves it by half, so
            # each seed's is played three times (all three count in its median)
            for _ in range(IN_PROCESS_REPEATS if label == "in_process" else 1):
                cpu_start = time.thread_time()
                started = time.perf_counter()
                try:
                    outcome = run_match(spec, isolation=isolation, ask_together=together)
                finally:
                    runner_module._in_parallel = parallel
                runs[label].append(time.perf_counter() - started)
                cpu = time.thread_time() - cpu_start
                if label == "subprocess":
                    runner_cpu.append(cpu)
                if label in serial_floor:  # over this seed's in-process game (played first)
                    in_process = statistics.median(runs["in_process"][-IN_PROCESS_REPEATS:])
                    serial_floor[label].append((cpu + bots_cpu_asked_alone(outcome)) / in_process)
            phases[label].append(outcome.phases)
            assert not outcome.faults, outcome.faults
            if label == "subprocess":
                startup.append(max(t["startup"] for t in outcome.timing))
                decisions.append(sum(t["total"] for t in outcome.timing))
    out: dict[str, Any] = {label: statistics.median(times) for label, times in runs.items()}
    out["subprocess_startup"] = statistics.median(startup)
    out["subprocess_decision_round_trips"] = statistics.median(decisions)
    out["ratio"] = out["subprocess"] / out["in_process"]
    # the CPU time of the thread that plays a subprocess game (run_match's: the engine, the
    # observations, the pipes; not the threads that start and close the bots): the game's
    # wall time cannot be less, so this over the in-process game is the lowest ratio the
    # design reaches with the bots, their start and close, and every wait free
    out["subprocess_runner_cpu"] = statistics.median(runner_cpu)
    out["ratio_runner_cpu"] = out["subprocess_runner_cpu"] / out["in_process"]
    for label, ratios in serial_floor.items():
        out[f"ratio_serial_floor_{label}"] = statistics.median(ratios)
        out[f"ratio_serial_floor_{label}_range"] = [min(ratios), max(ratios)]
    out["ratio_before"] = out["subprocess_before"] / out["in_process"]
    out["ratio_one_by_one"] = out["subprocess_one_by_one"] / out["in_process"]
    out["ratio_deltas"] = out["subprocess_deltas"] / out["in_process"]
    out["ratio_patch"] = out["subprocess_patch"] / out["in_process"]
    out["ratio_no_isolation"] = out["no_isolation"] / out["in_process"]
    if compiled is not None:
        out["ratio_compiled"] = out["subprocess_compiled"] / out["in_process"]
    out["phases"] = {
        label: {name: statistics.median(p[name] for p in rows) for name in rows[0]}
        for label, rows in phases.items()
        if rows and rows[0] and label != "in_process"
    }
    return out


# The runner's steps whose CPU time --breakdown measures: (module, name in it, label). A
# function the runner imports by name is timed in the module that calls it. An indented label
# is a part of the step above it: the decide line holds the observation and both texts.
BREAKDOWN_STEPS = (
    ("workers.agents", "decide_for", "decide line (decide_for)"),
    ("engine.modes.standard.game", "StandardGame.protocol_observation", "  observation"),
    ("workers.protocol.wire", "ObservationEncoder.encode", "  observation text"),
    ("workers.protocol.wire", "LegalEncoder.encode_list", "  legal actions text"),
    ("engine.modes.standard.game", "StandardGame.legal_actions_of", "legal actions"),
    ("workers.sandbox.bot_process", "BotProcess.begin", "send the line (begin)"),
    ("workers.sandbox.bot_process", "BotProcess.finish", "wait for and read the answer (finish)"),
    ("workers.sandbox.bot_process", "BotProcess.tree_cpu_seconds",
     "  the bot's CPU time (cgroup read)"),
    ("workers.agents", "parse_reply", "parse the answer"),
    ("engine.game", "Game.apply_unchecked", "apply the action"),
)


@contextlib.contextmanager
def _timing_steps(spent: dict[str, int]) -> Any:
    """Wrap each of BREAKDOWN_STEPS to add the CPU nanoseconds the calling thread spends in it
    to ``spent[label]``, on this thread only (the runner's; not the threads that start and
    close the bots). Each timed call costs about a microsecond more, which is counted."""
    runner = threading.get_ident()
    undo = []
    for module_name, name, label in BREAKDOWN_STEPS:
        owner: Any = importlib.import_module(module_name)
        *path, attribute = name.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = getattr(owner, attribute)

        def timed(*args: Any, _f: Any = original, _label: str = label, **kwargs: Any) -> Any:
            if threading.get_ident() != runner:
                return _f(*args, **kwargs)
            started = time.thread_time_ns()
            try:
                return _f(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0) + time.thread_time_ns() - started

        undo.append((owner, attribute, original))
        setattr(owner, attribute, timed)
    try:
        yield
    finally:
        for owner, attribute, original in reversed(undo):
            setattr(owner, attribute, original)


def runner_breakdown(games: int) -> dict[str, float]:
    """Microseconds of CPU per decision of the thread that plays a 4-player standard game of
    sandboxed Python random bots: in all, and in each of the runner's steps (BREAKDOWN_STEPS),
    over ``games`` games."""
    spent: dict[str, int] = {}
    total = decisions = 0
    with _timing_steps(spent):
        for seed in range(games):
            spec = MatchSpec(mode="standard", seats=tuple(SeatSpec.parse(RANDOM_BOT)
                                                          for _ in range(4)),
                             seed=seed, replay=False)  # fmt: skip
            started = time.thread_time_ns()
            outcome = run_match(spec)
            total += time.thread_time_ns() - started
            decisions += len(outcome.actions)
            assert not outcome.faults, outcome.faults
    out = {"all": total / decisions / 1000}
    out.update({label.strip(): spent.get(label, 0) / decisions / 1000
                for *_, label in BREAKDOWN_STEPS})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time each of the runner's steps inside real games")
    args = parser.parse_args(argv)
    iso = detect_isolation()
    figures: dict[str, Any] = {"isolation": iso.to_json()}
    figures["round_trip_tiny_us"] = round_trip_tiny(args.rounds) * 1e6
    real = round_trip_real(min(args.rounds, 1000))
    figures["round_trip_standard_exchange_us"] = real["exchange"] * 1e6
    figures["round_trip_standard_act_us"] = real["act"] * 1e6
    patched = round_trip_real(min(args.rounds, 1000), INSTANT_PATCH)
    figures["round_trip_standard_patch_exchange_us"] = patched["exchange"] * 1e6
    figures["round_trip_standard_patch_act_us"] = patched["act"] * 1e6
    with tempfile.TemporaryDirectory(prefix="bench-bots-") as folder:
        figures["game"] = game_times(args.games, compiled_random_bot(Path(folder)))
    # The two targets, as keys of their own: the game ratio, and the time our side
    # spends per decision beyond the exchange itself (observation, encoding, parsing, checks)
    figures["subprocess_to_inprocess_ratio"] = figures["game"]["ratio"]
    figures["subprocess_to_inprocess_ratio_before"] = figures["game"]["ratio_before"]
    figures["subprocess_deltas_to_inprocess_ratio"] = figures["game"]["ratio_deltas"]
    figures["subprocess_one_by_one_to_inprocess_ratio"] = figures["game"]["ratio_one_by_one"]
    figures["subprocess_patch_to_inprocess_ratio"] = figures["game"]["ratio_patch"]
    figures["runner_cpu_to_inprocess_ratio"] = figures["game"]["ratio_runner_cpu"]
    figures["serial_floor_to_inprocess_ratio"] = figures["game"]["ratio_serial_floor_subprocess"]
    figures["serial_floor_patch_to_inprocess_ratio"] = figures["game"][
        "ratio_serial_floor_subprocess_patch"
    ]
    if "ratio_compiled" in figures["game"]:
        figures["subprocess_compiled_to_inprocess_ratio"] = figures["game"]["ratio_compiled"]
    figures["our_side_us_per_decision"] = (
        figures["round_trip_standard_act_us"] - figures["round_trip_standard_exchange_us"]
    )
    figures["our_side_patch_us_per_decision"] = (
        figures["round_trip_standard_patch_act_us"]
        - figures["round_trip_standard_patch_exchange_us"]
    )
    if args.breakdown:
        figures["runner_cpu_us_per_decision"] = runner_breakdown(args.games)
    if args.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
        return 0
    g = figures["game"]
    layers = ", ".join(k for k in ("uid", "network", "filesystem", "pid") if iso.to_json()[k])
    print(f"isolation: {layers or 'none'}")
    print(f"our side per decision (act minus exchange): "
          f"{figures['our_side_us_per_decision']:.1f} us (target <= 150 us); "
          f"with observation patches {figures['our_side_patch_us_per_decision']:.1f} us")
    print(
        f"round trip, tiny message, instant bot:   {figures['round_trip_tiny_us']:8.1f} us"
        f"  (median; target < {TARGET_ROUND_TRIP_US} us)"
    )
    print(
        f"round trip, standard decide, exchange:   "
        f"{figures['round_trip_standard_exchange_us']:8.1f} us"
    )
    print(
        f"round trip, standard decide, whole act:  {figures['round_trip_standard_act_us']:8.1f} us"
        f"  (observation, legal actions, parse, legality)"
    )
    print(
        f"round trip, standard decide with observation patches: exchange "
        f"{figures['round_trip_standard_patch_exchange_us']:8.1f} us, whole act "
        f"{figures['round_trip_standard_patch_act_us']:8.1f} us"
    )
    print(f"4-player standard game, in-process random bots:  {g['in_process'] * 1000:8.1f} ms")
    print(
        f"4-player standard game, subprocess random bots:  {g['subprocess'] * 1000:8.1f} ms"
        f"  (starting bots {g['subprocess_startup'] * 1000:.1f} ms, decision round trips "
        f"{g['subprocess_decision_round_trips'] * 1000:.1f} ms)"
    )
    print(
        f"4-player standard game, subprocess random bots, no isolation: "
        f"{g['no_isolation'] * 1000:8.1f} ms"
    )
    print(
        f"4-player standard game, subprocess random bots started and closed one after "
        f"another (no `_in_parallel`): {g['subprocess_before'] * 1000:8.1f} ms"
    )
    print(
        f"4-player standard game, subprocess random bots, the seats of simultaneous steps "
        f"asked one after another: {g['subprocess_one_by_one'] * 1000:8.1f} ms "
        f"({g['ratio_one_by_one']:.1f}x)"
    )
    print(
        f"4-player standard game, subprocess random bots asking for observation deltas: "
        f"{g['subprocess_deltas'] * 1000:8.1f} ms"
    )
    print(
        f"4-player standard game, subprocess random bots asking for observation patches: "
        f"{g['subprocess_patch'] * 1000:8.1f} ms"
    )
    if "subprocess_compiled" in g:
        print(
            f"4-player standard game, subprocess C random bots (compiled starter): "
            f"{g['subprocess_compiled'] * 1000:8.1f} ms ({g['ratio_compiled']:.1f}x)"
        )
    print(
        f"CPU time of the thread that plays a subprocess game: "
        f"{g['subprocess_runner_cpu'] * 1000:8.1f} ms"
        f" ({g['ratio_runner_cpu']:.1f}x the in-process game: the ratio's floor for free bots)"
    )
    for label in SERIAL_FLOOR_ROWS:
        low, high = g[f"ratio_serial_floor_{label}_range"]
        print(
            f"serial floor of {label} (the runner thread's CPU plus the bots' CPU on the "
            f"decisions asked alone): {g[f'ratio_serial_floor_{label}']:.1f}x the in-process "
            f"game (median; {low:.1f}x-{high:.1f}x over the games): no game of these bots "
            f"can be faster, whatever the pipes, the sandbox, the start or the wake-ups cost"
        )
    if args.breakdown:
        steps = figures["runner_cpu_us_per_decision"]
        print(f"CPU of the thread that plays a subprocess game, per decision: "
              f"{steps['all']:.1f} us")
        for *_, label in BREAKDOWN_STEPS:
            print(f"    {label:<44} {steps[label.strip()]:7.1f} us")
    for label, parts in g["phases"].items():
        split = ", ".join(f"{name} {seconds * 1000:.1f}" for name, seconds in parts.items())
        print(f"  phases of {label} (ms): {split}")
    print(
        f"ratio subprocess / in-process: {g['ratio']:.1f}x  (target <= {TARGET_RATIO}x, "
        f"stretch < {STRETCH_RATIO}x); started and closed one after another "
        f"{g['ratio_before']:.1f}x; "
        f"with deltas {g['ratio_deltas']:.1f}x; with patches {g['ratio_patch']:.1f}x; "
        f"without isolation "
        f"{g['ratio_no_isolation']:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
