"""Allocates 32 MB blocks (and touches them) until the memory limit stops it."""

import json
import sys

hoard = []
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        while True:
            block = bytearray(32 * 1024 * 1024)
            block[::4096] = b"x" * len(block[::4096])
            hoard.append(block)
