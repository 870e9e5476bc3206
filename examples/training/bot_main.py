"""The exported Duel policy as a bot (protocol 1): ``train_duel.py --export`` puts this file in
the bundle as ``main.py``, beside ``duel_policy.py`` and the weights (``policy.npz``).

At start it loads the weights with NumPy from its own folder; at each decision it encodes the
observation as the environments do (engine/env/encoding.py, the engine is on a Python bot's
path, read-only), turns the legal actions into their fixed ids (engine/env/action_ids.py),
and plays the one the policy scores best. The debug note gives the action's score.

The policy knows the Duel only. In any other mode (a server's validation match is a 2-seat
standard game) it plays a uniformly random legal action and says so in its note, so the
bundle still uploads and can be entered in Duel leagues.
"""

import json
import random
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from duel_policy import IDS, MODE, choose, features  # noqa: E402

from engine.env.encoding import encoder  # noqa: E402
from engine.modes import mode_class  # noqa: E402

with np.load(HERE / "policy.npz") as saved:  # never allow_pickle: plain arrays only
    WEIGHTS = saved["weights"]
CODEC = mode_class(MODE).codec
ENCODE = encoder(MODE).encode


def decide(message):
    vec = np.asarray(ENCODE(message["observation"]), np.float32)
    legal_ids = [IDS.encode(CODEC.decode(a)) for a in message["legal"]]
    mask = np.zeros(IDS.size, np.int8)
    mask[legal_ids] = 1
    chosen = choose(WEIGHTS, vec, mask)
    score = float((features(vec, np.array([chosen])) @ WEIGHTS)[0])
    return {"index": legal_ids.index(chosen), "debug": f"policy score {score:+.2f}"}


def untrained(message, rng):
    return {"index": rng.randrange(len(message["legal"])),
            "debug": f"no policy for this mode: random (trained for the {MODE})"}


trained, rng = True, random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        trained = message["mode"] == MODE
        rng = random.Random(message["seat"])
        print(json.dumps({"ready": True, "name": "duel-policy"}), flush=True)
    elif message["type"] == "decide":
        answer = decide(message) if trained else untrained(message, rng)
        print(json.dumps(answer), flush=True)
    elif message["type"] == "end":
        break
