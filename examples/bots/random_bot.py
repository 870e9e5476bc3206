#!/usr/bin/env python3
"""Isle Arena starter bot: plays a random legal action. Standard library only.

The protocol (docs/bot-protocol.md) in four lines: read one JSON message per
line on stdin; answer "start" with {"ready": true} (and "protocol": 2, the
observation's shape shared by every mode), every "decide" with one
action (here {"index": i}, the position of a legal action), and stop at
"end". Print nothing else on stdout: log to stderr.

Try it:  python -m arena play --mode standard --players 2 --bots examples/bots/random_bot.py,greedy
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng.seed(message["seat"])  # reproducible games for the same seat
            reply = {"ready": True, "name": "random starter", "protocol": 2}
        elif kind == "decide":
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
