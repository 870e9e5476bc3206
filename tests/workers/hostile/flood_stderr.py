"""Writes about a megabyte on stderr at every decision but plays legally: no fault at all."""

import json
import sys

CHUNK = ("chatty " * 150 + "\n") * 1000

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        sys.stderr.write(CHUNK)
        sys.stderr.flush()
        print('{"index": 1}', flush=True)
