"""At its first decision, forks CHILDREN children that each write MB megabytes (so they are
resident) and hold them; answers once every child has written its share or died, then keeps
answering. Each process stays under the per-process limit: only a limit on the bot as a whole
stops it."""

import json
import os
import sys
import time

CHILDREN = 6
MB = 100
HOLD_SECONDS = 30


def child(done: int) -> None:
    block = b"\x01" * (MB * 1024 * 1024)  # written: every page resident
    os.write(done, b"+")
    os.close(done)
    time.sleep(HOLD_SECONDS)
    del block
    os._exit(0)


def hoard() -> None:
    read_end, write_end = os.pipe()
    for _ in range(CHILDREN):
        if os.fork() == 0:
            os.close(read_end)
            child(write_end)
    os.close(write_end)
    while os.read(read_end, 64):  # end of file: every child wrote its share or was killed
        pass
    os.close(read_end)


started = False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
        continue
    if not started:
        started = True
        hoard()
    print(json.dumps({"index": 0}), flush=True)
