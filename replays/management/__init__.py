"""Management commands of the replays app."""
