"""Exits cleanly (status 0) at its second decision."""

import json
import sys

decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        decisions += 1
        if decisions == 2:
            sys.exit(0)
        print('{"index": 0}', flush=True)
