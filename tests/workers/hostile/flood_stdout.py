"""Writes megabytes on stderr, then megabytes on stdout without a newline."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        for i in range(20000):
            sys.stderr.write(f"log line {i} " + "x" * 200 + "\n")
        sys.stderr.flush()
        sys.stdout.write('{"index": 0, "debug": "' + "y" * (4 * 1024 * 1024))
        sys.stdout.flush()
