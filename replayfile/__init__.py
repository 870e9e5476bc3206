"""The replay file, without Django: its format, verification by re-simulation, the viewer's
frames, recording, pictures, win chances and the public copy.

The match runner writes replays through ``format``; the command line reads and verifies them
through ``format`` and ``verify``; the Django app ``replays`` stores them and serves the
viewer from ``frames`` (docs/architecture.md, docs/replay-format.md).
"""
