"""Tries to connect to 127.0.0.1:<port from targets.json> at start; reports the outcome in
its debug note and plays legally. Must fail inside a network namespace."""

import json
import socket
import sys

with open("targets.json") as f:
    port = json.load(f)["port"]
try:
    with socket.create_connection(("127.0.0.1", port), timeout=1.0) as conn:
        conn.sendall(b"hello from a bot\n")
    outcome = "connected"
except OSError as exc:
    outcome = f"blocked: {exc.__class__.__name__} {exc.errno}"
print(f"network: {outcome}", file=sys.stderr, flush=True)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"index": 0, "debug": outcome}), flush=True)
