#!/usr/bin/env python3
"""Isle Arena starter bot with observation deltas: plays a random legal action, and keeps
the full observation up to date from the deltas it asks for. Standard library only.

It answers "start" with {"ready": true, "deltas": true}; from then on every "decide" after
the first carries "observation_delta" ({"set": {...}, "remove": [...]}, see
docs/bot-protocol.md) instead of the whole "observation", which is shorter to send and to
parse. A bot that reads the observation rebuilds it as `rebuild` does.

Try it:
    python -m arena play --mode standard --players 2 \
        --bots examples/bots/delta_random_bot.py,greedy
"""

import json
import random
import sys


def rebuild(previous: dict, message: dict) -> dict:
    """The observation of a decide message, whole or as a delta of the previous one."""
    if "observation" in message:
        return message["observation"]
    delta = message["observation_delta"]
    observation = {**previous, **delta["set"]}
    for key in delta["remove"]:
        del observation[key]
    return observation


def main() -> None:
    rng = random.Random(0)
    observation: dict = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng.seed(message["seat"])  # reproducible games for the same seat
            reply = {"ready": True, "name": "random starter (deltas)", "deltas": True}
        elif kind == "decide":
            observation = rebuild(observation, message)
            reply = {"index": rng.randrange(len(message["legal"]))}
        elif kind == "end":
            print(f"final scores: {message['result']['scores']}", file=sys.stderr)
            return
        else:
            continue  # messages of a later protocol version: ignore them
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
