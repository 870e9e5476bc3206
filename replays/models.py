"""Replay models; written in a later issue (replays are files in the "replays" storage)."""
