#!/usr/bin/env python3
"""Isle Arena starter bot with observation patches: plays a random legal action, and keeps
the full observation up to date from the JSON Patches it asks for. Standard library only.

It answers "start" with {"ready": true, "deltas": "json-patch"}; from then on every "decide"
after the first carries "observation_patch" instead of the whole "observation": an RFC 6902
JSON Patch (docs/bot-protocol.md) of "add", "remove" and "replace" operations that turns the
previous observation into this one, usually a few hundred bytes. `apply_patch` below is all
a bot needs; libraries do the same (Python `jsonpatch`, JS `fast-json-patch`, Rust
`json-patch`, C++ `nlohmann::json::patch`).

Try it:
    python -m arena play --mode standard --players 2 \
        --bots examples/bots/patch_random_bot.py,greedy
"""

import json
import random
import sys


def apply_patch(document, patch):
    """Apply the operations in order, changing ``document`` in place."""
    for op in patch:
        # an RFC 6901 path: "/players/2/tiles/-", with "~1" for "/" and "~0" for "~"
        *parents, last = [s.replace("~1", "/").replace("~0", "~")
                          for s in op["path"][1:].split("/")]
        target = document
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            if op["op"] == "add":  # insert before the index; "-" appends
                target.insert(len(target) if last == "-" else int(last), op["value"])
            elif op["op"] == "remove":
                del target[int(last)]
            else:  # replace
                target[int(last)] = op["value"]
        elif op["op"] == "remove":
            del target[last]
        else:  # add or replace a member
            target[last] = op["value"]
    return document


def main() -> None:
    rng = random.Random(0)
    observation: dict = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng.seed(message["seat"])  # reproducible games for the same seat
            reply = {"ready": True, "name": "random starter (patches)", "deltas": "json-patch"}
        elif kind == "decide":
            if "observation" in message:
                observation = message["observation"]
            else:
                observation = apply_patch(observation, message["observation_patch"])
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
