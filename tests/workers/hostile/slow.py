"""Takes 0.5 s per decision: legal but late, so it drains the time bank and then times out."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        time.sleep(0.5)
        print('{"index": 1}', flush=True)
