"""Prints text that is not JSON at its first decision."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        print("I think I will rescue the orange cat", flush=True)
