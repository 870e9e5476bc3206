"""Spins forever at its first decision: a timeout once the decision limit and the bank are spent."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        while True:
            pass
