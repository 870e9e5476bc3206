"""Answers with a well-formed action of the tiny mode that is not legal (take 9 fish)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print('{"kind": "take", "n": 9}', flush=True)
