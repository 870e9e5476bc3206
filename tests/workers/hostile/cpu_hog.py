"""Burns CPU at its first decision (within a long decision limit): the CPU-time limit ends it."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        n = 0
        while True:
            n += 1
