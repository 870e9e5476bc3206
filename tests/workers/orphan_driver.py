"""Plays one long ``tiny`` match of a bot program against ``random`` in this process, and
prints ``bot <uid> <pid>`` for each bot process it starts and ``step`` after the first move,
so that the orphan test can SIGKILL this process mid-match (``python -m``, argv: bundle)."""

from __future__ import annotations

import sys

from competition.limits import Limits
from engine import MODES
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox import bot_process as sandbox

MODES["tiny"] = "tests.workers.tiny_game:TinyGame"
original = sandbox.BotProcess.__init__


def announcing_init(self: sandbox.BotProcess, *args: object, **kwargs: object) -> None:
    original(self, *args, **kwargs)  # type: ignore[arg-type]
    print(f"bot {self.uid if self.uid is not None else -1} {self.proc.pid}", flush=True)


sandbox.BotProcess.__init__ = announcing_init  # type: ignore[method-assign]
stepped = False


def on_step(*_: object) -> None:
    global stepped
    if not stepped:
        stepped = True
        print("step", flush=True)


run_match(
    MatchSpec(
        mode="tiny",
        seats=(SeatSpec(bundle_path=sys.argv[1]), SeatSpec(builtin="random")),
        seed=1,
        options={"rounds": 200},
        limits=Limits(decision_seconds=2.0, bank_seconds=0.0, startup_seconds=10.0),
        replay=False,
    ),
    on_step=on_step,
)
