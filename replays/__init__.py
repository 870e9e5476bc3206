"""Replays app: the replay format, verification by re-simulation, storage and the viewer."""
