"""Starts a child that leaves our session (setsid) and sleeps, then plays legally: the child
must still be killed when the match ends."""

import json
import os
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                sys.stdin.close()
                os.close(1)
                time.sleep(3600)
            os._exit(0)
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print('{"index": 0}', flush=True)
