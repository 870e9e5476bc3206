"""Forks without end at its first decision; every child forks too."""

import contextlib
import json
import os
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print('{"ready": true}', flush=True)
    else:
        while True:
            with contextlib.suppress(OSError):
                os.fork()
