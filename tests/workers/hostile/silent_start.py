"""Reads `start` and never answers it: it sleeps until it is killed."""

import sys
import time

sys.stdin.readline()
while True:
    time.sleep(60)
