"""The replays app has no models: a replay is a file in the "replays" storage, and the match
that owns it (``tournament.models.Match``) records its name, sha256 and size."""
