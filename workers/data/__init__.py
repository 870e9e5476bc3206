"""Data files of the workers (languages.json: how each bot language is run)."""
